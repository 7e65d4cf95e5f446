// Messages between the rendered-prompt preview (webview) and the extension host. Both sides
// validate what they receive with these schemas; nothing else crosses the boundary.
// zod/mini: the same checks at a fraction of the webview bundle (full zod adds ~400 kB).
import * as z from 'zod/mini';
import { count, position } from './common';

/** A problem shown instead of a render: a validation error, a dataset or a row problem. */
export const problemSchema = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  /** 1-based position in the template, when the problem is in the template. */
  line: z.optional(position),
  column: z.optional(position),
});
export type Problem = z.infer<typeof problemSchema>;

/** Where a dataset value landed in a message: [start, end) in UTF-16 units of `content`. */
export const valueMarkSchema = z.object({ name: z.string(), start: count, end: count }).check(z.refine((v) => v.start <= v.end, 'start after end'));
export type ValueMark = z.infer<typeof valueMarkSchema>;

export const previewMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
  /** Characters (Unicode code points). */
  chars: count,
  /** An estimate (characters / 4, rounded up), not a tokenizer count; labelled as such. */
  tokens: count,
  values: z.array(valueMarkSchema),
});
export type PreviewMessage = z.infer<typeof previewMessageSchema>;

export const swapOrderSchema = z.object({
  /** `single` for pointwise; `AB` (original) and `BA` (responses exchanged) for pairwise. */
  label: z.enum(['AB', 'BA', 'single']),
  /** False when the template turns the position swap off, so this order is never sent. */
  sent: z.boolean(),
  messages: z.array(previewMessageSchema),
});
export type SwapOrder = z.infer<typeof swapOrderSchema>;

export const templateInfoSchema = z.object({
  uri: z.string(),
  /** File name for the title bar, e.g. `helpfulness.judge`. */
  file: z.string(),
  /** Metric name and kind, when the front matter is valid. */
  name: z.nullable(z.string()),
  kind: z.nullable(z.enum(['pointwise', 'pairwise'])),
});
export type TemplateInfo = z.infer<typeof templateInfoSchema>;

export const sampleInfoSchema = z.object({
  /** Dataset path relative to the workspace (or absolute), null when none is chosen or found. */
  dataset: z.nullable(z.string()),
  row: position,
  /** Rows in the dataset (skipped ones included), 0 when unknown. */
  rows: count,
});
export type SampleInfo = z.infer<typeof sampleInfoSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('render'),
    template: templateInfoSchema,
    sample: sampleInfoSchema,
    orders: z.array(swapOrderSchema).check(z.minLength(1)),
    /** How the judge's reply is read, when the template declares a verdict format. */
    verdictRule: z.optional(z.string()),
    /** An imported template: where it came from and how the source's variables map to dataset fields. */
    sourceMapping: z.optional(z.string()),
    /** Warnings and infos that do not stop the render. */
    diagnostics: z.array(problemSchema),
  }),
  z.object({
    type: z.literal('errors'),
    template: templateInfoSchema,
    sample: sampleInfoSchema,
    /** One sentence saying why there is no render, e.g. "The template has 2 errors". */
    title: z.string(),
    errors: z.array(problemSchema).check(z.minLength(1)),
  }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('pickDataset') }),
  z.object({ type: z.literal('pickRow') }),
  z.object({ type: z.literal('stepRow'), delta: z.union([z.literal(-1), z.literal(1)]) }),
  /** Jump to a problem's position in the template. */
  z.object({ type: z.literal('reveal'), line: position, column: position }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** What the webview persists (vscode.setState) so the serializer can restore the panel. */
export const previewStateSchema = z.object({ uri: z.string() });
export type PreviewState = z.infer<typeof previewStateSchema>;

/** The page's `data-initial` attribute: the state plus the first message, so nothing flashes. */
export const initialDataSchema = z.object({ state: previewStateSchema, message: z.nullable(hostMessageSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
