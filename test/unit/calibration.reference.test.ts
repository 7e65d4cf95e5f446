// Every figure against test/reference/calibration_reference.json, which an independent, plain
// Python implementation of the scikit-learn/scipy definitions computed from the same fixtures.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibrate, type CalibrationReport } from '../../src/core/calibration';
import { readDataset } from '../../src/core/dataset';

const ROOT = path.resolve(__dirname, '../../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures/calibration');

interface ReferenceCase {
  name: string;
  file: string;
  metric: string;
  expected: Record<string, unknown>;
}

export function referenceCases(): ReferenceCase[] {
  const text = fs.readFileSync(path.join(ROOT, 'test/reference/calibration_reference.json'), 'utf8');
  return (JSON.parse(text) as { cases: ReferenceCase[] }).cases;
}

/** Numbers within 1e-9, null only where null is expected, the same keys below the top level. */
export function assertClose(actual: unknown, expected: unknown, at: string, topLevel = false): void {
  if (typeof expected === 'number') {
    assert.equal(typeof actual, 'number', `${at}: expected ${expected}, got ${JSON.stringify(actual)}`);
    assert.ok(Math.abs((actual as number) - expected) <= 1e-9, `${at}: expected ${expected}, got ${actual as number}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${at}: expected an array, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${at}: length`);
    expected.forEach((e, i) => assertClose(actual[i], e, `${at}[${i}]`));
  } else if (expected !== null && typeof expected === 'object') {
    assert.ok(actual !== null && typeof actual === 'object', `${at}: expected an object, got ${JSON.stringify(actual)}`);
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    if (!topLevel) assert.deepEqual(Object.keys(a).sort(), Object.keys(e).sort(), `${at}: keys`);
    for (const key of Object.keys(e)) assertClose(a[key], e[key], `${at}.${key}`);
  } else {
    assert.equal(actual, expected, `${at}`);
  }
}

async function calibrateFixture(file: string, metric: string): Promise<CalibrationReport> {
  const outcome = await calibrate(readDataset(path.join(FIXTURES, file)), metric);
  if (!outcome.ok) assert.fail(outcome.error);
  return outcome.report;
}

describe('calibration against the independent reference implementation', () => {
  for (const c of referenceCases()) {
    it(`matches every figure for ${c.name} (${c.file})`, async () => {
      const report = await calibrateFixture(c.file, c.metric);
      assertClose(report, c.expected, c.file, true);
    });
  }

  it('has no figure in the reference that the report lacks, and no key the contract forbids', () => {
    for (const c of referenceCases()) {
      const pointwise = c.expected['kind'] === 'pointwise';
      for (const key of ['quadratic_weighted_kappa', 'spearman', 'kendall_tau']) {
        assert.equal(key in c.expected, pointwise, `${c.file}: ${key} only for pointwise`);
      }
    }
  });
});

describe('the reference fixtures cover the cases the figures are hard on', () => {
  const byFile = new Map(referenceCases().map((c) => [c.file, c.expected]));

  it("reproduces Vertex AI's example matrix with BASELINE/CANDIDATE/SAME reported as A, B, TIE", async () => {
    const report = await calibrateFixture('vertex_matrix.jsonl', 'pairwise_fluency');
    assert.deepEqual(report.labels, ['A', 'B', 'TIE']);
    assert.deepEqual(report.confusion_matrix, [
      [20, 31, 15],
      [10, 11, 3],
      [3, 2, 2],
    ]);
  });

  it('keeps a class only the judge used and a class only humans used in the labels', () => {
    const e = byFile.get('pointwise_ordinal.jsonl') as { labels: number[]; confusion_matrix: number[][] };
    const humanTotals = e.confusion_matrix.map((row) => row.reduce((s, c) => s + c, 0));
    const judgeTotals = e.labels.map((_, j) => e.confusion_matrix.reduce((s, row) => s + (row[j] ?? 0), 0));
    assert.ok(e.labels.some((_, i) => humanTotals[i] === 0 && (judgeTotals[i] ?? 0) > 0), 'a judge-only class');
    assert.ok(e.labels.some((_, i) => judgeTotals[i] === 0 && (humanTotals[i] ?? 0) > 0), 'a human-only class');
  });

  it('counts every kind of skipped row in the ordinal fixture', async () => {
    const report = await calibrateFixture('pointwise_ordinal.jsonl', 'helpfulness');
    assert.deepEqual(report.skipped_by_reason, { missing_label: 4, judge_error: 1, invalid_label: 2, unreadable: 1 });
    assert.equal(report.skipped, 8);
  });

  it('reports every rank and agreement figure as null when all labels are equal', async () => {
    const report = await calibrateFixture('all_equal.jsonl', 'polite');
    assert.equal(report.accuracy, 1);
    for (const key of ['cohen_kappa', 'quadratic_weighted_kappa', 'spearman', 'kendall_tau'] as const) {
      assert.equal(report[key], null, key);
    }
    assert.ok(!JSON.stringify(report).includes('NaN'));
  });
});
