// How a template kind turns validated replies into result columns. The runner only knows this
// interface, so a new kind (e.g. multi-dimension HHH pairwise) is a new strategy, not a new runner.
import type { z } from 'zod';
import type { TemplateConfig } from '../template/types';
import { dimensionalStrategy, type DimensionalOptions } from './dimensionalStrategy';
import { isDimensional } from './dimensions';
import { outputInstruction, pairwiseSchema, pointwiseSchema, replyJsonSchema } from './replySchema';
import type { PairwiseReply, PointwiseReply, Winner } from './replySchema';

/** AB renders the row as given; BA renders it with responses A and B exchanged. */
export type PassOrder = 'AB' | 'BA';

export interface PassReply<R> {
  order: PassOrder;
  /** Already mapped back to the original labels. */
  reply: R;
  /** A schema-valid reply replaced after the strategy's follow-up, mapped back likewise. */
  superseded?: R;
}

export interface JudgeStrategy<R extends Record<string, unknown> = Record<string, unknown>, J = unknown> {
  readonly kind: string;
  /** Validates one reply (zod issues become the repair request's error text). */
  readonly schema: z.ZodType<R>;
  /** Sent as `response_format: {type: "json_schema"}`. */
  readonly jsonSchema: Record<string, unknown>;
  /** Restates the expected reply in a repair request. */
  readonly instruction: string;
  /** The orders one judgment renders, in the order passes are reported. */
  readonly orders: readonly PassOrder[];
  /** A reply to the prompt rendered in `order`, restated in the original labels. */
  mapBack(reply: R, order: PassOrder): R;
  /**
   * Optional check of a schema-valid reply as the judge wrote it (before mapBack): a message here
   * is sent once as a follow-up, and a valid answer to it replaces the reply (kept as `superseded`).
   */
  followUp?(reply: R, order: PassOrder): string | null;
  /** One judgment from all its passes, in `orders` order. */
  merge(passes: PassReply<R>[]): J;
  /** The metric columns (no `metric/` prefix) from one judgment per sample. */
  columns(judgments: J[], samples: number): Record<string, unknown>;
  /** Columns of a failed row: verdict columns null, plus whatever finished (e.g. one pass). */
  errorColumns(finished: PassReply<R>[]): Record<string, unknown>;
}

/** Run options a strategy may act on; each applies only to the kinds that have the feature. */
export type StrategyOptions = DimensionalOptions;

/** Picks the strategy for a validated template config. */
export function strategyFor(config: TemplateConfig, options: StrategyOptions = {}): JudgeStrategy {
  const strategy = isDimensional(config)
    ? dimensionalStrategy(config, options)
    : config.kind === 'pointwise'
      ? pointwiseStrategy(config)
      : pairwiseStrategy(config);
  return strategy as unknown as JudgeStrategy;
}

/** The expected reply restated in a repair request (shared by every strategy). */
export function repairInstruction(config: TemplateConfig): string {
  // Drop the "# Output format" heading: in a repair message it would read as a new section.
  return outputInstruction(config).replace(/^#[^\n]*\n+/, '');
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Reply fields a template added beyond the default ones, carried into the results as columns. */
function extras(reply: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(reply).filter(([k]) => !known.includes(k)));
}

/** Most frequent value; ties go to the value nearest the mean, then the smaller one. */
export function majorityScore(scores: number[]): number {
  const counts = new Map<number, number>();
  for (const s of scores) counts.set(s, (counts.get(s) ?? 0) + 1);
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  return [...counts.entries()].sort(
    ([a, ca], [b, cb]) => cb - ca || Math.abs(a - mean) - Math.abs(b - mean) || a - b,
  )[0]![0];
}

/** Most frequent winner; no single most frequent one means TIE. */
export function majorityWinner(winners: Winner[]): Winner {
  const counts = new Map<Winner, number>();
  for (const w of winners) counts.set(w, (counts.get(w) ?? 0) + 1);
  const sorted = [...counts.entries()].sort(([, a], [, b]) => b - a);
  if (sorted.length > 1 && sorted[0]![1] === sorted[1]![1]) return 'TIE';
  return sorted[0]![0];
}

/** Share of samples that gave the most common answer (a split vote counts its largest group). */
export function agreement<T>(values: T[]): number {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return round(Math.max(...counts.values()) / values.length);
}

interface PointJudgment {
  reply: PointwiseReply;
}

const POINT_KEYS = ['justification', 'score'] as const;

export function pointwiseStrategy(config: TemplateConfig): JudgeStrategy<PointwiseReply, PointJudgment> {
  const scale = config.scale ?? { min: 1, max: 5 };
  return {
    kind: 'pointwise',
    schema: pointwiseSchema(scale.min, scale.max) as unknown as z.ZodType<PointwiseReply>,
    jsonSchema: replyJsonSchema(config),
    instruction: repairInstruction(config),
    orders: ['AB'],
    mapBack: (reply) => reply,
    merge: (passes) => ({ reply: passes[0]!.reply }),
    columns(judgments, samples) {
      const first = judgments[0]!.reply;
      if (samples <= 1) {
        return { ...extras(first, POINT_KEYS), score: first.score, justification: first.justification, confidence: null };
      }
      const scores = judgments.map((j) => j.reply.score);
      const score = majorityScore(scores);
      const chosen = judgments.find((j) => j.reply.score === score)!.reply;
      return {
        ...extras(chosen, POINT_KEYS),
        score,
        justification: chosen.justification,
        confidence: agreement(scores),
        score_mean: round(scores.reduce((a, b) => a + b, 0) / scores.length),
        samples: scores,
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

export function swapLabel(winner: Winner): Winner {
  return winner === 'A' ? 'B' : winner === 'B' ? 'A' : 'TIE';
}

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
      confidence: round((first.reply.confidence + second.reply.confidence) / 2),
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
    mapBack: (reply, order) => (order === 'BA' ? { ...reply, winner: swapLabel(reply.winner) } : reply),
    merge: mergeSwap,
    columns(judgments, samples) {
      if (samples <= 1) {
        const j = judgments[0]!;
        return {
          ...extras(j.passes[0]!.reply, PAIR_KEYS),
          pairwise_choice: j.winner,
          justification: j.justification,
          confidence: j.confidence,
          position_consistent: j.consistent,
          passes: passColumns(j.passes),
        };
      }
      const winners = judgments.map((j) => j.winner);
      const winner = majorityWinner(winners);
      const chosen = judgments.find((j) => j.winner === winner) ?? judgments[0]!;
      const consistency = judgments.map((j) => j.consistent);
      return {
        ...extras(chosen.passes[0]!.reply, PAIR_KEYS),
        pairwise_choice: winner,
        justification: chosen.justification,
        confidence: agreement(winners),
        position_consistent: consistency.includes(null) ? null : consistency.every(Boolean),
        passes: judgments.flatMap((j, i) => passColumns(j.passes, i + 1)),
        samples: winners,
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
