// The run view of a panel's results line: the panel verdict and the judge × pass table.
import * as assert from 'node:assert/strict';
import { panelAgreementText, panelView } from '../../src/extension/run/model/result';
import { runView } from '../../src/extension/run/model/view';
import { runViewSchema } from '../../src/protocol/run';

const LINE = {
  _row: 1,
  'pref/pairwise_choice': 'A',
  'pref/justification': 'A is better',
  'pref/confidence': 0.8,
  'pref/position_consistent': false,
  'pref/panel_agreement': 0.666667,
  'pref/panel_majority': true,
  'pref/model': 'a, b, c',
  'pref/judges': [
    { judge: 'a', verdict: 'A', confidence: 0.8, position_consistent: true, error_kind: null, justification: 'A wins' },
    { judge: 'b', verdict: 'TIE', confidence: 0.5, position_consistent: false, error_kind: null, justification: 'split' },
    { judge: 'c', verdict: null, confidence: null, position_consistent: null, error_kind: 'timeout', error: 'no reply in 100 ms' },
    { judge: 7 },
  ],
  'pref/passes': [
    { judge: 'a', order: 'AB', winner: 'A', confidence: 0.8, justification: 'x' },
    { judge: 'a', order: 'BA', winner: 'A', confidence: 0.8, justification: 'x' },
    { judge: 'b', order: 'AB', winner: 'A', confidence: 0.6, justification: 'y' },
    { judge: 'b', order: 'BA', winner: 'B', confidence: 0.6, justification: 'y' },
  ],
};

describe('run view of a panel row', () => {
  it('lists every judge with its passes, verdict and failure, and which judges agree', () => {
    const p = panelView(LINE, 'pref')!;
    assert.equal(p.verdict, 'A');
    assert.equal(p.agreement, 0.666667);
    assert.deepEqual(p.judges.map((j) => [j.judge, j.verdict, j.agrees, j.errorKind]), [['a', 'A', true, null], ['b', 'TIE', false, null], ['c', null, false, 'timeout']]);
    assert.deepEqual(p.judges[1]!.passes, [{ order: 'AB', winner: 'A' }, { order: 'BA', winner: 'B' }]);
    assert.equal(panelAgreementText(LINE, 'pref'), 'panel 1/3 agree');
    assert.equal(panelView({ 'pref/pairwise_choice': 'A' }, 'pref'), null);
  });

  it('puts the panel into a view the protocol accepts, passes shown per judge only', () => {
    const view = runView({
      id: 'row:1', template: { file: 't.judge', metric: 'pref', kind: 'pairwise' }, source: 'd.jsonl, row 1', note: null, model: 'a, b, c',
      time: '2026-01-01T00:00:00Z', phase: 'recorded', elapsedMs: null, passes: [], messages: [], line: LINE, scale: null, raw: [], canRerun: false,
    });
    assert.ok(runViewSchema.safeParse(view).success);
    assert.equal(view.panel?.judges.length, 3);
    assert.deepEqual(view.result?.kind === 'pairwise' ? view.result.passes : 'not pairwise', []);
  });
});

describe('batch summary of a panel run', () => {
  it('keeps the mean panel agreement for the side panel', async () => {
    const { summarize, summaryLines } = await import('../../src/extension/run/model/summary');
    const s = summarize([LINE, { ...LINE, 'pref/panel_agreement': 1 }], 'pref', 'pairwise');
    assert.equal(s.panelAgreement, 0.833);
    assert.ok(summaryLines(s).includes('panel agreement 83%'));
    assert.equal(summarize([{ 'pref/pairwise_choice': 'A' }], 'pref', 'pairwise').panelAgreement, undefined);
  });
});
