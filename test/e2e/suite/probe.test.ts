// Probe Judge and Compare Runs from the history, in the real extension host, against a local
// OpenAI-compatible server started in this process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SELF_ASSESSMENT } from '../../../src/core/probe/perturb';
import type { CompareView } from '../../../src/protocol/compare';
import type { ProbeView } from '../../../src/protocol/probe';
import { FakeOpenAI, reply } from '../../support/fakeOpenAI';
import { EXTENSION_ID, until, workspaceFile } from './util';

const config = () => vscode.workspace.getConfiguration('judgeStudio');

function probeTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('judgeStudio.probe'));
}

describe('Probe Judge from the editor', () => {
  let fake: FakeOpenAI;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    fake = await FakeOpenAI.start();
    await config().update('endpoint.baseUrl', fake.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', 'fake-judge', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('endpoint.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', undefined, vscode.ConfigurationTarget.Global);
    await config().update('probe.threshold', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fake.close();
  });

  it('runs the named probes at the threshold setting, writes its files under .judge-studio/probes/ and opens the probe view', async () => {
    fake.rules = [(r) => reply({ justification: 'j', score: r.prompt.includes(SELF_ASSESSMENT) ? 5 : 3 })];
    await config().update('probe.threshold', 0.5, vscode.ConfigurationTarget.Global);
    const view = await vscode.commands.executeCommand<ProbeView | undefined>('judgeStudio.probeJudge', {
      template: 'helpfulness.judge',
      dataset: 'helpfulness.jsonl',
      probes: ['self-assessment', 'verbosity'],
    });
    assert.ok(view, 'the command returned the view');
    assert.equal(view.threshold, 0.5);
    assert.equal(view.dataset, 'helpfulness.jsonl');
    assert.deepEqual(view.probes.map((p) => [p.probe, p.n, p.changed, p.susceptible]), [['self-assessment', 8, 8, true], ['verbosity', 8, 0, false]]);
    assert.deepEqual(view.susceptible, ['self-assessment']);
    assert.match(view.dir, /^\.judge-studio\/probes\/helpfulness-\d{8}-\d{6}$/);
    const files = fs.readdirSync(workspaceFile(view.dir).fsPath).sort();
    assert.deepEqual(files, ['probe-dataset.jsonl', 'probe-report.json', 'probe-results.jsonl']);
    await until('a probe view tab', () => probeTabs().length > 0);
  });

  it('shows the length bias of a pairwise judge that prefers the longer response', async () => {
    fake.rules = []; // autoReply: the longer response wins, in both orders
    const view = await vscode.commands.executeCommand<ProbeView | undefined>('judgeStudio.probeJudge', {
      template: 'fluency_pairwise.judge',
      dataset: 'fluency_pairwise.jsonl',
      probes: ['length'],
    });
    assert.ok(view);
    assert.equal(view.kind, 'pairwise');
    const [length] = view.probes;
    assert.equal(length!.probe, 'length');
    assert.ok(length!.meanShift !== null && length!.meanShift > 0, `shift towards the lengthened B: ${length!.meanShift}`);
    assert.equal(typeof view.positionInconsistent, 'number');
  });

  it('refuses the pairwise-only length probe on a pointwise template', async () => {
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('judgeStudio.probeJudge', { template: 'helpfulness.judge', dataset: 'helpfulness.jsonl', probes: ['length'] })),
      /pairwise templates only/,
    );
  });
});

describe('Compare Runs from the Run History', () => {
  const batch = (id: string, time: string, results: string) => ({
    v: 1, id, time, template: 'q.judge', metric: 'q', kind: 'pointwise' as const, model: 'm', type: 'batch' as const,
    dataset: 'q.jsonl', results, resumed: false, interrupted: false,
    rows: { judged: 3, ok: 3, failed: 0, skipped: 0, alreadyDone: 0 },
    summary: { kind: 'pointwise' as const, rows: 3, failed: 0, scores: {}, mean: null }, elapsedMs: 1,
  });
  const write = (name: string, scores: number[]) =>
    fs.writeFileSync(workspaceFile(name).fsPath, scores.map((s, i) => JSON.stringify({ x: i, _row: i + 1, 'q/score': s })).join('\n') + '\n');

  before(() => {
    fs.mkdirSync(path.dirname(workspaceFile('.judge-studio/results/x').fsPath), { recursive: true });
    write('.judge-studio/results/q-old.jsonl', [1, 2, 3]);
    write('.judge-studio/results/q-new.jsonl', [1, 3, 3]);
  });

  it('compares two selected batches, the older as A, whichever was clicked', async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri;
    const older = { type: 'batch', root, entry: batch('b1', '2024-01-01T00:00:00.000Z', '.judge-studio/results/q-old.jsonl') };
    const newer = { type: 'batch', root, entry: batch('b2', '2024-01-02T00:00:00.000Z', '.judge-studio/results/q-new.jsonl') };
    const view = await vscode.commands.executeCommand<CompareView | undefined>('judgeStudio.compareHistoryRuns', newer, [newer, older]);
    assert.ok(view, 'the compare view opened');
    assert.equal(view.a, '.judge-studio/results/q-old.jsonl');
    assert.equal(view.b, '.judge-studio/results/q-new.jsonl');
    assert.equal(view.flipped, 1);
  });

  it('asks for two batches, not three', async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri;
    const nodes = ['b1', 'b2', 'b3'].map((id, i) => ({ type: 'batch', root, entry: batch(id, `2024-01-0${i + 1}T00:00:00.000Z`, '.judge-studio/results/q-old.jsonl') }));
    assert.equal(await vscode.commands.executeCommand('judgeStudio.compareHistoryRuns', nodes[0], nodes), undefined);
  });
});
