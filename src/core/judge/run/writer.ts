// The results file writer: one JSON line per row, appended with a single write each so a crash
// leaves whole lines only (--resume cuts off a torn last line, see scan.ts).
import { holdsLargeText, jsonChunks } from '../../jsonWrite';
import * as fsSync from 'node:fs';

type WriterFs = Pick<typeof fsSync, 'openSync' | 'writeFileSync' | 'fsyncSync' | 'closeSync'>;

export interface WriterOptions {
  /** fsync after this many lines… */
  checkpointRows?: number;
  /** …or this many ms since the last fsync, whichever comes first. */
  checkpointMs?: number;
  /** Injectable for tests (a full disk). */
  fs?: WriterFs;
  now?: () => number;
}

/**
 * Appends results lines; each line is one write of `JSON + "\n"` on a file opened for appending.
 * Lines reach the disk (fsync) at checkpoints and at close, so a crash loses at most a checkpoint.
 * After a failed write the writer refuses further lines: a torn line stays last, where --resume
 * cuts it off, and nothing is ever appended after it.
 */
export class ResultsWriter {
  private fd: number | undefined;
  private readonly fs: WriterFs;
  private sinceSync = 0;
  private lastSync: number;
  /** Set after a failed write; later writes throw it again. */
  failure: Error | undefined;
  /** Lines written (and not failed) by this writer. */
  written = 0;

  /** `fresh` empties the file first (a new run); otherwise lines are added after what is there (--resume). */
  constructor(
    readonly file: string,
    fresh: boolean,
    private readonly opts: WriterOptions = {},
  ) {
    this.fs = opts.fs ?? fsSync;
    this.fd = this.fs.openSync(file, fresh ? 'w' : 'a');
    this.lastSync = this.now();
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  write(line: Record<string, unknown>): void {
    if (this.failure) throw this.failure;
    if (this.fd === undefined) throw new Error(`${this.file}: results file already closed`);
    try {
      // writeFileSync on an fd loops until every byte is written, unlike a bare writeSync.
      // A line with a huge field goes out in small chunks (jsonChunks): no whole copy of it as
      // text and again as bytes. A crash mid-line tears it either way; --resume cuts a torn line.
      if (holdsLargeText(line)) for (const chunk of jsonChunks(line, '\n')) this.fs.writeFileSync(this.fd, chunk);
      else this.fs.writeFileSync(this.fd, `${JSON.stringify(line)}\n`);
      this.written++;
      this.sinceSync++;
      if (this.sinceSync >= (this.opts.checkpointRows ?? 100) || this.now() - this.lastSync >= (this.opts.checkpointMs ?? 5_000)) this.sync();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.failure = new Error(`cannot write ${this.file}${code ? ` (${code})` : ''}: ${(e as Error).message}`, { cause: e });
      throw this.failure;
    }
  }

  /** Flushes written lines to the disk. */
  sync(): void {
    if (this.fd === undefined) return;
    this.fs.fsyncSync(this.fd);
    this.sinceSync = 0;
    this.lastSync = this.now();
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (!this.failure) this.fs.fsyncSync(fd);
    } finally {
      this.fs.closeSync(fd);
    }
  }
}
