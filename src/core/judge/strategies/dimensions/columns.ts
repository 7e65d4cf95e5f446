// Results-file columns of a multi-dimension pairwise metric (design.md "Results file"), all in the
// dataset's labels: A is always the row's response A, whatever order the judge saw.
import type { DimensionalReply, RuleViolation } from './spec';
import type { MergedVerdict, PassRecord } from './swap';

/** A reply that broke a rule and was replaced after the --reask-on-violation follow-up; both are kept. */
export interface SupersededReply {
  pass: 1 | 2;
  /** In the dataset's labels (pass 2 mapped back). */
  reply: DimensionalReply;
  violations: RuleViolation[];
}

type PassColumn = Omit<PassRecord, 'pass'> & { before_follow_up?: Omit<PassRecord, 'pass' | 'order'> & { rule_violations: RuleViolation[] } };

/** One entry of `m/passes`: the pass without its number, plus the replaced reply when there was a follow-up. */
export function passColumn(p: PassRecord, superseded: SupersededReply | undefined): PassColumn {
  const { pass: _pass, ...rest } = p;
  if (!superseded) return rest;
  const r = superseded.reply;
  return {
    ...rest,
    before_follow_up: {
      winner: r.overall.winner,
      degree: r.overall.degree,
      ranking: { A: r.ranking.A, B: r.ranking.B },
      deflection: { A: r.deflection.A, B: r.deflection.B },
      justification: r.justification,
      dimensions: r.dimensions,
      rule_violations: superseded.violations,
    },
  };
}

/**
 * The metric's columns without the `m/` prefix (the engine's strategies add it). `violations` are
 * those of the replies the verdict uses (one list for both passes, each entry naming its pass);
 * replies replaced after a follow-up go in `superseded`.
 */
export function dimensionalColumnValues(
  merged: MergedVerdict,
  violations: RuleViolation[],
  superseded: SupersededReply[] = [],
): Record<string, unknown> {
  return {
    pairwise_choice: merged.winner,
    degree: merged.degree,
    ranking_a: merged.ranking_a,
    ranking_b: merged.ranking_b,
    dimensions: merged.dimensions,
    rule_violations: violations,
    justification: merged.justification,
    confidence: merged.confidence,
    dimension_agreement: merged.dimension_agreement,
    position_consistent: merged.position_consistent,
    passes: merged.passes.map((p) => passColumn(p, superseded.find((s) => s.pass === p.pass))),
  };
}

/** The same columns named `${metric}/…`, as they appear in the results file. */
export function dimensionalColumns(
  metric: string,
  merged: MergedVerdict,
  violations: RuleViolation[],
  superseded: SupersededReply[] = [],
): Record<string, unknown> {
  const values = dimensionalColumnValues(merged, violations, superseded);
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [`${metric}/${key}`, value]));
}
