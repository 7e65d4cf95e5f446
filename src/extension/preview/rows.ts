// Dataset helpers the preview, completion and hover share; pure, so they are unit-tested in node.
import { isSkip, type DatasetItem, type DatasetRecord } from '../../core/dataset/types';
import type { SampleOutcome } from './model';

/** Dataset files looked for beside a template when none was chosen: `x.judge` -> `x.jsonl`, … */
export function siblingDatasetNames(templateFile: string): string[] {
  const base = templateFile.replace(/\.judge$/i, '');
  return ['.jsonl', '.ndjson', '.json', '.csv'].map((ext) => base + ext);
}

/**
 * Row `row` (1-based, file order) among `items` (the whole dataset, or only the rows read), or a
 * message saying why it cannot be used; `count` is the dataset's row count.
 */
export function selectRow(items: DatasetItem[], row: number, dataset: string, count = rowCount(items)): SampleOutcome {
  const item = items.find((i) => i.row === row);
  if (!item) {
    return {
      ok: false,
      code: 'row-missing',
      message: count
        ? `${dataset} has ${count} row${count === 1 ? '' : 's'}, so there is no row ${row}; choose another row.`
        : `${dataset} has no rows; add a record or choose another dataset.`,
    };
  }
  if (isSkip(item)) return { ok: false, code: 'row-skipped', message: `${dataset}, row ${row}: ${item.error}` };
  return { ok: true, record: item.record };
}

export function rowCount(items: DatasetItem[]): number {
  return items.reduce((n, i) => Math.max(n, i.row), 0);
}

/** Column names in order of first appearance over the first `limit` readable rows. */
export function datasetColumns(items: DatasetItem[], limit = 50): string[] {
  const seen = new Set<string>();
  let rows = 0;
  for (const item of items) {
    if (isSkip(item)) continue;
    for (const key of Object.keys(item.record)) seen.add(key);
    if (++rows >= limit) break;
  }
  return [...seen];
}

/** One line describing a row for a picker: its first text fields, shortened. */
export function rowSummary(record: DatasetRecord, max = 90): string {
  const preferred = ['prompt', 'input', 'question', 'id'];
  const keys = Object.keys(record).sort((a, b) => rank(a, preferred) - rank(b, preferred));
  const parts: string[] = [];
  for (const key of keys) {
    const v = record[key];
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    parts.push(`${key}: ${String(v).replace(/\s+/g, ' ').trim()}`);
    if (parts.join(' · ').length >= max) break;
  }
  return shorten(parts.join(' · '), max);
}

function rank(key: string, preferred: string[]): number {
  const i = preferred.indexOf(key);
  return i < 0 ? preferred.length : i;
}

export function shorten(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`;
}

/** A value as hover or completion shows it: strings verbatim, anything else as JSON. */
export function displayValue(value: unknown, max = 400): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
  return shorten(text, max);
}

/** The value at a dotted path (`a.b.c`) in a record, or undefined. */
export function valueAt(record: DatasetRecord, path: string[]): unknown {
  let cur: unknown = record;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
