// The calibration view's model in plain node: metric detection, the report as the view shows it,
// the rows behind each cell, and the page and messages that carry them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrate } from '../../src/core/calibration';
import { parseDataset, type DatasetRow } from '../../src/core/dataset';
import { CellIndex, shorten } from '../../src/extension/calibrate/cells';
import { pageHtml as calibrationHtml } from '../../src/extension/webview/html';
import { calibrateFile } from '../../src/extension/calibrate/load';
import { templateHash } from '../../src/core/results/keys';
import { parseTemplate } from '../../src/core/template';
import { POINTWISE } from '../support/judgeFixtures';
import { buildView, detectMetrics, metricChoices } from '../../src/extension/calibrate/model';
import { groupColumns, groupRows, hasPasses, sweepOf } from '../../src/extension/calibrate/options';
import { hostMessageSchema, initialDataSchema, webviewMessageSchema, type CalibrationView } from '../../src/protocol/calibrate';

/** A pairwise results file: one JSONL line per (human, judge) pair, humans in Vertex AI's spelling. */
function pairwiseResults(pairs: [string, string][]): string {
  return pairs
    .map(([human, judge], i) =>
      JSON.stringify({
        prompt: `Prompt ${i + 1}\nwith a second line`,
        response_a: 'a'.repeat(10 + i),
        response_b: 'b'.repeat(20),
        'pref/human_pairwise_choice': human,
        'pref/pairwise_choice': judge,
        'pref/justification': `Because ${i + 1}.`,
        'pref/passes': [
          { order: 'AB', winner: judge, confidence: 0.8, justification: '' },
          { order: 'BA', winner: i % 4 === 0 ? 'TIE' : judge, confidence: 0.7, justification: '' },
        ],
      }),
    )
    .join('\n');
}

const PAIRS: [string, string][] = [
  ['BASELINE', 'A'], ['BASELINE', 'A'], ['BASELINE', 'A'], ['baseline', 'B'],
  ['CANDIDATE', 'B'], ['CANDIDATE', 'B'], ['CANDIDATE', 'A'],
  ['SAME', 'TIE'], ['SAME', 'B'],
];

function rowsOf(text: string, format: 'jsonl' | 'csv' = 'jsonl'): DatasetRow[] {
  return parseDataset(text, format).filter((i): i is DatasetRow => 'record' in i);
}

async function viewOf(text: string, metric: string, format: 'jsonl' | 'csv' = 'jsonl'): Promise<CalibrationView> {
  const outcome = await calibrate(parseDataset(text, format), metric);
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
  return buildView({ file: '/w/r.jsonl', display: 'r.jsonl', report: outcome.report, notes: outcome.notes, notesOmitted: outcome.notesOmitted, runView: false });
}

describe('calibration view: metric detection', () => {
  it('finds each metric with both label columns and counts the rows holding both', () => {
    const rows = rowsOf(
      [
        '{"a/human_rating": 3, "a/score": 4, "p/human_pairwise_choice": "A", "p/pairwise_choice": "B"}',
        '{"a/human_rating": 2, "a/score": null, "p/human_pairwise_choice": "A"}',
        '{"solo/human_rating": 1}',
      ].join('\n'),
    );
    const found = detectMetrics(rows);
    assert.deepEqual(found, [
      { metric: 'a', kind: 'pointwise', complete: true, labelled: 1 },
      { metric: 'p', kind: 'pairwise', complete: true, labelled: 1 },
      { metric: 'solo', kind: 'pointwise', complete: false, labelled: 0 },
    ]);
    assert.deepEqual(metricChoices(found).map((m) => m.metric), ['a', 'p']);
  });

  it('offers the half-labelled metrics when no metric is complete, so calibrate can say what is missing', () => {
    const found = detectMetrics(rowsOf('{"fluency/human_rating": 4, "prompt": "x"}'));
    assert.deepEqual(metricChoices(found).map((m) => `${m.metric}:${m.complete}`), ['fluency:false']);
  });

  it('finds nothing in a dataset without label columns', () => {
    assert.deepEqual(detectMetrics(rowsOf('{"prompt": "x", "response": "y", "/score": 1}')), []);
  });
});

describe('calibration view: the report as shown', () => {
  it('normalises each heat-map row by the rows humans gave that label', async () => {
    const v = await viewOf(pairwiseResults(PAIRS), 'pref');
    assert.deepEqual(v.labels, ['A', 'B', 'TIE']);
    const a = v.rows[0];
    assert.ok(a);
    assert.equal(a.total, 4);
    assert.deepEqual(a.cells.map((c) => [c.judge, c.count, c.share]), [['A', 3, 0.75], ['B', 1, 0.25], ['TIE', 0, 0]]);
    assert.deepEqual(v.rows.map((r) => r.total), [4, 3, 2]);
    assert.deepEqual(v.columnTotals, [4, 4, 1]);
  });

  it('gives a row no share when humans never used its label', async () => {
    const v = await viewOf('{"p/human_pairwise_choice": "A", "p/pairwise_choice": "B"}\n{"p/human_pairwise_choice": "A", "p/pairwise_choice": "A"}', 'p');
    const b = v.rows.find((r) => r.human === 'B');
    assert.ok(b);
    assert.equal(b.total, 0);
    assert.ok(b.cells.every((c) => c.share === null));
  });

  it('marks agreement and position consistency as the figures that fit a pairwise task', async () => {
    const v = await viewOf(pairwiseResults(PAIRS), 'pref');
    assert.equal(v.guidance.task, 'pairwise');
    assert.match(v.guidance.advice, /agreement.*position consistency/);
    assert.deepEqual(v.headline.filter((h) => h.primary).map((h) => h.key), ['accuracy', 'bias.position_consistency']);
    const consistency = v.headline.find((h) => h.key === 'bias.position_consistency');
    // Rows 1, 5 and 9 changed their verdict in the BA pass.
    assert.equal(consistency?.value, 6 / 9);
    assert.ok(!v.headline.some((h) => h.key === 'spearman'), 'rank correlations are for pointwise metrics only');
  });

  it('keeps the bias diagnostics with the counts they rest on', async () => {
    const v = await viewOf(pairwiseResults(PAIRS), 'pref');
    const first = v.bias.find((b) => b.key === 'first_position');
    assert.equal(first?.format, 'rate');
    assert.equal(first?.unit, 'decisive passes');
    assert.ok((first?.n ?? 0) > 0);
    assert.deepEqual(v.bias.map((b) => b.key), ['position_consistency', 'first_position', 'longer_wins', 'human_longer_wins', 'length_preference']);
  });

  it('warns that fewer than 30 labelled rows, or a label used fewer than 5 times, are too few to trust', async () => {
    const v = await viewOf(pairwiseResults(PAIRS), 'pref');
    assert.ok(v.guidance.warnings.some((w) => /only 9 labelled rows/.test(w)), v.guidance.warnings.join('\n'));
    assert.ok(v.guidance.warnings.some((w) => /"TIE" in only 2 rows/.test(w)), v.guidance.warnings.join('\n'));
  });

  it('names Spearman, Kendall and weighted kappa for an ordinal scale, and keeps an undefined figure null', async () => {
    const text = [1, 2, 3, 4, 5].flatMap((h) => [h, h].map((j) => JSON.stringify({ 'q/human_rating': h, 'q/score': Math.min(5, j + 1) }))).join('\n');
    const v = await viewOf(text, 'q');
    assert.equal(v.guidance.task, 'ordinal');
    assert.deepEqual(v.headline.filter((h) => h.primary).map((h) => h.key).sort(), ['kendall_tau', 'quadratic_weighted_kappa', 'spearman']);
    const constant = await viewOf('{"q/human_rating": 3, "q/score": 3}\n{"q/human_rating": 3, "q/score": 3}', 'q');
    assert.equal(constant.headline.find((h) => h.key === 'spearman')?.value, null);
  });

  it('names precision, recall, F1 and kappa for pass/fail labels', async () => {
    const v = await viewOf('id,b/human_rating,b/score\n1,1,1\n2,0,1\n3,0,0\n', 'b', 'csv');
    assert.equal(v.guidance.task, 'binary');
    assert.ok(v.guidance.primary.includes('per_class.f1'));
    assert.deepEqual(v.headline.filter((h) => h.primary).map((h) => h.key), ['cohen_kappa']);
    assert.deepEqual(v.classes.map((c) => [c.label, c.support, c.predicted]), [[0, 2, 1], [1, 1, 2]]);
  });

  it('says why rows were skipped', async () => {
    const v = await viewOf('{"p/human_pairwise_choice": "A", "p/pairwise_choice": "A"}\n{"p/human_pairwise_choice": "A", "p/error": "timeout"}\n{"p/human_pairwise_choice": "maybe", "p/pairwise_choice": "A"}', 'p');
    assert.equal(v.skippedText, '2 skipped: 1 where the judge failed, 1 with a label that cannot be read');
    assert.equal(v.notes.length, 1);
    assert.match(v.notes[0]?.message ?? '', /"maybe"/);
  });
});

describe('calibration view: the rows behind a cell', () => {
  it('lists the rows of a disagreement cell in file order with labels as the matrix spells them', () => {
    const cells = new CellIndex(rowsOf(pairwiseResults(PAIRS)), 'pref', 'pairwise');
    const { total, rows } = cells.rows('B', 'A');
    assert.equal(total, 1);
    assert.deepEqual(rows, [{ row: 7, datasetRow: 7, line: 7, prompt: 'Prompt 7 with a second line', human: 'B', judge: 'A', justification: 'Because 7.' }]);
    assert.equal(cells.rows('A', 'A').total, 3);
    assert.equal(cells.rows('TIE', 'A').total, 0);
    assert.deepEqual(cells.locate(4), { line: 4, runRow: 4 });
    assert.equal(cells.locate(99), undefined);
  });

  it('holds as many rows per cell as the matrix counts', async () => {
    const text = pairwiseResults(PAIRS);
    const v = await viewOf(text, 'pref');
    const cells = new CellIndex(rowsOf(text), 'pref', 'pairwise');
    for (const row of v.rows) for (const c of row.cells) assert.equal(cells.rows(c.human, c.judge).total, c.count, `${c.human}/${c.judge}`);
  });

  it('knows a row by the dataset row a run recorded in `_row`, for the run view', () => {
    const cells = new CellIndex(rowsOf('{"_row": 12, "m/human_rating": 1, "m/score": 1}\n\n{"_row": 3, "m/human_rating": 2, "m/score": 1}'), 'm', 'pointwise');
    assert.deepEqual(cells.locate(1), { line: 1, runRow: 12 });
    assert.deepEqual(cells.locate(2), { line: 3, runRow: 3 });
  });

  it('shows a disagreement row by its dataset row `_row`, not by its place in the results file', () => {
    const cells = new CellIndex(rowsOf('{"_row": 12, "m/human_rating": 1, "m/score": 3}\n{"_row": 5, "m/human_rating": 1, "m/score": 3}'), 'm', 'pointwise');
    assert.deepEqual(cells.rows(1, 3).rows.map((r) => [r.row, r.datasetRow]), [[2, 5], [1, 12]]);
  });

  it('lists a cell\'s rows by row number when a concurrent run wrote them out of order', () => {
    const text = [7, 2, 11, 3].map((row) => JSON.stringify({ _row: row, 'm/human_rating': 1, 'm/score': 2 })).join('\n');
    const cells = new CellIndex(rowsOf(text), 'm', 'pointwise');
    assert.deepEqual(cells.rows(1, 2).rows.map((r) => r.datasetRow), [2, 3, 7, 11]);
  });

  it('lists the rows the judge failed on, with their dataset row and error kind', () => {
    const text = [
      '{"_row": 4, "m/human_rating": 1, "m/error": "rate limited (429)", "m/error_kind": "rate-limit"}',
      '{"_row": 2, "m/human_rating": 2, "m/score": 2}',
      '{"_row": 9, "m/error": "bad reply"}',
    ].join('\n');
    const cells = new CellIndex(rowsOf(text), 'm', 'pointwise');
    assert.equal(cells.failedTotal, 2);
    assert.deepEqual(cells.failed.map((f) => [f.datasetRow, f.line, f.errorKind, f.message]), [[4, 1, 'rate-limit', 'rate limited (429)'], [9, 3, null, 'bad reply']]);
    assert.deepEqual(cells.locate(3), { line: 3, runRow: 9 }, 'a failed row can be opened');
  });

  it('keys pointwise cells by the number, so "4" and 4.0 land in the same cell', () => {
    const cells = new CellIndex(rowsOf('id,m/human_rating,m/score,m/error\n1,4,4.0,\n2, 4 ,4,\n3,4,,timeout\n', 'csv'), 'm', 'pointwise');
    assert.equal(cells.rows(4, 4).total, 2);
    assert.equal(cells.rows('4', '4').total, 0);
  });

  it('shows the error when a row has no justification and caps the rows sent for a large cell', () => {
    const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify({ question: `q${i}`, 'm/human_rating': 1, 'm/score': 2, ...(i === 0 ? { 'm/error': 'first pass timed out' } : {}) }));
    const cells = new CellIndex(rowsOf(lines.join('\n')), 'm', 'pointwise');
    const { total, rows } = cells.rows(1, 2);
    assert.equal(total, 250);
    assert.equal(rows.length, 200);
    assert.equal(rows[0]?.prompt, 'q0');
    assert.equal(rows[0]?.justification, 'error: first pass timed out');
  });

  it('shortens text to one line with an ellipsis, counting an emoji once', () => {
    assert.equal(shorten('  a\n\tb  ', 10), 'a b');
    assert.equal(shorten('😀'.repeat(12), 10), `${'😀'.repeat(9)}…`);
    assert.equal(shorten(`${'x'.repeat(5000)}`, 8), 'xxxxxxx…');
  });
});

describe('calibration view: reading the file', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibrate-view-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the file once and returns the report with its cells', async () => {
    const file = path.join(dir, 'r.jsonl');
    fs.writeFileSync(file, `${pairwiseResults(PAIRS)}\n{not json\n`);
    const out = await calibrateFile(file, 'pref', 'r.jsonl');
    assert.ok(out.ok, out.ok ? '' : out.error);
    assert.equal(out.report.n, 9);
    assert.equal(out.report.skipped_by_reason.unreadable, 1);
    assert.equal(out.cells.rows('A', 'B').rows[0]?.row, 4);
  });

  it('names the file as shown when it cannot be read or has no label columns', async () => {
    const missing = await calibrateFile(path.join(dir, 'gone.jsonl'), 'pref', 'gone.jsonl');
    assert.ok(!missing.ok);
    assert.match(missing.error, /gone\.jsonl/);
    assert.ok(!missing.error.includes(dir), missing.error);
    const file = path.join(dir, 'plain.jsonl');
    fs.writeFileSync(file, '{"prompt": "x", "other/human_rating": 1, "other/score": 1}\n');
    const none = await calibrateFile(file, 'pref', 'plain.jsonl');
    assert.ok(!none.ok);
    assert.match(none.error, /^plain\.jsonl: no label columns for metric "pref".*"other"/);
  });
});

describe('calibration view: the template that judged the file', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibrate-view-scale-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const found = (text: string) => ({ found: [{ file: path.join(dir, 'quality.judge'), template: parseTemplate(text) }], shown: (f: string) => path.basename(f) });
  const rated = (row: number, human: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ _row: row, 'quality/human_rating': human, 'quality/score': 3, ...extra });

  it('refuses a label outside the scale of the template named after the metric, as calibrate does', async () => {
    const file = path.join(dir, 'r.jsonl');
    fs.writeFileSync(file, [rated(1, 3), rated(2, 9)].join('\n') + '\n');
    const out = await calibrateFile(file, 'quality', 'r.jsonl', undefined, undefined, found(POINTWISE));
    assert.ok(!out.ok);
    assert.match(out.error, /^r\.jsonl: row 2 \(line 2\): "quality\/human_rating" is 9, not a whole number on the 1–5 scale of quality\.judge/);
    // Without the template, the label is a class as before.
    assert.ok((await calibrateFile(file, 'quality', 'r.jsonl')).ok);
  });

  it('leaves the labels unchecked when the file was judged by another version of the template', async () => {
    const file = path.join(dir, 'other.jsonl');
    fs.writeFileSync(file, [rated(1, 3, { 'quality/template_hash': 'aaaaaaaaaaaa' }), rated(2, 9, { 'quality/template_hash': 'aaaaaaaaaaaa' })].join('\n') + '\n');
    const out = await calibrateFile(file, 'quality', 'other.jsonl', undefined, undefined, found(POINTWISE));
    assert.ok(out.ok, out.ok ? '' : out.error);
    assert.equal(templateHash(POINTWISE) === 'aaaaaaaaaaaa', false);
  });
});

describe('calibration view: page and messages', () => {
  it('builds a page with a nonce-only script, no inline styles, and the data escaped in an attribute', async () => {
    const v = await viewOf(pairwiseResults([['A', 'B']]).replace('Prompt 1', '\\"><script>alert(1)</script>'), 'pref');
    const html = calibrationHtml({ cspSource: 'vscode-resource:', nonce: 'n0nce', scriptUri: 'x/calibrate.js', styleUri: 'x/calibrate.css', title: 'Calibration', initial: { state: { file: v.file, metric: 'pref' }, message: { type: 'report', view: v } } });
    assert.match(html, /content="default-src 'none'; style-src vscode-resource:; script-src 'nonce-n0nce'"/);
    assert.equal((html.match(/<script/g) ?? []).length, 1, 'only the nonce-tagged script tag');
    assert.ok(!/style="/.test(html), 'no inline style attribute');
    const attr = /data-initial="([^"]*)"/.exec(html)?.[1] ?? '';
    const decoded = attr.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    assert.ok(initialDataSchema.safeParse(JSON.parse(decoded)).success);
  });

  it('accepts the messages each side sends and rejects malformed ones', async () => {
    const v = await viewOf(pairwiseResults(PAIRS), 'pref');
    assert.ok(hostMessageSchema.safeParse({ type: 'report', view: v }).success);
    assert.ok(hostMessageSchema.safeParse({ type: 'cellRows', human: 'A', judge: 'B', total: 1, rows: [{ row: 4, datasetRow: 4, line: 4, prompt: '', human: 'A', judge: 'B', justification: '' }] }).success);
    assert.ok(!hostMessageSchema.safeParse({ type: 'cellRows', human: 'A', judge: 'B', total: -1, rows: [] }).success);
    assert.ok(webviewMessageSchema.safeParse({ type: 'selectCell', human: 4, judge: 5 }).success);
    assert.ok(webviewMessageSchema.safeParse({ type: 'openRow', row: 3 }).success);
    assert.ok(!webviewMessageSchema.safeParse({ type: 'openRow', row: 0 }).success);
    assert.ok(!webviewMessageSchema.safeParse({ type: 'selectCell', human: { x: 1 }, judge: 'A' }).success);
    assert.ok(!webviewMessageSchema.safeParse({ type: 'runScript' }).success);
  });
});

describe('calibration view: swap rule and figures by a column (calibrate --swap-rule, --by)', () => {
  // Rows 3 and 4 failed under `consistent`: one order's reply was unreadable. Under `votes` the other
  // order decides. Row 5's orders disagree: a TIE under both rules.
  const pass = (order: string, winner: string | null) => (winner === null ? { order, error_kind: 'invalid-reply' } : { order, winner, confidence: 0.8, justification: '' });
  const plan: [string, string, string | null, string | null, string | null][] = [
    ['math', 'A', 'A', 'A', 'A'],
    ['math', 'B', 'B', 'B', 'B'],
    ['math', 'A', null, 'A', null],
    ['code', 'B', null, 'B', null],
    ['code', 'A', 'TIE', 'A', 'B'],
    ['code', 'B', 'B', 'B', 'B'],
  ];
  const text = plan
    .map(([category, human, judge, ab, ba], i) =>
      JSON.stringify({
        _row: i + 1,
        category,
        prompt: `Question ${i + 1}`,
        'pref/human_pairwise_choice': human,
        'pref/pairwise_choice': judge,
        ...(judge === null ? { 'pref/error': 'the reply has no verdict', 'pref/error_kind': 'invalid-reply' } : {}),
        'pref/passes': [pass('AB', ab), pass('BA', ba)],
      }),
    )
    .join('\n');
  let file: string;
  before(() => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'js-calib-options-')), 'pref.results.jsonl');
    fs.writeFileSync(file, text + '\n');
  });

  it('offers the swap rule and the dataset columns with a few values, and reads the file as stored by default', async () => {
    const out = await calibrateFile(file, 'pref', 'pref.results.jsonl');
    assert.ok(out.ok, out.ok ? '' : out.error);
    assert.deepEqual(out.options, { chosen: { swapRule: 'recorded', by: null }, passes: true, byColumns: ['category'] });
    assert.equal(out.report.n, 4);
    assert.equal(out.report.accuracy, 0.75);
    assert.equal(out.by, undefined);
  });

  it('re-aggregates under votes: a row with one unreadable order is judged from the other, and the cells list it', async () => {
    const out = await calibrateFile(file, 'pref', 'pref.results.jsonl', undefined, undefined, undefined, { swapRule: 'votes', by: null });
    assert.ok(out.ok, out.ok ? '' : out.error);
    assert.equal(out.report.n, 6);
    assert.equal(out.report.accuracy, 5 / 6);
    assert.deepEqual(out.cells.rows('A', 'A').rows.map((r) => r.datasetRow), [1, 3]);
    const consistent = await calibrateFile(file, 'pref', 'pref.results.jsonl', undefined, undefined, undefined, { swapRule: 'consistent', by: null });
    assert.ok(consistent.ok);
    assert.equal(consistent.report.n, 4);
  });

  it('splits every figure by the chosen column, as calibrate --by does, and the view carries the table', async () => {
    const out = await calibrateFile(file, 'pref', 'pref.results.jsonl', undefined, undefined, undefined, { swapRule: 'votes', by: 'category' });
    assert.ok(out.ok, out.ok ? '' : out.error);
    const rows = groupRows(out.by!);
    assert.deepEqual(rows.map((g) => [g.value, g.n, g.accuracy, g.failed]), [['code', 3, 2 / 3, 0], ['math', 3, 1, 0]]);
    const stored = await calibrateFile(file, 'pref', 'pref.results.jsonl', undefined, undefined, undefined, { swapRule: 'recorded', by: 'category' });
    assert.ok(stored.ok);
    assert.deepEqual(groupRows(stored.by!).map((g) => [g.value, g.n, g.failed]), [['code', 2, 1], ['math', 2, 1]]);
    const view = buildView({ file, display: 'pref.results.jsonl', report: out.report, notes: [], notesOmitted: 0, runView: false, options: { swapRule: 'votes', byColumns: ['category'], by: 'category' }, groups: rows });
    assert.ok(hostMessageSchema.safeParse({ type: 'report', view }).success);
  });

  it('ignores a by column the file does not offer, and offers no swap rule without pairwise passes', async () => {
    const out = await calibrateFile(file, 'pref', 'pref.results.jsonl', undefined, undefined, undefined, { swapRule: 'recorded', by: 'prompt' });
    assert.ok(out.ok);
    assert.equal(out.options.chosen.by, null, 'prompt has a value per row: not a grouping offered');
    const rows = rowsOf('{"a/human_rating": 3, "a/score": 4, "set": "x"}\n{"a/human_rating": 2, "a/score": 2, "set": "y", "_key": "k"}\n{"a/human_rating": 2, "a/score": 1, "set": "y"}');
    assert.equal(hasPasses(rows, 'a'), false);
    assert.deepEqual(groupColumns(rows), ['set']);
  });

  it('accepts setOptions messages with a known swap rule only', () => {
    assert.ok(webviewMessageSchema.safeParse({ type: 'setOptions', swapRule: 'votes', by: 'category' }).success);
    assert.ok(webviewMessageSchema.safeParse({ type: 'setOptions', swapRule: 'recorded', by: null }).success);
    assert.ok(!webviewMessageSchema.safeParse({ type: 'setOptions', swapRule: 'majority', by: null }).success);
  });
});

describe("calibration view: a tiered run's threshold sweep", () => {
  it('sweeps the rows as judge-studio thresholds does, and the view carries it', () => {
    const rows = rowsOf(
      [0.2, 0.6, 0.9]
        .map((confidence, i) => JSON.stringify({ _row: i + 1, 't/human_rating': 4, 't/score': 4, 't/audit': confidence >= 0.5, 't/tiers': { screen: { model: 's', score: i === 0 ? 2 : 4, confidence }, judge: { model: 'b', score: 4, confidence: 0.9 }, audit_percent: 100 } }))
        .join('\n'),
    );
    const sweep = sweepOf(rows, 't');
    assert.ok(sweep && !('error' in sweep));
    const none = sweep.points.find((p) => p.rule === 'confidence<0')!;
    assert.deepEqual([none.escalation_rate, none.agreement_judge, none.agreement_human, none.human_n], [0, 2 / 3, 2 / 3, 3]);
    assert.equal(sweep.points.find((p) => p.rule === 'confidence<0.5')!.agreement_human, 1);
    // At --audit 100 an audited row weighs 1, as an escalated one does: still counted as audited.
    assert.equal(sweep.audited, 2);
    assert.equal(sweepOf(rowsOf('{"t/human_rating": 4, "t/score": 4}'), 't'), undefined, 'no tiered row, no sweep');
    assert.ok(hostMessageSchema.safeParse({ type: 'report', view: { ...minimalView(), sweep } }).success);
    assert.ok(hostMessageSchema.safeParse({ type: 'report', view: { ...minimalView(), sweep: { error: 'no row has "t/tiers"' } } }).success);
  });
});

function minimalView(): CalibrationView {
  const outcome = { metric: 't' };
  return { file: '/w/r.jsonl', display: 'r.jsonl', metric: outcome.metric, kind: 'pointwise', n: 0, skipped: 0, skippedText: '', labels: [], rows: [], columnTotals: [], headline: [], classes: [], bias: [], rules: [], guidance: { task: 'ordinal', advice: '', primary: [], warnings: [] }, notes: [], notesOmitted: 0, runView: false };
}
