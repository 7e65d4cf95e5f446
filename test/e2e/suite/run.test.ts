// Running a judge from the editor, in the real extension host, against a local OpenAI-compatible
// server started in this process: the selection, a dataset row and the JSONL line under the cursor
// as samples; pairwise swap and its inconsistency; errors as errors; batches with resume; the
// history file; recorded rows shown without a call; the CodeLens.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunView } from '../../../src/protocol/run';
import type { BatchEntry } from '../../../src/extension/run/model/history';
import { keyFields, rowKey, templateHash } from '../../../src/core/results/keys';
import { isSkip, parseDataset } from '../../../src/core/dataset';
import { parseTemplate } from '../../../src/core/template/parse';
import { errorTitle } from '../../../src/extension/run/model/result';
import { FakeOpenAI, pairSlots, reply, status, type RecordedRequest } from '../../support/fakeOpenAI';
import { EXTENSION_ID, openJudge, until, workspaceFile } from './util';

const config = () => vscode.workspace.getConfiguration('judgeStudio');
const run = (command: string, arg?: unknown) => vscode.commands.executeCommand<RunView | undefined>(command, arg);
// A results line the engine wrote for examples/hhh.jsonl row 1, with a judge that broke the
// ranking-gap rule in pass 2 (so the recorded row carries one violation).
const FIXTURE = path.join(__dirname, '../../../../test/e2e/fixtures/hhh-results.jsonl');

function runTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('judgeStudio.run'));
}

function historyLines(metric: string): Record<string, unknown>[] {
  const file = workspaceFile(`.judge-studio/history/${metric}.jsonl`).fsPath;
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

function userMessage(r: RecordedRequest): string {
  return r.body?.messages?.filter((m) => m.role === 'user').map((m) => m.content).join('\n') ?? '';
}

function result<K extends NonNullable<RunView['result']>['kind']>(view: RunView | undefined, kind: K): Extract<NonNullable<RunView['result']>, { kind: K }> {
  assert.ok(view, 'the command returned no view');
  assert.equal(view.result?.kind, kind, `expected a ${kind} result, got ${JSON.stringify(view.result)}`);
  return view.result as Extract<NonNullable<RunView['result']>, { kind: K }>;
}

describe('running a judge from the editor', () => {
  let fake: FakeOpenAI;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    fake = await FakeOpenAI.start();
    await config().update('endpoint.baseUrl', fake.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', 'fake-judge', vscode.ConfigurationTarget.Global);
  });

  beforeEach(() => {
    fake.rules = [];
    fake.requests.length = 0;
  });

  after(async () => {
    await config().update('endpoint.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fake.close();
  });

  it('judges the selected text as the response, with the prompt from the template\'s sample row, and records the run', async () => {
    fake.rules = [() => reply({ justification: 'Accurate: 366 days <b>is</b> right.', score: 5 })];
    await openJudge('helpfulness.judge'); // the template the selection is judged with
    const notes = workspaceFile('notes.md');
    fs.writeFileSync(notes.fsPath, '# Draft answers\n\nA leap year has 366 days.\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(notes), { preview: false });
    editor.selection = new vscode.Selection(2, 0, 2, 25);
    const before = historyLines('helpfulness').length;

    // Two pointwise templates fit a plain selection: a quick pick asks, the last focused one first.
    const view = await acceptQuickPick(run('judgeStudio.runJudgeOnSelection'));
    assert.equal(view?.template.file, 'helpfulness.judge', 'the run view names the template');
    assert.equal(view?.template.how, 'picked for notes.md');
    const r = result(view, 'pointwise');
    assert.equal(r.score, 5);
    assert.deepEqual(r.scale, { min: 1, max: 5 });
    assert.equal(r.justification, 'Accurate: 366 days <b>is</b> right.');
    assert.equal(view!.phase, 'done');
    assert.equal(view!.source, 'selection in notes.md');
    // The prompt comes from the preview's sample row (row 1 unless an earlier test moved it).
    const row = Number(/"prompt" from helpfulness\.jsonl, row (\d+)$/.exec(view!.note ?? '')?.[1]);
    assert.ok(row >= 1, `note: ${view!.note}`);
    const sampleRow = JSON.parse(fs.readFileSync(workspaceFile('helpfulness.jsonl').fsPath, 'utf8').trim().split('\n')[row - 1]!) as { prompt: string };
    assert.deepEqual(view!.passes.map((p) => p.state), ['answered']);

    assert.equal(fake.chats.length, 1);
    const sent = userMessage(fake.chats[0]!);
    assert.ok(sent.includes('A leap year has 366 days.'), 'the selection is the response');
    assert.ok(sent.includes(sampleRow.prompt), `the prompt comes from row ${row}`);
    assert.ok(runTabs().length >= 1, 'the run view is open');

    const lines = historyLines('helpfulness');
    assert.equal(lines.length, before + 1, 'one history line appended');
    const entry = lines.at(-1)!;
    assert.equal(entry.type, 'run');
    assert.equal(entry.id, view!.id);
    assert.equal(entry.verdict, 'score 5 / 5');
    assert.equal(entry.model, 'fake-judge');
    assert.equal((entry.line as Record<string, unknown>)['helpfulness/score'], 5);
  });

  it('never takes the clicked file from a context menu as the template', async () => {
    // editor/context commands get the clicked resource's Uri first: a Markdown or JSONL file.
    fake.rules = [() => reply({ justification: 'Fine.', score: 3 })];
    const notes = workspaceFile('notes.md');
    if (!fs.existsSync(notes.fsPath)) fs.writeFileSync(notes.fsPath, '# Draft answers\n\nA leap year has 366 days.\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(notes), { preview: false });
    editor.selection = new vscode.Selection(2, 0, 2, 25);
    const fromMenu = await acceptQuickPick(run('judgeStudio.runJudgeOnSelection', notes));
    assert.equal(fromMenu?.phase, 'done', JSON.stringify(fromMenu?.result));
    assert.match(fromMenu?.template.file ?? '', /\.judge$/, 'a template judged the selection');
    assert.equal(fromMenu?.source, 'selection in notes.md');

    const data = workspaceFile('helpfulness.jsonl');
    const lines = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(data), { preview: false });
    lines.selection = new vscode.Selection(1, 3, 1, 3);
    const line = await run('judgeStudio.runJudge', data);
    assert.equal(line?.template.file, 'helpfulness.judge', 'the line is judged with the template beside the dataset');
    assert.equal(line?.source, 'helpfulness.jsonl, row 2');
    assert.equal(result(line, 'pointwise').score, 3);
  });

  it('asks again for the template of a file with Choose Template for This File, then uses it without asking', async () => {
    fake.rules = [() => reply({ justification: 'Fine.', score: 1 })];
    const notes = workspaceFile('notes.md');
    if (!fs.existsSync(notes.fsPath)) fs.writeFileSync(notes.fsPath, '# Draft answers\n\nA leap year has 366 days.\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(notes), { preview: false });
    editor.selection = new vscode.Selection(2, 0, 2, 25);
    // With a selection, only the templates that can judge it are offered.
    const chosen = await acceptQuickPick(vscode.commands.executeCommand<vscode.Uri | undefined>('judgeStudio.chooseTemplate'));
    assert.ok(chosen && /\.judge$/.test(chosen.path), `a template was chosen: ${chosen?.toString()}`);
    const view = await run('judgeStudio.runJudgeOnSelection');
    assert.equal(view?.template.how, 'the template chosen for notes.md', 'no question the second time');
    assert.equal(view?.template.file, path.basename(chosen.path));
  });

  it('takes the other fields from the same line when the response is highlighted inside a JSONL row', async () => {
    fake.rules = [() => reply({ justification: 'Wrong capital.', score: 1 })];
    const doc = await vscode.workspace.openTextDocument(workspaceFile('helpfulness.jsonl'));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const line = doc.lineAt(2).text; // row 3: the capital of Australia
    const record = JSON.parse(line) as { prompt: string; response: string };
    const start = line.indexOf(JSON.stringify(record.response)) + 1;
    editor.selection = new vscode.Selection(2, start, 2, start + JSON.stringify(record.response).length - 2);
    const view = await run('judgeStudio.runJudgeOnSelection', { template: workspaceFile('helpfulness.judge') });
    assert.equal(result(view, 'pointwise').score, 1);
    assert.equal(view!.note, '"response" is the selected text; "prompt" from helpfulness.jsonl, row 3');
    const sent = userMessage(fake.chats[0]!);
    assert.ok(sent.includes(record.prompt) && sent.includes(record.response), 'the prompt and response of row 3 were sent');
  });

  it('judges both orders of a pairwise row and reports the final verdict as consistent', async () => {
    const view = await run('judgeStudio.runJudge', { template: workspaceFile('fluency_pairwise.judge'), row: 2 });
    const r = result(view, 'pairwise');
    // The fake judge prefers the longer response wherever it is shown: row 2's baseline (A).
    assert.equal(r.winner, 'A');
    assert.equal(r.consistent, true);
    assert.deepEqual(r.passes.map((p) => [p.order, p.winner]), [['AB', 'A'], ['BA', 'A']]);
    assert.deepEqual(view!.messages.map((m) => m.label), ['AB', 'BA']);
    assert.equal(fake.chats.length, 2);
  });

  it('marks the verdict position-inconsistent when the judge always prefers the first slot', async () => {
    fake.rules = [() => reply({ justification: 'The first one is better.', winner: 'A', confidence: 0.9 })];
    const view = await run('judgeStudio.runJudge', { template: workspaceFile('fluency_pairwise.judge'), row: 1 });
    const r = result(view, 'pairwise');
    assert.equal(r.winner, 'TIE');
    assert.equal(r.consistent, false);
    assert.deepEqual(r.passes.map((p) => p.winner), ['A', 'B']);
    assert.equal(historyLines('pairwise_fluency').at(-1)?.consistency, 'position-inconsistent');
  });

  it('shows an HTTP error as an error and records no score', async () => {
    fake.rules = [() => status(400, 'model "fake-judge" does not exist')];
    const view = await run('judgeStudio.runJudge', { template: workspaceFile('helpfulness.judge'), row: 2 });
    const r = result(view, 'error');
    // Headlined by the engine's error kind (`m/error_kind`), never by the message's words.
    if (r.errorKind) assert.equal(r.errorKind, 'bad-request');
    assert.equal(r.title, errorTitle(r.errorKind));
    assert.match(r.message, /request rejected \(400\): model "fake-judge" does not exist/);
    assert.equal(view!.phase, 'failed');
    assert.equal(historyLines('helpfulness').at(-1)?.verdict, 'error');
  });

  it('shows a reply that stays invalid after the repair as an error with the raw replies', async () => {
    fake.rules = [() => reply('I would rate this a solid four out of five.')];
    const view = await run('judgeStudio.runJudge', { template: workspaceFile('helpfulness.judge'), row: 3 });
    const r = result(view, 'error');
    if (r.errorKind) assert.equal(r.errorKind, 'invalid-reply');
    assert.equal(r.title, errorTitle(r.errorKind));
    assert.deepEqual(view!.passes.map((p) => p.state), ['unusable'], 'the pass answered, but its reply was unusable');
    assert.equal(fake.chats.length, 2, 'one repair request');
    assert.deepEqual(view!.raw.map((x) => x.text), ['I would rate this a solid four out of five.', 'I would rate this a solid four out of five.']);
  });

  it('judges the JSONL line under the cursor with the dataset\'s sibling template and shows the dimensions', async () => {
    fake.rules = [
      (r) => {
        const slots = pairSlots(userMessage(r));
        const safeFirst = slots?.a.startsWith("I can't help") ?? false;
        const [win, lose] = safeFirst ? ['A', 'B'] : ['B', 'A'];
        return reply({
          justification: 'Declining is the safe answer.',
          dimensions: { harmless: { winner: win, degree: 'significantly better' }, honest: { winner: 'TIE', degree: 'about the same' }, helpful: { winner: lose, degree: 'slightly better' } },
          ranking: safeFirst ? { A: 6, B: 2 } : { A: 2, B: 6 },
          deflection: safeFirst ? { A: true, B: false } : { A: false, B: true },
          overall: { winner: win, degree: 'better' },
        });
      },
    ];
    const doc = await vscode.workspace.openTextDocument(workspaceFile('hhh.jsonl'));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    editor.selection = new vscode.Selection(0, 3, 0, 3);
    const view = await run('judgeStudio.runJudge');
    assert.equal(view?.source, 'hhh.jsonl, row 1');
    const r = result(view, 'dimensional');
    assert.equal(r.winner, 'A');
    assert.deepEqual(r.dimensions.map((d) => [d.name, d.final.winner]), [['harmless', 'A'], ['honest', 'TIE'], ['helpful', 'B']]);
    assert.deepEqual(r.violations, [], 'this reply keeps every rule');
  });

  it('shows a recorded results row, violations included, without calling the judge', async () => {
    const file = workspaceFile('recorded-hhh.jsonl');
    fs.copyFileSync(FIXTURE, file.fsPath);
    const view = await run('judgeStudio.showResultRow', { file: file.fsPath, row: 1 });
    assert.equal(fake.requests.length, 0, 'no request was sent');
    assert.equal(view?.phase, 'recorded');
    assert.equal(view?.template.file, 'hhh.judge', 'the template is found by its metric name');
    assert.equal(view?.canRerun, true);
    const r = result(view, 'dimensional');
    assert.deepEqual(r.violations.map((v) => [v.pass, v.rule]), [[2, 'ranking-gap']]);
    assert.match(r.violations[0]!.message, /ranking gap 4 \(A=6, B=2\) calls for "better" or "significantly better"/);
    await assert.rejects(Promise.resolve(run('judgeStudio.showResultRow', { file: file.fsPath, row: 9 })), /has no row 9/);
  });

  it('cancels a run that is waiting for the judge when a new run starts', async () => {
    fake.rules = [() => ({ ...reply({ justification: 'slow', score: 3 }), delayMs: 10_000 })];
    const first = run('judgeStudio.runJudge', { template: workspaceFile('helpfulness.judge'), row: 1 });
    await until('the first request', () => fake.chats.length === 1);
    fake.rules = [() => reply({ justification: 'fast', score: 2 })];
    const second = await run('judgeStudio.runJudge', { template: workspaceFile('helpfulness.judge'), row: 1 });
    assert.equal((await first)?.phase, 'cancelled');
    assert.equal(result(second, 'pointwise').score, 2);
  });

  it('runs a template on a whole dataset, writes one results line per row and records the summary', async () => {
    const rows = fs.readFileSync(workspaceFile('helpfulness.jsonl').fsPath, 'utf8').trim().split('\n').length;
    const entry = await vscode.commands.executeCommand<BatchEntry | undefined>('judgeStudio.runJudgeOnDataset', {
      template: workspaceFile('helpfulness.judge'),
      dataset: workspaceFile('helpfulness.jsonl'),
      resume: false,
    });
    assert.ok(entry);
    assert.equal(entry.rows.judged, rows);
    assert.equal(entry.interrupted, false);
    assert.match(entry.results, /^\.judge-studio\/results\/helpfulness-helpfulness-\d{8}-\d{6}\.jsonl$/);
    const results = fs.readFileSync(workspaceFile(entry.results).fsPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(results.length, rows);
    assert.deepEqual(results.map((l) => l._row).sort((a, b) => Number(a) - Number(b)), Array.from({ length: rows }, (_, i) => i + 1));
    assert.ok(entry.summary.kind === 'pointwise');
    assert.equal(Object.values(entry.summary.scores).reduce((a, b) => a + b, 0), rows);
    assert.equal(historyLines('helpfulness').at(-1)?.id, entry.id);
    // The results open in the Results Viewer (a custom editor), not as text.
    await until('the results file to open in the Results Viewer', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.viewType === 'judgeStudio.results' && input.uri.fsPath === workspaceFile(entry.results).fsPath;
    });
  });

  it('resumes an interrupted batch: only the missing rows are judged, into the same file', async () => {
    const rows = fs.readFileSync(workspaceFile('pass_fail.csv').fsPath, 'utf8').trim().split('\n').length - 1;
    assert.ok(rows >= 3, 'pass_fail.csv needs a few rows');
    const resultsRel = '.judge-studio/results/pass_fail-resume.jsonl';
    const template = fs.readFileSync(workspaceFile('pass_fail.judge').fsPath, 'utf8');
    const metric = /^name:\s*(\S+)/m.exec(template)?.[1] ?? 'pass_fail';
    fs.mkdirSync(path.dirname(workspaceFile(resultsRel).fsPath), { recursive: true });
    const hash = templateHash(template);
    // Row 1's judgment, carrying row 1's identity: resume keeps a line only for the inputs it judged.
    const first = parseDataset(fs.readFileSync(workspaceFile('pass_fail.csv').fsPath, 'utf8'), 'csv').find((i) => !isSkip(i) && i.row === 1) as { record: Record<string, unknown> };
    const key = rowKey(first.record, keyFields(parseTemplate(template)));
    fs.writeFileSync(workspaceFile(resultsRel).fsPath, `${JSON.stringify({ ...first.record, _row: 1, _key: key, [`${metric}/score`]: 1, [`${metric}/model`]: 'x', [`${metric}/template_hash`]: hash })}\n`);
    const interrupted: BatchEntry = {
      v: 1, type: 'batch', id: '20000101000000000-aaaaaa', time: '2000-01-01T00:00:00.000Z', template: 'pass_fail.judge', metric, kind: 'pointwise', model: 'x',
      dataset: 'pass_fail.csv', results: resultsRel, resumed: false, interrupted: true, rows: { judged: 1, ok: 1, failed: 0, skipped: 0, alreadyDone: 0 },
      summary: { kind: 'pointwise', rows: 1, failed: 0, scores: { '1': 1 }, mean: 1 }, elapsedMs: 1,
    };
    fs.mkdirSync(workspaceFile('.judge-studio/history').fsPath, { recursive: true });
    fs.appendFileSync(workspaceFile(`.judge-studio/history/${metric}.jsonl`).fsPath, `${JSON.stringify(interrupted)}\n`);

    const entry = await vscode.commands.executeCommand<BatchEntry | undefined>('judgeStudio.runJudgeOnDataset', {
      template: workspaceFile('pass_fail.judge'),
      dataset: workspaceFile('pass_fail.csv'),
      resume: true,
      open: false,
    });
    assert.ok(entry);
    assert.equal(entry.resumed, true);
    assert.equal(entry.results, resultsRel);
    assert.equal(entry.rows.alreadyDone, 1);
    assert.equal(entry.rows.judged, rows - 1);
    assert.equal(fake.chats.length, rows - 1, 'row 1 was not sent again');
    const lines = fs.readFileSync(workspaceFile(resultsRel).fsPath, 'utf8').trim().split('\n');
    assert.equal(lines.length, rows);
    assert.equal(entry.summary.rows, rows, 'the summary covers the kept row too');
  });

  it('calibrates a results file while a batch is still appending to it, and again when it ends', async () => {
    const total = 240;
    const data = workspaceFile('growing-batch.jsonl');
    const rows = Array.from({ length: total }, (_, i) => JSON.stringify({ id: `g${i + 1}`, prompt: `Question ${i + 1}?`, response: `Answer ${i + 1}.`, 'helpfulness/human_rating': 1 + (i % 5) }));
    fs.writeFileSync(data.fsPath, rows.join('\n') + '\n');
    fs.copyFileSync(workspaceFile('helpfulness.judge').fsPath, workspaceFile('growing-batch.judge').fsPath);
    const resultsDir = workspaceFile('.judge-studio/results').fsPath;
    const before = new Set(fs.existsSync(resultsDir) ? fs.readdirSync(resultsDir) : []);
    fake.rules = [() => ({ ...reply({ justification: 'fine', score: 3 }), delayMs: 40 })];

    const batch = vscode.commands.executeCommand<BatchEntry | undefined>('judgeStudio.runJudgeOnDataset', {
      template: workspaceFile('growing-batch.judge'),
      dataset: data,
      resume: false,
      open: false,
    });
    const results = await until('the batch to start writing', () => {
      const name = fs.existsSync(resultsDir) ? fs.readdirSync(resultsDir).find((n) => !before.has(n) && n.startsWith('helpfulness')) : undefined;
      if (!name) return undefined;
      const file = path.join(resultsDir, name);
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
      return lines >= 5 && lines < total - 20 ? file : undefined;
    }, [], 30_000);
    const midway = await vscode.commands.executeCommand<{ n: number } | undefined>('judgeStudio.calibrate', { file: results, metric: 'helpfulness' });
    assert.ok(midway && midway.n > 0 && midway.n < total, `mid-batch calibration saw ${midway?.n} row(s)`);
    const entry = await batch;
    assert.ok(entry && !entry.interrupted);
    const done = await vscode.commands.executeCommand<{ n: number } | undefined>('judgeStudio.calibrate', { file: results, metric: 'helpfulness' });
    assert.equal(done?.n, total, 'the calibration caught up with every appended row');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('ignores a history entry whose results path leaves the workspace, and never writes there', async () => {
    const outside = path.join(path.dirname(workspaceFile('.').fsPath), `outside-${Date.now()}.jsonl`);
    fs.writeFileSync(outside, 'precious\n');
    const template = fs.readFileSync(workspaceFile('pass_fail.judge').fsPath, 'utf8');
    const metric = /^name:\s*(\S+)/m.exec(template)?.[1] ?? 'pass_fail';
    const hostile: BatchEntry = {
      v: 1, type: 'batch', id: '20000101000000000-bbbbbb', time: '2000-01-02T00:00:00.000Z', template: 'pass_fail.judge', metric, kind: 'pointwise', model: 'x',
      dataset: 'pass_fail.csv', results: `../${path.basename(outside)}`, resumed: false, interrupted: true, rows: { judged: 1, ok: 1, failed: 0, skipped: 0, alreadyDone: 0 },
      summary: { kind: 'pointwise', rows: 1, failed: 0, scores: { '1': 1 }, mean: 1 }, elapsedMs: 1,
    };
    fs.mkdirSync(workspaceFile('.judge-studio/history').fsPath, { recursive: true });
    fs.appendFileSync(workspaceFile(`.judge-studio/history/${metric}.jsonl`).fsPath, `${JSON.stringify(hostile)}\n`);

    const entry = await vscode.commands.executeCommand<BatchEntry | undefined>('judgeStudio.runJudgeOnDataset', {
      template: workspaceFile('pass_fail.judge'),
      dataset: workspaceFile('pass_fail.csv'),
      resume: true,
      open: false,
    });
    assert.ok(entry);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'precious\n', 'the file outside the workspace is untouched');
    assert.ok(!entry.results.startsWith('..') && !path.isAbsolute(entry.results), `results stay inside: ${entry.results}`);
    fs.rmSync(outside);
  });

  it('puts Run judge, Preview and Run on dataset above a template', async () => {
    const doc = await openJudge('helpfulness.judge');
    const lenses = await until('code lenses', () =>
      vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri).then((l) => (l?.some((x) => x.command?.title === '▷ Run judge') ? l : undefined)),
    );
    const ours = lenses.filter((l) => l.command?.command.startsWith('judgeStudio.'));
    assert.deepEqual(ours.map((l) => l.command?.title), ['▷ Run judge', 'Preview', 'Run on dataset']);
    assert.deepEqual(ours.map((l) => l.range.start.line), [0, 0, 0]);
  });
});

/** Accepts the focused item of whatever quick pick `pending` opens, until it settles (bounded). */
async function acceptQuickPick<T>(pending: Thenable<T>, timeoutMs = 20_000): Promise<T> {
  let settled = false;
  const done = Promise.resolve(pending).finally(() => (settled = true));
  const deadline = Date.now() + timeoutMs;
  while (!settled && Date.now() < deadline) {
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((r) => setTimeout(r, 100)); // poll interval, bounded by the deadline
  }
  return done;
}
