// Messages between the review view (webview) and the extension host, zod-checked on receipt on
// both sides. Pairwise labels cross this boundary in the order the reviewer SAW the responses;
// the host maps them back to the file's order before anything is written.
import * as z from 'zod/mini';
import { count, position } from './common';

const figure = z.nullable(z.number());
export const choiceSchema = z.enum(['A', 'B', 'TIE']);
/** A label as the reviewer gives it: a scale value, or A/B/TIE on the shown order. */
export const shownLabelSchema = z.union([z.int(), choiceSchema]);
export type ShownLabel = z.infer<typeof shownLabelSchema>;
export const orderSchema = z.enum(['uncertain', 'random']);

export const fieldViewSchema = z.object({ name: z.string(), value: z.string() });
export type FieldView = z.infer<typeof fieldViewSchema>;

export const judgeViewSchema = z.object({
  /** The verdict as shown: a score, or A/B/TIE on the shown order. */
  verdict: z.string(),
  justification: z.string(),
  confidence: figure,
  /** Whether the reviewer's label equals the judge's; null before the reviewer labelled. */
  agree: z.nullable(z.boolean()),
});

export const itemViewSchema = z.object({
  key: z.string(),
  row: position,
  /** 0-based place in the queue. */
  index: count,
  reasons: z.array(z.string()),
  inputs: z.array(fieldViewSchema),
  /** Pairwise: the two responses in the order shown (first is "A" on screen). */
  responses: z.nullable(z.tuple([fieldViewSchema, fieldViewSchema])),
  shown: z.nullable(z.enum(['AB', 'BA'])),
  /** The reviewer's standing label, in shown terms; null when not labelled. */
  mine: z.nullable(shownLabelSchema),
  comment: z.string(),
  /** Other annotators' standing labels on this row. */
  others: count,
  /** The judge's verdict: null while hidden (blind review, not yet labelled). */
  judge: z.nullable(judgeViewSchema),
  canAddExample: z.boolean(),
});
export type ItemView = z.infer<typeof itemViewSchema>;

export const agreementViewSchema = z.object({
  n: count,
  agree: count,
  accuracy: figure,
  low: figure,
  high: figure,
  balanced_accuracy: figure,
  cohen_kappa: figure,
  target_width: z.number(),
  more_needed: z.nullable(count),
});
export type AgreementView = z.infer<typeof agreementViewSchema>;

export const reviewViewSchema = z.object({
  file: z.string(),
  display: z.string(),
  metric: z.string(),
  kind: z.enum(['pointwise', 'pairwise']),
  scale: z.nullable(z.object({ min: z.int(), max: z.int() })),
  order: orderSchema,
  seed: z.string(),
  blind: z.boolean(),
  annotator: z.string(),
  labelsFile: z.string(),
  template: z.nullable(z.string()),
  /** Rows in the queue. */
  total: count,
  /** Of those, rows the reviewer has a standing label on. */
  labelled: count,
  failed: count,
  unjudged: count,
  annotators: z.array(z.string()),
  item: z.nullable(itemViewSchema),
  /** The row labelled last in this session, verdict revealed: what the reviewer just did. */
  previous: z.nullable(z.object({ key: z.string(), row: position, mine: shownLabelSchema, verdict: z.nullable(z.string()), agree: z.nullable(z.boolean()), canAddExample: z.boolean() })),
  agreement: agreementViewSchema,
});
export type ReviewView = z.infer<typeof reviewViewSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), view: reviewViewSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('notice'), text: z.string() }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('label'), key: z.string(), label: shownLabelSchema, comment: z.string() }),
  z.object({ type: z.literal('skip') }),
  z.object({ type: z.literal('undo') }),
  z.object({ type: z.literal('move'), delta: z.int() }),
  z.object({ type: z.literal('setOrder'), order: orderSchema }),
  z.object({ type: z.literal('setWidth'), width: z.number().check(z.gt(0), z.lt(1)) }),
  z.object({ type: z.literal('addExample'), key: z.string() }),
  z.object({ type: z.literal('openCalibration') }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

export const reviewStateSchema = z.object({ file: z.string(), metric: z.string() });
export type ReviewState = z.infer<typeof reviewStateSchema>;

export const initialDataSchema = z.object({ state: reviewStateSchema, message: z.nullable(hostMessageSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
