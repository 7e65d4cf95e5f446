// Panel aggregation rules (issue #12): a verdict only with a strict majority of the configured
// panel, the documented median, the quorum, and labels that name a judge only as much as needed.
import * as assert from 'node:assert/strict';
import { memberLabels } from '../../src/core/judge/panel/panel';
import { aggregatePanel, defaultQuorum, medianScore, strictMajority, type JudgeVote, type PanelShape } from '../../src/core/judge/panel/votes';

const vote = (judge: string, verdict: JudgeVote['verdict'], extra: Partial<JudgeVote> = {}): JudgeVote => ({
  judge,
  verdict,
  confidence: verdict === null ? null : 0.8,
  position_consistent: verdict === null ? null : true,
  error_kind: verdict === null ? 'timeout' : null,
  ...(verdict !== null ? { justification: `${judge} says ${String(verdict)}` } : { error: 'no reply within 100 ms' }),
  ...extra,
});
const PAIR: PanelShape = { kind: 'pairwise', binary: false, quorum: 2 };
const SCORE: PanelShape = { kind: 'pointwise', binary: false, quorum: 2 };
const PASS: PanelShape = { kind: 'pointwise', binary: true, quorum: 2 };

describe('panel aggregation', () => {
  it('takes a strict majority of the configured panel, counting failed judges in the denominator', () => {
    assert.equal(strictMajority(['A', 'A', 'B'], 3), 'A');
    assert.equal(strictMajority(['A', 'B'], 3), undefined, 'one failed judge: 1 of 3 is no majority');
    assert.equal(strictMajority(['A', 'A'], 4), undefined, 'half is not more than half');
    assert.equal(defaultQuorum(1), 1);
    assert.equal(defaultQuorum(4), 3);
    assert.equal(defaultQuorum(5), 3);
  });

  it('gives a pairwise verdict a majority gave, with the agreeing judges mean confidence and the share agreeing', () => {
    const v = aggregatePanel(PAIR, [vote('a', 'A', { confidence: 0.9 }), vote('b', 'B'), vote('c', 'A', { confidence: 0.7 })]);
    assert.ok(v.ok);
    assert.equal(v.columns.pairwise_choice, 'A');
    assert.equal(v.columns.confidence, 0.8);
    assert.equal(v.columns.panel_agreement, 0.666667);
    assert.equal(v.columns.justification, 'a says A');
    assert.equal((v.columns.judges as JudgeVote[]).length, 3);
  });

  it('calls a pairwise split TIE and never breaks it by list order', () => {
    const v = aggregatePanel(PAIR, [vote('a', 'A'), vote('b', 'B'), vote('c', null)]);
    assert.ok(v.ok);
    assert.equal(v.columns.pairwise_choice, 'TIE');
    assert.equal(v.columns.confidence, 0.5);
    assert.equal(v.columns.panel_majority, false);
    assert.equal(v.columns.panel_agreement, 0);
    assert.match(String(v.columns.justification), /No strict majority of the 3-judge panel \(A: 1, B: 1, failed: 1\)/);
  });

  it('fails a pass/fail row with no strict majority as no-majority, keeping every vote', () => {
    const v = aggregatePanel(PASS, [vote('a', 1), vote('b', 0), vote('c', null)]);
    assert.equal(v.ok, false);
    assert.ok(!v.ok && v.kind === 'no-majority');
    assert.equal(v.columns.score, null);
    assert.deepEqual((v.columns.judges as JudgeVote[]).map((j) => j.verdict), [1, 0, null]);
    const passed = aggregatePanel(PASS, [vote('a', 1), vote('b', 1), vote('c', 0)]);
    assert.ok(passed.ok && passed.columns.score === 1);
  });

  it('fails the row with error_kind quorum when fewer judges answer than min_judges', () => {
    const v = aggregatePanel({ ...SCORE, quorum: 3 }, [vote('a', 4), vote('b', 5), vote('c', null)]);
    assert.ok(!v.ok);
    assert.equal(v.kind, 'quorum');
    assert.match(v.error, /2 of 3 judge\(s\) answered, fewer than the quorum of 3 \(c: no reply within 100 ms\)/);
  });

  it('reports the shared reason when no judge answered for the same reason', () => {
    const v = aggregatePanel(SCORE, [vote('a', null, { error_kind: 'render' }), vote('b', null, { error_kind: 'render' })]);
    assert.ok(!v.ok && v.kind === 'render');
  });

  it('takes the median score and keeps the mean; an even count rounds by the data, then half to even', () => {
    assert.equal(medianScore([5, 1, 3]), 3);
    assert.equal(medianScore([2, 4]), 3);
    assert.equal(medianScore([1, 3, 4, 5]), 3, 'middle 3.5, mean 3.25: the lower integer is nearer the mean');
    assert.equal(medianScore([3, 4, 4, 5]), 4, 'middle 4');
    assert.equal(medianScore([2, 3, 4, 5]), 4, 'middle 3.5, mean 3.5: half to even');
    assert.equal(medianScore([2, 2, 5, 5]), 4, 'middle 3.5, mean 3.5: half to even');
    assert.equal(medianScore([1, 3, 3, 6]), 3);
    const v = aggregatePanel(SCORE, [vote('a', 2), vote('b', 5), vote('c', 5), vote('d', null)]);
    assert.ok(v.ok);
    assert.equal(v.columns.score, 5);
    assert.equal(v.columns.score_mean, 4);
    assert.equal(v.columns.panel_agreement, 0.5);
  });
});

describe('panel member labels', () => {
  it('names a judge by its model, adding @host only when two members share a model name', () => {
    assert.deepEqual(
      memberLabels([
        { model: 'llama3', baseURL: 'http://127.0.0.1:1/v1' },
        { model: 'llama3', baseURL: 'http://127.0.0.1:2/v1' },
        { model: 'qwen', baseURL: 'http://127.0.0.1:1/v1' },
      ]),
      ['llama3@127.0.0.1:1', 'llama3@127.0.0.1:2', 'qwen'],
    );
    assert.deepEqual(memberLabels([{ model: 'm', baseURL: 'http://h/v1' }, { model: 'm', baseURL: 'http://h/v1' }]), ['m@h#1', 'm@h#2']);
  });
});
