import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reportCommand } from '../../src/cli/commands/report';
import { EXIT_OK, UsageError, type CliIO } from '../../src/cli/io';
import { calibrate } from '../../src/core/calibration';
import { lineDiff } from '../../src/core/report/diff';
import { escapeHtml, PAGE_SCRIPT, renderReport, scriptJson } from '../../src/core/report/html';
import { figureIntervals } from '../../src/core/report/intervals';
import { reportData } from '../../src/core/report/model';
import { reportPage } from '../../src/core/report/page';
import { rowReader } from '../../src/core/report/rows';
import type { ReportData } from '../../src/core/report/types';

const HOSTILE = '</script><img src=x onerror="alert(1)"><!-- <script>alert(2)</script>\u2028';
const FIXTURES = path.resolve(__dirname, '../../../test/fixtures');

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'report-test-'));
}

async function run(cwd: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io: CliIO = { stdout: () => undefined, stderr: (s) => void (stderr += s), cwd, env: {} };
  return { code: await reportCommand(args, io), stderr };
}

/** The JSON block of a written page, parsed back. */
function embedded(html: string): ReportData {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the data block');
  return JSON.parse(m[1]!) as ReportData;
}

function jsonl(rows: object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

async function usageError(p: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof UsageError, `expected a UsageError, got ${String(e)}`);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('report: the embedded JSON and escaping', () => {
  it('escapes <, >, & and U+2028 so no judge reply can close or comment out the data block', () => {
    const text = scriptJson({ x: HOSTILE, y: 'a & b' });
    assert.doesNotMatch(text, /[<>&\u2028]/);
    assert.deepEqual(JSON.parse(text), { x: HOSTILE, y: 'a & b' });
  });

  it('keeps a hostile reply as data: the page has exactly its two script elements and no img', () => {
    const html = renderReport(pageData(HOSTILE));
    assert.equal(html.match(/<script/g)?.length, 2);
    assert.equal(html.match(/<\/script>/g)?.length, 2);
    assert.doesNotMatch(html, /<img|<!--/);
    assert.equal(embedded(html).rows[0]!.x, HOSTILE);
  });

  it('escapes the title, whose file name comes from the command line', () => {
    const data = { ...pageData('x'), file: '<b>"a".jsonl' };
    assert.match(renderReport(data), /<title>Judge Studio report: m \(&#60;b&#62;&#34;a&#34;\.jsonl\)<\/title>/);
    assert.equal(escapeHtml(`<&>"'`), '&#60;&#38;&#62;&#34;&#39;');
  });

  it("allows only its own script and style, by hash, under default-src 'none'", () => {
    const html = renderReport(pageData('x'));
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
    assert.ok(csp);
    assert.match(csp, /^default-src 'none'; /);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    assert.ok(csp.includes(`script-src ${hash(script)}`));
    assert.ok(csp.includes(`style-src ${hash(style)}`));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  });

  it('draws text only through textContent: the page script never parses HTML', () => {
    const source = reportPage.toString();
    assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    assert.ok(PAGE_SCRIPT.startsWith('(function reportPage()'));
  });
});

function pageData(justification: string): ReportData {
  const reader = rowReader('m', 'pointwise');
  const rows = [reader.read({ prompt: 'p', response: 'r', _row: 1, 'm/score': 3, 'm/justification': justification, 'm/human_rating': 3 }, 1)];
  return reportData({ file: 'r.jsonl', metric: 'm', kind: 'pointwise', rows, calibration: { error: 'none' }, now: new Date(0) });
}

describe('report: the data model', () => {
  const items = (records: object[]) => records.map((record, i) => ({ row: i + 1, line: i + 1, record: record as Record<string, unknown> }));

  it("gives each figure calibrate's value and a bootstrap interval around it, the same for the same seed", async () => {
    const records = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 2, 3].map((h, i) => ({ _row: i + 1, 'm/human_rating': h, 'm/score': i % 4 === 0 ? Math.min(5, h + 1) : h }));
    const outcome = await calibrate(items(records), 'm');
    assert.ok(outcome.ok);
    const figures = figureIntervals(outcome.report, { resamples: 400 });
    assert.deepEqual(figures.map((f) => f.key), ['accuracy', 'balanced_accuracy', 'balanced_f1', 'cohen_kappa', 'quadratic_weighted_kappa', 'spearman', 'kendall_tau']);
    for (const f of figures) {
      assert.equal(f.value, outcome.report[f.key as 'accuracy'], f.key);
      assert.ok(f.low !== null && f.high !== null && f.low <= f.value! && f.value! <= f.high, `${f.key}: ${f.low} ≤ ${f.value} ≤ ${f.high}`);
    }
    assert.deepEqual(figureIntervals(outcome.report, { resamples: 400 }), figures);
  });

  it('gives an undefined figure no interval (every label equal: no kappa)', async () => {
    const outcome = await calibrate(items([1, 2, 3].map((r) => ({ _row: r, 'm/human_rating': 4, 'm/score': 4 }))), 'm');
    assert.ok(outcome.ok);
    const kappa = figureIntervals(outcome.report, { resamples: 100 }).find((f) => f.key === 'cohen_kappa')!;
    assert.deepEqual([kappa.value, kappa.low, kappa.high], [null, null, null]);
  });

  it('reads categorical labels (m/label against m/human_label) as well as scores', async () => {
    const records = ['good', 'bad', 'good', 'ugly'].map((h, i) => ({ _row: i + 1, 'm/human_label': h, 'm/label': i === 3 ? 'bad' : h, 'm/justification': `j${i}` }));
    const outcome = await calibrate(items(records), 'm');
    assert.ok(outcome.ok);
    const reader = rowReader('m', 'categorical');
    const data = reportData({ file: 'c.jsonl', metric: 'm', kind: 'categorical', rows: records.map((r, i) => reader.read(r, i + 1)), calibration: outcome.report, resamples: 100 });
    assert.deepEqual(data.confusion?.labels, ['bad', 'good', 'ugly']);
    assert.deepEqual(data.rows[3], { r: 4, j: 'bad', h: 'ugly', x: 'j3', t: '' });
    assert.deepEqual(data.verdicts, [{ label: 'bad', count: 2 }, { label: 'good', count: 2 }]);
  });

  it("reads pairwise choices with calibrate's spellings (BASELINE is A) and counts failures by kind", () => {
    const reader = rowReader('m', 'pairwise');
    const rows = [
      reader.read({ _row: 1, 'm/pairwise_choice': 'B', 'm/human_pairwise_choice': 'BASELINE' }, 1),
      reader.read({ _row: 2, 'm/error': 'HTTP 429', 'm/error_kind': 'rate-limit', 'm/human_pairwise_choice': 'SAME' }, 2),
      reader.read({ _row: 3, 'm/error': 'no JSON' }, 3),
    ];
    assert.deepEqual([rows[0]!.j, rows[0]!.h, rows[1]!.j, rows[1]!.h], ['B', 'A', null, 'TIE']);
    const data = reportData({ file: 'p.jsonl', metric: 'm', kind: 'pairwise', rows, calibration: { error: 'no labels' } });
    assert.deepEqual(data.failures, [{ kind: 'rate-limit', count: 1 }, { kind: 'unknown', count: 1 }]);
    assert.equal(data.noFigures, 'no labels');
  });

  it('cuts a long field for the page and says how much was left out', () => {
    const row = rowReader('m', 'pointwise').read({ _row: 1, 'm/score': 1, 'm/justification': 'x'.repeat(2500) }, 1);
    assert.match(row.x, /^x{2000}… \(500 more characters\)$/);
  });

  it('diffs two template versions line by line', () => {
    assert.deepEqual(lineDiff('a\nb\nc', 'a\nc\nd'), [
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: ' ', text: 'c' },
      { op: '+', text: 'd' },
    ]);
  });
});

describe('judge-studio report', () => {
  it('writes the page with figures, the heat map data and every row', async () => {
    const dir = tmp();
    const { code, stderr } = await run(path.join(FIXTURES, 'compare'), 'pointwise_a.results.jsonl', '--html', path.join(dir, 'out', 'r.html'));
    assert.equal(code, EXIT_OK);
    assert.match(stderr, /report: wrote .*r\.html \(\d+ rows/);
    const data = embedded(fs.readFileSync(path.join(dir, 'out', 'r.html'), 'utf8'));
    assert.equal(data.metric, 'helpfulness');
    assert.ok(data.figures.length === 7 && data.confusion !== null && data.rows.length > 10);
  });

  it('with --compare, marks the flipped rows with B verdict and diffs the template snapshots', async () => {
    const dir = tmp();
    for (const f of ['pointwise_a.results.jsonl', 'pointwise_b.results.jsonl']) fs.copyFileSync(path.join(FIXTURES, 'compare', f), path.join(dir, f));
    fs.mkdirSync(path.join(dir, '.judge-studio', 'templates'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.judge-studio', 'templates', 'd9ca79138c6c.judge'), 'one\ntwo\n');
    fs.writeFileSync(path.join(dir, '.judge-studio', 'templates', '21b849fd241c.judge'), 'one\nthree\n');
    assert.equal((await run(dir, 'pointwise_a.results.jsonl', '--compare', 'pointwise_b.results.jsonl', '--html', 'r.html')).code, EXIT_OK);
    const data = embedded(fs.readFileSync(path.join(dir, 'r.html'), 'utf8'));
    assert.ok(data.compare && !('error' in data.compare));
    assert.equal(data.rows.filter((r) => r.b !== undefined).length, data.compare.flipped);
    assert.ok(data.compare.flipped > 0);
    assert.deepEqual('lines' in data.compare.diff ? data.compare.diff.lines.map((l) => l.op + l.text) : data.compare.diff, [' one', '-two', '+three', ' ']);
  });

  it("joins --labels by _key and shows the human's comment", async () => {
    const dir = tmp();
    fs.copyFileSync(path.join(FIXTURES, 'labels', 'results.jsonl'), path.join(dir, 'results.jsonl'));
    fs.writeFileSync(path.join(dir, 'labels.jsonl'), jsonl([{ _key: '1d59cc83822a7c42', metric: 'helpfulness', label: 4, annotator: 'alice', time: '2024-05-01T10:00:00.000Z', comment: 'right, but terse' }]));
    assert.equal((await run(dir, 'results.jsonl', '--labels', 'labels.jsonl', '--html', 'r.html')).code, EXIT_OK);
    const row = embedded(fs.readFileSync(path.join(dir, 'r.html'), 'utf8')).rows.find((r) => r.r === 1)!;
    assert.deepEqual([row.j, row.h, row.c], [5, 4, 'right, but terse']);
  });

  it("draws a tiered run's threshold sweep", async () => {
    const dir = tmp();
    const rows = [0.5, 0.6, 0.9, 0.95].map((c, i) => ({
      _row: i + 1,
      'm/pairwise_choice': 'A',
      'm/tiers': { screen: { model: 's', pairwise_choice: 'A', confidence: c }, judge: { model: 'b', pairwise_choice: i === 0 ? 'B' : 'A', confidence: 0.9 }, audit_percent: 100 },
      'm/audit': c >= 0.7,
      'm/human_pairwise_choice': 'A',
    }));
    fs.writeFileSync(path.join(dir, 'r.jsonl'), jsonl(rows));
    assert.equal((await run(dir, 'r.jsonl', '--html', 'r.html')).code, EXIT_OK);
    const sweep = embedded(fs.readFileSync(path.join(dir, 'r.html'), 'utf8')).sweep;
    assert.equal(sweep?.points.find((p) => p.rule === 'confidence<0.7')?.escalation_rate, 0.5);
  });

  it('reports a malformed line with its file and line, and goes on', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'r.jsonl'), `${JSON.stringify({ _row: 1, 'm/score': 3 })}\n{"_row": 2, oops\n`);
    const { code, stderr } = await run(dir, 'r.jsonl', '--html', 'r.html');
    assert.equal(code, EXIT_OK);
    assert.match(stderr, /^r\.jsonl:2: /m);
  });

  it('refuses bad input with the file and what to do', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'data.jsonl'), jsonl([{ prompt: 'p' }]));
    fs.writeFileSync(path.join(dir, 'two.jsonl'), jsonl([{ 'a/score': 1, 'b/label': 'x' }]));
    await usageError(run(dir, 'missing.jsonl', '--html', 'r.html'), /missing\.jsonl/);
    await usageError(run(dir, 'data.jsonl'), /--html F is required/);
    await usageError(run(dir, 'data.jsonl', '--html', 'r.html'), /^data\.jsonl: no judge verdict column .*results file of judge-studio run/);
    await usageError(run(dir, 'two.jsonl', '--html', 'r.html'), /2 metrics \(a, b\); pick one with --metric NAME/);
    await usageError(run(dir, 'two.jsonl', '--html', 'r.html', '--metric', 'c'), /no verdict column of metric "c"; the file has a, b/);
    await usageError(run(dir, 'data.txt', '--html', 'r.html'), /\.txt/);
    assert.ok(!fs.existsSync(path.join(dir, 'r.html')));
  });
});
