// The calibration view of a multi-criterion judge: the overall and each criterion calibrate like
// a metric of their own (checked against the Python reference), and the switcher names the
// criterion where judge and humans disagree most.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibrateLoaded } from '../../src/extension/calibrate/load';
import { calibrationViewSchema } from '../../src/protocol/calibrate';
import { buildView } from '../../src/extension/calibrate/model';
import { roundOverall } from '../../src/core/judge/strategies/criteria';
import { CASES } from '../support/criteriaFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const REF = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'reference', 'criteria_reference.json'), 'utf8')) as {
  overall: Record<string, unknown>;
  criteria: Record<string, Record<string, unknown>>;
};

/** The fixture as a results file: the judge's per-criterion scores in the columns a run writes. */
const ROWS = CASES.map((c, i) => {
  const judge = c.judge as Record<string, number>;
  const score = 0.5 * judge.accuracy! + 0.25 * judge.clarity! + 0.25 * judge.depth!;
  const record: Record<string, unknown> = { ...c, _row: i + 1, 'q/score': score, 'q/score_rounded': roundOverall(score), 'q/model': 'm' };
  for (const [n, s] of Object.entries(judge)) record[`q/score_${n}`] = s;
  record['q/criteria'] = Object.fromEntries(Object.entries(judge).map(([n, s]) => [n, { score: s, evidence: [], justification: '', improvement: '' }]));
  return { row: i + 1, line: i + 1, record };
});

describe('calibration view of a multi-criterion judge', () => {
  it('calibrates one criterion as the metric m/<criterion>, as the Python reference does', async () => {
    const out = await calibrateLoaded({ rows: ROWS, skipped: [] }, 'q/depth', 'cases.jsonl');
    assert.ok(out.ok);
    if (!out.ok) return;
    for (const f of ['n', 'labels', 'confusion_matrix', 'accuracy', 'cohen_kappa', 'quadratic_weighted_kappa', 'spearman']) {
      const a: unknown = out.report[f as keyof typeof out.report];
      const e: unknown = REF.criteria.depth![f];
      if (typeof a === 'number' && typeof e === 'number') assert.ok(Math.abs(a - e) < 1e-9, `${f}: ${a} vs ${e}`);
      else assert.deepEqual(a, e, f);
    }
    assert.equal(out.report.skipped, 1, 'the row without a depth label');
  });

  it('calibrates the overall on its integer view, and offers every criterion with its gap to humans', async () => {
    const out = await calibrateLoaded({ rows: ROWS, skipped: [] }, 'q', 'cases.jsonl');
    assert.ok(out.ok);
    if (!out.ok) return;
    assert.deepEqual(out.report.confusion_matrix, REF.overall.confusion_matrix);
    assert.equal(out.criteria?.current, 'q');
    assert.deepEqual(out.criteria?.options.map((o) => o.metric), ['q', 'q/accuracy', 'q/clarity', 'q/depth']);
    assert.equal(out.criteria?.options.find((o) => o.label === 'clarity')?.mean_diff, REF.criteria.clarity!.mean_diff);
    assert.equal(out.criteria?.most, 'clarity');
    const view = { ...buildView({ file: '/x', display: 'x', report: out.report, notes: [], notesOmitted: 0, runView: false }), criteria: out.criteria! };
    assert.equal(calibrationViewSchema.safeParse(view).success, true);
  });

  it('offers no switcher for an ordinary metric', async () => {
    const rows = [{ row: 1, line: 1, record: { 'h/score': 3, 'h/human_rating': 3 } }];
    const out = await calibrateLoaded({ rows, skipped: [] }, 'h', 'x');
    assert.ok(out.ok && out.criteria === undefined);
  });
});
