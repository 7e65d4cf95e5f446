// The run view's criteria table and tier record, read back from results lines.
import * as assert from 'node:assert/strict';
import { runViewSchema } from '../../src/protocol/run';
import { criteriaView, tiersView } from '../../src/extension/run/model/criteria';
import { resultView } from '../../src/extension/run/model/result';
import { runView } from '../../src/extension/run/model/view';

const LINE = {
  prompt: 'p',
  response: 'r',
  'q/score': 3.5,
  'q/score_rounded': 4,
  'q/score_accuracy': 3,
  'q/score_clarity': 4,
  'q/criteria': {
    accuracy: { score: 3, weight: 0.5, evidence: ['<img src=x onerror=alert(1)>'], justification: 'one error', improvement: 'fix the date' },
    clarity: { score: 4, weight: 0.5, evidence: [], justification: 'clear', improvement: 'shorter' },
  },
  'q/justification': 'summary',
  'q/confidence': null,
  'q/model': 'big',
  'q/tier': 'judge',
  'q/escalation': ['band'],
  'q/audit': false,
  'q/tiers': { screen: { model: 'small', score: 3, confidence: null }, judge: { model: 'big', score: 3.5, confidence: null }, audit_percent: 0 },
  'q/template_hash': 'abc',
};

describe('run view: criteria and tiers', () => {
  it('reads each criterion with its weight, score, evidence, justification and improvement, and the overall', () => {
    const c = criteriaView(LINE, 'q')!;
    assert.deepEqual(c.rows.map((r) => [r.name, r.weight, r.score, r.evidence.length, r.improvement]), [['accuracy', 0.5, 3, 1, 'fix the date'], ['clarity', 0.5, 4, 0, 'shorter']]);
    assert.equal(c.overall, 3.5);
    assert.equal(c.rounded, 4);
  });

  it('reads which tier decided and both verdicts', () => {
    assert.deepEqual(tiersView(LINE, 'q'), { decided: 'judge', escalation: ['band'], audited: false, screen: { model: 'small', verdict: 'score 3', error: null }, judge: { model: 'big', verdict: 'score 3.5', error: null } });
  });

  it('does not list the criteria and tier columns as other reply fields', () => {
    const r = resultView(LINE, 'q');
    assert.equal(r?.kind, 'pointwise');
    assert.deepEqual(r?.kind === 'pointwise' ? r.extras : null, []);
  });

  it('puts both into a run view the protocol accepts, and leaves them out for a plain line', () => {
    const base = { id: 'x', template: { file: null, metric: 'q', kind: 'pointwise' as const }, source: 's', note: null, model: 'big', time: '2026-01-01T00:00:00Z', phase: 'recorded' as const, elapsedMs: null, passes: [], messages: [], scale: { min: 1, max: 5 }, raw: [], canRerun: false };
    const view = runView({ ...base, line: LINE });
    assert.equal(runViewSchema.safeParse(view).success, true);
    assert.equal(view.criteria?.rows.length, 2);
    assert.equal(view.tiers?.decided, 'judge');
    const plain = runView({ ...base, line: { 'q/score': 4, 'q/justification': 'j', 'q/model': 'm' } });
    assert.equal(plain.criteria, null);
    assert.equal(plain.tiers, null);
  });
});
