// Results lines as the report lists them: verdict, human label, justification, error and a short
// view of the inputs. The verdict columns come from results/verdict.ts, read by calibrate's parsers.
import { isLabel, labelParser } from '../calibration/labels';
import type { CalibrationKind, Label } from '../calibration/types';
import type { DatasetRecord } from '../dataset/types';
import { rowOf, VERDICT_COLUMNS, verdictColumn, type VerdictKind } from '../results';
import type { ReportRow } from './types';

/** A string field longer than this is cut in the page (the file keeps it whole). */
export const MAX_TEXT = 2000;

/** Every `{metric, kind}` a judge verdict column names, in first-seen order. */
export function metricsOf(records: Iterable<DatasetRecord>): { metric: string; kind: VerdictKind }[] {
  const seen = new Map<string, VerdictKind>();
  for (const r of records) {
    for (const key of Object.keys(r)) {
      const v = verdictColumn(key);
      if (v && !seen.has(v.metric)) seen.set(v.metric, v.kind);
    }
  }
  return [...seen].map(([metric, kind]) => ({ metric, kind }));
}

export function cut(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** The inputs: every field that is not a column of a metric (`m/…`) or a bookkeeping field (`_…`). */
function inputsText(record: DatasetRecord): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(record)) {
    if (k.startsWith('_') || k.includes('/')) continue;
    lines.push(`${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return cut(lines.join('\n'));
}

export interface RowReader {
  read(record: DatasetRecord, fallbackRow: number, comment?: string): ReportRow;
}

/** A reader for one metric: column names and the label parser made once, not per row. */
export function rowReader(metric: string, kind: CalibrationKind): RowReader {
  const names = VERDICT_COLUMNS[kind];
  const judge = `${metric}/${names.judge}`;
  const human = `${metric}/${names.human}`;
  const justification = `${metric}/justification`;
  const error = `${metric}/error`;
  const errorKind = `${metric}/error_kind`;
  const parse = labelParser(kind);
  const label = (v: unknown): Label | null => {
    const p = parse(v);
    return isLabel<Label>(p) ? p : null;
  };
  return {
    read(record, fallbackRow, comment) {
      const e = record[error];
      const k = record[errorKind];
      const x = record[justification];
      return {
        r: rowOf(record) ?? fallbackRow,
        j: typeof e === 'string' && e !== '' ? null : label(record[judge]),
        h: label(record[human]),
        x: typeof x === 'string' ? cut(x) : '',
        ...(comment ? { c: cut(comment) } : {}),
        ...(typeof e === 'string' && e !== '' ? { e: cut(e), k: typeof k === 'string' && k !== '' ? k : 'unknown' } : {}),
        t: inputsText(record),
      };
    },
  };
}

/** Failed rows per `m/error_kind`, most frequent first. */
export function failuresByKind(rows: readonly ReportRow[]): { kind: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.k !== undefined) counts.set(r.k, (counts.get(r.k) ?? 0) + 1);
  return [...counts].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : 1));
}

/** Verdicts per label, in label order (numbers numerically, strings lexically). */
export function verdictCounts(rows: readonly ReportRow[]): { label: Label; count: number }[] {
  const counts = new Map<Label, number>();
  for (const r of rows) if (r.j !== null) counts.set(r.j, (counts.get(r.j) ?? 0) + 1);
  return [...counts]
    .map(([label, count]) => ({ label, count }))
    .sort((a, b) => (typeof a.label === 'number' && typeof b.label === 'number' ? a.label - b.label : String(a.label) < String(b.label) ? -1 : 1));
}
