// Every compare figure against test/reference/compare_reference.json, which a plain Python
// implementation of the statsmodels / scikit-learn definitions computed from the same fixtures.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareJson, compareRuns, mcnemarExact, mulberry32, pairResults } from '../../src/core/compare';
import { readDataset } from '../../src/core/dataset';
import { assertClose } from './calibration.reference.test';

const ROOT = path.resolve(__dirname, '../../..');
export const COMPARE_FIXTURES = path.join(ROOT, 'test/fixtures/compare');

interface Reference {
  mulberry32_first_5: number[];
  mcnemar: { b: number; c: number; p: number }[];
  cases: { name: string; a: string; b: string; metric: string; metric_b: string; expected: Record<string, unknown> }[];
}

const reference = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/reference/compare_reference.json'), 'utf8')) as Reference;

export async function compareFixtures(a: string, b: string, metricA: string, metricB = metricA) {
  const paired = await pairResults(
    () => readDataset(path.join(COMPARE_FIXTURES, a)),
    () => readDataset(path.join(COMPARE_FIXTURES, b)),
  );
  if (!paired.ok) assert.fail(paired.error);
  const outcome = await compareRuns(paired.pairs, { metricA, metricB });
  if (!outcome.ok) assert.fail(outcome.error);
  return outcome;
}

describe('compare against the independent reference implementation', () => {
  for (const c of reference.cases) {
    it(`matches every figure of --json for ${c.name}`, async () => {
      const { report } = await compareFixtures(c.a, c.b, c.metric, c.metric_b);
      const json = compareJson(report);
      assert.deepEqual(Object.keys(json), ['n', 'agreement', 'cohen_kappa', 'flipped', 'flips', 'mean_shift', 'human']);
      assertClose(json, c.expected, c.name);
    });
  }

  it("computes McNemar's exact p as statsmodels does, from a table with no discordant pair to thousands", () => {
    for (const t of reference.mcnemar) {
      const p = mcnemarExact(t.b, t.c);
      assert.ok(Math.abs(p - t.p) <= 1e-12 + 1e-9 * t.p, `b=${t.b} c=${t.c}: expected ${t.p}, got ${p}`);
      assert.equal(mcnemarExact(t.c, t.b), p, 'symmetric in b and c');
    }
  });

  it('draws the same mulberry32 sequence as the Python reference', () => {
    const rand = mulberry32(20240229);
    assert.deepEqual(
      reference.mulberry32_first_5.map(() => rand()),
      reference.mulberry32_first_5,
    );
  });
});
