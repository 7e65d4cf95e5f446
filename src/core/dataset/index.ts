// Dataset reading: the format comes from the extension; rows are numbered in file order and
// malformed records come back as skips with the same numbering, so row N is always the same record.
import { createReadStream } from 'node:fs';
import * as path from 'node:path';
import { CsvReader } from './csv';
import { JsonReader } from './json';
import { JsonlReader } from './jsonl';
import { DatasetError, isSkip } from './types';
import type { ChunkReader, DatasetFormat, DatasetItem, DatasetRow, DatasetSkip } from './types';

export * from './types';
export { describeSkips } from './messages';

const EXTENSIONS: Record<string, DatasetFormat> = { '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.json': 'json', '.csv': 'csv' };

export function formatOf(file: string): DatasetFormat {
  const format = EXTENSIONS[path.extname(file).toLowerCase()];
  if (format === undefined) {
    throw new Error(
      `${file}: unsupported dataset file type; use one of ${Object.keys(EXTENSIONS).join(', ')} ` +
        '(JSON Lines, a JSON array of objects, or CSV with a header row)',
    );
  }
  return format;
}

/** A reader that also drops a leading byte order mark, which editors on Windows often write. */
export function createReader(format: DatasetFormat): ChunkReader {
  const inner = format === 'csv' ? new CsvReader() : format === 'json' ? new JsonReader() : new JsonlReader();
  let first = true;
  return {
    push(chunk) {
      if (first && chunk !== '') {
        first = false;
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      }
      return inner.push(chunk);
    },
    end: () => inner.end(),
  };
}

/** Whole text at once, for the editor. Throws DatasetError when the file as a whole is unreadable. */
export function parseDataset(text: string, format: DatasetFormat): DatasetItem[] {
  const reader = createReader(format);
  return [...reader.push(text), ...reader.end()];
}

/**
 * Streams items in file order with memory bounded by the longest record (JSONL, CSV); a .json
 * array is read whole (see json.ts). Throws an Error naming the file when it is unreadable.
 */
export async function* readDataset(file: string, opts: { signal?: AbortSignal } = {}): AsyncIterable<DatasetItem> {
  const { signal } = opts;
  const reader = createReader(formatOf(file));
  signal?.throwIfAborted();
  const stream = createReadStream(file, { encoding: 'utf8', signal });
  try {
    for await (const chunk of stream) {
      for (const item of reader.push(chunk as string)) {
        signal?.throwIfAborted();
        yield item;
      }
    }
    for (const item of reader.end()) {
      signal?.throwIfAborted();
      yield item;
    }
  } catch (e) {
    if (signal?.aborted) throw e;
    throw unreadable(file, e);
  } finally {
    stream.destroy();
  }
}

export async function readDatasetFile(
  file: string,
  opts: { signal?: AbortSignal } = {},
): Promise<{ rows: DatasetRow[]; skipped: DatasetSkip[] }> {
  const rows: DatasetRow[] = [];
  const skipped: DatasetSkip[] = [];
  for await (const item of readDataset(file, opts)) {
    if (isSkip(item)) skipped.push(item);
    else rows.push(item);
  }
  return { rows, skipped };
}

/** Puts the file name in front of a reading error. */
function unreadable(file: string, e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  if (e instanceof DatasetError) return new DatasetError(`${file}: ${e.message}`, e.line);
  return new Error(`cannot read dataset ${file}: ${e.message}`, { cause: e });
}
