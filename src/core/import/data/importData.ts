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
import { benchmarkRows, KIND, type BenchmarkRow, type DataFormat, type FormatOptions, type Records, type Vote } from './benchmarks';

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
  for (const row of rows) {
    const label = aggregate(row.votes, opts.aggregate ?? 'majority');
    if (label === undefined) unlabelled++;
    const record: Record<string, unknown> = { ...row.fields, ...(opts.set !== undefined ? { set: opts.set } : {}), ...(label !== undefined ? { [human]: label } : {}) };
    out.push(record);
    const key = rowKey(record, keyFields);
    for (const v of row.votes) {
      annotators.add(v.annotator);
      labels.push({ _key: key, metric: opts.metric, label: v.label, annotator: v.annotator, time: opts.time, comment: `imported from ${format} ${opts.sourceName}`, fields: keyFields });
    }
  }
  if (kind === 'pointwise' && out.length > 0 && rows.every((r) => r.votes.length === 0)) {
    problems.push({ severity: 'error', where: 'file', message: `no annotation has a "${opts.dimension}" rating; name the dimension with --dimension (e.g. coherence)` });
  }
  return { kind, rows: out, labels, problems, annotators: [...annotators].sort(), unlabelled, keyFields };
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
