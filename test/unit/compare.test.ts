import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareCommand } from '../../src/cli/commands/compare';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { compareRuns, pairedBootstrap, pairResults, significance, snapshotTemplate, snapshotPath } from '../../src/core/compare';
import { templateHash } from '../../src/core/results';
import { captureIO, items, tempDir, writeJsonl } from '../support/judgeFixtures';
import { COMPARE_FIXTURES, compareFixtures } from './compare.reference.test';

const fixture = (name: string) => path.join(COMPARE_FIXTURES, name);

async function cli(args: string[], cwd = tempDir()) {
  const io = captureIO(cwd);
  const code = await compareCommand(args, io);
  return { code, out: io.out, err: io.err };
}

describe('compare', () => {
  it('refuses to pair rows whose inputs differ, naming the rows', async () => {
    const a = [{ prompt: 'p1', response: 'r', _row: 1, 'm/score': 3 }, { prompt: 'p2', response: 'r', _row: 2, 'm/score': 3 }];
    const b = [{ prompt: 'p1', response: 'r', _row: 1, 'm/score': 4 }, { prompt: 'other', response: 'r', _row: 2, 'm/score': 3 }];
    const outcome = await pairResults(() => items(a), () => items(b));
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.deepEqual(outcome.rows, [2]);
    assert.match(outcome.error, /row 2 differ/);
  });

  it('pairs rows whose inputs match even when only one side has human labels or extra metric columns', async () => {
    const a = [{ prompt: 'p1', _row: 1, 'm/score': 3, 'm/human_rating': 3 }];
    const b = [{ prompt: 'p1', _row: 1, 'm/score': 4, 'm/template_hash': 'abcdefabcdef', _key: 'k' }];
    const outcome = await pairResults(() => items(a), () => items(b));
    assert.ok(outcome.ok);
    assert.equal(outcome.pairs.length, 1);
  });

  it('reports no human comparison and says so when the rows carry no labels', async () => {
    const a = [1, 2, 3].map((i) => ({ prompt: `p${i}`, _row: i, 'm/score': i }));
    const b = [1, 2, 3].map((i) => ({ prompt: `p${i}`, _row: i, 'm/score': i === 2 ? 5 : i }));
    const paired = await pairResults(() => items(a), () => items(b));
    assert.ok(paired.ok);
    const outcome = await compareRuns(paired.pairs, { metricA: 'm' });
    assert.ok(outcome.ok);
    assert.equal(outcome.report.human, null);
    assert.deepEqual(outcome.report.flips, [{ row: 2, a: 2, b: 5 }]);
    assert.equal(outcome.report.mean_shift, 1);
    assert.equal(significance(outcome.report, outcome.labelled, 'balanced_accuracy').direction, 'no-labels');
  });

  it('builds the transition matrix with A verdicts as rows and B verdicts as columns', async () => {
    const { report } = await compareFixtures('pairwise_a.results.jsonl', 'pairwise_b.results.jsonl', 'pref', 'pref_v2');
    assert.deepEqual(report.transition.labels, ['A', 'B', 'TIE']);
    const total = report.transition.matrix.flat().reduce((s, c) => s + c, 0);
    assert.equal(total, report.n);
    const diagonal = report.transition.matrix.reduce((s, r, i) => s + (r[i] ?? 0), 0);
    assert.equal(diagonal, report.n - report.flipped);
  });

  it('draws a reproducible bootstrap interval for a seed, and a different one for another seed', () => {
    const stat = (idx: Uint32Array) => idx.reduce((s, i) => s + (i % 3), 0) / idx.length;
    const first = pairedBootstrap(50, stat, { seed: 7, resamples: 500 });
    const again = pairedBootstrap(50, stat, { seed: 7, resamples: 500 });
    const other = pairedBootstrap(50, stat, { seed: 8, resamples: 500 });
    assert.deepEqual(first, again);
    assert.notDeepEqual(first, other);
  });

  it('tests every figure: accuracy with McNemar, the others with the bootstrap', async () => {
    const { report, labelled } = await compareFixtures('pairwise_a.results.jsonl', 'pairwise_b.results.jsonl', 'pref', 'pref_v2');
    const acc = significance(report, labelled, 'accuracy');
    assert.equal(acc.test, 'mcnemar');
    assert.equal(acc.direction, 'better');
    const kappa = significance(report, labelled, 'cohen_kappa');
    assert.equal(kappa.test, 'bootstrap');
    assert.ok(kappa.ci && kappa.ci[0] <= kappa.delta! && kappa.delta! <= kappa.ci[1]);
  });
});

describe('judge-studio compare', () => {
  it('prints exactly the --json contract keys', async () => {
    const r = await cli([fixture('pointwise_a.results.jsonl'), fixture('pointwise_b.results.jsonl'), '--metric', 'helpfulness', '--json']);
    assert.equal(r.code, EXIT_OK, r.err);
    const json = JSON.parse(r.out) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['n', 'agreement', 'cohen_kappa', 'flipped', 'flips', 'mean_shift', 'human']);
    assert.deepEqual(Object.keys(json.human as object), ['a', 'b', 'delta', 'mcnemar_p', 'balanced_accuracy_ci']);
    assert.match(r.err, /1 row\(s\) only in .* are not compared \(61\)/);
  });

  it('says in one line that B is not distinguishable, and names both template hashes', async () => {
    const r = await cli([fixture('pointwise_a.results.jsonl'), fixture('pointwise_b.results.jsonl'), '--metric', 'helpfulness']);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(r.out, /template A d9ca79138c6c, template B 21b849fd241c/);
    assert.match(r.out.trim().split('\n').pop()!, /^B is not distinguishable from A: balanced accuracy/);
  });

  it('says B is better, and exits 1 with --fail-if-worse only when the runs are swapped', async () => {
    const a = fixture('pairwise_a.results.jsonl');
    const b = fixture('pairwise_b.results.jsonl');
    const better = await cli([a, b, '--metric', 'pref', '--metric-b', 'pref_v2', '--fail-if-worse', 'balanced_accuracy']);
    assert.equal(better.code, EXIT_OK, better.err);
    assert.match(better.out, /^B is better than A: balanced accuracy/m);
    const worse = await cli([b, a, '--metric', 'pref_v2', '--metric-b', 'pref', '--fail-if-worse', 'accuracy']);
    assert.equal(worse.code, EXIT_FINDINGS, worse.err);
    assert.match(worse.out, /^B is worse than A: accuracy .* McNemar exact p = 0\.0042/m);
  });

  it('exits 2 naming the rows when inputs differ', async () => {
    const dir = tempDir();
    const a = writeJsonl(path.join(dir, 'a.jsonl'), [{ prompt: 'x', _row: 1, 'm/score': 1 }, { prompt: 'y', _row: 7, 'm/score': 1 }]);
    const b = writeJsonl(path.join(dir, 'b.jsonl'), [{ prompt: 'x', _row: 1, 'm/score': 1 }, { prompt: 'z', _row: 7, 'm/score': 1 }]);
    const r = await cli([a, b, '--metric', 'm'], dir);
    assert.equal(r.code, EXIT_USAGE);
    assert.match(r.err, /row 7 differ/);
  });

  it('rejects an unknown --fail-if-worse figure and a gate without labels', async () => {
    const dir = tempDir();
    const a = writeJsonl(path.join(dir, 'a.jsonl'), [{ prompt: 'x', _row: 1, 'm/score': 1 }]);
    await assert.rejects(cli([a, a, '--metric', 'm', '--fail-if-worse', 'vibes'], dir), /--fail-if-worse takes one of accuracy/);
    const nolabels = await cli([a, a, '--metric', 'm', '--fail-if-worse', 'accuracy'], dir);
    assert.equal(nolabels.code, EXIT_USAGE);
    assert.match(nolabels.err, /no human labels/);
  });
});

describe('template snapshots', () => {
  it('writes the template text once under .judge-studio/templates/<hash>.judge', async () => {
    const root = tempDir();
    const text = '---\nname: m\n---\nbody ✓\n';
    const first = await snapshotTemplate(root, text);
    assert.equal(first.hash, templateHash(text));
    assert.equal(first.file, path.join(root, '.judge-studio', 'templates', `${first.hash}.judge`));
    assert.equal(fs.readFileSync(first.file, 'utf8'), text);
    const again = await snapshotTemplate(root, text);
    assert.deepEqual(again, first);
    assert.throws(() => snapshotPath(root, '../etc/passwd'), /not a template hash/);
  });
});
