// "The last line per `_row` stands": resume appends retried rows, so a results file can hold a row
// more than once. Readers (calibrate, compare, the editor, --resume) see only each row's last line.
import type { DatasetItem } from '../dataset/types';
import { isSkip } from '../dataset/types';

export const ROW_KEY = '_row';

/** The 1-based `_row` of a results record, or undefined when it has none. */
export function rowOf(record: Record<string, unknown>): number | undefined {
  const row = record[ROW_KEY];
  return typeof row === 'number' && Number.isSafeInteger(row) && row >= 1 ? row : undefined;
}

/**
 * First pass: for each `_row`, the file line of its last occurrence. Only numbers are kept, so a
 * million-row file costs a few tens of MB here, whatever the size of its text.
 */
export async function lastLines(items: AsyncIterable<DatasetItem> | Iterable<DatasetItem>): Promise<Map<number, number>> {
  const last = new Map<number, number>();
  for await (const item of items) {
    if (isSkip(item)) continue;
    const row = rowOf(item.record);
    if (row !== undefined) last.set(row, item.line);
  }
  return last;
}

/**
 * Second pass: drops lines that a later line of the same `_row` replaces. Lines without `_row`
 * (a dataset that was never a results file) and unreadable lines pass through unchanged.
 */
export async function* latestOnly(
  items: AsyncIterable<DatasetItem> | Iterable<DatasetItem>,
  last: ReadonlyMap<number, number>,
  onReplaced?: (item: DatasetItem) => void,
): AsyncIterable<DatasetItem> {
  for await (const item of items) {
    if (!isSkip(item)) {
      const row = rowOf(item.record);
      if (row !== undefined && last.get(row) !== item.line) {
        onReplaced?.(item);
        continue;
      }
    }
    yield item;
  }
}

/** Both passes over a file-backed source: `open` is called twice. */
export async function* latestPerRow(
  open: () => AsyncIterable<DatasetItem> | Iterable<DatasetItem>,
  onReplaced?: (item: DatasetItem) => void,
): AsyncIterable<DatasetItem> {
  const last = await lastLines(open());
  yield* latestOnly(open(), last, onReplaced);
}
