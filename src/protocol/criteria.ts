// The criteria table and the tier record of the run view (see ./run.ts): what a multi-criterion
// judge said per criterion, and for tiered runs which model decided and both verdicts.
import * as z from 'zod/mini';

const finite = z.number().check(z.refine(Number.isFinite, 'not a finite number'));

export const criterionRowSchema = z.object({
  name: z.string(),
  /** Normalised weight (0–1). */
  weight: z.nullable(finite),
  score: z.nullable(finite),
  evidence: z.array(z.string()),
  justification: z.string(),
  improvement: z.string(),
});
export type CriterionRow = z.infer<typeof criterionRowSchema>;

export const criteriaViewSchema = z.object({
  rows: z.array(criterionRowSchema),
  /** The weighted overall score (unrounded) and its integer view. */
  overall: z.nullable(finite),
  rounded: z.nullable(finite),
});
export type CriteriaView = z.infer<typeof criteriaViewSchema>;

export const tierVerdictSchema = z.object({ model: z.string(), verdict: z.string(), error: z.nullable(z.string()) });

export const tiersViewSchema = z.object({
  decided: z.enum(['screen', 'judge']),
  escalation: z.array(z.string()),
  audited: z.boolean(),
  screen: tierVerdictSchema,
  judge: z.nullable(tierVerdictSchema),
});
export type TiersView = z.infer<typeof tiersViewSchema>;
