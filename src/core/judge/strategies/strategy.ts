// How a template kind turns validated replies into result columns. The runner only knows the
// JudgeStrategy interface (types.ts), so a new kind is a new strategy, not a new runner.
import type { z } from 'zod';
import type { TemplateConfig } from '../../template/types';
import { dimensionalStrategy, type DimensionalOptions } from './dimensional';
import { isDimensional } from './dimensions';
import { isMultiCriterion } from './criteriaSchema';
import { criteriaStrategy } from './criteria';
import { pairwiseSchema, pointwiseSchema, replyJsonSchema } from './replySchema';
import type { PairwiseReply, PointwiseReply, Winner } from './replySchema';
import { extraColumn, repairInstruction, type JudgeStrategy, type PassReply } from './types';
import { isTextFormat } from '../../verdict';
import { withTextVerdict } from './textVerdict';
import { categoricalStrategy, isCategorical, withPassView } from './categorical';
import { agreement, flipRate, majorityScore, majorityWinner, mean, round6, swapWinner, voteWinner } from './votes';

export { repairInstruction, extraColumn, type JudgeStrategy, type PassOrder, type PassReply } from './types';
export { agreement, majorityScore, majorityWinner } from './votes';

/** Run options a strategy may act on; each applies only to the kinds that have the feature. */
export type StrategyOptions = DimensionalOptions;

/** Picks the strategy for a validated template config. */
export function strategyFor(config: TemplateConfig, options: StrategyOptions = {}): JudgeStrategy {
  const strategy = isDimensional(config)
    ? dimensionalStrategy(config, options)
    : isMultiCriterion(config)
      ? criteriaStrategy(config)
      : isCategorical(config)
        ? categoricalStrategy(config)
        : config.kind === 'pointwise'
          ? pointwiseStrategy(config)
          : pairwiseStrategy(config);
  // A text verdict format replaces JSON for single-verdict templates (validation refuses it with dimensions and labels).
  if (isTextFormat(config.verdict) && !isDimensional(config)) return withPassView(withTextVerdict(strategy as unknown as JudgeStrategy, config, config.verdict), config);
  return withPassView(strategy as unknown as JudgeStrategy, config);
}

interface PointJudgment {
  reply: PointwiseReply;
}

const POINT_KEYS = ['justification', 'score'] as const;

export function pointwiseStrategy(config: TemplateConfig): JudgeStrategy<PointwiseReply, PointJudgment> {
  const scale = config.scale ?? { min: 1, max: 5 };
  return {
    kind: 'pointwise',
    schema: pointwiseSchema(scale.min, scale.max, scale.continuous === true) as unknown as z.ZodType<PointwiseReply>,
    jsonSchema: replyJsonSchema(config),
    instruction: repairInstruction(config),
    orders: ['AB'],
    verdictKey: (reply) => String(reply.score),
    mapBack: (reply) => reply,
    merge: (passes) => ({ reply: passes[0]!.reply }),
    columns(judgments, samples) {
      const first = judgments[0]!.reply;
      if (samples <= 1) {
        return { score: first.score, justification: first.justification, confidence: null, ...extraColumn(first, POINT_KEYS) };
      }
      const scores = judgments.map((j) => j.reply.score);
      const score = majorityScore(scores);
      const chosen = judgments.find((j) => j.reply.score === score)!.reply;
      const m = mean(scores);
      return {
        score,
        justification: chosen.justification,
        // A pointwise reply states no confidence: with samples it is the share that gave the score.
        confidence: agreement(scores),
        score_mean: round6(m),
        score_sd: round6(Math.sqrt(scores.reduce((a, s) => a + (s - m) ** 2, 0) / scores.length)),
        flip_rate: flipRate(scores, score),
        samples: scores,
        ...extraColumn(chosen, POINT_KEYS),
      };
    },
    errorColumns: () => ({ score: null, justification: null, confidence: null }),
  };
}

export interface PairJudgment {
  winner: Winner;
  confidence: number;
  /** Null when only one pass ran (swap off). */
  consistent: boolean | null;
  justification: string;
  passes: PassReply<PairwiseReply>[];
}

const PAIR_KEYS = ['justification', 'winner', 'confidence'] as const;

/** @deprecated the one copy is votes.ts `swapWinner`. */
export const swapLabel = swapWinner;

/**
 * The position-swap rule: the same winner in both passes wins with the mean confidence; any
 * disagreement (a TIE in one pass included) is a TIE with confidence 0.5, marked inconsistent.
 */
export function mergeSwap(passes: PassReply<PairwiseReply>[]): PairJudgment {
  const [first, second] = passes;
  if (!first) throw new Error('mergeSwap needs at least one pass');
  if (!second) {
    return { winner: first.reply.winner, confidence: first.reply.confidence, consistent: null, justification: first.reply.justification, passes };
  }
  if (first.reply.winner === second.reply.winner) {
    return {
      winner: first.reply.winner,
      confidence: round6((first.reply.confidence + second.reply.confidence) / 2),
      consistent: true,
      justification: first.reply.justification,
      passes,
    };
  }
  return {
    winner: 'TIE',
    confidence: 0.5,
    consistent: false,
    justification:
      `The two orders disagreed (${first.order}: ${first.reply.winner}, ${second.order}: ${second.reply.winner} ` +
      `after mapping back), so the verdict is TIE. ${first.order} pass: ${first.reply.justification}`,
    passes,
  };
}

/**
 * `swap_rule: votes` (JudgeBench's rule): each pass's verdict, mapped back, is one vote; a TIE
 * votes for neither; more votes wins and equal votes are a TIE. The confidence is the mean of the
 * passes that gave the verdict (0.5 for a TIE no pass gave). Failed passes are not here: they abstain.
 */
export function mergeVotes(passes: PassReply<PairwiseReply>[]): PairJudgment {
  const [first, second] = passes;
  // Every order unreadable: no votes on either side, so the votes are equal (JudgeBench scores it 0).
  if (!first) return { winner: 'TIE', confidence: 0.5, consistent: null, justification: 'No order gave a readable verdict; under `swap_rule: votes` both abstain, so the verdict is TIE.', passes };
  const winner = voteWinner(passes.map((p) => p.reply.winner));
  const agreeing = passes.filter((p) => p.reply.winner === winner);
  const chosen = agreeing[0] ?? first;
  return {
    winner,
    confidence: agreeing.length > 0 ? round6(mean(agreeing.map((p) => p.reply.confidence))) : 0.5,
    consistent: second ? first.reply.winner === second.reply.winner : null,
    justification: agreeing.length > 0 ? chosen.reply.justification : `The votes of the orders cancel out (${passes.map((p) => `${p.order}: ${p.reply.winner}`).join(', ')} after mapping back), so the verdict is TIE. ${first.order} pass: ${first.reply.justification}`,
    passes,
  };
}

function passColumns(passes: PassReply<PairwiseReply>[], sample?: number): Record<string, unknown>[] {
  return passes.map((p) => ({
    ...(sample !== undefined ? { sample } : {}),
    order: p.order,
    winner: p.reply.winner,
    confidence: p.reply.confidence,
    justification: p.reply.justification,
  }));
}

export function pairwiseStrategy(config: TemplateConfig): JudgeStrategy<PairwiseReply, PairJudgment> {
  return {
    kind: 'pairwise',
    schema: pairwiseSchema as unknown as z.ZodType<PairwiseReply>,
    jsonSchema: replyJsonSchema(config),
    instruction: repairInstruction(config),
    orders: config.model.swap === false ? ['AB'] : ['AB', 'BA'],
    verdictKey: (reply) => reply.winner,
    mapBack: (reply, order) => (order === 'BA' ? { ...reply, winner: swapWinner(reply.winner) } : reply),
    merge: config.swap_rule === 'votes' ? mergeVotes : mergeSwap,
    ...(config.swap_rule === 'votes' ? { abstain: true } : {}),
    columns(judgments, samples) {
      if (samples <= 1) {
        const j = judgments[0]!;
        return {
          pairwise_choice: j.winner,
          justification: j.justification,
          confidence: j.confidence,
          position_consistent: j.consistent,
          passes: passColumns(j.passes),
          ...(j.passes[0] ? extraColumn(j.passes[0].reply, PAIR_KEYS) : {}),
        };
      }
      const winners = judgments.map((j) => j.winner);
      const winner = majorityWinner(winners);
      const agreeing = judgments.filter((j) => j.winner === winner);
      const chosen = agreeing[0] ?? judgments[0]!;
      const consistency = judgments.map((j) => j.consistent);
      return {
        pairwise_choice: winner,
        justification: chosen.justification,
        // One meaning everywhere (seed 3): the judge's stated confidence, averaged over the samples
        // that gave the verdict; a split vote that no sample gave is 0.5, like an inconsistent swap.
        confidence: agreeing.length > 0 ? round6(mean(agreeing.map((j) => j.confidence))) : 0.5,
        sample_agreement: agreement(winners),
        flip_rate: flipRate(winners, winner),
        position_consistent: consistency.includes(null) ? null : consistency.every(Boolean),
        passes: judgments.flatMap((j, i) => passColumns(j.passes, i + 1)),
        samples: winners,
        ...(chosen.passes[0] ? extraColumn(chosen.passes[0].reply, PAIR_KEYS) : {}),
      };
    },
    errorColumns: (finished) => ({
      pairwise_choice: null,
      justification: null,
      confidence: null,
      position_consistent: null,
      passes: passColumns(finished),
    }),
  };
}
