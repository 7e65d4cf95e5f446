// The judge strategy of a multi-criterion pointwise template: one reply scores every criterion
// (evidence, justification, score, improvement each), and the overall score is the weighted mean.
import type { z } from 'zod';
import { normalisedWeights } from '../../template/criteria';
import type { Criterion, TemplateConfig } from '../../template/types';
import { criteriaJsonSchema, criteriaReplySchema, type CriteriaReply } from './criteriaSchema';
import { extraColumn, repairInstruction, type JudgeStrategy } from './types';
import { agreement, flipRate, majorityScore, mean, round6 } from './votes';

export interface CriteriaJudgment {
  reply: CriteriaReply;
}

const REPLY_KEYS = ['criteria', 'summary'] as const;

/**
 * Σ weightᵢ·scoreᵢ with the weights normalised to sum to 1, to six decimals (like every figure
 * in a results file). Unrounded otherwise: 3.6 stays 3.6.
 */
export function weightedScore(criteria: readonly Criterion[], scores: Readonly<Record<string, number>>): number {
  const weights = normalisedWeights(criteria);
  return round6(criteria.reduce((sum, c, i) => sum + (weights[i] ?? 0) * (scores[c.name] ?? Number.NaN), 0));
}

/** The integer view of an overall score: round half away from zero (2.5 → 3, 3.5 → 4). */
export function roundOverall(score: number): number {
  // Rounding the six-decimal figure again keeps 2.4999999999 (a float artefact) at 2.5.
  const x = round6(score);
  return Math.sign(x) * Math.round(Math.abs(x));
}

function criterionColumns(config: TemplateConfig, reply: CriteriaReply, scores: Record<string, number>) {
  const criteria = config.criteria ?? [];
  const weights = normalisedWeights(criteria);
  const overall = weightedScore(criteria, scores);
  const flat: Record<string, number> = {};
  const detail: Record<string, Record<string, unknown>> = {};
  criteria.forEach((c, i) => {
    const v = reply.criteria[c.name]!;
    flat[`score_${c.name}`] = scores[c.name]!;
    detail[c.name] = {
      score: scores[c.name],
      weight: round6(weights[i] ?? 0),
      evidence: v.evidence,
      justification: v.justification,
      improvement: v.improvement,
    };
  });
  return { score: overall, score_rounded: roundOverall(overall), ...flat, criteria: detail };
}

export function criteriaStrategy(config: TemplateConfig): JudgeStrategy<CriteriaReply, CriteriaJudgment> {
  const criteria = config.criteria ?? [];
  const names = criteria.map((c) => c.name);
  return {
    kind: 'pointwise-criteria',
    schema: criteriaReplySchema(config) as z.ZodType<CriteriaReply>,
    jsonSchema: criteriaJsonSchema(config),
    instruction: repairInstruction(config),
    orders: ['AB'],
    verdictKey: (reply) => names.map((n) => `${n}=${reply.criteria[n]?.score}`).join(','),
    mapBack: (reply) => reply,
    merge: (passes) => ({ reply: passes[0]!.reply }),
    columns(judgments, samples) {
      const scoresOf = (r: CriteriaReply) => Object.fromEntries(names.map((n) => [n, r.criteria[n]!.score]));
      const first = judgments[0]!.reply;
      if (samples <= 1) {
        return { ...criterionColumns(config, first, scoresOf(first)), justification: first.summary, confidence: null, ...extraColumn(first, REPLY_KEYS) };
      }
      // Several samples: each criterion's majority score; its texts come from the first sample
      // that gave that score. The overall is weighed from those majorities.
      const majority: Record<string, number> = {};
      const chosen: CriteriaReply = { criteria: {}, summary: first.summary };
      for (const n of names) {
        const s = majorityScore(judgments.map((j) => j.reply.criteria[n]!.score));
        majority[n] = s;
        chosen.criteria[n] = judgments.find((j) => j.reply.criteria[n]!.score === s)!.reply.criteria[n]!;
      }
      const cols = criterionColumns(config, chosen, majority);
      const overalls = judgments.map((j) => weightedScore(criteria, scoresOf(j.reply)));
      const rounded = overalls.map(roundOverall);
      const m = mean(overalls);
      return {
        ...cols,
        justification: first.summary,
        confidence: agreement(rounded),
        score_mean: round6(m),
        score_sd: round6(Math.sqrt(overalls.reduce((a, s) => a + (s - m) ** 2, 0) / overalls.length)),
        flip_rate: flipRate(rounded, cols.score_rounded),
        samples: overalls,
        ...extraColumn(first, REPLY_KEYS),
      };
    },
    errorColumns: () => ({
      score: null,
      score_rounded: null,
      ...Object.fromEntries(names.map((n) => [`score_${n}`, null])),
      criteria: null,
      justification: null,
      confidence: null,
    }),
  };
}
