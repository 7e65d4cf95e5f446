// An index of where each JSONL row starts and ends in the file's bytes, so the editor can read
// only the rows it shows: one scan of the bytes (no JSON parsing), then a ranged read per view.
// Row and line numbers are the readers' own: blank lines are not rows; LF, CRLF, lone CR end a line.
import { promises as fsp } from 'node:fs';
import { ByteDecoder, SNIFF_BYTES, sniffEncoding } from './decode';
import { JsonlReader } from './jsonl';
import { skip, tooLong } from './messages';
import { DatasetError, LIMITS, type DatasetItem } from './types';

const LF = 0x0a;
const CR = 0x0d;
/** A line whose first non-space byte is not ASCII is decoded to learn whether it is blank (Unicode spaces); past this many bytes it is taken as a row. */
const UNICODE_BLANK_PROBE = 4096;

export interface JsonlIndex {
  /** Rows in the file (blank lines excluded). */
  readonly rows: number;
  /** Bytes scanned. */
  readonly bytes: number;
  /** Byte range [start, end) of a 1-based row, line break excluded, and the line it is on. */
  range(row: number): { start: number; end: number; line: number } | undefined;
}

class Offsets implements JsonlIndex {
  // Typed arrays doubled as they fill: a million rows cost 20 MB, not a million objects.
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private lines = new Uint32Array(1024);
  rows = 0;
  bytes = 0;

  add(start: number, end: number, line: number): void {
    if (this.rows === this.starts.length) {
      const grow = <T extends Float64Array | Uint32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.starts = grow(this.starts, (n) => new Float64Array(n));
      this.ends = grow(this.ends, (n) => new Float64Array(n));
      this.lines = grow(this.lines, (n) => new Uint32Array(n));
    }
    this.starts[this.rows] = start;
    this.ends[this.rows] = end;
    this.lines[this.rows] = line;
    this.rows++;
  }

  range(row: number): { start: number; end: number; line: number } | undefined {
    if (!Number.isInteger(row) || row < 1 || row > this.rows) return undefined;
    return { start: this.starts[row - 1]!, end: this.ends[row - 1]!, line: this.lines[row - 1]! };
  }
}

/** Builds the index from byte chunks in file order. */
export class JsonlIndexer {
  private readonly index = new Offsets();
  private offset = 0;
  private line = 1;
  private lineStart = 0;
  private state: 'blank' | 'row' | 'probe' = 'blank';
  private probe: Buffer[] = [];
  private probeBytes = 0;
  private afterCR = false;

  push(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // The next LF and CR at or after a position, each searched again only once passed, so a file
    // without CRs is not rescanned to its end for every line.
    let lf = -2;
    let cr = -2;
    const nextBreak = (from: number): number => {
      if (lf !== -1 && lf < from) lf = buf.indexOf(LF, from);
      if (cr !== -1 && cr < from) cr = buf.indexOf(CR, from);
      return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
    };
    let i = 0;
    if (this.afterCR) {
      this.afterCR = false;
      if (buf[0] === LF) {
        i = 1;
        this.lineStart = this.offset + 1;
      }
    }
    while (i < buf.length) {
      if (this.state === 'row') {
        // Fast path: jump to the next line break with native searches.
        const at = nextBreak(i);
        if (at < 0) break;
        i = this.lineEnd(buf, at);
        continue;
      }
      const c = buf[i]!;
      if (c === LF || c === CR) {
        i = this.lineEnd(buf, i);
        continue;
      }
      if (this.state === 'blank') {
        if (c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c) {
          i++;
          continue;
        }
        this.state = c < 0x80 ? 'row' : 'probe';
      }
      if (this.state === 'probe') {
        const at = nextBreak(i);
        const stop = at < 0 ? buf.length : at;
        if (this.probeBytes + (stop - i) > UNICODE_BLANK_PROBE) this.state = 'row';
        else {
          this.probe.push(Buffer.from(buf.subarray(i, stop)));
          this.probeBytes += stop - i;
        }
        i = stop;
      }
    }
    this.offset += buf.length;
  }

  end(): JsonlIndex {
    this.finishLine(this.offset);
    this.index.bytes = this.offset;
    return this.index;
  }

  /** Ends the line at `at` (a CR or LF in `buf`); returns where the next line starts in `buf`. */
  private lineEnd(buf: Buffer, at: number): number {
    this.finishLine(this.offset + at);
    this.line++;
    let next = at + 1;
    if (buf[at] === CR) {
      if (at + 1 === buf.length) this.afterCR = true;
      else if (buf[at + 1] === LF) next = at + 2;
    }
    this.lineStart = this.offset + next;
    return next;
  }

  private finishLine(end: number): void {
    let row = this.state === 'row';
    if (this.state === 'probe') row = Buffer.concat(this.probe).toString('utf8').trim() !== '';
    if (row) this.index.add(this.lineStart, end, this.line);
    this.state = 'blank';
    this.probe = [];
    this.probeBytes = 0;
  }
}

/** Reads row `row` from its bytes, numbered as in the file. */
export function jsonlItem(bytes: Uint8Array, row: number, line: number): DatasetItem | undefined {
  const reader = new JsonlReader({}, { line, row: row - 1 });
  const decoder = new ByteDecoder(reader, undefined, { line });
  return [...decoder.push(bytes), ...decoder.end()][0];
}

/** Where the bytes of a JSONL dataset come from: a file on disk, or a document's text in memory. */
export interface ByteSource {
  size(): Promise<number>;
  read(start: number, end: number): Promise<Uint8Array>;
}

export function bufferSource(buf: Uint8Array): ByteSource {
  return { size: async () => buf.byteLength, read: async (start, end) => buf.subarray(start, end) };
}

export function fileSource(file: string): ByteSource {
  return {
    size: async () => (await fsp.stat(file)).size,
    async read(start, end) {
      const handle = await fsp.open(file, 'r');
      try {
        const buf = Buffer.alloc(end - start);
        const { bytesRead } = await handle.read(buf, 0, buf.length, start);
        return buf.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  };
}

/** Bytes read per step while indexing: large enough for few reads, small enough to stay flat. */
const INDEX_CHUNK = 1024 * 1024;

/**
 * Indexes a UTF-8 JSONL source. Undefined for UTF-16 (read it whole instead); a DatasetError
 * when its first 8 KB show it is not text.
 */
export async function indexJsonl(source: ByteSource, signal?: AbortSignal): Promise<JsonlIndex | undefined> {
  const size = await source.size();
  const head = await source.read(0, Math.min(size, SNIFF_BYTES));
  const sniffed = sniffEncoding(head);
  if (sniffed instanceof DatasetError) throw sniffed;
  if (sniffed.encoding !== 'utf-8') return undefined;
  const indexer = new JsonlIndexer();
  for (let at = sniffed.skip; at < size; at += INDEX_CHUNK) {
    signal?.throwIfAborted();
    indexer.push(await source.read(at, Math.min(size, at + INDEX_CHUNK)));
  }
  const index = indexer.end();
  // Offsets are absolute: a skipped byte order mark still counts.
  return sniffed.skip === 0 ? index : shifted(index, sniffed.skip);
}

function shifted(index: JsonlIndex, by: number): JsonlIndex {
  return {
    rows: index.rows,
    bytes: index.bytes + by,
    range: (row) => {
      const r = index.range(row);
      return r && { start: r.start + by, end: r.end + by, line: r.line };
    },
  };
}

/** Rows `from`..`to` (1-based, inclusive, clamped) read from their bytes only. */
export async function readIndexedRows(source: ByteSource, index: JsonlIndex, from: number, to: number): Promise<DatasetItem[]> {
  const first = Math.max(1, from);
  const last = Math.min(index.rows, to);
  if (last < first) return [];
  const a = index.range(first)!;
  const b = index.range(last)!;
  const out: DatasetItem[] = [];
  // One read for a window of small rows; a row past the record limit is never read at all.
  const window = b.end - a.start <= 4 * LIMITS.recordChars ? await source.read(a.start, b.end) : undefined;
  for (let row = first; row <= last; row++) {
    const r = index.range(row)!;
    // More bytes than 4 per character allows: certainly past the limit, so not read at all.
    if (r.end - r.start > 4 * LIMITS.recordChars) {
      out.push(skip(row, r.line, 'line-too-long', tooLong(LIMITS.recordChars)));
      continue;
    }
    const bytes = window ? window.subarray(r.start - a.start, r.end - a.start) : await source.read(r.start, r.end);
    const item = jsonlItem(bytes, row, r.line);
    if (item) out.push(item);
  }
  return out;
}
