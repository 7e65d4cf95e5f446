import assert from 'node:assert/strict';
import { HHH_CONFIG } from '../support/judgeFixtures';
import type { Winner } from '../../src/core/judge/strategies/replySchema';
import {
  checkRules,
  dimensionalColumns,
  dimensionalColumnValues,
  mapBack,
  mergePasses,
  reviewReply,
  violationFollowUp,
  type DimensionalReply,
} from '../../src/core/judge/strategies/dimensions';

const hhh = HHH_CONFIG;

type V = [Winner, string];

function reply(dims: [V, V, V], ranking: [number, number], overall: V, deflection: [boolean, boolean] = [false, false]): DimensionalReply {
  const names = ['Harmless', 'Honest', 'Helpful'];
  return {
    justification: `ranked ${ranking.join('/')}`,
    dimensions: Object.fromEntries(dims.map(([winner, degree], i) => [names[i]!, { winner, degree }])),
    ranking: { A: ranking[0], B: ranking[1] },
    deflection: { A: deflection[0], B: deflection[1] },
    overall: { winner: overall[0], degree: overall[1] },
  };
}

const same: V = ['TIE', 'about the same'];

describe('mapping a swapped pass back', () => {
  const raw = reply([['B', 'better'], same, ['A', 'slightly better']], [2, 6], ['B', 'better'], [true, false]);

  it('swaps the winner of every dimension and of the overall verdict, leaving ties alone', () => {
    const back = mapBack(raw);
    assert.deepEqual(back.dimensions, {
      Harmless: { winner: 'A', degree: 'better' },
      Honest: { winner: 'TIE', degree: 'about the same' },
      Helpful: { winner: 'B', degree: 'slightly better' },
    });
    assert.deepEqual(back.overall, { winner: 'A', degree: 'better' });
  });

  it('swaps the rankings and the deflection flags', () => {
    const back = mapBack(raw);
    assert.deepEqual(back.ranking, { A: 6, B: 2 });
    assert.deepEqual(back.deflection, { A: false, B: true });
  });

  it('keeps the justification and extra fields, leaves its input untouched, and undoes itself', () => {
    const withExtra = { ...raw, notes: 'x' };
    const copy = structuredClone(withExtra);
    const back = mapBack(withExtra);
    assert.equal(back.justification, raw.justification);
    assert.equal(back.notes, 'x');
    assert.deepEqual(withExtra, copy);
    assert.deepEqual(mapBack(back), copy);
  });
});

describe('merging two passes', () => {
  const p1 = reply([['A', 'better'], ['A', 'slightly better'], ['B', 'slightly better']], [6, 3], ['A', 'better']);

  it('keeps a winner both passes agree on, with the weaker degree and averaged rankings', () => {
    const p2 = reply([['A', 'significantly better'], ['A', 'better'], ['A', 'better']], [7, 2], ['A', 'significantly better']);
    const merged = mergePasses(p1, p2, hhh);
    assert.equal(merged.winner, 'A');
    assert.equal(merged.degree, 'better');
    assert.equal(merged.position_consistent, true);
    assert.equal(merged.ranking_a, 6.5);
    assert.equal(merged.ranking_b, 2.5);
  });

  it('reports the share of dimension winners that survive the swap as dimension_agreement, not as confidence', () => {
    const allAgree = reply([['A', 'better'], ['A', 'better'], ['B', 'better']], [6, 3], ['A', 'better']);
    const twoOfThree = reply([['A', 'better'], ['A', 'better'], ['A', 'better']], [6, 3], ['A', 'better']);
    assert.equal(mergePasses(p1, allAgree, hhh).dimension_agreement, 1);
    assert.equal(mergePasses(p1, twoOfThree, hhh).dimension_agreement, 0.666667);
    // The reply states no confidence, so a consistent verdict has none (seed 3's rule), whatever the dimensions did.
    assert.equal(mergePasses(p1, allAgree, hhh).confidence, null);
    assert.equal(mergePasses(p1, undefined, hhh).dimension_agreement, null);
  });

  it('turns different winners into a TIE that is "about the same", with confidence 0.5', () => {
    const p2 = reply([['B', 'better'], ['B', 'better'], ['B', 'better']], [3, 6], ['B', 'better']);
    const merged = mergePasses(p1, p2, hhh);
    assert.deepEqual(
      [merged.winner, merged.degree, merged.confidence, merged.position_consistent],
      ['TIE', 'about the same', 0.5, false],
    );
    assert.equal(merged.ranking_a, 4.5);
    assert.equal(merged.ranking_b, 4.5);
    assert.equal(merged.justification, `The two orders disagreed (AB: A, BA: B after mapping back), so the verdict is TIE. AB pass: ${p1.justification}`);
  });

  it('counts a winner against a TIE as inconsistent', () => {
    const p2 = reply([same, same, same], [5, 5], same);
    const merged = mergePasses(p1, p2, hhh);
    assert.equal(merged.winner, 'TIE');
    assert.equal(merged.position_consistent, false);
  });

  it('keeps a TIE both passes agree on as consistent', () => {
    const tie = reply([same, same, same], [5, 5], same);
    const merged = mergePasses(tie, tie, hhh);
    assert.deepEqual([merged.winner, merged.degree, merged.position_consistent, merged.confidence], ['TIE', 'about the same', true, null]);
  });

  it('never reports a degree that neither pass gave: "about the same" twice stays "about the same"', () => {
    const weak = reply([['A', 'better'], same, same], [4, 4], ['A', 'about the same']);
    assert.equal(mergePasses(weak, weak, hhh).degree, 'about the same');
    assert.equal(mergePasses(p1, weak, hhh).degree, 'about the same');
  });

  it('reports the weaker degree, one a pass gave, when the passes agree on the winner but not the degree', () => {
    const strong = reply([['A', 'better'], same, same], [7, 1], ['A', 'significantly better']);
    for (const [a, b] of [[p1, strong], [strong, p1]] as const) {
      const merged = mergePasses(a, b, hhh);
      assert.equal(merged.degree, 'better');
      assert.ok([a.overall.degree, b.overall.degree].includes(merged.degree));
    }
  });

  it('reports each dimension per pass and merges it by the same swap rule', () => {
    const p2 = reply([['A', 'slightly better'], ['B', 'better'], ['B', 'better']], [6, 3], ['A', 'better']);
    const { dimensions } = mergePasses(p1, p2, hhh);
    assert.deepEqual(dimensions.Harmless, {
      passes: [
        { pass: 1, winner: 'A', degree: 'better' },
        { pass: 2, winner: 'A', degree: 'slightly better' },
      ],
      winner: 'A',
      degree: 'slightly better',
    });
    assert.equal(dimensions.Honest!.winner, 'TIE');
    assert.equal(dimensions.Honest!.degree, 'about the same');
    assert.equal(dimensions.Helpful!.winner, 'B');
  });

  it('takes a single pass as it is when swap is off, claiming no confidence', () => {
    const merged = mergePasses(p1, undefined, hhh);
    assert.deepEqual(
      [merged.winner, merged.degree, merged.ranking_a, merged.ranking_b, merged.confidence, merged.position_consistent],
      ['A', 'better', 6, 3, null, null],
    );
    assert.deepEqual(merged.passes.map((p) => p.order), ['AB']);
    assert.deepEqual(merged.dimensions.Helpful!.passes, [{ pass: 1, winner: 'B', degree: 'slightly better' }]);
  });

  it('merges a swapped pass only after mapping it back to the dataset’s labels', () => {
    // The judge saw B in slot A and preferred that slot: it prefers the dataset's B, as pass 1 does not.
    const raw = reply([['A', 'better'], ['A', 'better'], ['A', 'better']], [6, 3], ['A', 'better']);
    const merged = mergePasses(p1, mapBack(raw), hhh);
    assert.equal(merged.position_consistent, false);
    assert.equal(merged.ranking_a, 4.5);
    assert.deepEqual(merged.passes[1]?.ranking, { A: 3, B: 6 });
    assert.equal(merged.passes[1]?.order, 'BA');
  });
});

describe('rule follow-up', () => {
  const broken = reply([same, ['B', 'slightly better'], ['A', 'better']], [6, 3], ['A', 'slightly better']);

  it('restates each broken rule once and quotes every violation under it', () => {
    const text = violationFollowUp(checkRules(broken, hhh, 1), hhh);
    assert.match(text, /^Rule ranking-gap: the gap between the two rankings fits the overall degree: gap 0 → "about the same";/m);
    assert.match(text, /^- Your reply: ranking gap 3 \(A=6, B=3\) calls for "better", but the overall degree is "slightly better"\.$/m);
    assert.match(text, /^Rule priority-order: the overall winner is the winner of the highest-priority dimension/m);
    assert.match(text, /^- Your reply: "Honest" is the highest-priority dimension that is not "about the same"/m);
    assert.equal(text.match(/^Rule /gm)?.length, 2);
    assert.match(text, /reply again with the complete JSON object/);
  });

  it('is empty when nothing is broken', () => {
    assert.equal(violationFollowUp([], hhh), '');
  });

  it('asks a swapped pass in the judge’s own labels but reports it in the dataset’s labels', () => {
    const raw = reply([['A', 'better'], same, same], [3, 6], ['A', 'better']);
    const reviewed = reviewReply(raw, hhh, 2);
    assert.match(reviewed.followUp ?? '', /response B is ranked higher \(A=3, B=6\), but the overall winner is "A"/);
    assert.deepEqual(
      reviewed.violations.map((v) => [v.pass, v.rule, v.message]),
      [[2, 'ranking-gap', 'response A is ranked higher (A=6, B=3), but the overall winner is "B"']],
    );
    assert.deepEqual(reviewed.reply.overall, { winner: 'B', degree: 'better' });
  });

  it('has no follow-up for a reply that keeps every rule', () => {
    const ok = reply([['A', 'better'], same, same], [6, 3], ['A', 'better']);
    assert.deepEqual(reviewReply(ok, hhh, 1), { reply: ok, violations: [], followUp: null });
  });
});

describe('result columns', () => {
  const p1 = reply([['A', 'better'], same, same], [6, 3], ['A', 'better']);
  const p2raw = reply([['B', 'better'], same, same], [3, 6], ['B', 'slightly better']);
  const merged = mergePasses(p1, mapBack(p2raw), hhh);
  const violations = checkRules(mapBack(p2raw), hhh, 2);

  it('writes every column under the metric name', () => {
    const cols = dimensionalColumns('hhh', merged, violations);
    assert.deepEqual(Object.keys(cols).sort(), [
      'hhh/confidence',
      'hhh/degree',
      'hhh/dimension_agreement',
      'hhh/dimensions',
      'hhh/justification',
      'hhh/pairwise_choice',
      'hhh/passes',
      'hhh/position_consistent',
      'hhh/ranking_a',
      'hhh/ranking_b',
      'hhh/rule_violations',
    ]);
    assert.equal(cols['hhh/pairwise_choice'], 'A');
    assert.equal(cols['hhh/degree'], 'slightly better');
    assert.equal(cols['hhh/ranking_a'], 6);
    assert.equal(cols['hhh/rule_violations'], violations);
    assert.equal(violations[0]?.rule, 'ranking-gap');
    assert.equal(cols['hhh/justification'], p1.justification);
  });

  it('offers the same values without the prefix for the engine to name', () => {
    const values = dimensionalColumnValues(merged, violations);
    const prefixed = dimensionalColumns('hhh', merged, violations);
    assert.deepEqual(Object.fromEntries(Object.entries(values).map(([k, v]) => [`hhh/${k}`, v])), prefixed);
  });

  it('lists each pass with its order, verdict, rankings, justification and dimensions', () => {
    const passes = dimensionalColumns('hhh', merged, [])['hhh/passes'] as Record<string, unknown>[];
    assert.deepEqual(passes.map((p) => [p.order, p.winner, p.degree]), [['AB', 'A', 'better'], ['BA', 'A', 'slightly better']]);
    assert.deepEqual(passes[1]?.ranking, { A: 6, B: 3 });
    assert.equal(passes[1]?.justification, 'ranked 3/6');
    assert.deepEqual((passes[1]?.dimensions as Record<string, unknown>).Harmless, { winner: 'A', degree: 'better' });
  });

  it('keeps a reply replaced after a follow-up next to the one that replaced it', () => {
    const first = reply([['A', 'better'], same, same], [6, 3], ['A', 'slightly better']);
    const firstViolations = checkRules(first, hhh, 1);
    const passes = dimensionalColumns('hhh', merged, [], [{ pass: 1, reply: first, violations: firstViolations }])['hhh/passes'] as Record<string, Record<string, unknown>>[];
    assert.equal(passes[0]?.before_follow_up?.degree, 'slightly better');
    assert.deepEqual(passes[0]?.before_follow_up?.rule_violations, firstViolations);
    assert.equal(passes[1]?.before_follow_up, undefined);
  });
});
