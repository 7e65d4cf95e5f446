import * as assert from 'node:assert/strict';
import { pageHtml as runHtml } from '../../src/extension/webview/html';
import { batchForLine, entryId, parseHistory, resultsFileName, resumable, shortTime, type BatchEntry, type RunEntry } from '../../src/extension/run/model/history';
import { batchEndMessage } from '../../src/extension/run/model/batchEnd';
import { summarize, summaryLines } from '../../src/extension/run/model/summary';
import { hostMessageSchema, initialDataSchema, webviewMessageSchema } from '../../src/protocol/run';

const point = (score: number | null, error?: string) => ({ prompt: 'p', 'q/score': score, 'q/justification': 'j', 'q/model': 'm', ...(error ? { 'q/error': error } : {}) });
const pair = (choice: string | null, consistent: boolean | null, violations?: unknown[]) => ({
  'p/pairwise_choice': choice,
  'p/position_consistent': consistent,
  ...(violations ? { 'p/rule_violations': violations, 'p/dimensions': {} } : {}),
});

describe('run model: batch summary', () => {
  it('counts every score of the scale, the mean and the failed rows', () => {
    const s = summarize([point(4), point(5), point(4), point(null, 'invalid reply')], 'q', 'pointwise', { min: 1, max: 5 });
    assert.deepEqual(s, { kind: 'pointwise', rows: 4, failed: 1, scores: { '1': 0, '2': 0, '3': 0, '4': 2, '5': 1 }, mean: 4.333 });
    const lines = summaryLines(s);
    assert.equal(lines[0], '4 rows · mean 4.333 · 1 failed');
    assert.ok(lines.includes('score 4: 2 (67%) ████████████'), lines.join('\n'));
    assert.ok(lines.includes('score 1: 0 (0%)'));
  });

  it('counts wins, ties and losses and the position-consistency rate of the swapped rows', () => {
    const s = summarize([pair('A', true), pair('B', true), pair('TIE', false), pair('B', null), pair(null, null)], 'p', 'pairwise');
    assert.deepEqual(s, { kind: 'pairwise', rows: 5, failed: 1, wins: { A: 1, B: 2, TIE: 1 }, swapped: 3, consistent: 2, consistencyRate: 0.667, violationRows: null });
    const lines = summaryLines(s);
    assert.equal(lines[0], '5 rows · 67% position-consistent · 1 failed');
    assert.ok(lines.includes('A wins 1 · TIE 1 · B wins 2'));
    assert.ok(lines.includes('B against A: win 2 / tie 1 / loss 1'));
  });

  it('counts rows with rule violations for a multi-dimension template', () => {
    const s = summarize([pair('A', true, []), pair('B', true, [{ pass: 2, rule: 'ranking-gap', message: 'm' }, { pass: 1, rule: 'degree-winner', message: 'n' }]), pair('A', false, [{ pass: 1, rule: 'ranking-gap', message: 'x' }])], 'p', 'pairwise');
    assert.ok(s.kind === 'pairwise');
    assert.equal(s.violationRows, 2);
    assert.ok(summaryLines(s).includes('2 rows with rule violations'));
  });
});

const runEntry = (over: Partial<RunEntry> = {}): RunEntry => ({
  v: 1, type: 'run', id: '20240102-abc', time: '2024-01-02T10:00:00.000Z', template: 'q.judge', metric: 'q', kind: 'pointwise', model: 'm',
  source: 'q.jsonl, row 1', note: null, record: { prompt: 'p' }, line: { prompt: 'p', 'q/score': 3 }, raw: [], verdict: 'score 3 / 5', consistency: null, elapsedMs: 10, ...over,
});
const batchEntry = (over: Partial<BatchEntry> = {}): BatchEntry => ({
  v: 1, type: 'batch', id: 'b1', time: '2024-01-02T11:00:00.000Z', template: 'q.judge', metric: 'q', kind: 'pointwise', model: 'm',
  dataset: 'q.jsonl', results: '.judge-studio/results/q-20240102-110000.jsonl', resumed: false, interrupted: false,
  rows: { judged: 3, ok: 3, failed: 0, skipped: 0, alreadyDone: 0 }, summary: { kind: 'pointwise', rows: 3, failed: 0, scores: { '3': 3 }, mean: 3 }, elapsedMs: 100, ...over,
});

describe('run model: the history file', () => {
  it('reads entries back and reports lines that are not entries by number', () => {
    const text = [JSON.stringify(runEntry()), '', 'not json', JSON.stringify({ v: 99, type: 'run' }), JSON.stringify(batchEntry())].join('\n') + '\n';
    const parsed = parseHistory(text);
    assert.deepEqual(parsed.entries.map((e) => e.type), ['run', 'batch']);
    assert.deepEqual(parsed.badLines, [3, 4]);
  });

  it('offers to resume only the last batch of the same template and dataset, and only when it was interrupted', () => {
    const entries = [batchEntry({ id: 'old', interrupted: true }), batchEntry({ id: 'done' })];
    assert.equal(resumable(entries, 'q.judge', 'q.jsonl'), undefined);
    const cut = [...entries, batchEntry({ id: 'cut', interrupted: true })];
    assert.equal(resumable(cut, 'q.judge', 'q.jsonl')?.id, 'cut');
    assert.equal(resumable(cut, 'q.judge', 'other.jsonl'), undefined);
  });

  it('finds the batch that wrote a results line: a resumed row keeps the start of its own batch', () => {
    const rows = (judged: number) => ({ judged, ok: judged, failed: 0, skipped: 0, alreadyDone: 0 });
    const first = batchEntry({ id: 'first', time: '2024-01-02T03:00:00.000Z', interrupted: true, rows: rows(3) });
    const resume = batchEntry({ id: 'resume', time: '2024-01-02T05:00:00.000Z', resumed: true, rows: rows(2) });
    assert.deepEqual([1, 3, 4, 5, 9].map((n) => batchForLine([first, resume], n)?.id), ['first', 'first', 'resume', 'resume', 'resume']);
    const again = batchEntry({ id: 'again', time: '2024-01-03T00:00:00.000Z', resumed: false, rows: rows(4) });
    assert.equal(batchForLine([first, resume, again], 1)?.id, 'again', 'a batch that started the file over owns its lines');
    assert.equal(batchForLine([], 1), undefined);
  });

  it('names results files by metric and local time, and ids sort by time', () => {
    assert.equal(resultsFileName('helpfulness', new Date(2024, 0, 2, 3, 4, 5)), 'helpfulness-20240102-030405.jsonl');
    assert.equal(resultsFileName('helpfulness', new Date(2024, 0, 2, 3, 4, 5), 'data/helpfulness.jsonl'), 'helpfulness-helpfulness-20240102-030405.jsonl');
    assert.equal(resultsFileName('m', new Date(2024, 0, 2, 3, 4, 5), 'C:\\data\\my set (v2).csv'), 'm-my_set_v2-20240102-030405.jsonl', 'the dataset is named safely');
    assert.equal(resultsFileName('m', new Date(2024, 0, 2, 3, 4, 5), '.csv'), 'm-20240102-030405.jsonl', 'an empty name is left out');
    assert.ok(entryId(new Date(Date.UTC(2024, 0, 1)), 'aa') < entryId(new Date(Date.UTC(2024, 0, 2)), '00'));
  });

  it('shows only the time for today and the date otherwise', () => {
    const now = new Date(2024, 5, 10, 12, 0);
    assert.equal(shortTime(new Date(2024, 5, 10, 9, 5).toISOString(), now), '09:05');
    assert.equal(shortTime(new Date(2024, 2, 3, 14, 3).toISOString(), now), '3 Mar 14:03');
    assert.equal(shortTime(new Date(2023, 2, 3, 14, 3).toISOString(), now), '3 Mar 2023 14:03');
  });
});

describe('run view page and protocol', () => {
  it('puts a nonce-only CSP on the page and the data in an escaped attribute', () => {
    const evil = '"><script>alert(1)</script>';
    const html = runHtml({
      cspSource: 'vscode-webview:', nonce: 'N0nce', scriptUri: 'https://x/run.js', styleUri: 'https://x/run.css', title: evil,
      initial: { state: { id: evil }, view: null },
    });
    assert.match(html, /content="default-src 'none'; style-src vscode-webview:; script-src 'nonce-N0nce'"/);
    assert.equal((html.match(/<script/g) ?? []).length, 1, 'only the page\'s own script tag');
    assert.ok(html.includes('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;'));
    const attr = /data-initial="([^"]*)"/.exec(html)?.[1] ?? '';
    const decoded = attr.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    assert.ok(initialDataSchema.safeParse(JSON.parse(decoded)).success);
  });

  it('rejects messages outside the protocol on both sides', () => {
    assert.ok(webviewMessageSchema.safeParse({ type: 'rerun' }).success);
    assert.ok(!webviewMessageSchema.safeParse({ type: 'eval', code: 'x' }).success);
    assert.ok(!hostMessageSchema.safeParse({ type: 'show', view: { id: 1 } }).success);
    assert.ok(hostMessageSchema.safeParse({ type: 'copied' }).success);
  });
});

describe('run model: the end of a batch', () => {
  it('offers Open Results and Calibrate and names the results file when the batch finished', () => {
    const m = batchEndMessage(batchEntry());
    assert.equal(m.severity, 'info');
    assert.deepEqual(m.actions, ['Open Results', 'Calibrate']);
    assert.match(m.text, /q on q\.jsonl: 3 rows · mean 3\. Results: \.judge-studio\/results\/q-20240102-110000\.jsonl\.$/);
  });

  it('says how many rows failed and that Calibrate lists them', () => {
    const m = batchEndMessage(batchEntry({ rows: { judged: 3, ok: 1, failed: 2, skipped: 1, alreadyDone: 0 } }));
    assert.match(m.text, /2 rows failed: Calibrate lists them\. 1 unreadable record was skipped/);
  });

  it('warns on a cancelled batch and reports a fatal stop as an error, still with the results so far', () => {
    const cut = batchEndMessage(batchEntry({ interrupted: true }));
    assert.equal(cut.severity, 'warning');
    assert.match(cut.text, /cancelled after 3 row\(s\).*choose Resume/);
    const fatal = batchEndMessage(batchEntry({ interrupted: true }), 'the dataset cannot be read');
    assert.equal(fatal.severity, 'error');
    assert.match(fatal.text, /the batch stopped: the dataset cannot be read\./);
    assert.deepEqual(fatal.actions, ['Open Results', 'Calibrate']);
  });

  it('offers no buttons when no row was written', () => {
    assert.deepEqual(batchEndMessage(batchEntry({ rows: { judged: 0, ok: 0, failed: 0, skipped: 0, alreadyDone: 0 } })).actions, []);
  });
});
