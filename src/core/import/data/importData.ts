// `import-data`: a benchmark file → a dataset whose rows carry the human preference in Vertex AI's
// columns (`m/human_pairwise_choice` or `m/human_rating`), plus — for the labels file — every
// annotator's vote keyed by `_key`, so `calibrate --labels` reports inter-annotator agreement next
// to the judge's. Keys are computed over the fields the judging template reads (its inputs when it
// is named), so labels join the results of that template.
import { parseDataset } from '../../dataset';
import { isSkip } from '../../dataset/types';
import type { LabelLine } from '../../labels/types';
import { rowKey } from '../../results/keys';
import type { ImportProblem } from '../types';
import { benchmarkRows, KIND, named, type BenchmarkRow, type DataFormat, type FormatOptions, type Records, type Vote } from './benchmarks';

export type Aggregate = 'majority' | 'mean' | 'median';

export interface DataImportOptions extends FormatOptions {
  /** The metric whose human column the rows get, e.g. `llmbar_vanilla` → `llmbar_vanilla/human_pairwise_choice`. */
  metric: string;
  /** The fields `_key` is computed over (the template's key fields); default: the benchmark's inputs. */
  keyFields?: readonly string[];
  /** How several annotators become the dataset's human label (default `majority`, as `calibrate --labels`). */
  aggregate?: Aggregate;
  /** A `set` column for every row (e.g. LLMBar's Natural), so results can be split by subset. */
  set?: string;
  /** Named in each label line's comment. */
  sourceName: string;
  /** The labels' `time` (ISO 8601). */
  time: string;
}

export interface DataImport {
  kind: 'pairwise' | 'pointwise';
  rows: Record<string, unknown>[];
  labels: LabelLine[];
  problems: ImportProblem[];
  annotators: string[];
  /** Rows whose annotators gave no majority (no human label in the dataset; their votes are in the labels). */
  unlabelled: number;
  /** Rows whose key fields repeat an earlier row's, so they share its `_key` (all kept in `rows`). */
  repeated: number;
  keyFields: string[];
}

/** A JSON array, or JSON Lines (one object a line). */
export function readRecords(text: string): Records {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trimStart().startsWith('[')) {
    let value: unknown;
    const problems: ImportProblem[] = [];
    try {
      value = JSON.parse(source);
    } catch (e) {
      // Python's json (pandas) writes NaN for an empty cell: PandaLM's test set has `"input": NaN`.
      const relaxed = withoutNaN(source);
      try {
        value = JSON.parse(relaxed.text);
        problems.push({ severity: 'warning', where: 'file', message: `${relaxed.count} value(s) written as NaN or Infinity (Python's JSON, not JSON) read as null` });
      } catch {
        return { items: [], problems: [{ severity: 'error', where: 'file', message: `not JSON (${(e as Error).message})` }] };
      }
    }
    return { items: (value as unknown[]).map((v, i) => ({ where: `item ${i + 1}`, value: v })), problems };
  }
  const problems: ImportProblem[] = [];
  const items: Records['items'] = [];
  for (const item of parseDataset(source, 'jsonl')) {
    if (isSkip(item)) problems.push({ severity: 'error', where: `line ${item.line}`, message: `${item.error.replace(/^line \d+: /, '')}; skipped` });
    else items.push({ where: `line ${item.line}`, value: item.record });
  }
  return { items, problems };
}

/** NaN, Infinity and -Infinity outside strings replaced by null (a linear scan that skips strings). */
export function withoutNaN(text: string): { text: string; count: number } {
  let out = '';
  let count = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const m = /^-?(?:NaN|Infinity)\b/.exec(text.slice(i, i + 9));
    if (m) {
      out += 'null';
      count++;
      i += m[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return { text: out, count };
}

export function importData(format: DataFormat, text: string, opts: DataImportOptions): DataImport {
  const kind = KIND[format];
  const { rows, problems } = benchmarkRows(format, readRecords(text), opts);
  const human = `${opts.metric}/${kind === 'pairwise' ? 'human_pairwise_choice' : 'human_rating'}`;
  const out: Record<string, unknown>[] = [];
  const labels: LabelLine[] = [];
  const annotators = new Set<string>();
  let unlabelled = 0;
  const keyFields = [...(opts.keyFields ?? rows[0]?.inputs ?? [])].sort();
  // Rows with the same inputs get the same `_key` (design.md); every row is kept, and they are reported.
  const firstAt = new Map<string, number>();
  const repeats = new Map<string, number[]>();
  for (const row of rows) {
    const label = aggregate(row.votes, opts.aggregate ?? 'majority');
    if (label === undefined) unlabelled++;
    const record: Record<string, unknown> = { ...row.fields, ...(opts.set !== undefined ? { set: opts.set } : {}), ...(label !== undefined ? { [human]: label } : {}) };
    out.push(record);
    const key = rowKey(record, keyFields);
    const first = firstAt.get(key);
    if (first === undefined) firstAt.set(key, out.length);
    else repeats.set(key, [...(repeats.get(key) ?? [first]), out.length]);
    for (const v of row.votes) {
      annotators.add(v.annotator);
      labels.push({ _key: key, metric: opts.metric, label: v.label, annotator: v.annotator, time: opts.time, comment: `imported from ${format} ${opts.sourceName}`, fields: keyFields });
    }
  }
  if (kind === 'pointwise' && out.length > 0 && rows.every((r) => r.votes.length === 0)) {
    problems.push({ severity: 'error', where: 'file', message: `no annotation has a "${opts.dimension}" rating; name the dimension with --dimension (e.g. coherence)` });
  }
  const repeated = [...repeats.values()].reduce((n, at) => n + at.length - 1, 0);
  if (repeated > 0) problems.push(repeatedInputs(repeated, repeats, keyFields));
  return { kind, rows: out, labels, problems, annotators: [...annotators].sort(), unlabelled, repeated, keyFields };
}

/**
 * Rows that repeat another row's key fields share its `_key`, and whatever joins by `_key` (resume,
 * merge, compare, the labels file) takes them for one item: said with the keys and what to do.
 */
function repeatedInputs(repeated: number, repeats: Map<string, number[]>, keyFields: readonly string[]): ImportProblem {
  const keys = [...repeats].map(([key, at]) => `${key} (dataset rows ${at.join(', ')})`);
  return {
    severity: 'warning',
    where: 'keys',
    message:
      `${repeated} row(s) repeat the ${keyFields.join(', ')} of an earlier row, so they share its _key: ${named(keys)}. ` +
      'Every row is written, with its own human label column; but resume, merge, compare and calibrate --labels join by _key, ' +
      'so there such rows are one item and, in the labels file, the later row\'s votes replace the earlier\'s (the last label per key and annotator stands). ' +
      'To keep them apart, judge with a template whose inputs include a field that tells them apart (e.g. an id) and import with --template',
  };
}

/** The dataset's human label from the votes: the most frequent (a tie gives none), or the mean or median rating. */
export function aggregate(votes: BenchmarkRow['votes'], how: Aggregate): Vote | undefined {
  if (votes.length === 0) return undefined;
  const numbers = votes.map((v) => v.label).filter((l): l is number => typeof l === 'number');
  if (how !== 'majority' && numbers.length === votes.length) {
    if (how === 'mean') return numbers.reduce((a, b) => a + b, 0) / numbers.length;
    const s = [...numbers].sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  }
  const counts = new Map<Vote, number>();
  for (const v of votes) counts.set(v.label, (counts.get(v.label) ?? 0) + 1);
  const best = Math.max(...counts.values());
  const top = [...counts].filter(([, n]) => n === best);
  return top.length === 1 ? top[0]![0] : undefined;
}
