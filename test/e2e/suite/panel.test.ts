// A panel of judges run from the editor, in the real extension host: a template's `model.judges`
// across two local endpoints (one by the configured base URL, one named in judgeStudio.endpoints),
// each getting only the key stored for its own origin; then the recorded row in the run view.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { BatchEntry } from '../../../src/extension/run/model/history';
import type { RunView } from '../../../src/protocol/run';
import { panelTemplate } from '../../support/judgeFixtures';
import { FakeOpenAI, reply, status } from '../../support/fakeOpenAI';
import { EXTENSION_ID, workspaceFile } from './util';

const config = () => vscode.workspace.getConfiguration('judgeStudio');

const TEMPLATE = panelTemplate(['judge-a', 'judge-b', 'judge-c@second']);

describe('a panel of judges in the editor', () => {
  let first: FakeOpenAI;
  let second: FakeOpenAI;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    // judge-a and judge-b agree on the response holding "good"; judge-c's endpoint rejects its model (400, not retried).
    const pick = (prompt: string) => (/\[Response A\]\n[^\n]*good/.test(prompt) ? 'A' : 'B');
    first = await FakeOpenAI.start({ rules: [(r) => reply({ justification: `${r.body?.model} prefers the good one`, winner: pick(r.prompt), confidence: 0.9 })] });
    second = await FakeOpenAI.start({ rules: [() => status(400, 'model judge-c does not exist')] });
    await config().update('endpoint.baseUrl', first.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('endpoints', { second: second.baseURL }, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('judgeStudio.setApiKey', { origin: first.baseURL, key: 'sk-e2e-panel-first' });
    fs.writeFileSync(workspaceFile('panel_pref.judge').fsPath, TEMPLATE);
    fs.writeFileSync(
      workspaceFile('panel_pref.jsonl').fsPath,
      [{ prompt: 'p1', response_a: 'a good answer', response_b: 'a poor answer' }, { prompt: 'p2', response_a: 'a poor answer', response_b: 'a good answer' }].map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
  });

  after(async () => {
    await config().update('endpoint.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('judgeStudio.clearApiKey', { origin: first.baseURL }).then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await Promise.all([first.close(), second.close()]);
  });

  it('runs every judge on every row, keeps the failing one, and shows the panel in the run view', async () => {
    const entry = await vscode.commands.executeCommand<BatchEntry | undefined>('judgeStudio.runJudgeOnDataset', {
      template: workspaceFile('panel_pref.judge'),
      dataset: workspaceFile('panel_pref.jsonl'),
      resume: false,
      open: false,
    });
    assert.ok(entry);
    assert.equal(entry.model, 'judge-a, judge-b, judge-c');
    assert.deepEqual([entry.rows.judged, entry.rows.ok], [2, 2]);
    assert.equal(first.chats.length, 8, 'two judges × two rows × two swap passes');
    assert.ok(second.chats.length >= 4, 'the failing judge was asked too');
    assert.ok(first.chats.every((c) => c.headers.authorization === 'Bearer sk-e2e-panel-first'), 'the first endpoint gets its own key');
    assert.ok(second.chats.every((c) => c.headers.authorization === undefined), 'no key goes to the other origin');
    assert.ok(entry.summary.kind === 'pairwise' && entry.summary.panelAgreement === 0.667);

    const results = fs.readFileSync(workspaceFile(entry.results).fsPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const row1 = results.find((l) => l._row === 1)!;
    assert.equal(row1['panel_pref/pairwise_choice'], 'A');
    const judges = row1['panel_pref/judges'] as { judge: string; verdict: string | null; error_kind: string | null }[];
    assert.deepEqual(judges.map((j) => [j.judge, j.verdict, j.error_kind]), [['judge-a', 'A', null], ['judge-b', 'A', null], ['judge-c', null, 'bad-request']]);

    const view = await vscode.commands.executeCommand<RunView | undefined>('judgeStudio.showResultRow', { file: workspaceFile(entry.results).fsPath, row: 1 });
    assert.ok(view?.panel, 'the run view has a panel section');
    assert.equal(view.panel.verdict, 'A');
    assert.deepEqual(view.panel.judges.map((j) => [j.judge, j.passes.map((p) => `${p.order}:${p.winner}`).join(' '), j.agrees]), [
      ['judge-a', 'AB:A BA:A', true],
      ['judge-b', 'AB:A BA:A', true],
      ['judge-c', '', false],
    ]);
  });

  it('runs the whole panel on one row from "Run Judge" too', async () => {
    const before = first.chats.length;
    const view = await vscode.commands.executeCommand<RunView | undefined>('judgeStudio.runJudge', { template: workspaceFile('panel_pref.judge'), row: 2 });
    assert.equal(view?.phase, 'done', JSON.stringify(view?.result));
    assert.equal(view?.result?.kind === 'pairwise' ? view.result.winner : undefined, 'B');
    assert.equal(view?.model, 'judge-a, judge-b, judge-c');
    assert.equal(first.chats.length - before, 4, 'judge-a and judge-b, both passes');
    assert.deepEqual(view?.panel?.judges.map((j) => [j.judge, j.verdict, j.errorKind]), [['judge-a', 'B', null], ['judge-b', 'B', null], ['judge-c', null, 'bad-request']]);
  });
});
