import * as assert from 'node:assert/strict';
import type { PairwiseReply } from '../../src/core/judge/strategies/replySchema';
import {
  agreement,
  majorityScore,
  majorityWinner,
  mergeSwap,
  pairwiseStrategy,
  pointwiseStrategy,
} from '../../src/core/judge/strategies/strategy';
import type { PassReply } from '../../src/core/judge/strategies/strategy';
import type { TemplateConfig } from '../../src/core/template/types';

const pairConfig: TemplateConfig = { name: 'pref', kind: 'pairwise', model: { swap: true } };
const pointConfig: TemplateConfig = { name: 'q', kind: 'pointwise', scale: { min: 1, max: 5 }, model: { swap: true } };

function pass(order: 'AB' | 'BA', winner: PairwiseReply['winner'], confidence: number, justification = `${order} says ${winner}`): PassReply<PairwiseReply> {
  return { order, reply: { winner, confidence, justification } };
}

describe('position swap rule', () => {
  const strategy = pairwiseStrategy(pairConfig);

  it('maps a swapped pass back: B in the BA order is A in the original order', () => {
    assert.equal(strategy.mapBack({ winner: 'B', confidence: 0.6, justification: '' }, 'BA').winner, 'A');
    assert.equal(strategy.mapBack({ winner: 'A', confidence: 0.6, justification: '' }, 'BA').winner, 'B');
    assert.equal(strategy.mapBack({ winner: 'TIE', confidence: 0.6, justification: '' }, 'BA').winner, 'TIE');
    assert.equal(strategy.mapBack({ winner: 'A', confidence: 0.6, justification: '' }, 'AB').winner, 'A');
  });

  it('keeps a consistent winner with the mean confidence (the worked example: 0.8 and 0.6 give 0.7)', () => {
    const mapped = strategy.mapBack({ winner: 'A', confidence: 0.6, justification: 'x' }, 'BA');
    const j = mergeSwap([pass('AB', 'B', 0.8), { order: 'BA', reply: mapped }]);
    assert.equal(j.winner, 'B');
    assert.equal(j.confidence, 0.7);
    assert.equal(j.consistent, true);
    assert.equal(j.justification, 'AB says B');
  });

  it('turns disagreeing passes into a TIE with confidence 0.5', () => {
    const j = mergeSwap([pass('AB', 'A', 0.9), pass('BA', 'B', 0.9)]);
    assert.deepEqual([j.winner, j.confidence, j.consistent], ['TIE', 0.5, false]);
    assert.match(j.justification, /AB: A, BA: B/);
  });

  it('counts a TIE in only one pass as a disagreement', () => {
    const j = mergeSwap([pass('AB', 'TIE', 0.4), pass('BA', 'A', 0.9)]);
    assert.deepEqual([j.winner, j.confidence, j.consistent], ['TIE', 0.5, false]);
  });

  it('treats TIE in both passes as consistent, with the mean confidence', () => {
    const j = mergeSwap([pass('AB', 'TIE', 0.4), pass('BA', 'TIE', 0.8)]);
    assert.deepEqual([j.winner, j.confidence, j.consistent], ['TIE', 0.6, true]);
  });

  it('reports both passes in the result columns', () => {
    const cols = strategy.columns([mergeSwap([pass('AB', 'B', 0.8), pass('BA', 'B', 0.6)])], 1);
    assert.deepEqual(cols, {
      pairwise_choice: 'B',
      justification: 'AB says B',
      confidence: 0.7,
      position_consistent: true,
      passes: [
        { order: 'AB', winner: 'B', confidence: 0.8, justification: 'AB says B' },
        { order: 'BA', winner: 'B', confidence: 0.6, justification: 'BA says B' },
      ],
    });
  });

  it('runs a single pass when the template turns swap off', () => {
    const single = pairwiseStrategy({ ...pairConfig, model: { swap: false } });
    assert.deepEqual(single.orders, ['AB']);
    const cols = single.columns([single.merge([pass('AB', 'A', 0.9)])], 1);
    assert.equal(cols.pairwise_choice, 'A');
    assert.equal(cols.confidence, 0.9);
    assert.equal(cols.position_consistent, null);
  });

  it('takes the majority winner over samples; confidence keeps the judge\'s stated meaning, agreement has its own column', () => {
    const j = (w: PairwiseReply['winner']) => mergeSwap([pass('AB', w, 0.9), pass('BA', w, 0.7)]);
    const cols = strategy.columns([j('A'), j('B'), j('A')], 3);
    assert.equal(cols.pairwise_choice, 'A');
    assert.equal(cols.confidence, 0.8, 'the mean stated confidence of the samples that gave the verdict');
    assert.equal(cols.sample_agreement, 0.666667);
    assert.equal(cols.flip_rate, 0.333333);
    assert.equal(strategy.columns([j('A'), j('B')], 2).confidence, 0.5, 'a split vote no sample gave is 0.5');
    assert.deepEqual(cols.samples, ['A', 'B', 'A']);
    assert.equal((cols.passes as unknown[]).length, 6);
  });
});

describe('pointwise columns', () => {
  const strategy = pointwiseStrategy(pointConfig);

  it('reports a single judgment with a null confidence and keeps extra reply fields', () => {
    const cols = strategy.columns([strategy.merge([{ order: 'AB', reply: { justification: 'j', score: 4, evidence: ['e'] } }])], 1);
    assert.deepEqual(cols, { extra: { evidence: ['e'] }, score: 4, justification: 'j', confidence: null });
  });

  it('reports the majority score, the mean and the agreement over samples', () => {
    const js = [4, 4, 2].map((score) => strategy.merge([{ order: 'AB', reply: { justification: `s${score}`, score } }]));
    const cols = strategy.columns(js, 3);
    assert.equal(cols.score, 4);
    assert.equal(cols.score_mean, 3.333333);
    assert.equal(cols.confidence, 0.666667);
    assert.equal(cols.flip_rate, 0.333333);
    assert.equal(cols.score_sd, 0.942809);
    assert.equal(cols.justification, 's4');
  });

  it('validates replies strictly: a string score or a score outside the scale is rejected', () => {
    assert.equal(strategy.schema.safeParse({ justification: 'j', score: '4' }).success, false);
    assert.equal(strategy.schema.safeParse({ justification: 'j', score: 6 }).success, false);
    assert.equal(strategy.schema.safeParse({ justification: 'j', score: 4.5 }).success, false);
    assert.equal(strategy.schema.safeParse({ justification: 'j', score: 5 }).success, true);
  });
});

describe('majority helpers', () => {
  it('breaks a score tie toward the mean, then toward the score sampled first: never by direction', () => {
    assert.equal(majorityScore([1, 1, 4, 4, 3]), 4);
    assert.equal(majorityScore([2, 4]), 2);
    assert.equal(majorityScore([4, 2]), 4);
    assert.equal(majorityScore([5, 1, 1, 5]), 5);
  });

  it('calls a split winner vote a TIE', () => {
    assert.equal(majorityWinner(['A', 'B']), 'TIE');
    assert.equal(majorityWinner(['A', 'A', 'B']), 'A');
  });

  it('measures agreement as the share of the largest group', () => {
    assert.equal(agreement(['A', 'B']), 0.5);
    assert.equal(agreement([3, 3, 3]), 1);
  });
});
