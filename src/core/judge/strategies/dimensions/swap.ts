// Position swap for multi-dimension replies: pass 2 saw B in slot A, so its labels are mapped back
// before the two passes are merged by design.md's swap rule.
import type { TemplateConfig } from '../../../template/types';
import { round6, swapWinner } from '../votes';
import type { Winner } from '../winners';
import { degreeIndex, dimensionalSpec, type DimensionalReply, type DimensionalSpec, type DimensionVerdict, type SideValues } from './spec';


function swapVerdict(v: DimensionVerdict): DimensionVerdict {
  return { ...v, winner: swapWinner(v.winner) };
}

function swapSides<T>(s: SideValues<T>): SideValues<T> {
  return { ...s, A: s.B, B: s.A };
}

/** A pass-2 (BA order) reply in the dataset's labels: every winner, ranking and deflection swapped. Its own inverse. */
export function mapBack(reply: DimensionalReply): DimensionalReply {
  const dimensions = Object.fromEntries(Object.entries(reply.dimensions).map(([name, v]) => [name, swapVerdict(v)]));
  return {
    ...reply,
    dimensions,
    ranking: swapSides(reply.ranking),
    deflection: swapSides(reply.deflection),
    overall: swapVerdict(reply.overall),
  };
}

export interface PassVerdict {
  pass: 1 | 2;
  winner: Winner;
  degree: string;
}

export interface MergedDimension {
  passes: PassVerdict[];
  winner: Winner;
  degree: string;
}

/** One pass as kept in the results, already in the dataset's labels; `order` says what the judge saw. */
export interface PassRecord {
  pass: 1 | 2;
  order: 'AB' | 'BA';
  winner: Winner;
  degree: string;
  ranking: SideValues<number>;
  deflection: SideValues<boolean>;
  justification: string;
  dimensions: Record<string, DimensionVerdict>;
}

export interface MergedVerdict {
  winner: Winner;
  degree: string;
  /** 0.5 when the passes disagree, else null (the reply states no confidence); see `mergePasses`. */
  confidence: number | null;
  /** Share of dimensions whose winner holds across the swap; null without a swap pass. */
  dimension_agreement: number | null;
  /** null without a swap pass. */
  position_consistent: boolean | null;
  /** Pass 1's reasoning; when the passes disagree, prefixed with why the verdict is a TIE. */
  justification: string;
  ranking_a: number;
  ranking_b: number;
  dimensions: Record<string, MergedDimension>;
  passes: PassRecord[];
}

/**
 * design.md's swap rule on one verdict: the same winner in both passes stands, anything else is a
 * TIE with the first degree. When the passes agree on the winner but not on the degree, the weaker
 * of the two stands: a degree one pass gave, and the claim both orders support. Nothing is
 * invented: "about the same" from both passes stays "about the same" (and both passes are
 * reported by the degree-winner rule).
 */
function mergeVerdicts(spec: DimensionalSpec, a: DimensionVerdict, b: DimensionVerdict | undefined): DimensionVerdict {
  const none = spec.degrees[0]!;
  if (!b) return { winner: a.winner, degree: a.degree };
  if (a.winner !== b.winner || a.winner === 'TIE') return { winner: 'TIE', degree: a.winner === b.winner && a.degree === b.degree ? a.degree : none };
  return { winner: a.winner, degree: degreeIndex(spec, a.degree) <= degreeIndex(spec, b.degree) ? a.degree : b.degree };
}

/** One reply (already in the dataset's labels) as kept in `m/passes`. */
export function passRecord(reply: DimensionalReply, pass: 1 | 2): PassRecord {
  return {
    pass,
    order: pass === 1 ? 'AB' : 'BA',
    winner: reply.overall.winner,
    degree: reply.overall.degree,
    ranking: { A: reply.ranking.A, B: reply.ranking.B },
    deflection: { A: reply.deflection.A, B: reply.deflection.B },
    justification: reply.justification,
    dimensions: Object.fromEntries(Object.entries(reply.dimensions).map(([n, v]) => [n, { winner: v.winner, degree: v.degree }])),
  };
}

/**
 * The final verdict from pass 1 and the mapped-back pass 2 (omit it when swap is off). Rankings are
 * the means of the two passes. `confidence` means what it means for every pairwise template (seed
 * 3): the mean of the passes' stated confidences when consistent, 0.5 when not; this reply states
 * none, so a consistent verdict has null. How far the dimensions survive the swap is a column of
 * its own, `dimension_agreement` (null without a swap pass).
 */
export function mergePasses(p1: DimensionalReply, p2: DimensionalReply | undefined, config: TemplateConfig): MergedVerdict {
  const spec = dimensionalSpec(config);
  const overall = mergeVerdicts(spec, p1.overall, p2?.overall);
  const dimensions: Record<string, MergedDimension> = {};
  let agreeing = 0;
  for (const { name } of spec.dimensions) {
    const first = p1.dimensions[name];
    if (!first) continue;
    const second = p2?.dimensions[name];
    const passes: PassVerdict[] = [{ pass: 1, winner: first.winner, degree: first.degree }];
    if (second) passes.push({ pass: 2, winner: second.winner, degree: second.degree });
    if (second && second.winner === first.winner) agreeing++;
    dimensions[name] = { passes, ...mergeVerdicts(spec, first, second) };
  }
  const consistent = p2 ? p1.overall.winner === p2.overall.winner : null;
  const shareAgreeing = spec.dimensions.length > 0 ? agreeing / spec.dimensions.length : 1;
  const confidence = consistent === false ? 0.5 : null;
  const dimensionAgreement = p2 ? round6(shareAgreeing) : null;
  const justification =
    p2 && !consistent
      ? `The two orders disagreed (AB: ${p1.overall.winner}, BA: ${p2.overall.winner} after mapping back), so the verdict is TIE. AB pass: ${p1.justification}`
      : p1.justification;
  return {
    winner: overall.winner,
    degree: overall.degree,
    confidence,
    dimension_agreement: dimensionAgreement,
    position_consistent: consistent,
    justification,
    ranking_a: p2 ? (p1.ranking.A + p2.ranking.A) / 2 : p1.ranking.A,
    ranking_b: p2 ? (p1.ranking.B + p2.ranking.B) / 2 : p1.ranking.B,
    dimensions,
    passes: p2 ? [passRecord(p1, 1), passRecord(p2, 2)] : [passRecord(p1, 1)],
  };
}
