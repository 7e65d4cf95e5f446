// The results file: one JSON line per row, appended with a single write each so a crash leaves
// whole lines only; --resume reads which rows are there and cuts off a torn last line.
import { createReadStream, promises as fs } from 'node:fs';
import * as fsSync from 'node:fs';
import * as readline from 'node:readline';
import { ROW_KEY } from './row';

export interface ResumeScan {
  done: Set<number>;
  lines: number;
  /** Notices for stderr (torn last line removed, unreadable lines ignored). */
  warnings: string[];
}

/**
 * Reads an existing results file for --resume. A last line without its newline (a hard kill
 * mid-write) is cut off so appending cannot glue two rows together; that row is judged again.
 */
export async function scanResults(file: string): Promise<ResumeScan> {
  const scan: ResumeScan = { done: new Set(), lines: 0, warnings: [] };
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
  const lines = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  const bad: number[] = [];
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    let row: unknown;
    try {
      row = (JSON.parse(text) as Record<string, unknown>)[ROW_KEY];
    } catch {
      bad.push(n);
      continue;
    }
    if (typeof row === 'number' && Number.isInteger(row)) {
      scan.done.add(row);
      scan.lines++;
    } else bad.push(n);
  }
  if (bad.length) {
    const shown = bad.slice(0, 5).join(', ') + (bad.length > 5 ? ', …' : '');
    scan.warnings.push(
      `${file}: ${bad.length} line(s) are not results lines with a numeric "${ROW_KEY}" (line ${shown}); they are ignored and their rows judged again`,
    );
  }
  return scan;
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

/** Appends results lines; each line is one write of `JSON + "\n"` on a file opened for appending. */
export class ResultsWriter {
  private fd: number | undefined;

  /** `fresh` empties the file first (a new run); otherwise lines are added after what is there (--resume). */
  constructor(
    readonly file: string,
    fresh: boolean,
  ) {
    this.fd = fsSync.openSync(file, fresh ? 'w' : 'a');
  }

  write(line: Record<string, unknown>): void {
    if (this.fd === undefined) throw new Error(`${this.file}: results file already closed`);
    // writeFileSync on an fd loops until every byte is written, unlike a bare writeSync.
    fsSync.writeFileSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  close(): void {
    if (this.fd !== undefined) fsSync.closeSync(this.fd);
    this.fd = undefined;
  }
}
