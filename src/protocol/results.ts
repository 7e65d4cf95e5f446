// Messages between the results viewer (webview) and the extension host. The host holds the rows
// and answers windowed queries, so a 100,000-row file never crosses the boundary whole.
import * as z from 'zod/mini';
import { count, position } from './common';

export const tableRowSchema = z.object({
  row: position,
  /** The verdict as text (a score or A/B/TIE); null when the row has none. */
  verdict: z.nullable(z.string()),
  confidence: z.nullable(z.number()),
  consistent: z.nullable(z.boolean()),
  violations: count,
  failed: z.boolean(),
  errorKind: z.nullable(z.string()),
  human: z.nullable(z.string()),
  /** Verdict equals the human label; null without both. */
  agrees: z.nullable(z.boolean()),
  /** The justification (or error, or inputs), shortened to one line. */
  snippet: z.string(),
});
export type TableRow = z.infer<typeof tableRowSchema>;

export const FILTERS = ['all', 'failed', 'inconsistent', 'disagree'] as const;
export const SORTS = ['row', 'verdict', 'confidence', 'consistent', 'violations', 'errorKind', 'human'] as const;

export const resultsQuerySchema = z.object({
  /** Names the query, so the page drops answers to an older one. */
  id: count,
  filter: z.enum(FILTERS),
  verdict: z.nullable(z.string()),
  search: z.string().check(z.maxLength(500)),
  sort: z.enum(SORTS),
  descending: z.boolean(),
  offset: count,
  limit: z.int().check(z.positive(), z.lte(1000)),
});
export type ResultsQuery = z.infer<typeof resultsQuerySchema>;

export const resultsSummarySchema = z.object({
  display: z.string(),
  metric: z.string(),
  metrics: z.array(z.string()),
  kind: z.enum(['pointwise', 'pairwise', 'categorical']),
  rows: count,
  verdicts: z.array(z.object({ label: z.string(), count })),
  failures: z.array(z.object({ kind: z.string(), count })),
  failed: count,
  inconsistent: count,
  labelled: count,
  disagreeing: count,
  unreadable: count,
  /** Lines replaced by a later line of the same `_row` (a resumed run). */
  replaced: count,
  templateHashes: z.array(z.string()),
});
export type ResultsSummary = z.infer<typeof resultsSummarySchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('summary'), summary: resultsSummarySchema }),
  z.object({ type: z.literal('rows'), id: count, offset: count, total: count, rows: z.array(tableRowSchema) }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('notice'), text: z.string() }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('query'), query: resultsQuerySchema }),
  z.object({ type: z.literal('openRow'), row: position }),
  z.object({ type: z.literal('metric'), metric: z.string() }),
  z.object({ type: z.literal('openAsText') }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

export const resultsStateSchema = z.object({ file: z.string() });
export type ResultsState = z.infer<typeof resultsStateSchema>;

export const initialDataSchema = z.object({ state: resultsStateSchema, message: z.nullable(hostMessageSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
