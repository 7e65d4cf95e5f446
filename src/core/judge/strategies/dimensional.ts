// The judge strategy of a multi-dimension pairwise (HHH) template: every reply is checked against
// the consistency rules, pass 2 is mapped back, and the passes merge by design.md's swap rule.
// A broken rule is reported with the verdict, never turned into a failed row.
import type { z } from 'zod';
import type { TemplateConfig } from '../../template/types';
import {
  checkRules,
  dimensionalJsonSchema,
  dimensionalReplySchema,
  dimensionalSpec,
  dimensionalColumnValues,
  mapBack,
  mergePasses,
  passColumn,
  passRecord,
  reviewReply,
  type DimensionalReply,
  type MergedVerdict,
  type RuleViolation,
  type SupersededReply,
} from './dimensions';
import { extraColumn, repairInstruction } from './types';
import type { JudgeStrategy, PassOrder, PassReply } from './types';
import { agreement, flipRate, majorityWinner, mean, round6 } from './votes';

export interface DimensionalOptions {
  /** Send one follow-up quoting the broken rules when a reply breaks any (`--reask-on-violation`). */
  reaskOnViolation?: boolean;
}

export interface DimensionalJudgment {
  merged: MergedVerdict;
  /** Violations of the replies the verdict uses, in the dataset's labels, each naming its pass. */
  violations: RuleViolation[];
  /** Replies replaced after a follow-up, with their own violations. */
  superseded: SupersededReply[];
  /** Fields a template added to pass 1's reply beyond the standard ones. */
  extras: Record<string, unknown>;
}

const REPLY_KEYS = ['justification', 'dimensions', 'ranking', 'deflection', 'overall'];

function passOf(order: PassOrder): 1 | 2 {
  return order === 'AB' ? 1 : 2;
}

/** A mapped-back pass reply checked in the dataset's labels (the rules are symmetric in A and B). */
function violationsOf(reply: DimensionalReply, order: PassOrder, config: TemplateConfig): RuleViolation[] {
  return checkRules(reply, config, passOf(order));
}

function supersededOf(passes: PassReply<DimensionalReply>[], config: TemplateConfig): SupersededReply[] {
  return passes.flatMap((p) =>
    p.superseded ? [{ pass: passOf(p.order), reply: p.superseded, violations: violationsOf(p.superseded, p.order, config) }] : [],
  );
}

export function dimensionalStrategy(
  config: TemplateConfig,
  options: DimensionalOptions = {},
): JudgeStrategy<DimensionalReply, DimensionalJudgment> {
  const spec = dimensionalSpec(config);
  const none = spec.degrees[0]!;
  return {
    kind: 'pairwise-dimensional',
    schema: dimensionalReplySchema(config) as z.ZodType<DimensionalReply>,
    jsonSchema: dimensionalJsonSchema(config),
    instruction: repairInstruction(config),
    orders: config.model.swap === false ? ['AB'] : ['AB', 'BA'],
    verdictKey: (reply) => `${reply.overall.winner} ${reply.overall.degree} ${reply.ranking.A}/${reply.ranking.B}`,
    mapBack: (reply, order) => (order === 'BA' ? mapBack(reply) : reply),
    // Called on the reply as the judge wrote it, so the follow-up speaks the judge's own labels.
    ...(options.reaskOnViolation
      ? { followUp: (reply: DimensionalReply, order: PassOrder) => reviewReply(reply, config, passOf(order)).followUp }
      : {}),
    merge(passes) {
      const first = passes.find((p) => p.order === 'AB') ?? passes[0];
      if (!first) throw new Error('a multi-dimension judgment needs at least one pass');
      const second = passes.find((p) => p.order === 'BA' && p !== first);
      return {
        merged: mergePasses(first.reply, second?.reply, config),
        violations: passes.flatMap((p) => violationsOf(p.reply, p.order, config)),
        superseded: supersededOf(passes, config),
        extras: extraColumn(first.reply, REPLY_KEYS).extra ?? {},
      };
    },
    columns(judgments, samples) {
      const one = (j: DimensionalJudgment) => ({
        ...dimensionalColumnValues(j.merged, j.violations, j.superseded),
        ...(Object.keys(j.extras).length > 0 ? { extra: j.extras } : {}),
      });
      if (samples <= 1) return one(judgments[0]!);
      // Several samples: the majority winner; the details (dimensions, passes' texts) come from the
      // first sample that gave it, rankings are the mean over every sample.
      const winners = judgments.map((j) => j.merged.winner);
      const winner = majorityWinner(winners);
      const chosen = judgments.find((j) => j.merged.winner === winner);
      const consistency = judgments.map((j) => j.merged.position_consistent);
      const meanOf = (pick: (m: MergedVerdict) => number) => round6(mean(judgments.map((j) => pick(j.merged))));
      const agreeing = judgments.filter((j) => j.merged.winner === winner);
      const stated = agreeing.map((j) => j.merged.confidence).filter((c): c is number => c !== null);
      const dimensional = (each: (j: DimensionalJudgment) => Record<string, unknown>[]) =>
        judgments.flatMap((j, i) => each(j).map((entry) => ({ sample: i + 1, ...entry })));
      return {
        ...one(chosen ?? judgments[0]!),
        pairwise_choice: winner,
        // A split vote is a TIE that no sample may have said; a TIE is always the first degree.
        degree: chosen && winner !== 'TIE' ? chosen.merged.degree : none,
        ranking_a: meanOf((m) => m.ranking_a),
        ranking_b: meanOf((m) => m.ranking_b),
        // The pairwise meaning (seed 3): mean of what the verdict's samples give; a split vote is 0.5.
        confidence: agreeing.length === 0 ? 0.5 : stated.length === agreeing.length ? round6(mean(stated)) : null,
        sample_agreement: agreement(winners),
        flip_rate: flipRate(winners, winner),
        position_consistent: consistency.includes(null) ? null : consistency.every(Boolean),
        rule_violations: dimensional((j) => j.violations.map((v) => ({ ...v }))),
        passes: dimensional((j) => dimensionalColumnValues(j.merged, j.violations, j.superseded).passes as Record<string, unknown>[]),
        samples: winners,
      };
    },
    errorColumns: (finished) => ({
      pairwise_choice: null,
      degree: null,
      ranking_a: null,
      ranking_b: null,
      dimensions: null,
      // No verdict, so nothing to count against the rules; the finished passes keep their replies.
      rule_violations: null,
      justification: null,
      confidence: null,
      dimension_agreement: null,
      position_consistent: null,
      passes: finished.map((p) => {
        const pass = passOf(p.order);
        return passColumn(passRecord(p.reply, pass), supersededOf([p], config)[0]);
      }),
    }),
  };
}
