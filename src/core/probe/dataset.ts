// The probe dataset: every selected source row, then its perturbed copies, numbered in file order.
import type { DatasetItem, DatasetRow } from '../dataset/types';
import { isSkip } from '../dataset/types';
import { probeRecords, type ProbeId } from './perturb';

/** What `probe --out DIR` writes. */
export const PROBE_FILES = {
  dataset: 'probe-dataset.jsonl',
  results: 'probe-results.jsonl',
  report: 'probe-report.json',
} as const;

export interface ProbeDatasetOptions {
  probes: readonly ProbeId[];
  target: string;
  rows?: { from?: number; to?: number };
}

/** Unreadable source records are counted, not copied. */
export async function probeDataset(
  items: AsyncIterable<DatasetItem> | Iterable<DatasetItem>,
  opts: ProbeDatasetOptions,
): Promise<{ rows: DatasetRow[]; sources: number; skipped: number }> {
  const rows: DatasetRow[] = [];
  let sources = 0;
  let skipped = 0;
  for await (const item of items) {
    if (opts.rows?.from !== undefined && item.row < opts.rows.from) continue;
    if (opts.rows?.to !== undefined && item.row > opts.rows.to) break;
    if (isSkip(item)) {
      skipped++;
      continue;
    }
    sources++;
    for (const record of probeRecords(item.record, item.row, opts.probes, opts.target)) {
      rows.push({ row: rows.length + 1, line: rows.length + 1, record });
    }
  }
  return { rows, sources, skipped };
}
