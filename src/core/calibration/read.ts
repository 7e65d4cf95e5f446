// Reading a results file for calibration in one pass: every line is parsed once, slimmed to what
// the figures need (slim.ts), and the last line per `_row` stands (resume appends retried rows).
// The CLI and the editor's calibration view both keep their rows in a LatestRows.
import type { DatasetItem, DatasetRecord, DatasetRow, DatasetSkip } from '../dataset/types';
import { isSkip } from '../dataset/types';
import { readDatasetBatches } from '../dataset';
import { rowOf } from '../results/latest';
import { LENGTH_OF, TEXT_FIELDS } from './bias';
import { Slimmer, type SlimSpec } from './slim';

/** Distinct slim records shared between rows; past this, rows keep their own. */
const INTERN_LIMIT = 1 << 16;
/** Longer text values are never part of a shared record. */
const INTERN_TEXT = 64;
const MAX_INT32 = 2 ** 31 - 1;
const SKIP = -1;

/**
 * The items of a file, in file order, where a later line of the same `_row` replaces the earlier
 * one (which drops out of the order, as the two-pass `latestPerRow` does). Lines without `_row`
 * and unreadable lines all stay. Rows can be added as a file grows.
 *
 * With `share`, rows whose slim records are equal but for `_row` share one record (a million rows
 * of a 1–5 scale hold a few hundred distinct ones), so memory and garbage collection do not grow
 * with every row's object; iterating gives each row its own copy with its `_row` back.
 */
export class LatestRows implements Iterable<DatasetItem> {
  private slots: (DatasetRecord | DatasetSkip | undefined)[] = [];
  private fileRows: Int32Array = new Int32Array(1024);
  private lines: Int32Array = new Int32Array(1024);
  /** `_row` of a shared record; 0: the record is the row's own; -1: an unreadable line. */
  private runRows: Int32Array = new Int32Array(1024);
  private at = new RowIndex();
  private readonly shared = new Map<string, DatasetRecord>();
  private replaced = 0;
  private live = 0;

  constructor(private readonly share = false) {}

  add(item: DatasetItem): void {
    const i = this.slots.length;
    if (i === this.fileRows.length) this.grow();
    this.fileRows[i] = item.row;
    this.lines[i] = item.line;
    this.live++;
    if (isSkip(item)) {
      this.slots.push(item);
      this.runRows[i] = SKIP;
      return;
    }
    const row = rowOf(item.record);
    if (row !== undefined) {
      const earlier = this.at.get(row);
      if (earlier !== undefined) {
        this.slots[earlier] = undefined;
        this.replaced++;
        this.live--;
      }
      this.at.set(row, i);
    }
    const record = this.share ? this.sharedRecord(item.record, row) : undefined;
    if (record === undefined) {
      this.slots.push(item.record);
      this.runRows[i] = 0;
    } else {
      this.slots.push(record);
      this.runRows[i] = row ?? 0;
    }
  }

  /** Standing items. */
  get size(): number {
    return this.live;
  }

  /** How many lines a later line of their `_row` replaced. */
  get replacedCount(): number {
    return this.replaced;
  }

  *[Symbol.iterator](): Iterator<DatasetItem> {
    const { slots, fileRows, lines, runRows } = this;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      if (slot === undefined) continue;
      const run = runRows[i]!;
      if (run === SKIP) {
        yield slot as DatasetSkip;
        continue;
      }
      const record = slot as DatasetRecord;
      yield { row: fileRows[i]!, line: lines[i]!, record: run === 0 ? record : { _row: run, ...record } };
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

  private grow(): void {
    const size = this.fileRows.length * 2;
    const widen = (a: Int32Array): Int32Array => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.fileRows = widen(this.fileRows);
    this.lines = widen(this.lines);
    this.runRows = widen(this.runRows);
  }

  /**
   * The shared record equal to `record` without its `_row`, or undefined when the row keeps its own:
   * a `_row` that is not a small positive integer, a value that is not a short text, number,
   * boolean or null, a flip rate (the stability figures name rows), or a full table.
   */
  private sharedRecord(record: DatasetRecord, row: number | undefined): DatasetRecord | undefined {
    if (Object.hasOwn(record, '_row') && (row === undefined || row > MAX_INT32)) return undefined;
    let signature = '';
    for (const key of Object.keys(record)) {
      if (key === '_row') continue;
      if (key.endsWith('/flip_rate')) return undefined;
      const part = valuePart(record[key]);
      if (part === undefined) return undefined;
      signature += `${key.length}:${key}${part}`;
    }
    for (let f = 0; f < TEXT_FIELDS.length; f++) {
      const n = (record as Record<symbol, unknown>)[LENGTH_OF[TEXT_FIELDS[f]!]];
      if (typeof n === 'number') signature += `#${f}:${n}`;
    }
    const known = this.shared.get(signature);
    if (known !== undefined) return known;
    if (this.shared.size >= INTERN_LIMIT) return undefined;
    const { _row: _dropped, ...rest } = record;
    this.shared.set(signature, rest);
    return rest;
  }
}

/** A value's part of a shared record's signature; undefined for a value that is never shared. */
function valuePart(value: unknown): string | undefined {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? 'z' : `n${value};`;
    case 'string':
      return value.length > INTERN_TEXT ? undefined : `s${value.length}:${value}`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'object':
      return value === null ? 'u' : undefined;
    default:
      return undefined;
  }
}

/**
 * `_row` → position. Rows are numbered 1…n by the run that wrote them, so positions live in a typed
 * array indexed by row (4 bytes a row, no hashing); a row far beyond the count seen so far (a
 * hand-edited file) goes to a Map, so a huge `_row` cannot make the array huge.
 */
class RowIndex {
  private dense: Int32Array = new Int32Array(1024); // position + 1; 0 = not seen
  private readonly sparse = new Map<number, number>();
  private count = 0;

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
  const latest = new LatestRows(true);
  for await (const batch of readDatasetBatches(file, { ...opts, shape: new Slimmer(spec) })) {
    for (const item of batch) latest.add(item);
  }
  return latest;
}

/** The latest line per `_row` of items already in memory (the editor's whole-file read). */
export function latestRows(items: Iterable<DatasetItem>): { rows: DatasetRow[]; skipped: DatasetSkip[] } {
  const latest = new LatestRows();
  for (const item of items) latest.add(item);
  return latest.split();
}
