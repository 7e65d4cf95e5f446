import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrateCommand } from '../../src/cli/commands/calibrate';
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIO } from '../../src/cli/io';
import { assertClose, FIXTURES, referenceCases } from './calibration.reference.test';

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(...args: string[]): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd: FIXTURES, env: {} };
  const code = await calibrateCommand(args, io);
  return { code, stdout, stderr };
}

async function usageError(args: string[], pattern: RegExp): Promise<void> {
  await assert.rejects(run(...args), (e: unknown) => {
    assert.ok(e instanceof UsageError, `expected a UsageError, got ${String(e)}`);
    assert.match(e.message, pattern);
    return true;
  });
}

const CONTRACT = ['metric', 'kind', 'n', 'skipped', 'labels', 'confusion_matrix', 'accuracy', 'balanced_accuracy', 'balanced_f1', 'cohen_kappa'];
const POINTWISE_ONLY = ['quadratic_weighted_kappa', 'spearman', 'kendall_tau'];

describe('judge-studio calibrate --json', () => {
  it('prints the contract keys with the reference figures for a pointwise results file', async () => {
    const { code, stdout } = await run('pointwise_ordinal.jsonl', '--metric', 'helpfulness', '--json');
    assert.equal(code, EXIT_OK);
    const json = JSON.parse(stdout) as Record<string, unknown>;
    for (const key of [...CONTRACT, ...POINTWISE_ONLY, 'bias', 'guidance', 'rule_violations']) assert.ok(key in json, key);
    const expected = referenceCases().find((c) => c.file === 'pointwise_ordinal.jsonl')?.expected;
    assertClose(json, expected, 'json', true);
    assert.deepEqual((json['guidance'] as { primary: string[] }).primary, ['spearman', 'kendall_tau', 'quadratic_weighted_kappa']);
  });

  it('leaves the pointwise-only figures out for a pairwise file and adds the bias figures', async () => {
    const { stdout } = await run('vertex_matrix.jsonl', '--metric', 'pairwise_fluency', '--json');
    const json = JSON.parse(stdout) as Record<string, unknown>;
    for (const key of CONTRACT) assert.ok(key in json, key);
    for (const key of POINTWISE_ONLY) assert.ok(!(key in json), key);
    assert.deepEqual(Object.keys(json['bias'] as object), ['position_consistency', 'first_position', 'longer_wins', 'human_longer_wins', 'length_preference']);
    assert.ok(!('rule_violations' in json));
  });

  it('reads a CSV with quoted commas, quotes and line breaks inside cells', async () => {
    const { stdout } = await run('pointwise_binary.csv', '--metric', 'safe', '--json');
    const json = JSON.parse(stdout) as { n: number; confusion_matrix: number[][]; skipped: number };
    assert.equal(json.n, 12);
    assert.equal(json.skipped, 1);
    assert.deepEqual(json.confusion_matrix, [
      [3, 2],
      [1, 6],
    ]);
  });
});

describe('judge-studio calibrate (human output)', () => {
  it('prints the confusion matrix as an aligned table with precision, recall, F1 and support per class', async () => {
    const { code, stdout } = await run('pointwise_binary.csv', '--metric', 'safe');
    assert.equal(code, EXIT_OK);
    const lines = stdout.split('\n');
    const start = lines.findIndex((l) => l.includes('human \\ judge'));
    const table = lines.slice(start, start + 4);
    assert.match(table[0] ?? '', /human \\ judge\s+0\s+1 \|\s+precision\s+recall\s+F1\s+support/);
    assert.match(table[1] ?? '', /^\s+0\s+3\s+2 \|\s+0\.750\s+0\.600\s+0\.667\s+5$/);
    assert.match(table[2] ?? '', /^\s+1\s+1\s+6 \|\s+0\.750\s+0\.857\s+0\.800\s+7$/);
    assert.match(table[3] ?? '', /^\s+judge total\s+4\s+8 \|\s+12$/);
    const bars = new Set(table.map((l) => l.indexOf('|')));
    assert.equal(bars.size, 1, `the | column lines up:\n${table.join('\n')}`);
    assert.equal(new Set(table.slice(0, 3).map((l) => l.length)).size, 1, 'rows have the same width');
  });

  it('names the figures to read first and warns about a small sample', async () => {
    const { stdout } = await run('pointwise_binary.csv', '--metric', 'safe');
    assert.match(stdout, /binary \(pass\/fail\) labels: read precision, recall and F1 per class/);
    assert.match(stdout, /warning: only 12 labelled rows/);
  });

  it('shows bias figures with their counts and undefined figures as n/a', async () => {
    const pairwise = await run('pairwise_passes.csv', '--metric', 'pref');
    assert.match(pairwise.stdout, /position consistency\s+0\.625\s+n=8 rows/);
    const equal = await run('all_equal.jsonl', '--metric', 'polite');
    assert.match(equal.stdout, /Cohen's kappa\s+n\/a \(undefined/);
  });

  it('warns on stderr about unreadable labels and malformed lines, with row and line', async () => {
    const { stderr } = await run('pointwise_ordinal.jsonl', '--metric', 'helpfulness');
    assert.match(stderr, /pointwise_ordinal\.jsonl: row \d+ \(line \d+\): "helpfulness\/human_rating" is "four", not a number; the row is skipped/);
    assert.match(stderr, /row 21 \(line 21\): invalid JSON/);
  });
});

describe('judge-studio calibrate --min', () => {
  it('exits 0 when every figure meets its minimum', async () => {
    const { code, stdout } = await run('pointwise_binary.csv', '--metric', 'safe', '--min', 'accuracy=0.75', '--min', 'balanced_accuracy=0.7');
    assert.equal(code, EXIT_OK);
    assert.match(stdout, /pass {2}accuracy = 0\.750, minimum 0\.75/);
  });

  it('exits 1 and names the figure when one falls below its minimum', async () => {
    const { code, stderr, stdout } = await run('vertex_matrix.jsonl', '--metric', 'pairwise_fluency', '--json', '--min', 'balanced_accuracy=0.7');
    assert.equal(code, EXIT_FINDINGS);
    assert.match(stderr, /threshold not met: balanced_accuracy = 0\.349 is below the minimum 0\.7/);
    const json = JSON.parse(stdout) as { thresholds: unknown };
    assertClose(
      json.thresholds,
      [
        { key: 'coverage', min: 1, value: 1, passed: true },
        { key: 'balanced_accuracy', min: 0.7, value: 0.349025974025974, passed: false },
      ],
      'thresholds',
    );
  });

  it('exits 1 when a figure is undefined, and says so', async () => {
    const { code, stderr } = await run('all_equal.jsonl', '--metric', 'polite', '--min', 'cohen_kappa=0.2');
    assert.equal(code, EXIT_FINDINGS);
    assert.match(stderr, /cohen_kappa is undefined \(null\)/);
  });

  it('rejects an unknown figure and one the metric kind does not have as usage errors', async () => {
    await usageError(['all_equal.jsonl', '--metric', 'polite', '--min', 'precision=0.5'], /unknown figure "precision"; use one of n, coverage, accuracy/);
    await usageError(['all_equal.jsonl', '--metric', 'polite', '--min', 'position_consistency=0.8'], /only computed for pairwise metrics/);
    await usageError(['all_equal.jsonl', '--metric', 'polite', '--min', 'accuracy=most'], /"most" is not a number/);
  });
});

describe('judge-studio calibrate coverage', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-coverage-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, lines: Record<string, unknown>[]) => {
    fs.writeFileSync(path.join(dir, name), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return path.join(dir, name);
  };
  const runIn = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await calibrateCommand(args, { stdout: (x) => void (stdout += x), stderr: (x) => void (stderr += x), cwd: dir, env: {} });
    return { code, stdout, stderr };
  };
  const ok = (row: number, human: number, score: number) => ({ _row: row, 'm/human_rating': human, 'm/score': score });
  const failed = (row: number, human: number, kind: string) => ({ _row: row, 'm/human_rating': human, 'm/score': null, 'm/error': 'x', 'm/error_kind': kind });

  it('fails a --min gate when most labelled rows failed, even with perfect agreement on the rest', async () => {
    write('mostly-failed.jsonl', [ok(1, 5, 5), ok(2, 1, 1), failed(3, 3, 'rate-limit'), failed(4, 4, 'rate-limit'), failed(5, 2, 'invalid-reply')]);
    const { code, stdout, stderr } = await runIn('mostly-failed.jsonl', '--metric', 'm', '--min', 'balanced_accuracy=0.8', '--json');
    assert.equal(code, EXIT_FINDINGS, stderr);
    const json = JSON.parse(stdout) as { coverage: number; labelled: number; failed_by_kind: Record<string, number>; balanced_accuracy: number };
    assert.deepEqual([json.coverage, json.labelled, json.failed_by_kind, json.balanced_accuracy], [0.4, 5, { 'rate-limit': 2, 'invalid-reply': 1 }, 1]);
    assert.match(stderr, /threshold not met: coverage = 0\.400 is below the minimum 1/);
  });

  it('lets --min coverage=X lower the bar explicitly, and prints coverage in the text report', async () => {
    write('some-failed.jsonl', [ok(1, 5, 5), ok(2, 1, 1), ok(3, 4, 4), failed(4, 4, 'timeout')]);
    const lowered = await runIn('some-failed.jsonl', '--metric', 'm', '--min', 'coverage=0.7', '--min', 'accuracy=0.9');
    assert.equal(lowered.code, EXIT_OK, lowered.stderr);
    assert.match(lowered.stdout, /Coverage 0\.750: 3 of 4 human-labelled row\(s\) judged \(failed: 1 timeout\); the figures below leave the rest out/);
    assert.match(lowered.stdout.split('\n')[2] ?? '', /^  timeout: raise --timeout/, 'what to do about the failures follows the coverage line');
  });

  it('takes the last line per _row: a retried row replaces its failure', async () => {
    write('resumed.jsonl', [ok(1, 5, 5), failed(2, 1, 'server'), ok(2, 1, 1), ok(3, 2, 2)]);
    const { code, stdout } = await runIn('resumed.jsonl', '--metric', 'm', '--json', '--min', 'accuracy=1');
    assert.equal(code, EXIT_OK);
    const json = JSON.parse(stdout) as { n: number; coverage: number };
    assert.deepEqual([json.n, json.coverage], [3, 1]);
  });

  it('keeps coverage at full precision in --json (rounding is for the text report)', async () => {
    write('two-of-three.jsonl', [ok(1, 5, 5), ok(2, 1, 1), failed(3, 4, 'timeout')]);
    const json = JSON.parse((await runIn('two-of-three.jsonl', '--metric', 'm', '--json', '--min', 'coverage=0.5')).stdout) as { coverage: number };
    assert.equal(json.coverage, 2 / 3);
    const text = await runIn('two-of-three.jsonl', '--metric', 'm', '--min', 'coverage=0.5');
    assert.match(text.stdout, /Coverage 0\.667: 2 of 3/);
  });

  it('exits 2 when no row has both labels: nothing calibrated is not a result', async () => {
    write('all-failed.jsonl', [failed(1, 5, 'auth'), failed(2, 3, 'auth')]);
    await assert.rejects(runIn('all-failed.jsonl', '--metric', 'm'), (e: unknown) => e instanceof UsageError && /nothing to calibrate; the judge failed on 2 labelled row/.test(e.message));
  });
});

describe('judge-studio calibrate usage errors', () => {
  it('names the expected columns when the metric has none in the file', async () => {
    await usageError(
      ['vertex_matrix.jsonl', '--metric', 'fluency'],
      /vertex_matrix\.jsonl: no label columns for metric "fluency": expected "fluency\/human_rating" and "fluency\/score" \(pointwise\), "fluency\/human_pairwise_choice" and "fluency\/pairwise_choice" \(pairwise\) or "fluency\/human_label" and "fluency\/label" \(categorical\); the file has label columns for metric "pairwise_fluency"/,
    );
  });

  it('requires --metric and exactly one file', async () => {
    await usageError(['all_equal.jsonl'], /--metric NAME is required/);
    await usageError(['--metric', 'polite'], /name one dataset or results file/);
    await usageError(['a.jsonl', 'b.jsonl', '--metric', 'polite'], /name one dataset or results file/);
  });

  it('reports a missing file and an unsupported file type as usage errors', async () => {
    await usageError(['nope.jsonl', '--metric', 'polite'], /nope\.jsonl/);
    await usageError(['data.txt', '--metric', 'polite'], /unsupported dataset file type/);
  });

  it('rejects an unknown option', async () => {
    await assert.rejects(run('all_equal.jsonl', '--metric', 'polite', '--threshold', '1'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' });
  });
});

describe('the bundled CLI', () => {
  const ROOT = path.resolve(__dirname, '../../..');
  const CLI = path.join(ROOT, 'dist/cli.js');
  const spawn = (...args: string[]) => spawnSync(process.execPath, [CLI, 'calibrate', ...args], { cwd: FIXTURES, encoding: 'utf8', timeout: 20000 });

  before(function () {
    if (!fs.existsSync(CLI)) assert.fail(`${CLI} is missing; build it with \`node esbuild.mjs\` first`);
  });

  it('calibrates a file for real and fails the gate with exit code 1', () => {
    const r = spawn('vertex_matrix.jsonl', '--metric', 'pairwise_fluency', '--json', '--min', 'accuracy=0.5');
    assert.equal(r.status, 1, r.stderr);
    const json = JSON.parse(r.stdout) as { confusion_matrix: number[][]; labels: string[] };
    assert.deepEqual(json.labels, ['A', 'B', 'TIE']);
    assert.deepEqual(json.confusion_matrix, [
      [20, 31, 15],
      [10, 11, 3],
      [3, 2, 2],
    ]);
    assert.match(r.stderr, /accuracy = 0\.340 is below the minimum 0\.5/);
  });

  it('exits 2 with the expected column names when the metric has no columns', () => {
    const r = spawn(path.join(FIXTURES, 'all_equal.jsonl'), '--metric', 'tone');
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /no label columns for metric "tone"/);
    assert.equal(r.stdout, '');
  });

  it('reads a CSV given by a path relative to the working directory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibrate-'));
    try {
      fs.copyFileSync(path.join(FIXTURES, 'pointwise_binary.csv'), path.join(dir, 'labels.csv'));
      const r = spawnSync(process.execPath, [CLI, 'calibrate', 'labels.csv', '--metric', 'safe'], { cwd: dir, encoding: 'utf8', timeout: 20000 });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /Calibration of "safe" \(pointwise\): 12 labelled rows, 1 skipped \(1 missing a label\)/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
