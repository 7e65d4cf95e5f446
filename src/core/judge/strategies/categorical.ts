// Categorical verdicts (`labels:`): the judge answers one of the template's labels. Columns:
// `label` (never `score`: a label is not a number and calibrates as a nominal scale) and, with
// `passing_labels`, `passed`. Samples need a strict majority of one label; without it the row has
// no verdict, and `undecided` says why (the row fails as `no-majority`, like a split pass/fail panel).
// `withPassView` adds `passed` to any pointwise strategy whose template has a pass rule.
import type { z } from 'zod';
import type { TemplateConfig } from '../../template/types';
import { categoricalJsonSchema, categoricalReplySchema, type CategoricalReply } from './categoricalSchema';
import { extraColumn, repairInstruction, type JudgeStrategy } from './types';
import { agreement, flipRate } from './votes';

export { isCategorical } from './categoricalSchema';

interface LabelJudgment {
  reply: CategoricalReply;
}

const KEYS = ['justification', 'label'] as const;

export function categoricalStrategy(config: TemplateConfig & { labels: string[] }): JudgeStrategy<CategoricalReply, LabelJudgment> {
  return {
    kind: 'pointwise',
    schema: categoricalReplySchema(config.labels) as unknown as z.ZodType<CategoricalReply>,
    jsonSchema: categoricalJsonSchema(config.labels),
    instruction: repairInstruction(config),
    orders: ['AB'],
    mapBack: (reply) => reply,
    merge: (passes) => ({ reply: passes[0]!.reply }),
    columns(judgments, samples) {
      const first = judgments[0]!.reply;
      if (samples <= 1) return { label: first.label, justification: first.justification, confidence: null, ...extraColumn(first, KEYS) };
      const labels = judgments.map((j) => j.reply.label);
      const label = strictMajorityLabel(labels);
      const chosen = judgments.find((j) => j.reply.label === label)?.reply ?? first;
      return {
        label: label ?? null,
        justification: label === undefined ? null : chosen.justification,
        // A label states no confidence: with samples it is the share that gave the label.
        confidence: label === undefined ? null : agreement(labels),
        sample_agreement: agreement(labels),
        ...(label !== undefined ? { flip_rate: flipRate(labels, label) } : {}),
        samples: labels,
        ...extraColumn(chosen, KEYS),
      };
    },
    undecided(judgments, samples) {
      if (samples <= 1) return undefined;
      const labels = judgments.map((j) => j.reply.label);
      if (strictMajorityLabel(labels) !== undefined) return undefined;
      return `no strict majority of the ${samples} samples (${tally(labels)}), so there is no label`;
    },
    errorColumns: () => ({ label: null, justification: null, confidence: null }),
  };
}

/** The label more than half the voters gave, else undefined. */
export function strictMajorityLabel(labels: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  for (const [l, n] of counts) if (n * 2 > labels.length) return l;
  return undefined;
}

function tally(labels: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].map(([l, n]) => `${JSON.stringify(l)}: ${n}`).join(', ');
}

/**
 * The pass/fail view of a verdict, when the template declares one: `passing_labels` for labels,
 * `pass_threshold` for scores (a row passes when its score is at least the threshold, as OpenAI's
 * graders and promptfoo compare). Null when there is no verdict; nothing when there is no rule.
 */
export function passedColumn(config: TemplateConfig, columns: Record<string, unknown>): { passed?: boolean | null } {
  if (config.passing_labels) {
    const label = columns.label;
    return { passed: typeof label === 'string' ? config.passing_labels.includes(label) : null };
  }
  if (config.pass_threshold !== undefined) {
    const score = columns.score;
    return { passed: typeof score === 'number' && Number.isFinite(score) ? score >= config.pass_threshold : null };
  }
  return {};
}

/** `strategy` with `passed` after its verdict columns, for templates that have a pass rule. */
export function withPassView<R extends Record<string, unknown>, J>(strategy: JudgeStrategy<R, J>, config: TemplateConfig): JudgeStrategy<R, J> {
  if (config.kind !== 'pointwise' || (config.passing_labels === undefined && config.pass_threshold === undefined)) return strategy;
  return {
    ...strategy,
    columns: (judgments, samples) => {
      const columns = strategy.columns(judgments, samples);
      return { ...columns, ...passedColumn(config, columns) };
    },
    errorColumns: (finished) => ({ ...strategy.errorColumns(finished), passed: null }),
  };
}
