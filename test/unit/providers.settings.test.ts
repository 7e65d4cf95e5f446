import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chooseModel, providerPlan, readProviderSettings, RESTRICTED_KEYS, SECTION, type Inspected } from '../../src/extension/providers/model/settings';

/** An `inspect` over per-key scope values; defaults as package.json declares them. */
function scopes(values: Record<string, Inspected>): (key: string) => Inspected {
  const defaults: Record<string, unknown> = {
    provider: 'auto',
    'endpoint.baseUrl': '',
    'endpoint.model': '',
    'endpoint.structuredOutput': 'json_schema',
    'endpoint.headers': {},
    'run.concurrency': 8,
    'run.timeoutMs': 60000,
  };
  return (key) => ({ defaultValue: defaults[key], ...values[key] });
}

describe('provider settings', () => {
  it('uses the defaults when nothing is set', () => {
    const s = readProviderSettings(scopes({}), true);
    assert.deepEqual(
      { provider: s.provider, baseUrl: s.baseUrl, model: s.model, structured: s.structured, headers: s.headers, concurrency: s.concurrency, timeoutMs: s.timeoutMs },
      { provider: 'auto', baseUrl: '', model: '', structured: 'json_schema', headers: {}, concurrency: 8, timeoutMs: 60000 },
    );
    assert.deepEqual(s.problems, []);
  });

  it('lets a folder value beat a workspace value, and a workspace value beat the user value, when trusted', () => {
    const inspect = scopes({
      'endpoint.baseUrl': { globalValue: 'http://user.example/v1', workspaceValue: 'http://ws.example/v1' },
      'endpoint.model': { globalValue: 'user-model', workspaceValue: 'ws-model', workspaceFolderValue: 'folder-model' },
    });
    const s = readProviderSettings(inspect, true);
    assert.equal(s.baseUrl, 'http://ws.example/v1');
    assert.equal(s.baseUrlScope, 'workspace');
    assert.equal(s.model, 'folder-model');
    assert.deepEqual(s.ignoredWorkspaceValues, []);
  });

  it('ignores workspace and folder values of every endpoint setting when untrusted', () => {
    const inspect = scopes({
      provider: { workspaceValue: 'openai-compatible' },
      'endpoint.baseUrl': { globalValue: 'http://user.example/v1', workspaceValue: 'https://attacker.example/v1' },
      'endpoint.model': { workspaceFolderValue: 'ws-model' },
      'endpoint.structuredOutput': { workspaceValue: 'none' },
      'endpoint.headers': { globalValue: { 'X-Team': 'a' }, workspaceValue: { 'X-Exfil': 'b' } },
    });
    const s = readProviderSettings(inspect, false);
    assert.equal(s.provider, 'auto');
    assert.equal(s.baseUrl, 'http://user.example/v1');
    assert.equal(s.baseUrlScope, 'user');
    assert.equal(s.model, '');
    assert.equal(s.structured, 'json_schema');
    assert.deepEqual(s.headers, { 'X-Team': 'a' });
    assert.deepEqual(s.ignoredWorkspaceValues.sort(), [
      'judgeStudio.endpoint.baseUrl',
      'judgeStudio.endpoint.headers',
      'judgeStudio.endpoint.model',
      'judgeStudio.endpoint.structuredOutput',
      'judgeStudio.provider',
    ]);
  });

  it('falls back to the default, with a message, for values of the wrong kind', () => {
    const inspect = scopes({
      provider: { globalValue: 'copilot' },
      'endpoint.structuredOutput': { globalValue: 'xml' },
      'endpoint.headers': { globalValue: { 'Bad Name': 'x', 'X-Num': 3, 'X-Ok': 'y' } },
      'endpoint.baseUrl': { globalValue: 'http://h/v1' },
      'run.concurrency': { globalValue: 0 },
      'run.timeoutMs': { workspaceValue: '5000' },
    });
    const s = readProviderSettings(inspect, true);
    assert.equal(s.provider, 'auto');
    assert.equal(s.structured, 'json_schema');
    assert.deepEqual(s.headers, { 'X-Ok': 'y' });
    assert.equal(s.concurrency, 8);
    assert.equal(s.timeoutMs, 60000);
    assert.equal(s.problems.length, 6, s.problems.join('\n'));
    assert.ok(s.problems.some((p) => p.startsWith('judgeStudio.run.concurrency must be an integer from 1 to 64, not 0')));
    assert.ok(!s.problems.some((p) => p.includes('"y"')), 'header values are not echoed');
  });

  it('sends headers only to the origin of the base URL set beside them, never to one a workspace chose', () => {
    const userHeaders = { 'api-key': 'secret-value' };
    const moved = readProviderSettings(
      scopes({
        'endpoint.baseUrl': { globalValue: 'https://mine.example/v1', workspaceValue: 'https://attacker.example/v1' },
        'endpoint.headers': { globalValue: userHeaders },
      }),
      true,
    );
    assert.equal(moved.baseUrl, 'https://attacker.example/v1');
    assert.deepEqual(moved.headers, {});
    assert.ok(moved.problems.some((p) => p.includes('belong to https://mine.example') && p.includes('https://attacker.example')), moved.problems.join('\n'));
    assert.ok(!moved.problems.some((p) => p.includes('secret-value')), 'header values are never echoed');

    const orphan = readProviderSettings(scopes({ 'endpoint.baseUrl': { workspaceValue: 'http://ws.example/v1' }, 'endpoint.headers': { globalValue: userHeaders } }), true);
    assert.deepEqual(orphan.headers, {}, 'user headers with no user base URL belong to no origin');

    const samePlace = readProviderSettings(scopes({ 'endpoint.baseUrl': { globalValue: 'https://mine.example/v1/' }, 'endpoint.headers': { globalValue: userHeaders } }), true);
    assert.deepEqual(samePlace.headers, userHeaders);
    const sameOrigin = readProviderSettings(
      scopes({ 'endpoint.baseUrl': { globalValue: 'https://mine.example/v1', workspaceValue: 'https://mine.example/v2' }, 'endpoint.headers': { globalValue: userHeaders } }),
      true,
    );
    assert.deepEqual(sameOrigin.headers, userHeaders, 'another path on the same origin keeps them');
  });

  it('trims the base URL and the model', () => {
    const s = readProviderSettings(scopes({ 'endpoint.baseUrl': { globalValue: '  http://h/v1 ' }, 'endpoint.model': { globalValue: ' m ' } }), true);
    assert.equal(s.baseUrl, 'http://h/v1');
    assert.equal(s.model, 'm');
  });

  it('asks for the endpoint model first, then the template model', () => {
    assert.equal(chooseModel({ model: 'from-settings' }, 'from-template'), 'from-settings');
    assert.equal(chooseModel({ model: '' }, ' from-template '), 'from-template');
    assert.equal(chooseModel({ model: '' }, undefined), undefined);
    assert.equal(chooseModel({ model: '' }, '  '), undefined);
  });

  it('plans the endpoint when a base URL is set, else a VS Code model if one exists', () => {
    assert.equal(providerPlan({ provider: 'auto', baseUrl: 'http://h/v1' }), 'openai-compatible');
    assert.equal(providerPlan({ provider: 'auto', baseUrl: '' }), 'vscode-lm-if-available');
    assert.equal(providerPlan({ provider: 'openai-compatible', baseUrl: '' }), 'missing-base-url');
    assert.equal(providerPlan({ provider: 'vscode-lm', baseUrl: 'http://h/v1' }), 'vscode-lm');
  });

  it('declares every restricted setting in package.json, with its schema', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const declared: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.deepEqual([...declared].sort(), RESTRICTED_KEYS.map((k) => `${SECTION}.${k}`).sort());
    for (const key of [...declared, 'judgeStudio.run.concurrency', 'judgeStudio.run.timeoutMs']) {
      assert.ok(pkg.contributes.configuration.properties[key], `${key} is in contributes.configuration`);
    }
  });
});
