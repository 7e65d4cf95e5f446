// Reading a results file for calibration in one pass: every line is parsed once, slimmed to what
// the figures need (slim.ts), and the last line per `_row` stands (resume appends retried rows).
// The CLI and the editor's calibration view both keep their rows in a LatestRows.
import * as fs from 'node:fs/promises';
import type { DatasetItem, DatasetRow, DatasetSkip } from '../dataset/types';
import { isSkip } from '../dataset/types';
import { readDatasetBatches } from '../dataset';
import { rowOf } from '../results/latest';
import { Slimmer, storedIndex, type SlimSpec } from './slim';
import type { SlimRows } from './store';

const DEAD = -1;
const SKIP = 0;
const RECORD = 1;
const STORED_ROW = 2;

/**
 * The items of a file, in file order, where a later line of the same `_row` replaces the earlier
 * one (which drops out of the order, as the two-pass `latestPerRow` does). Lines without `_row`
 * and unreadable lines all stay. Rows can be added as a file grows.
 *
 * With a `store`, rows the reader kept there (slim.ts) are held as its values, not as records;
 * iterating gives each such row a record of its own, equal to the one JSON.parse would have led to.
 */
export class LatestRows implements Iterable<DatasetItem> {
  /** Rows and skips as they were added (undefined once replaced); rows in the store are not here. */
  private objects: (DatasetItem | undefined)[] = [];
  private kinds: Int8Array;
  private fileRows: Int32Array;
  private lines: Int32Array;
  /** Index in `objects`, or in the store for a stored row. */
  private refs: Int32Array;
  private readonly at: RowIndex;
  private count = 0;
  private replaced = 0;

  /** `expectedRows`: a size hint (see SlimRows). */
  constructor(
    private readonly store?: SlimRows,
    expectedRows = 1024,
  ) {
    const size = Math.max(1024, expectedRows);
    this.kinds = new Int8Array(size);
    this.fileRows = new Int32Array(size);
    this.lines = new Int32Array(size);
    this.refs = new Int32Array(size);
    this.at = new RowIndex(size);
  }

  add(item: DatasetItem): void {
    const i = this.count++;
    if (i === this.kinds.length) this.grow();
    this.fileRows[i] = item.row;
    this.lines[i] = item.line;
    if (isSkip(item)) return this.keep(i, SKIP, item);
    const index = this.store ? storedIndex(item.record) : undefined;
    let row: number | undefined;
    if (index !== undefined) {
      this.kinds[i] = STORED_ROW;
      this.refs[i] = index;
      row = rowOf({ _row: this.store!.runRow(index) });
    } else {
      this.keep(i, RECORD, item);
      row = rowOf(item.record);
    }
    if (row === undefined) return;
    const earlier = this.at.get(row);
    if (earlier !== undefined) {
      if (this.kinds[earlier] !== STORED_ROW) this.objects[this.refs[earlier]!] = undefined;
      this.kinds[earlier] = DEAD;
      this.replaced++;
    }
    this.at.set(row, i);
  }

  /** Standing items. */
  get size(): number {
    return this.count - this.replaced;
  }

  /** How many lines a later line of their `_row` replaced. */
  get replacedCount(): number {
    return this.replaced;
  }

  *[Symbol.iterator](): Iterator<DatasetItem> {
    const { kinds, fileRows, lines, refs, objects, store } = this;
    for (let i = 0; i < this.count; i++) {
      const kind = kinds[i];
      if (kind === SKIP || kind === RECORD) yield objects[refs[i]!]!;
      else if (kind === STORED_ROW) yield { row: fileRows[i]!, line: lines[i]!, record: store!.record(refs[i]!) };
    }
  }

  /** The standing rows and unreadable lines, each in file order. */
  split(): { rows: DatasetRow[]; skipped: DatasetSkip[] } {
    const rows: DatasetRow[] = [];
    const skipped: DatasetSkip[] = [];
    for (const item of this) {
      if (isSkip(item)) skipped.push(item);
      else rows.push(item);
    }
    return { rows, skipped };
  }

  private keep(i: number, kind: number, value: DatasetItem): void {
    this.kinds[i] = kind;
    this.refs[i] = this.objects.length;
    this.objects.push(value);
  }

  private grow(): void {
    const size = this.kinds.length * 2;
    const kinds = new Int8Array(size);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const widen = (a: Int32Array): Int32Array => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.fileRows = widen(this.fileRows);
    this.lines = widen(this.lines);
    this.refs = widen(this.refs);
  }
}

/**
 * `_row` → position. Rows are numbered 1…n by the run that wrote them, so positions live in a typed
 * array indexed by row (4 bytes a row, no hashing); a row far beyond the count seen so far (a
 * hand-edited file) goes to a Map, so a huge `_row` cannot make the array huge.
 */
class RowIndex {
  private dense: Int32Array; // position + 1; 0 = not seen
  private readonly sparse = new Map<number, number>();
  private count = 0;

  constructor(size: number) {
    this.dense = new Int32Array(size + 1);
  }

  get(row: number): number | undefined {
    if (row < this.dense.length) {
      const at = this.dense[row]!;
      return at === 0 ? undefined : at - 1;
    }
    return this.sparse.get(row);
  }

  set(row: number, position: number): void {
    this.count++;
    if (row >= this.dense.length && row < 4 * this.count + 4096) this.grow(row);
    if (row < this.dense.length) this.dense[row] = position + 1;
    else this.sparse.set(row, position);
  }

  private grow(row: number): void {
    let size = this.dense.length;
    while (size <= row) size *= 2;
    const dense = new Int32Array(size);
    dense.set(this.dense);
    this.dense = dense;
    // Rows the array now covers move into it, so each row has one place.
    for (const [r, at] of this.sparse) {
      if (r < size) {
        dense[r] = at + 1;
        this.sparse.delete(r);
      }
    }
  }
}

/**
 * The file's items as calibration reads them: slim records, the last line per `_row`, in file
 * order, unreadable lines included. Throws an Error naming the file when it cannot be read.
 */
export async function readForCalibration(file: string, spec: SlimSpec, opts: { signal?: AbortSignal } = {}): Promise<LatestRows> {
  const expected = await expectedRows(file);
  const slimmer = new Slimmer(spec, undefined, expected);
  const latest = new LatestRows(slimmer.store, expected);
  for await (const batch of readDatasetBatches(file, { ...opts, shape: slimmer })) {
    for (const item of batch) latest.add(item);
  }
  return latest;
}

/** Rows a hint may reserve: beyond, the arrays grow by doubling as before. */
const MAX_EXPECTED_ROWS = 1 << 22;

/** About how many lines the file holds: its size over the mean length of the lines in its first 64 KB. */
async function expectedRows(file: string): Promise<number> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, 'r');
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(size, 65_536));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    let lines = 0;
    for (let i = head.indexOf(0x0a); i >= 0 && i < bytesRead; i = head.indexOf(0x0a, i + 1)) lines++;
    if (lines === 0) return 1024;
    return Math.min(MAX_EXPECTED_ROWS, Math.ceil((size / (bytesRead / lines)) * 1.05));
  } catch {
    return 1024; // the reader reports what is wrong with the file
  } finally {
    await handle?.close();
  }
}

/** The latest line per `_row` of rows already in memory (the editor's whole-file read): the same array when none was replaced. */
export function latestRows(rows: DatasetRow[]): DatasetRow[] {
  const latest = new LatestRows();
  for (const row of rows) latest.add(row);
  return latest.replacedCount === 0 ? rows : latest.split().rows;
}
