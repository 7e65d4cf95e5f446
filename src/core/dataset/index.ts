// Dataset reading: the format comes from the extension; rows are numbered in file order and
// malformed records come back as skips with the same numbering, so row N is always the same record.
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { CsvReader } from './csv';
import { ByteDecoder, SNIFF_BYTES, sniffEncoding } from './decode';
import { JsonReader } from './json';
import { JsonlReader } from './jsonl';
import { DatasetError, isSkip } from './types';
import type { ChunkReader, DatasetErrorCode, DatasetFormat, DatasetItem, DatasetRow, DatasetSkip, ReaderLimits, RecordShape } from './types';

export * from './types';
export { countSkips, describeReasons, describeSkips } from './messages';
export { ByteDecoder, sniffEncoding } from './decode';
export { bufferSource, fileSource, indexJsonl, readIndexedRows, type ByteSource, type JsonlIndex } from './offsets';

const EXTENSIONS: Record<string, DatasetFormat> = { '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.json': 'json', '.csv': 'csv' };

export function formatOf(file: string): DatasetFormat {
  const format = EXTENSIONS[path.extname(file).toLowerCase()];
  if (format === undefined) {
    throw new DatasetError(
      `${file}: unsupported dataset file type; use one of ${Object.keys(EXTENSIONS).join(', ')} ` +
        '(JSON Lines, a JSON array of objects, or CSV with a header row)',
      undefined,
      'unsupported-format',
    );
  }
  return format;
}

/**
 * A reader that also drops a leading byte order mark, which editors on Windows often write. With
 * `shape`, records come out shaped (JSON Lines may shape a line without parsing all of it).
 */
export function createReader(format: DatasetFormat, limits: ReaderLimits = {}, shape?: RecordShape): ChunkReader {
  const inner = format === 'csv' ? new CsvReader(limits) : format === 'json' ? new JsonReader(limits) : new JsonlReader(limits, undefined, shape);
  const shaped = shape && format !== 'jsonl' ? (items: DatasetItem[]) => items.map((i) => (isSkip(i) ? i : { ...i, record: shape.shape(i.record) })) : (items: DatasetItem[]) => items;
  let first = true;
  return {
    flagInvalidUtf8: (line) => inner.flagInvalidUtf8?.(line),
    push(chunk) {
      if (first && chunk !== '') {
        first = false;
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      }
      return shaped(inner.push(chunk));
    },
    end: () => shaped(inner.end()),
  };
}

/** Whole text at once, for the editor. Throws DatasetError when the file as a whole is unreadable. */
export function parseDataset(text: string, format: DatasetFormat, limits: ReaderLimits = {}): DatasetItem[] {
  const reader = createReader(format, limits);
  return [...reader.push(text), ...reader.end()];
}

/**
 * Whole file bytes at once (the editor reading a file that is not open): the same checks as
 * readDataset, so binary files and other encodings are refused and bad UTF-8 lines are skips.
 */
export function parseDatasetBytes(bytes: Uint8Array, format: DatasetFormat, name?: string, limits: ReaderLimits = {}): DatasetItem[] {
  const decoder = new ByteDecoder(createReader(format, limits), name);
  return [...decoder.push(bytes), ...decoder.end()];
}

export type DatasetCheck = { ok: true } | { ok: false; code: DatasetErrorCode; message: string };

/**
 * Whether a file can be read as a dataset at all, from its extension and first 8 KB: the check
 * to make before a run or a calibration, so an unreadable input exits 2 before anything is judged.
 * Messages name the file as given.
 */
export async function checkDatasetFile(file: string): Promise<DatasetCheck> {
  try {
    formatOf(file);
  } catch (e) {
    return { ok: false, code: 'unsupported-format', message: (e as Error).message };
  }
  let head: Buffer;
  try {
    const handle = await fsp.open(file, 'r');
    try {
      const buf = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (e) {
    return { ok: false, code: 'file-unreadable', message: `cannot read dataset ${file}: ${(e as Error).message}` };
  }
  const sniffed = sniffEncoding(head, path.basename(file));
  if (sniffed instanceof DatasetError) return { ok: false, code: sniffed.code, message: `${file}: ${sniffed.message}` };
  return { ok: true };
}

/**
 * Streams items in file order with memory bounded by the longest record (JSONL, CSV); a .json
 * array is read whole (see json.ts). Throws an Error naming the file when it is unreadable.
 */
export async function* readDataset(file: string, opts: { signal?: AbortSignal; limits?: ReaderLimits; shape?: RecordShape } = {}): AsyncIterable<DatasetItem> {
  for await (const batch of readDatasetBatches(file, opts)) {
    for (const item of batch) {
      opts.signal?.throwIfAborted();
      yield item;
    }
  }
}

/**
 * The items of readDataset, a chunk of the file at a time: for readers that handle a million
 * rows, where one await per row would cost more than the row itself.
 */
export async function* readDatasetBatches(file: string, opts: { signal?: AbortSignal; limits?: ReaderLimits; shape?: RecordShape } = {}): AsyncIterable<DatasetItem[]> {
  const { signal } = opts;
  const decoder = new ByteDecoder(createReader(formatOf(file), opts.limits, opts.shape), path.basename(file));
  signal?.throwIfAborted();
  const stream = createReadStream(file, { signal });
  try {
    for await (const chunk of stream) {
      const items = decoder.push(chunk as Buffer);
      signal?.throwIfAborted();
      if (items.length > 0) yield items;
    }
    const last = decoder.end();
    signal?.throwIfAborted();
    if (last.length > 0) yield last;
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
  if (e instanceof DatasetError) return new DatasetError(`${file}: ${e.message}`, e.line, e.code);
  return new DatasetError(`cannot read dataset ${file}: ${e.message}`, undefined, 'file-unreadable');
}
