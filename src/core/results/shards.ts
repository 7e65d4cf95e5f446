// Which dataset a shard judged (`run --shard K/N`): the dataset's fingerprint is a hash of every
// row's `_key` in order with the row count, so shards of one dataset agree on it whatever rows
// each judged, and a shard of another dataset (or of the same file edited between shards) does
// not. The run manifest records it with K/N; merge refuses shards that disagree or leave a K out.
import { createHash } from 'node:crypto';
import { isSkip, type DatasetItem } from '../dataset/types';
import { rowKey } from './keys';

export interface DatasetFingerprint {
  /** First 16 hex of sha256 over the rows' `_key`s in order (an unreadable record counts as "-"). */
  keys: string;
  /** Rows in the file, unreadable ones included (they keep their numbers). */
  rows: number;
}

/** The shard a results file holds: K of N, of which dataset. */
export interface ShardIdentity {
  index: number;
  count: number;
  dataset: DatasetFingerprint;
}

export async function datasetFingerprint(items: AsyncIterable<DatasetItem>, keyFields: readonly string[]): Promise<DatasetFingerprint> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const item of items) {
    rows++;
    hash.update(`${isSkip(item) ? '-' : rowKey(item.record, keyFields)}\n`);
  }
  return { keys: hash.digest('hex').slice(0, 16), rows };
}
