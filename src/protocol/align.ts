// Messages between the align view (webview) and the extension host. Both sides validate what they
// receive with these schemas; nothing else crosses the boundary.
import * as z from 'zod/mini';
import { count } from './common';

const figure = z.nullable(z.number());
/** A candidate id as align names them (`examples4`, `rubric`, `examples4-rubric`). */
export const candidateId = z.string().check(z.regex(/^[a-z][a-z0-9-]{0,40}$/));

export const partViewSchema = z.object({
  n: count,
  failed: count,
  accuracy: figure,
  balancedAccuracy: figure,
  /** Cohen's kappa, quadratic-weighted for scales (named by `kappaName`). */
  kappa: figure,
});
export type PartView = z.infer<typeof partViewSchema>;

export const candidateViewSchema = z.object({
  id: candidateId,
  kind: z.enum(['examples', 'rubric', 'combined']),
  examples: count,
  drafted: count,
  train: z.nullable(partViewSchema),
  heldout: z.nullable(partViewSchema),
  delta: figure,
  ci: z.nullable(z.tuple([z.number(), z.number()])),
  mcnemarP: figure,
  trainGain: figure,
  overfit: z.nullable(z.boolean()),
  status: z.enum(['done', 'budget', 'interrupted']),
  /** Held-out rows it still gets wrong (or failed on): the review queue. */
  wrong: count,
  calls: count,
  tokens: count,
  notes: z.array(z.string()),
  best: z.boolean(),
});
export type CandidateView = z.infer<typeof candidateViewSchema>;

export const alignViewSchema = z.object({
  metric: z.string(),
  kind: z.enum(['pointwise', 'pairwise']),
  kappaName: z.string(),
  /** The template and the out-dir as the workspace shows them. */
  template: z.string(),
  dir: z.string(),
  seed: z.int(),
  train: count,
  heldout: count,
  baseline: z.object({ train: z.nullable(partViewSchema), heldout: z.nullable(partViewSchema) }),
  trainDisagreements: count,
  candidates: z.array(candidateViewSchema),
  refused: z.array(z.object({ id: z.string(), reason: z.string() })),
  notRun: z.array(z.object({ id: z.string(), part: z.enum(['train', 'heldout']), reason: z.string() })),
  best: z.nullable(candidateId),
  calls: count,
  tokens: count,
  authorModel: z.string(),
  authorCalls: count,
  budget: z.nullable(z.object({ limit: count, used: count })),
  interrupted: z.boolean(),
  method: z.string(),
  /** The candidate accepted as the template's next version in this view, if any. */
  accepted: z.nullable(candidateId),
});
export type AlignView = z.infer<typeof alignViewSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('report'), view: alignViewSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('notice'), text: z.string() }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The candidate against the current template, in VS Code's diff editor. */
  z.object({ type: z.literal('showDiff'), id: candidateId }),
  /** Write the candidate as the template's next version. */
  z.object({ type: z.literal('accept'), id: candidateId }),
  /** The review queue on the held-out rows the candidate still gets wrong. */
  z.object({ type: z.literal('review'), id: candidateId }),
  z.object({ type: z.literal('openReport') }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** What a reload needs: the out-dir, the template it aligns, the data and the labels file reviews write to (paths on disk). */
export const alignStateSchema = z.object({ dir: z.string(), template: z.string(), data: z.string(), labels: z.string() });
export type AlignState = z.infer<typeof alignStateSchema>;

export const initialDataSchema = z.object({ state: alignStateSchema, message: z.nullable(hostMessageSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
