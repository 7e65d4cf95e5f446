// The multi-dimension (HHH) judge strategy on its own: what strategyFor picks, the follow-up hook,
// merging passes into result columns (with samples and with failures).
import * as assert from 'node:assert/strict';
import { dimensionalJsonSchema, mapBack, type DimensionalReply } from '../../src/core/judge/strategies/dimensions';
import type { DimensionalJudgment } from '../../src/core/judge/strategies/dimensional';
import { strategyFor, type JudgeStrategy, type PassReply } from '../../src/core/judge/strategies/strategy';
import type { Winner } from '../../src/core/judge/strategies/winners';
import { HHH_CONFIG } from '../support/judgeFixtures';

const hhh = HHH_CONFIG;

type Strategy = JudgeStrategy<DimensionalReply, DimensionalJudgment>;
const strategy = (config = hhh, reaskOnViolation = false) => strategyFor(config, { reaskOnViolation }) as unknown as Strategy;

const same = { winner: 'TIE' as Winner, degree: 'about the same' };

/** A consistent reply in which `winner` takes Helpful and the overall verdict with the given rankings. */
function reply(winner: Winner, A: number, B: number, degree = 'better', justification = `${winner} wins`): DimensionalReply {
  const verdict = winner === 'TIE' ? same : { winner, degree };
  return {
    justification,
    dimensions: { Harmless: same, Honest: same, Helpful: verdict },
    ranking: { A, B },
    deflection: { A: false, B: false },
    overall: verdict,
  };
}

/** Both passes given in the dataset labels: pass 2 is turned into what the judge would write, then mapped back as row.ts does. */
function passes(s: Strategy, p1: DimensionalReply, p2: DimensionalReply): PassReply<DimensionalReply>[] {
  return [
    { order: 'AB', reply: s.mapBack(p1, 'AB') },
    { order: 'BA', reply: s.mapBack(mapBack(p2), 'BA') },
  ];
}

const COLUMNS = [
  'pairwise_choice',
  'degree',
  'ranking_a',
  'ranking_b',
  'dimensions',
  'rule_violations',
  'justification',
  'confidence',
  'dimension_agreement',
  'position_consistent',
  'passes',
];

describe('the multi-dimension judge strategy', () => {
  it('is picked for a pairwise template with dimensions and sends the dimensional reply schema', () => {
    const s = strategy();
    assert.equal(s.kind, 'pairwise-dimensional');
    assert.deepEqual(s.jsonSchema, dimensionalJsonSchema(hhh));
    assert.deepEqual(s.orders, ['AB', 'BA']);
    assert.ok(s.schema.safeParse(reply('A', 6, 3)).success);
    assert.ok(!s.schema.safeParse({ justification: 'j', winner: 'A', confidence: 0.9 }).success, 'a plain pairwise reply is not enough');
    assert.doesNotMatch(s.instruction, /^#/, 'the repair text has no heading of its own');
    assert.match(s.instruction, /ranking-gap:/);
    assert.equal(strategyFor({ ...hhh, dimensions: [] }).kind, 'pairwise', 'no dimensions, the plain pairwise strategy');
  });

  it('runs one pass when the template turns swap off, with no swap evidence', () => {
    const s = strategy({ ...hhh, model: { swap: false } });
    assert.deepEqual(s.orders, ['AB']);
    const columns = s.columns([s.merge([{ order: 'AB', reply: reply('A', 6, 3) }])], 1);
    assert.deepEqual([columns.pairwise_choice, columns.ranking_a, columns.confidence, columns.position_consistent], ['A', 6, null, null]);
  });

  it('asks a follow-up only with --reask-on-violation, in the labels the judge saw', () => {
    const broken = reply('A', 7, 4, 'slightly better'); // gap 3 wants "better"
    assert.equal(strategy().followUp, undefined);
    const s = strategy(hhh, true);
    assert.equal(s.followUp!(reply('A', 6, 3), 'AB'), null);
    const text = s.followUp!(broken, 'BA');
    assert.ok(text);
    assert.match(text, /^Rule ranking-gap:/m);
    assert.match(text, /- Your reply: ranking gap 3 \(A=7, B=4\) calls for "better"/);
  });

  it('reports exactly the metric columns, unprefixed, with violations of both passes in the dataset labels', () => {
    const s = strategy();
    const columns = s.columns([s.merge(passes(s, reply('B', 3, 6), reply('B', 2, 6, 'slightly better')))], 1);
    assert.deepEqual(Object.keys(columns).sort(), [...COLUMNS].sort());
    assert.deepEqual([columns.pairwise_choice, columns.degree, columns.ranking_a, columns.ranking_b], ['B', 'slightly better', 2.5, 6]);
    const violations = columns.rule_violations as { pass: number; rule: string; message: string }[];
    assert.deepEqual(violations.map((v) => [v.pass, v.rule]), [[2, 'ranking-gap']]);
    assert.match(violations[0]!.message, /\(A=2, B=6\)/, 'pass 2 quoted after mapping back');
  });

  it('keeps a reply replaced after the follow-up under before_follow_up with its own violations', () => {
    const s = strategy(hhh, true);
    const [p1, p2] = passes(s, reply('A', 6, 3), reply('A', 6, 3));
    const first = reply('A', 7, 4, 'slightly better', 'first try');
    const judgment = s.merge([p1!, { ...p2!, superseded: s.mapBack(mapBack(first), 'BA') }]);
    const columns = s.columns([judgment], 1);
    assert.deepEqual(columns.rule_violations, [], 'only the final replies count');
    const [pass1, pass2] = columns.passes as Record<string, unknown>[];
    assert.equal(pass1!.before_follow_up, undefined);
    const before = pass2!.before_follow_up as { ranking: unknown; justification: string; rule_violations: { pass: number; rule: string }[] };
    assert.deepEqual(before.ranking, { A: 7, B: 4 });
    assert.equal(before.justification, 'first try');
    assert.deepEqual(before.rule_violations.map((v) => [v.pass, v.rule]), [[2, 'ranking-gap']]);
  });

  it('carries fields a template added to the reply without letting them replace a verdict column', () => {
    const s = strategy();
    const extra = { ...reply('A', 6, 3), severity: 'low', degree: 'bogus' };
    const columns = s.columns([s.merge([{ order: 'AB', reply: extra }, { order: 'BA', reply: reply('A', 6, 3) }])], 1);
    assert.deepEqual(columns.extra, { severity: 'low', degree: 'bogus' }, 'extra reply fields go under one column, never beside the verdict');
    assert.equal(columns.severity, undefined);
    assert.equal(columns.degree, 'better');
  });

  it('takes the majority winner over samples, averages the rankings and tags violations with their sample', () => {
    const s = strategy();
    const judgments = [
      s.merge(passes(s, reply('A', 6, 3), reply('A', 6, 3))),
      s.merge(passes(s, reply('A', 5, 3, 'slightly better'), reply('A', 7, 3, 'better'))), // pass 2 gap 4: fine; pass 1 gap 2: fine
      s.merge(passes(s, reply('B', 3, 4, 'slightly better'), reply('B', 3, 6, 'slightly better'))), // pass 2 gap 3 breaks ranking-gap
    ];
    const columns = s.columns(judgments, 3);
    assert.deepEqual([columns.pairwise_choice, columns.degree, columns.confidence, columns.samples], ['A', 'better', null, ['A', 'A', 'B']]);
    assert.deepEqual([columns.sample_agreement, columns.flip_rate], [0.666667, 0.333333]);
    assert.deepEqual([columns.ranking_a, columns.ranking_b], [(6 + 6 + 3) / 3, (3 + 3 + 5) / 3].map((x) => Math.round(x * 1e6) / 1e6));
    const violations = columns.rule_violations as { sample: number; pass: number; rule: string }[];
    assert.deepEqual(violations.map((v) => [v.sample, v.pass, v.rule]), [[3, 2, 'ranking-gap']]);
    assert.deepEqual((columns.passes as { sample: number; order: string }[]).map((p) => [p.sample, p.order]), [
      [1, 'AB'],
      [1, 'BA'],
      [2, 'AB'],
      [2, 'BA'],
      [3, 'AB'],
      [3, 'BA'],
    ]);
  });

  it('calls a split vote over samples a TIE of the first degree', () => {
    const s = strategy();
    const columns = s.columns([s.merge(passes(s, reply('A', 6, 3), reply('A', 6, 3))), s.merge(passes(s, reply('B', 3, 6), reply('B', 3, 6)))], 2);
    assert.deepEqual([columns.pairwise_choice, columns.degree, columns.confidence], ['TIE', 'about the same', 0.5]);
  });

  it('leaves the verdict columns null on a failed row and keeps the pass that finished', () => {
    const s = strategy();
    const columns = s.errorColumns([{ order: 'BA', reply: s.mapBack(mapBack(reply('A', 6, 3)), 'BA') }]);
    for (const key of ['pairwise_choice', 'degree', 'ranking_a', 'ranking_b', 'dimensions', 'rule_violations', 'confidence', 'position_consistent']) {
      assert.equal(columns[key], null, key);
    }
    assert.deepEqual((columns.passes as { order: string; winner: string; ranking: unknown }[]).map((p) => [p.order, p.winner, p.ranking]), [
      ['BA', 'A', { A: 6, B: 3 }],
    ]);
  });
});
