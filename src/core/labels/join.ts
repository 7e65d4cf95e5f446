// Joining labels to results by `_key`, for calibrate: each row whose key has a human label gets it
// in the Vertex AI column (`m/human_rating` or `m/human_pairwise_choice`), replacing any value the
// file had there, since the labels file is the newer, reviewed source. The rest of the row is as read.
import { isSkip, type DatasetItem } from '../dataset/types';
import { keyOf } from './queue';
import type { HumanLabels } from './majority';
import type { LabelValue } from './types';

export interface JoinStats {
  /** Rows that took their human label from the labels file. */
  joined: number;
  /** Of those, rows whose own human column held a different label. */
  overridden: number;
  /** Rows without `_key` whose key could not be computed (no key fields known). */
  without_key: number;
  /** Labelled keys that no row of the file has. */
  unmatched: number;
  /** Keys whose annotators tied (no human label). */
  tied: number;
}

type Items = AsyncIterable<DatasetItem> | Iterable<DatasetItem>;

export function humanColumn(metric: string, label: LabelValue): string {
  return typeof label === 'number' ? `${metric}/human_rating` : `${metric}/human_pairwise_choice`;
}

/**
 * The items with labels joined in; `stats` is complete once the iteration has finished, and
 * `lineOf` names the labels file's line a joined record's human label came from (for messages).
 */
export function joinLabels(
  items: Items,
  metric: string,
  human: HumanLabels,
  fields: readonly string[] | undefined,
): { items: AsyncIterable<DatasetItem>; stats: JoinStats; lineOf: (record: object) => number | undefined } {
  const stats: JoinStats = { joined: 0, overridden: 0, without_key: 0, unmatched: 0, tied: human.tied };
  const used = new Set<string>();
  const origins = new WeakMap<object, number>();
  async function* run(): AsyncIterable<DatasetItem> {
    for await (const item of items) {
      if (isSkip(item)) {
        yield item;
        continue;
      }
      const key = keyOf(item.record, fields);
      if (key === undefined) {
        stats.without_key++;
        yield item;
        continue;
      }
      const label = human.labels.get(key);
      if (label === undefined) {
        yield item;
        continue;
      }
      used.add(key);
      const column = humanColumn(metric, label);
      const before = item.record[column];
      if (before !== undefined && before !== null && before !== '' && String(before).toUpperCase() !== String(label)) stats.overridden++;
      stats.joined++;
      const record = { ...item.record, [column]: label };
      const line = human.lines.get(key);
      if (line !== undefined) origins.set(record, line);
      yield { ...item, record };
    }
    for (const key of human.labels.keys()) if (!used.has(key)) stats.unmatched++;
  }
  return { items: run(), stats, lineOf: (record) => origins.get(record) };
}
