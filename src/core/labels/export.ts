// `labels export`: a copy of a dataset with the human labels in Vertex AI's columns
// (`m/human_rating`, `m/human_pairwise_choice`), for tools that read those. The copy has the
// input's rows in order; a label replaces a value already in that column.
import { writeFile } from 'node:fs/promises';
import { formatOf, readDataset } from '../dataset';
import { isSkip, type DatasetRecord } from '../dataset/types';
import { humanColumn } from './join';
import type { HumanLabels } from './majority';
import { keyOf } from './queue';

export interface ExportStats {
  rows: number;
  /** Rows that got at least one label. */
  labelled: number;
  /** Malformed input records, left out of the copy. */
  skipped: number;
  /** Rows without `_key` whose key could not be computed. */
  without_key: number;
}

export interface MetricLabels {
  metric: string;
  human: HumanLabels;
}

export async function exportLabels(data: string, out: string, metrics: readonly MetricLabels[], fields: readonly string[] | undefined): Promise<ExportStats> {
  const stats: ExportStats = { rows: 0, labelled: 0, skipped: 0, without_key: 0 };
  const records: DatasetRecord[] = [];
  for await (const item of readDataset(data)) {
    if (isSkip(item)) {
      stats.skipped++;
      continue;
    }
    stats.rows++;
    const record: DatasetRecord = { ...item.record };
    const key = keyOf(record, fields);
    if (key === undefined) stats.without_key++;
    else {
      let any = false;
      for (const { metric, human } of metrics) {
        const label = human.labels.get(key);
        if (label === undefined) continue;
        record[humanColumn(metric, label)] = label;
        any = true;
      }
      if (any) stats.labelled++;
    }
    records.push(record);
  }
  await writeFile(out, serialize(records, formatOf(out)), 'utf8');
  return stats;
}

function serialize(records: readonly DatasetRecord[], format: 'jsonl' | 'json' | 'csv'): string {
  if (format === 'jsonl') return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
  if (format === 'json') return JSON.stringify(records, null, 1) + '\n';
  const header: string[] = [];
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) if (!seen.has(k)) seen.add(k), header.push(k);
  const lines = [header.map(csvCell).join(',')];
  for (const r of records) lines.push(header.map((h) => csvCell(cellText(r[h]))).join(','));
  return lines.join('\r\n') + '\r\n';
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** RFC 4180: quote cells holding a comma, quote or line break; double the quotes. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
