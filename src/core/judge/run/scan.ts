// Reading an existing results file for --resume: which rows are there, which failed, which template
// versions wrote them, and cutting off a torn last line so appending cannot glue two rows together.
import { createReadStream, promises as fs } from 'node:fs';
import * as readline from 'node:readline';
import { canonicalJson, rowKey } from '../../results/keys';
import { ROW_KEY } from '../../results/latest';
import { KEY_KEY } from '../engine/line';

/** The line standing for one `_row`: its row identity, whether it is a failure, where it is and its human labels. */
interface RowEntry {
  key: string | undefined;
  failed: boolean;
  at: LineAt;
  /** The line's human label columns of the metric, as canonical JSON ('' when it has none). */
  labels: string;
}

/** Where a judged line is in the file, to carry its verdict to the row that now has its inputs. */
export interface LineAt {
  row: number;
  offset: number;
  length: number;
}

/** What resume does with a dataset row, given the results file. */
export type ResumeDecision =
  /** The line at this row is a judgment of this very row (same `_key`): kept. */
  | { action: 'keep' }
  /** Kept too, but the dataset's human labels of the row changed since: its verdict is written again with them, no request. */
  | { action: 'relabel'; from: LineAt }
  /** A judgment of these inputs stands under another row number (the dataset moved): its verdict is carried over, no request. */
  | { action: 'move'; from: LineAt }
  /** No judgment of this row: judge it. `setAside`: the line at this row belongs to other inputs. */
  | { action: 'judge'; setAside: boolean };

export interface ResumeScan {
  /** Rows whose last line is a judgment (kept by --resume when its `_key` matches). */
  done: Set<number>;
  /** Rows whose last line is a failure (judged again by --resume). */
  failed: Set<number>;
  lines: number;
  /** Notices for stderr (torn last line removed, unreadable lines ignored). */
  warnings: string[];
  /** Template hashes found in lines of this metric, with their line counts. */
  hashes: Map<string, number>;
  /** Lines of this metric without `m/template_hash` (written before it existed). */
  unhashed: number;
  /** Results lines that carry no column of this metric (another metric's file). */
  foreign: number;
  /** Another metric named by the foreign lines, for the message. */
  foreignMetric?: string;
  /** Whether the line standing for `row` is a judgment of exactly these inputs (its `_key`), whatever its labels. */
  keeps(row: number, record: Record<string, unknown>): boolean;
  /** What resume does with this dataset row (see ResumeDecision). */
  decide(row: number, record: Record<string, unknown>): ResumeDecision;
  /** The line a `move` decision points at. */
  read(at: LineAt): Promise<Record<string, unknown>>;
}

export interface ScanOptions {
  /** The metric this run writes; lines of other metrics are counted as foreign. */
  metric?: string;
  /** The judge's key fields: a line is a row's only when its `_key` is the row's (design.md, row identity). */
  keyFields?: readonly string[];
}

/** The index a scan builds: the line standing for each row, and the newest judged line of each key. */
class ScanIndex {
  readonly byRow = new Map<number, RowEntry>();
  readonly byKey = new Map<string, LineAt>();
  constructor(
    private readonly keyFields: readonly string[] | undefined,
    /** `metric/`: whose human label columns a kept line must share with its dataset row. */
    readonly prefix: string | undefined,
  ) {}

  decide(row: number, record: Record<string, unknown>): ResumeDecision {
    const at = this.byRow.get(row);
    const key = this.keyFields ? rowKey(record, this.keyFields) : undefined;
    if (at && !at.failed && (key === undefined || at.key === key)) {
      return this.prefix === undefined || humanLabels(record, this.prefix) === at.labels ? { action: 'keep' } : { action: 'relabel', from: at.at };
    }
    // A failed row is judged again, never given another row's verdict.
    const moved = key !== undefined && !(at?.failed && at.key === key) ? this.byKey.get(key) : undefined;
    if (moved) return { action: 'move', from: moved };
    return { action: 'judge', setAside: at !== undefined && !at.failed && key !== undefined && at.key !== key };
  }
}

/**
 * Reads an existing results file for --resume. A last line without its newline (a hard kill
 * mid-write, a full disk) is cut off so appending cannot glue two rows together; that row is
 * judged again. Where a row has several lines, the last one stands.
 */
export async function scanResults(file: string, opts: ScanOptions = {}): Promise<ResumeScan> {
  const index = new ScanIndex(opts.keyFields, opts.metric !== undefined ? `${opts.metric}/` : undefined);
  const scan: ResumeScan = {
    done: new Set(),
    failed: new Set(),
    lines: 0,
    warnings: [],
    hashes: new Map(),
    unhashed: 0,
    foreign: 0,
    keeps: (row, record) => ['keep', 'relabel'].includes(index.decide(row, record).action),
    decide: (row, record) => index.decide(row, record),
    read: (at) => readLineAt(file, at),
  };
  let size: number;
  try {
    size = (await fs.stat(file)).size;
  } catch {
    return scan; // nothing to resume yet
  }
  if (size > 0) {
    const torn = await cutTornTail(file, size);
    if (torn) scan.warnings.push(torn);
  }
  const prefix = opts.metric !== undefined ? `${opts.metric}/` : undefined;
  const lines = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  let offset = 0;
  const bad: number[] = [];
  for await (const text of lines) {
    n++;
    const at = { offset, length: Buffer.byteLength(text) };
    offset += at.length + 1;
    if (text.trim() !== '' && !addLine(scan, index, text, at, prefix)) bad.push(n);
  }
  if (bad.length) {
    const shown = bad.slice(0, 5).join(', ') + (bad.length > 5 ? ', …' : '');
    scan.warnings.push(
      `${file}: ${bad.length} line(s) are not results lines with a numeric "${ROW_KEY}" (line ${shown}); they are ignored and their rows judged again`,
    );
  }
  return scan;
}

/** Counts one line into the scan; false when it is not a results line. */
function addLine(scan: ResumeScan, index: ScanIndex, text: string, at: { offset: number; length: number }, prefix: string | undefined): boolean {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
    record = parsed as Record<string, unknown>;
  } catch {
    return false;
  }
  const row = record[ROW_KEY];
  if (typeof row !== 'number' || !Number.isInteger(row)) return false;
  scan.lines++;
  if (prefix !== undefined) {
    const own = Object.keys(record).some((k) => k.startsWith(prefix) && !k.startsWith(`${prefix}human_`));
    if (!own) {
      scan.foreign++;
      scan.foreignMetric ??= otherMetric(record);
      return true;
    }
    const hash = record[`${prefix}template_hash`];
    if (typeof hash === 'string') scan.hashes.set(hash, (scan.hashes.get(hash) ?? 0) + 1);
    else scan.unhashed++;
  }
  const failed = prefix !== undefined ? typeof record[`${prefix}error`] === 'string' : false;
  const key = typeof record[KEY_KEY] === 'string' ? (record[KEY_KEY] as string) : undefined;
  // The last line per row stands: a retried row moves from failed to done, or back.
  index.byRow.set(row, { key, failed, at: { row, ...at }, labels: prefix !== undefined ? humanLabels(record, prefix) : '' });
  if (key !== undefined && !failed) index.byKey.set(key, { row, ...at });
  (failed ? scan.failed : scan.done).add(row);
  (failed ? scan.done : scan.failed).delete(row);
  return true;
}

/** A record's human label columns of one metric (`m/human_…`) as canonical JSON, '' when it has none. */
function humanLabels(record: Record<string, unknown>, prefix: string): string {
  const human = `${prefix}human_`;
  let labels: Record<string, unknown> | undefined;
  for (const k in record) if (k.startsWith(human) && Object.hasOwn(record, k)) (labels ??= {})[k] = record[k];
  return labels ? canonicalJson(labels) : '';
}

/** The text of a line found by the scan (to carry its verdict over to the row's new number). */
export async function readLineAt(file: string, at: LineAt): Promise<Record<string, unknown>> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(at.length);
    await handle.read(buf, 0, at.length, at.offset);
    return JSON.parse(buf.toString('utf8')) as Record<string, unknown>;
  } finally {
    await handle.close();
  }
}

/** The metric of a results line's judge columns (`m/score`, `m/pairwise_choice`, …), if any. */
function otherMetric(record: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(record)) {
    const m = /^([a-z][a-z0-9_]*)\/(score|pairwise_choice|error|template_hash)$/.exec(k);
    if (m) return m[1];
  }
  return undefined;
}

/** Removes bytes after the last newline when they are not a complete JSON line; returns a notice. */
async function cutTornTail(file: string, size: number): Promise<string | undefined> {
  const handle = await fs.open(file, 'r+');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return undefined;
    const keep = await lastNewlineEnd(handle, size);
    const tail = Buffer.alloc(size - keep);
    await handle.read(tail, 0, tail.length, keep);
    try {
      JSON.parse(tail.toString('utf8'));
      await handle.write('\n', size); // a whole line that only lacks its newline: keep it
      return undefined;
    } catch {
      await handle.truncate(keep);
      return `${file}: the last line was cut off mid-write (${tail.length} bytes, probably a hard kill); removed it, that row will be judged again`;
    }
  } finally {
    await handle.close();
  }
}

/** Offset just past the last '\n' in the file (0 when there is none), reading backwards in chunks. */
async function lastNewlineEnd(handle: fs.FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const i = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (i >= 0) return start + i + 1;
    end = start;
  }
  return 0;
}
