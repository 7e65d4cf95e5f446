// Messages between the probe view (webview) and the extension host.
import * as z from 'zod/mini';
import { count, position } from './common';

const figure = z.nullable(z.number());

/** One copy of a source row as judged: the original or a probe's perturbation. */
export const judgedCopySchema = z.object({
  verdict: z.string(),
  /** The perturbed field's text (cut to a few thousand characters; `truncated` says so). */
  text: z.string(),
  justification: z.string(),
  truncated: z.boolean(),
  /** `_row` of this copy in probe-results.jsonl, for the run view; null when it is missing. */
  resultRow: z.nullable(position),
});
export type JudgedCopy = z.infer<typeof judgedCopySchema>;

export const movedRowSchema = z.object({
  /** The source row in the original dataset. */
  row: position,
  shift: z.number(),
  original: judgedCopySchema,
  perturbed: judgedCopySchema,
});
export type MovedRowView = z.infer<typeof movedRowSchema>;

export const probeBarSchema = z.object({
  probe: z.string(),
  description: z.string(),
  n: count,
  changed: count,
  share: figure,
  meanShift: figure,
  ci: z.nullable(z.tuple([z.number(), z.number()])),
  susceptible: z.boolean(),
  moved: z.array(movedRowSchema),
});
export type ProbeBar = z.infer<typeof probeBarSchema>;

export const probeViewSchema = z.object({
  metric: z.string(),
  kind: z.enum(['pointwise', 'pairwise']),
  /** The field the probes perturbed. */
  target: z.string(),
  threshold: z.number(),
  rows: count,
  failed: count,
  positionInconsistent: figure,
  method: z.string(),
  /** The dataset probed and the output folder, as the workspace shows them. */
  dataset: z.string(),
  dir: z.string(),
  probes: z.array(probeBarSchema),
  susceptible: z.array(z.string()),
});
export type ProbeView = z.infer<typeof probeViewSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('report'), view: probeViewSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('notice'), text: z.string() }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Open a copy (its `_row` in probe-results.jsonl) in the run view. */
  z.object({ type: z.literal('openRow'), row: position }),
  z.object({ type: z.literal('openFile'), file: z.enum(['report', 'dataset', 'results']) }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** What a reload needs: the output folder (a path on disk) and the dataset's display name. */
export const probeStateSchema = z.object({ dir: z.string(), dataset: z.string() });
export type ProbeState = z.infer<typeof probeStateSchema>;

export const initialDataSchema = z.object({ state: probeStateSchema, message: z.nullable(hostMessageSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
