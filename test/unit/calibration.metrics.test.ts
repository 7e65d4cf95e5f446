import * as assert from 'node:assert/strict';
import { calibrate } from '../../src/core/calibration';
import {
  cohenKappa,
  ConfusionCounter,
  kendallTauBFromTable,
  spearmanFromTable,
} from '../../src/core/calibration/confusion';
import { guidanceFor } from '../../src/core/calibration/guidance';
import { InvalidLabel, MISSING, parseChoice, parseRating } from '../../src/core/calibration/labels';
import { averageRanks, spearman } from '../../src/core/calibration/ranks';
import { parseMinimums } from '../../src/core/calibration/thresholds';
import type { DatasetItem } from '../../src/core/dataset';

/** A small deterministic generator, so failures reproduce. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Kendall tau-b by counting every pair, to check the O(k²) table version. */
function kendallByPairs(x: number[], y: number[]): number | null {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const s = Math.sign((x[i] ?? 0) - (x[j] ?? 0)) * Math.sign((y[i] ?? 0) - (y[j] ?? 0));
      if (x[i] === x[j]) tx++;
      if (y[i] === y[j]) ty++;
      if (s > 0) c++;
      else if (s < 0) d++;
    }
  }
  const n0 = (x.length * (x.length - 1)) / 2;
  return n0 - tx === 0 || n0 - ty === 0 ? null : (c - d) / Math.sqrt((n0 - tx) * (n0 - ty));
}

function table(pairs: [number, number][]): number[][] {
  const counter = new ConfusionCounter<number>();
  for (const [h, j] of pairs) counter.add(h, j);
  return counter.matrix().matrix;
}

function rows(records: Record<string, unknown>[]): DatasetItem[] {
  return records.map((record, i) => ({ row: i + 1, line: i + 1, record }));
}

describe('rank correlations from the contingency table', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`equal the pair-by-pair Spearman and Kendall tau-b on random tied ratings (seed ${seed})`, () => {
      const next = random(seed);
      const pairs: [number, number][] = [];
      for (let i = 0; i < 300; i++) {
        const h = 1 + Math.floor(next() * 5);
        pairs.push([h, Math.min(7, Math.max(1, h + Math.floor(next() * 4) - 1))]);
      }
      const m = table(pairs);
      const xs = pairs.map((p) => p[0]);
      const ys = pairs.map((p) => p[1]);
      const rho = spearman(Float64Array.from(xs), Float64Array.from(ys));
      assert.ok(rho !== null && Math.abs((spearmanFromTable(m) ?? NaN) - rho) < 1e-12);
      const tau = kendallByPairs(xs, ys);
      assert.ok(tau !== null && Math.abs((kendallTauBFromTable(m) ?? NaN) - tau) < 1e-12);
    });
  }

  it('gives null for fewer than two pairs and for a constant side', () => {
    assert.equal(spearmanFromTable(table([[3, 4]])), null);
    assert.equal(kendallTauBFromTable(table([[3, 4]])), null);
    assert.equal(spearmanFromTable(table([[3, 1], [3, 2], [3, 5]])), null);
    assert.equal(kendallTauBFromTable(table([[1, 2], [2, 2], [3, 2]])), null);
  });

  it('gives 1 and -1 for perfectly agreeing and perfectly reversed rankings', () => {
    assert.equal(kendallTauBFromTable(table([[1, 1], [2, 2], [3, 3], [3, 3]])), 1);
    assert.equal(spearmanFromTable(table([[1, 3], [2, 2], [3, 1]])), -1);
  });
});

describe('average ranks', () => {
  it('share the mean position among tied values, as scipy rankdata does', () => {
    assert.deepEqual([...averageRanks(Float64Array.from([10, 20, 10, 30, 10]))], [2, 4, 2, 5, 2]);
  });

  it('are the same whether counted (integers in a narrow range) or sorted (fractions, sparse values)', () => {
    const next = random(9);
    const ints = Array.from({ length: 500 }, () => Math.floor(next() * 40) - 20);
    const counted = averageRanks(Float64Array.from(ints));
    // Adding 0.5 keeps the order but forces the sorting path; scaling by 1e9 makes the values sparse.
    assert.deepEqual([...averageRanks(Float64Array.from(ints, (v) => v + 0.5))], [...counted]);
    assert.deepEqual([...averageRanks(Float64Array.from(ints, (v) => v * 1e9))], [...counted]);
  });
});

describe('Cohen kappa', () => {
  it('weights disagreements by squared label distance over label positions, not values', () => {
    // Labels 1, 2, 10: quadratic weights use positions 0, 1, 2, as sklearn does.
    const m = table([[1, 1], [2, 10], [10, 2], [10, 10], [2, 2]]);
    const byPositions = cohenKappa(m, 'quadratic');
    // Observed: two disagreements at distance 1 -> 2; expected: sum w·rowᵢ·colⱼ / n with margins (1, 2, 2).
    const margins = [1, 2, 2];
    let expected = 0;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expected += ((i - j) ** 2 * (margins[i] ?? 0) * (margins[j] ?? 0)) / 5;
    assert.ok(Math.abs((byPositions ?? NaN) - (1 - 2 / expected)) < 1e-12);
  });

  it('is null when chance agreement is total, and 0 when humans and judge each use one different label', () => {
    assert.equal(cohenKappa(table([[2, 2], [2, 2]])), null);
    assert.equal(cohenKappa(table([[1, 2], [1, 2]])), 0);
  });
});

describe('labels', () => {
  it('reads ratings from numbers and from decimal text, and rejects anything else', () => {
    assert.equal(parseRating(4), 4);
    assert.equal(parseRating(' 4 '), 4);
    assert.equal(parseRating('2.5'), 2.5);
    for (const missing of [undefined, null, '', '   ']) assert.equal(parseRating(missing), MISSING);
    for (const bad of ['four', '0x10', 'Infinity', true, [4], Number.NaN]) assert.ok(parseRating(bad) instanceof InvalidLabel, String(bad));
  });

  it("reads pairwise choices case-insensitively with Vertex AI's spellings", () => {
    const read = (v: string) => {
      const p = parseChoice(v);
      return p === MISSING ? 'missing' : p instanceof InvalidLabel ? 'invalid' : p;
    };
    assert.deepEqual(['a', 'Baseline', 'model_A', 'B', 'candidate', 'MODEL_B', 'tie', 'SAME', ' Tie '].map(read), ['A', 'A', 'A', 'B', 'B', 'B', 'TIE', 'TIE', 'TIE']);
    assert.equal(read('C'), 'invalid');
    assert.equal(read(''), 'missing');
  });

  it('sorts numeric labels numerically and choices lexically', async () => {
    const outcome = await calibrate(
      rows([
        { 'q/human_rating': 10, 'q/score': 9 },
        { 'q/human_rating': '2', 'q/score': 10 },
      ]),
      'q',
    );
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.report.labels, [2, 9, 10]);
    assert.deepEqual(outcome.report.confusion_matrix, [
      [0, 0, 1],
      [0, 0, 0],
      [0, 1, 0],
    ]);
  });
});

describe('calibrating a stream of rows', () => {
  it('infers pairwise from the pairwise columns and reports no rank figures for it', async () => {
    const outcome = await calibrate(rows([{ 'p/human_pairwise_choice': 'A', 'p/pairwise_choice': 'B' }]), 'p');
    assert.ok(outcome.ok);
    assert.equal(outcome.report.kind, 'pairwise');
    assert.ok(!('spearman' in outcome.report) && !('kendall_tau' in outcome.report));
  });

  it('fails with the expected column names when the metric has no columns, naming metrics that do', async () => {
    const outcome = await calibrate(rows([{ 'fluency/human_rating': 3, 'fluency/score': 3 }]), 'q');
    assert.ok(!outcome.ok);
    assert.match(outcome.error, /"q\/human_rating" and "q\/score" \(pointwise\), "q\/human_pairwise_choice" and "q\/pairwise_choice" \(pairwise\) or "q\/human_label" and "q\/label" \(categorical\)/);
    assert.match(outcome.error, /"fluency"/);
  });

  it('says which column is missing when only the judge or only the humans are there', async () => {
    const judgeOnly = await calibrate(rows([{ 'q/score': 3 }]), 'q');
    assert.ok(!judgeOnly.ok && /no column "q\/human_rating"/.test(judgeOnly.error));
    const humanOnly = await calibrate(rows([{ 'q/human_pairwise_choice': 'A' }]), 'q');
    assert.ok(!humanOnly.ok && /no column "q\/pairwise_choice"/.test(humanOnly.error) && /judge-studio run/.test(humanOnly.error));
  });

  it('notes each unreadable label with its row and line, and keeps at most maxNotes of them', async () => {
    const many = rows(Array.from({ length: 5 }, () => ({ 'q/human_rating': 'great', 'q/score': 4 })));
    const outcome = await calibrate(many, 'q', { maxNotes: 2 });
    assert.ok(outcome.ok);
    assert.equal(outcome.notes.length, 2);
    assert.equal(outcome.notesOmitted, 3);
    assert.deepEqual(outcome.notes[0], { row: 1, line: 1, message: '"q/human_rating" is "great", not a number; the row is skipped' });
    assert.equal(outcome.report.skipped_by_reason.invalid_label, 5);
  });

  it('reports rule violations only when the column exists', async () => {
    const without = await calibrate(rows([{ 'q/human_rating': 1, 'q/score': 1 }]), 'q');
    assert.ok(without.ok && !('rule_violations' in without.report));
    const withCol = await calibrate(
      rows([
        { 'q/human_rating': 1, 'q/score': 1, 'q/rule_violations': [{ pass: 1, rule: 'r1', message: 'x' }, { pass: 2, rule: 'r1', message: 'y' }] },
        { 'q/human_rating': 1, 'q/score': 1, 'q/rule_violations': [] },
      ]),
      'q',
    );
    assert.ok(withCol.ok);
    assert.deepEqual(withCol.report.rule_violations, { rows_with_violations: 1, rate: 0.5, n: 2, by_rule: { r1: { rows: 1, rate: 0.5 } } });
  });
});

describe('metric-choice guidance', () => {
  const cls = (label: number | string, support: number) => ({ label, precision: null, recall: null, f1: 0, support, predicted: 0 });

  it('points binary labels to precision, recall, F1 and kappa', () => {
    assert.deepEqual(guidanceFor('pointwise', [0, 1], [cls(0, 40), cls(1, 40)], 80, undefined), {
      primary: ['per_class.precision', 'per_class.recall', 'per_class.f1', 'cohen_kappa'],
      warnings: [],
    });
  });

  it('points ordinal scales to Spearman, Kendall and weighted kappa', () => {
    assert.deepEqual(guidanceFor('pointwise', [1, 2, 3], [cls(1, 20), cls(2, 20), cls(3, 20)], 60, undefined).primary, [
      'spearman',
      'kendall_tau',
      'quadratic_weighted_kappa',
    ]);
  });

  it('points pairwise to agreement and position consistency, and warns when no row has both passes', () => {
    const none = { rate: null, n: 0 };
    const bias = { position_consistency: none, first_position: none, longer_wins: none, human_longer_wins: none, length_preference: { spearman: null, n: 0 } };
    const g = guidanceFor('pairwise', ['A', 'B'], [cls('A', 30), cls('B', 30)], 60, bias);
    assert.deepEqual(g.primary, ['accuracy', 'bias.position_consistency']);
    assert.deepEqual(g.warnings, ['no row has both passes (AB and BA), so position consistency is unknown; run with swap on']);
  });

  it('warns below 30 labelled rows and for a human class under 5 rows', () => {
    const g = guidanceFor('pointwise', [0, 1], [cls(0, 25), cls(1, 4)], 29, undefined);
    assert.equal(g.warnings.length, 2);
    assert.match(g.warnings[0] ?? '', /only 29 labelled rows/);
    assert.match(g.warnings[1] ?? '', /humans used 1 in only 4 rows/);
  });
});

describe('threshold options', () => {
  it('reads KEY=VALUE pairs and rejects unknown figures and non-numbers', () => {
    assert.deepEqual(parseMinimums(['balanced_accuracy=0.7', 'n=30']), { ok: true, minimums: [{ key: 'balanced_accuracy', min: 0.7 }, { key: 'n', min: 30 }] });
    const unknown = parseMinimums(['precision=0.5']);
    assert.ok(!unknown.ok && /unknown figure "precision"/.test(unknown.error));
    assert.ok(!parseMinimums(['accuracy=high']).ok);
    assert.ok(!parseMinimums(['accuracy']).ok);
  });
});
