import * as assert from 'node:assert/strict';
import type { JudgeClient, JudgeRequest } from '../../src/core/judge/transport/types';
import { JudgeError } from '../../src/core/judge/transport/types';
import { foldSystem, lmJudgeError, pickLmModel } from '../../src/extension/providers/model/lm';
import { LoggingClient, MASK, redact } from '../../src/extension/providers/model/loggingClient';
import { listModels, modelIds, modelsUrl } from '../../src/extension/providers/model/models';
import { FakeOpenAI } from '../support/fakeOpenAI';

const request: JudgeRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

describe('VS Code language model client, pure parts', () => {
  it('folds the system message into the first user message', () => {
    const turns = foldSystem([
      { role: 'system', content: 'You judge.' },
      { role: 'user', content: 'Rate this.' },
      { role: 'assistant', content: '{"score": 9}' },
      { role: 'user', content: 'Out of scale; again.' },
    ]);
    assert.deepEqual(turns, [
      { role: 'user', content: 'You judge.\n\nRate this.' },
      { role: 'assistant', content: '{"score": 9}' },
      { role: 'user', content: 'Out of scale; again.' },
    ]);
  });

  it('starts with a user turn holding the system text when no user message comes first', () => {
    assert.deepEqual(foldSystem([{ role: 'system', content: 'S' }]), [{ role: 'user', content: 'S' }]);
    assert.deepEqual(foldSystem([{ role: 'system', content: 'S' }, { role: 'assistant', content: 'A' }]), [
      { role: 'user', content: 'S' },
      { role: 'assistant', content: 'A' },
    ]);
    assert.deepEqual(foldSystem([{ role: 'user', content: 'U' }]), [{ role: 'user', content: 'U' }]);
  });

  it('picks a model by id, then family, then name, else the first offered', () => {
    const models = [
      { id: 'copilot-gpt-4o', family: 'gpt-4o', vendor: 'copilot', name: 'GPT-4o' },
      { id: 'copilot-claude', family: 'claude-3.5-sonnet', vendor: 'copilot', name: 'Claude 3.5 Sonnet' },
    ];
    assert.equal(pickLmModel(models, ['claude-3.5-sonnet'])?.id, 'copilot-claude');
    assert.equal(pickLmModel(models, ['COPILOT-CLAUDE'])?.id, 'copilot-claude');
    assert.equal(pickLmModel(models, ['', 'GPT-4o'])?.id, 'copilot-gpt-4o');
    assert.equal(pickLmModel(models, ['llama3'])?.id, 'copilot-gpt-4o');
    assert.equal(pickLmModel([], ['gpt-4o']), undefined);
  });

  it('maps Language Model API errors to judge error kinds', () => {
    const ctx = { model: 'gpt-4o', timeoutMs: 1000, timedOut: false, aborted: false };
    const coded = (code: string) => Object.assign(new Error(`lm ${code}`), { code });
    const noPerm = lmJudgeError(coded('NoPermissions'), ctx);
    assert.equal(noPerm.kind, 'config');
    assert.equal(noPerm.retryable, false);
    assert.match(noPerm.message, /Manage Language Model Access/);
    const blocked = lmJudgeError(coded('Blocked'), ctx);
    assert.equal(blocked.kind, 'rate-limit');
    assert.equal(blocked.retryable, true);
    assert.equal(lmJudgeError(coded('NotFound'), ctx).kind, 'config');
    assert.equal(lmJudgeError(coded('Unknown'), ctx).retryable, false);
    assert.equal(lmJudgeError(new Error('Rate limit exceeded'), ctx).kind, 'rate-limit');
    assert.equal(lmJudgeError(new Error('Server error: 503'), ctx).kind, 'network');
  });

  it('reports our deadline as a timeout and the caller cancelling as aborted', () => {
    const cancelled = Object.assign(new Error('Canceled'), { name: 'Canceled' });
    assert.equal(lmJudgeError(cancelled, { model: 'm', timeoutMs: 5, timedOut: true, aborted: false }).kind, 'timeout');
    assert.equal(lmJudgeError(cancelled, { model: 'm', timeoutMs: 5, timedOut: false, aborted: true }).kind, 'aborted');
  });
});

describe('request log', () => {
  const sink = () => {
    const lines: string[] = [];
    return { lines, log: { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) } };
  };
  const clock = () => {
    let t = 1000;
    return () => (t += 250);
  };

  it('logs method, target, model, status and duration of each request', async () => {
    const { lines, log } = sink();
    const inner: JudgeClient = { id: 'x', complete: async () => ({ text: '{}', model: 'm', usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } }) };
    const client = new LoggingClient(inner, { method: 'POST', target: 'http://127.0.0.1:9 chat/completions', secrets: [], log, now: clock() });
    await client.complete(request);
    assert.deepEqual(lines, ['info POST http://127.0.0.1:9 chat/completions · model m · 1 message(s) · ok · 250 ms · 5 tokens']);
  });

  it('masks the key and header values when a server echoes them in an error', async () => {
    const { lines, log } = sink();
    const inner: JudgeClient = {
      id: 'x',
      complete: async () => {
        throw new JudgeError('http', 'request rejected (401): bad key sk-secret-123 with header tenant-42', { status: 401 });
      },
    };
    const client = new LoggingClient(inner, { method: 'POST', target: 'https://h', secrets: ['sk-secret-123', 'tenant-42'], log, now: clock() });
    await assert.rejects(client.complete(request), /401/);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^warn POST https:\/\/h · model m · 1 message\(s\) · http 401 · 250 ms: /);
    assert.ok(!lines[0]!.includes('sk-secret-123') && !lines[0]!.includes('tenant-42'), lines[0]);
    assert.ok(lines[0]!.includes(MASK));
  });

  it('masks longer secrets first and leaves very short ones alone', () => {
    assert.equal(redact('abc abcdefghij', ['abcdefgh', 'abcdefghij', 'abc']), `abc ${MASK}`);
  });
});

describe('listing an endpoint\'s models', () => {
  let fake: FakeOpenAI;
  before(async () => (fake = await FakeOpenAI.start()));
  after(() => fake.close());

  it('reads ids from an OpenAI model list, sorted and without duplicates', () => {
    assert.deepEqual(modelIds({ data: [{ id: 'b' }, { id: 'a' }, { id: 'b' }, { name: 'x' }] }), ['a', 'b']);
    assert.deepEqual(modelIds({ models: [] }), []);
    assert.equal(modelsUrl('http://h/v1/'), 'http://h/v1/models');
  });

  it('lists the models of a live endpoint, sending the key it is given', async () => {
    const listed = await listModels({ baseUrl: fake.baseURL, apiKey: 'sk-list' });
    assert.deepEqual(listed, { ok: true, ids: ['m'] });
    const last = fake.requests[fake.requests.length - 1]!;
    assert.equal(last.path, '/v1/models');
    assert.equal(last.headers.authorization, 'Bearer sk-list');
  });

  it('says why when the endpoint cannot be reached', async () => {
    const listed = await listModels({ baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 2000 });
    assert.equal(listed.ok, false);
    assert.ok(!listed.ok && listed.error.startsWith('GET http://127.0.0.1:9/v1/models failed'), !listed.ok ? listed.error : '');
  });
});
