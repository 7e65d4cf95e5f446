// What a generated rubric or list of evaluation steps must be, as zod schemas: the JSON schema sent
// as structured output comes from the base shape; the refinements (every score once, no empty
// level, 3–6 steps) are checked on receipt and quoted in the one repair request.
import { z } from 'zod';
import type { IntRange } from '../template/types';

const text = z.string().trim().min(1, 'must not be empty');

export const levelSchema = z
  .object({
    score: z.number().int().describe('The score this level describes.'),
    label: z.string().describe('A short name for the level, e.g. "Excellent".'),
    description: text.describe('What a response at this level looks like, concretely.'),
    distinguishing: text.describe('What tells this level from the levels just above and below it.'),
  })
  .strict();

function rubricBase(scale: IntRange) {
  const n = scale.max - scale.min + 1;
  return z
    .object({
      levels: z.array(levelSchema).min(n).max(n).describe(`One entry per score from ${scale.max} down to ${scale.min}.`),
      edge_cases: z.array(text).max(8).describe('Situations the levels do not settle on their own, and how to score them.'),
      guidelines: z.array(text).max(8).describe('Scoring guidelines: how to choose between adjacent levels.'),
    })
    .strict();
}

export type GeneratedRubric = z.infer<ReturnType<typeof rubricBase>>;
export type GeneratedLevel = z.infer<typeof levelSchema>;

/** The reply schema with the coverage rules: each score of the scale exactly once. */
export function rubricSchema(scale: IntRange): z.ZodType<GeneratedRubric> {
  return rubricBase(scale).superRefine((r, ctx) => {
    const seen = new Set<number>();
    r.levels.forEach((l, i) => {
      if (l.score < scale.min || l.score > scale.max) ctx.addIssue({ code: 'custom', path: ['levels', i, 'score'], message: `${l.score} is outside the scale ${scale.min}–${scale.max}` });
      else if (seen.has(l.score)) ctx.addIssue({ code: 'custom', path: ['levels', i, 'score'], message: `score ${l.score} is described twice` });
      seen.add(l.score);
    });
    const missing = range(scale).filter((s) => !seen.has(s));
    if (missing.length) ctx.addIssue({ code: 'custom', path: ['levels'], message: `no level for score ${missing.join(', ')}` });
  }) as unknown as z.ZodType<GeneratedRubric>;
}

export const stepsSchema = z
  .object({
    steps: z.array(text).min(3, 'give at least 3 steps').max(6, 'give at most 6 steps').describe('3 to 6 evaluation steps, in the order the judge should follow them.'),
  })
  .strict();

export type GeneratedSteps = z.infer<typeof stepsSchema>;

/** Strict-mode JSON schema (no extra keys anywhere) for `response_format`. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

export function rubricJsonSchema(scale: IntRange): Record<string, unknown> {
  return jsonSchemaOf(rubricBase(scale));
}

export function stepsJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(stepsSchema);
}

export function range(scale: IntRange): number[] {
  return Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i);
}
