// The labelled rows align learns from and tests on: the data's own human column
// (`m/human_rating` or `m/human_pairwise_choice`), with a labels file joined in by `_key` (its
// label wins, and its reviewer comments become example justifications). One row per `_key`: two
// rows with the same inputs are one case, and must never land on both sides of the split.
import { isLabel, parseChoice, parseRating } from '../calibration/labels';
import type { Label } from '../calibration/types';
import { isSkip, type DatasetItem } from '../dataset/types';
import { currentLabels, humanLabels, joinLabels, majority, type LabelLine } from '../labels';
import { rowKey } from '../results/keys';
import type { LabelledRow } from './types';

export interface LoadOptions {
  metric: string;
  kind: 'pointwise' | 'pairwise';
  /** The template's key fields: `_key` is computed over them, as the engine's results lines do. */
  keyFields: readonly string[];
  /** Lines of a labels file, joined by `_key`. */
  labels?: readonly LabelLine[];
}

export interface LoadedRows {
  rows: LabelledRow[];
  unlabelled: number;
  invalidLabel: number;
  duplicateKey: number;
  unreadable: number;
  /** Rows that took their label from the labels file. */
  joined: number;
}

export async function loadLabelled(items: AsyncIterable<DatasetItem> | Iterable<DatasetItem>, o: LoadOptions): Promise<LoadedRows> {
  const out: LoadedRows = { rows: [], unlabelled: 0, invalidLabel: 0, duplicateKey: 0, unreadable: 0, joined: 0 };
  let source: AsyncIterable<DatasetItem> | Iterable<DatasetItem> = items;
  const comments = new Map<string, string>();
  let join: ReturnType<typeof joinLabels> | undefined;
  if (o.labels && o.labels.length > 0) {
    join = joinLabels(items, o.metric, humanLabels(o.labels, o.metric), o.keyFields);
    source = join.items;
    for (const [key, annotators] of currentLabels(o.labels, o.metric)) {
      const m = majority(annotators);
      if (m.label === undefined) continue;
      // The comment of a reviewer who gave the standing label; the latest such line wins.
      const comment = [...annotators.values()].filter((l) => l.label === m.label && l.comment?.trim()).pop()?.comment?.trim();
      if (comment) comments.set(key, comment);
    }
  }
  const column = o.kind === 'pointwise' ? `${o.metric}/human_rating` : `${o.metric}/human_pairwise_choice`;
  const seen = new Set<string>();
  for await (const item of source) {
    if (isSkip(item)) {
      out.unreadable++;
      continue;
    }
    const parsed = o.kind === 'pointwise' ? parseRating(item.record[column]) : parseChoice(item.record[column]);
    if (!isLabel(parsed)) {
      if (typeof parsed === 'symbol') out.unlabelled++;
      else out.invalidLabel++;
      continue;
    }
    const key = rowKey(item.record, o.keyFields);
    if (seen.has(key)) {
      out.duplicateKey++;
      continue;
    }
    seen.add(key);
    const comment = comments.get(typeof item.record._key === 'string' ? item.record._key : key) ?? comments.get(key);
    out.rows.push({ row: item.row, line: item.line, key, record: item.record, label: parsed as Label, ...(comment ? { comment } : {}) });
  }
  out.joined = join?.stats.joined ?? 0;
  return out;
}
