// Messages between the compare view (webview) and the extension host.
import * as z from 'zod/mini';
import { count, position } from './common';

const figure = z.nullable(z.number());

export const compareViewSchema = z.object({
  a: z.string(),
  b: z.string(),
  metricA: z.string(),
  metricB: z.string(),
  kind: z.enum(['pointwise', 'pairwise', 'categorical']),
  n: count,
  /** Paired rows the judge failed on (`m/error`), per side: left out of every figure. */
  failed: z.object({ a: count, b: count }),
  /** Paired rows with no verdict and no error on a side (not judged for that metric). */
  noVerdict: z.object({ a: count, b: count }),
  /** Rows present in one file only. */
  only: z.object({ a: count, b: count }),
  agreement: figure,
  cohenKappa: figure,
  flipped: count,
  meanShift: figure,
  /** One sentence: better, worse or not distinguishable. */
  verdict: z.string(),
  direction: z.enum(['better', 'worse', 'not-distinguishable', 'no-labels']),
  labelled: count,
  figures: z.array(z.object({ key: z.string(), name: z.string(), a: figure, b: figure, delta: figure })),
  mcnemarP: z.nullable(z.number()),
  ci: z.nullable(z.tuple([z.number(), z.number()])),
  /** A's verdict (rows) × B's verdict (columns). */
  labels: z.array(z.string()),
  matrix: z.array(z.array(count)),
  flips: z.array(z.object({ row: position, a: z.string(), b: z.string(), justA: z.string(), justB: z.string() })),
  flipsOmitted: count,
  hashes: z.object({ a: z.array(z.string()), b: z.array(z.string()) }),
});
export type CompareView = z.infer<typeof compareViewSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('report'), view: compareViewSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('notice'), text: z.string() }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('showDiff') }),
  z.object({ type: z.literal('openRow'), row: position, side: z.enum(['a', 'b']) }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

export const compareStateSchema = z.object({ a: z.string(), b: z.string() });
export type CompareState = z.infer<typeof compareStateSchema>;

export const initialDataSchema = z.object({ state: compareStateSchema, message: z.nullable(hostMessageSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
