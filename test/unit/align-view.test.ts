// The align view's model: the report file is read with a schema (a hostile or stale file is an
// error, never half a view), and every message it builds passes the protocol's own check.
import * as assert from 'node:assert/strict';
import { buildAlignView, parseReport } from '../../src/extension/align/model';
import { hostMessageSchema } from '../../src/protocol/align';

const part = (accuracy: number) => ({ n: 20, failed: 0, accuracy, balanced_accuracy: accuracy, cohen_kappa: 0.5, quadratic_weighted_kappa: 0.4 });
const candidate = (id: string, kind: string, delta: number, lo: number) => ({
  id,
  kind,
  file: `x.align/${id}.judge`,
  examples: kind === 'rubric' ? [] : ['0123456789abcdef'],
  drafted_justifications: [],
  train: part(0.9),
  heldout: part(0.65 + delta),
  delta: { accuracy: delta, ci: [lo, delta + 0.1], n: 20 },
  mcnemar_p: 0.01,
  train_gain: 0.2,
  overfit: false,
  calls: 40,
  tokens: 900,
  status: 'done',
  heldout_wrong: ['fedcba9876543210'],
  notes: ['<img src=x onerror=alert(1)>'],
});
const REPORT = {
  metric: 'correct_answer',
  kind: 'pointwise',
  template: 'short_answers.judge',
  template_hash: '15c62bc2f451',
  model: 'm',
  split: { seed: 1, train: 20, heldout: 20, share: 0.5 },
  baseline: { train: part(0.75), heldout: part(0.65), calls: 40, tokens: 800 },
  candidates: [candidate('examples4', 'examples', 0.35, 0.15), candidate('rubric', 'rubric', 0, 0)],
  refused: [],
  not_run: [],
  author: { model: 'm', calls: 5, tokens: 100 },
  budget: null,
  total: { calls: 165, tokens: 3000 },
  best: 'examples4',
  train_disagreements: 5,
  skipped: { unlabelled: 0, invalid_label: 0, duplicate_key: 0, unreadable: 0 },
  method: 'paired bootstrap',
  interrupted: false,
};

describe('align view model', () => {
  it('builds a view the protocol accepts, with the best marked and the kappa of the scale', () => {
    const parsed = parseReport(JSON.stringify(REPORT));
    assert.ok(parsed.ok);
    const view = buildAlignView(parsed.report, { template: 'short_answers.judge', dir: 'short_answers.align' }, null);
    assert.ok(hostMessageSchema.safeParse({ type: 'report', view }).success);
    assert.deepEqual(view.candidates.map((c) => [c.id, c.best, c.wrong]), [['examples4', true, 1], ['rubric', false, 1]]);
    assert.equal(view.kappaName, 'quadratic-weighted κ');
    assert.equal(view.candidates[0]!.heldout?.kappa, 0.4);
    assert.equal(view.candidates[0]!.notes[0], '<img src=x onerror=alert(1)>', 'kept as text; the page sets textContent');
    assert.equal(buildAlignView(parsed.report, { template: 't', dir: 'd' }, 'nonsense').accepted, null, 'only a listed candidate can be marked accepted');
  });

  it('refuses a file that is not a report, and a candidate id that could name another file', () => {
    assert.deepEqual(parseReport('{'), { ok: false, error: 'it is not JSON' });
    const bad = parseReport(JSON.stringify({ ...REPORT, candidates: [{ ...REPORT.candidates[0], id: '../../etc/passwd' }] }));
    assert.ok(!bad.ok);
    assert.match(bad.error, /candidates\.0\.id/);
    const best = parseReport(JSON.stringify({ ...REPORT, best: 'elsewhere' }));
    assert.ok(best.ok);
    assert.equal(buildAlignView(best.report, { template: 't', dir: 'd' }, null).best, null);
  });
});
