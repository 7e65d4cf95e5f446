// The run history file format (docs/history.md): `.judge-studio/history/<metric>.jsonl`, one JSON
// line appended per single run and per batch. Pure: schemas, naming and reading of lines.
import * as path from 'node:path';
import { z } from 'zod';
import { batchSummarySchema } from './summary';

export const HISTORY_DIR = '.judge-studio/history';
export const RESULTS_DIR = '.judge-studio/results';
export const HISTORY_VERSION = 1;

const common = {
  v: z.literal(HISTORY_VERSION),
  id: z.string().min(1),
  /** ISO 8601 time the run started. */
  time: z.string(),
  /** Template path relative to the workspace folder (absolute when outside it). */
  template: z.string(),
  metric: z.string(),
  kind: z.enum(['pointwise', 'pairwise']),
  model: z.string(),
};

export const runEntrySchema = z.object({
  ...common,
  type: z.literal('run'),
  /** Where the sample came from, e.g. "helpfulness.jsonl, row 3" or "selection in notes.md". */
  source: z.string(),
  note: z.string().nullable(),
  /** The record that was rendered (so a re-run or a reopen needs nothing else). */
  record: z.record(z.string(), z.unknown()),
  /** The results line, exactly as a batch would have written it. */
  line: z.record(z.string(), z.unknown()),
  /** Every reply text received, labelled by pass. */
  raw: z.array(z.object({ label: z.string(), text: z.string() })),
  /** Short verdict ("score 4 / 5", "A wins", "error") and swap consistency, for lists. */
  verdict: z.string(),
  consistency: z.string().nullable(),
  elapsedMs: z.number().nullable(),
});
export type RunEntry = z.infer<typeof runEntrySchema>;

export const batchEntrySchema = z.object({
  ...common,
  type: z.literal('batch'),
  dataset: z.string(),
  /** The results file, relative to the workspace folder (absolute when outside it). */
  results: z.string(),
  resumed: z.boolean(),
  interrupted: z.boolean(),
  rows: z.object({ judged: z.number().int(), ok: z.number().int(), failed: z.number().int(), skipped: z.number().int(), alreadyDone: z.number().int() }),
  summary: batchSummarySchema,
  elapsedMs: z.number(),
});
export type BatchEntry = z.infer<typeof batchEntrySchema>;

export const historyEntrySchema = z.discriminatedUnion('type', [runEntrySchema, batchEntrySchema]);
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export interface ParsedHistory {
  entries: HistoryEntry[];
  /** 1-based numbers of lines that are not entries (hand edits, a newer version); they are ignored. */
  badLines: number[];
}

export function parseHistory(text: string): ParsedHistory {
  const entries: HistoryEntry[] = [];
  const badLines: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const parsed = historyEntrySchema.safeParse(JSON.parse(raw));
      if (parsed.success) entries.push(parsed.data);
      else badLines.push(i + 1);
    } catch {
      badLines.push(i + 1);
    }
  });
  return { entries, badLines };
}

/**
 * Whether a stored path stays inside `root` once resolved: a hand-edited or hostile history entry
 * must not point a resume (which appends) or an open outside the workspace folder.
 */
export function staysInside(root: string, stored: string, sep = path.sep): boolean {
  const resolved = path.isAbsolute(stored) ? path.normalize(stored) : path.join(root, ...stored.split('/'));
  const rel = path.relative(root, resolved);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** The paths of an entry that leave `root` (`workspace`: template and dataset must stay inside too). */
export function escapingPaths(entry: HistoryEntry, root: string, workspace: boolean): string[] {
  const paths = entry.type === 'batch' ? [entry.results, ...(workspace ? [entry.template, entry.dataset] : [])] : workspace ? [entry.template] : [];
  return paths.filter((p) => !staysInside(root, p));
}

/** A sortable, unique-enough id: the time plus random hex. */
export function entryId(time: Date, random: string): string {
  return `${time.toISOString().replace(/\D/g, '').slice(0, 17)}-${random}`;
}

/**
 * `<metric>-<dataset>-YYYYMMDD-HHMMSS.jsonl` in local time, the default results file of a batch.
 * `dataset` is the dataset's path or file name: its base name without the extension, made safe for
 * a file name. Without it (older callers) the name is `<metric>-YYYYMMDD-HHMMSS.jsonl`.
 */
export function resultsFileName(metric: string, time: Date, dataset?: string): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${time.getFullYear()}${p(time.getMonth() + 1)}${p(time.getDate())}-${p(time.getHours())}${p(time.getMinutes())}${p(time.getSeconds())}`;
  const base = dataset
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.(jsonl|ndjson|json|csv)$/i, '')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 60);
  return base ? `${metric}-${base}-${stamp}.jsonl` : `${metric}-${stamp}.jsonl`;
}

export function historyFileName(metric: string): string {
  return `${metric}.jsonl`;
}

/** "14:03" today, else "3 Mar 14:03", else with the year. */
export function shortTime(iso: string, now: Date = new Date()): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const hm = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
  if (t.toDateString() === now.toDateString()) return hm;
  const month = t.toLocaleString('en', { month: 'short' });
  return t.getFullYear() === now.getFullYear() ? `${t.getDate()} ${month} ${hm}` : `${t.getDate()} ${month} ${t.getFullYear()} ${hm}`;
}

/** The interrupted or unfinished batch for this template and dataset that a new batch could resume. */
export function resumable(entries: HistoryEntry[], template: string, dataset: string): BatchEntry | undefined {
  const batches = entries.filter((e): e is BatchEntry => e.type === 'batch' && e.template === template && e.dataset === dataset);
  const last = batches[batches.length - 1];
  return last && last.interrupted ? last : undefined;
}

/**
 * One batch per results file, the newest: a resumed run appends to the file the interrupted run
 * wrote, so the newest entry's summary describes the whole file, the older ones only their part.
 */
export function newestPerResults<T extends { entry: BatchEntry; results: string }>(refs: readonly T[]): T[] {
  const newest = new Map<string, T>();
  for (const ref of refs) {
    const seen = newest.get(ref.results);
    if (!seen || ref.entry.time >= seen.entry.time) newest.set(ref.results, ref);
  }
  return [...newest.values()];
}

/**
 * The batch that wrote line `line` (1-based) of a results file, from that file's batch entries in
 * the order they ran: a resume appends after the lines of the runs before it, and a batch that
 * started the file again (not resumed) begins the count anew. Past the counted lines: the last batch.
 */
export function batchForLine(batches: readonly BatchEntry[], line: number): BatchEntry | undefined {
  const start = batches.reduce((at, b, i) => (b.resumed ? at : i), 0);
  let written = 0;
  for (const b of batches.slice(start)) {
    written += b.rows.judged;
    if (line <= written) return b;
  }
  return batches[batches.length - 1];
}
