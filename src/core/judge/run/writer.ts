// The results file writer: one JSON line per row, appended to a file opened for appending.
// Two modes. Unbuffered (default): each line is one synchronous write, fsync at checkpoints.
// Buffered (the run pipeline): lines gather in memory and are written in one asynchronous write
// per flush interval, fsync in the thread pool; the event loop never waits for the disk. Either
// way a crash loses at most the last checkpoint (buffered: flush interval), never leaves a torn
// line behind a failed write (the partial bytes are cut off), and --resume cuts a torn last line
// left by a hard kill (scan.ts). A line with a huge field (a 50 MB response) goes out in 32 KB
// chunks (jsonChunks), in its turn after the lines before it: no whole copy of it as text and
// again as bytes.
import { holdsLargeText, jsonChunks } from '../../jsonWrite';
import * as fsSync from 'node:fs';

/** The file operations the writer uses; injectable for tests (a full disk). */
export type WriterFs = Pick<typeof fsSync, 'openSync' | 'writeFileSync' | 'fsyncSync' | 'closeSync' | 'fstatSync' | 'ftruncateSync' | 'write' | 'fsync'>;

export interface WriterOptions {
  /** Buffered asynchronous writing (see above); `end()` must then be awaited instead of `close()`. */
  buffered?: boolean;
  /** fsync after this many lines (unbuffered)… */
  checkpointRows?: number;
  /** …or this many ms since the last fsync, whichever comes first; buffered: the longest a line waits for its fsync. */
  checkpointMs?: number;
  /** Buffered: the longest a line stays in memory before it is written (ms). */
  flushMs?: number;
  /** Buffered: write at once when this many bytes are waiting. */
  flushBytes?: number;
  /** Injectable for tests (a full disk). */
  fs?: Partial<WriterFs>;
  now?: () => number;
}

/**
 * Appends results lines. After a failed write the writer refuses further lines, and the bytes of
 * the line that was cut short are removed, so the file ends with whole lines only.
 */
export class ResultsWriter {
  private fd: number | undefined;
  private readonly fs: WriterFs;
  private sinceSync = 0;
  private lastSync: number;
  /** Bytes of whole lines in the file (where a failed write is cut back to). */
  private size: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Set after a failed write; later writes throw it again. */
  failure: Error | undefined;
  /** Lines in the file (written, and not cut off after a failure). */
  written = 0;

  /** `fresh` empties the file first (a new run); otherwise lines are added after what is there (--resume). */
  constructor(
    readonly file: string,
    fresh: boolean,
    private readonly opts: WriterOptions = {},
  ) {
    this.fs = { ...fsSync, ...opts.fs } as WriterFs;
    this.fd = this.fs.openSync(file, fresh ? 'w' : 'a');
    this.size = this.fs.fstatSync(this.fd).size;
    this.lastSync = this.now();
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** Lines handed to the writer and not yet in the file (buffered mode). */
  get waiting(): number {
    return this.pending.length;
  }

  write(line: Record<string, unknown>): void {
    if (this.failure) throw this.failure;
    if (this.fd === undefined) throw new Error(`${this.file}: results file already closed`);
    const large = holdsLargeText(line);
    if (this.opts.buffered) {
      if (large) return this.queueLarge(line);
      const text = `${JSON.stringify(line)}\n`;
      this.pending.push(text);
      this.pendingBytes += text.length;
      if (this.pendingBytes >= (this.opts.flushBytes ?? 1 << 20)) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs ?? 500);
      return;
    }
    try {
      // writeFileSync on an fd loops until every byte is written, unlike a bare writeSync.
      let bytes = 0;
      for (const chunk of large ? jsonChunks(line, '\n') : [`${JSON.stringify(line)}\n`]) {
        this.fs.writeFileSync(this.fd, chunk);
        bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      }
      this.size += bytes;
      this.written++;
      this.sinceSync++;
      if (this.sinceSync >= (this.opts.checkpointRows ?? 100) || this.now() - this.lastSync >= (this.opts.checkpointMs ?? 5_000)) this.sync();
    } catch (e) {
      this.fail(e);
      this.cutBack();
      throw this.failure;
    }
  }

  /** Buffered: a line with a huge field goes out in chunks, after the lines waiting before it. */
  private queueLarge(line: Record<string, unknown>): void {
    // The lines waiting are taken now, so a line written after this one cannot go out before it.
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const before = this.takePending();
    this.flushing = (this.flushing ?? Promise.resolve())
      .then(() => this.writePending(false, before))
      .then(() => this.writeChunks(line))
      .catch((e: unknown) => this.fail(e));
  }

  private async writeChunks(line: Record<string, unknown>): Promise<void> {
    const fd = this.fd;
    if (fd === undefined || this.failure) return;
    let bytes = 0;
    try {
      for (const chunk of jsonChunks(line, '\n')) {
        const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
        let offset = 0;
        while (offset < buffer.length) offset += await write(this.fs, fd, buffer, offset);
        bytes += buffer.length;
      }
    } catch (e) {
      this.fail(e);
      this.cutBack();
      return;
    }
    this.size += bytes;
    this.written++;
  }

  /** Unbuffered: flushes written lines to the disk. */
  sync(): void {
    if (this.fd === undefined) return;
    this.fs.fsyncSync(this.fd);
    this.sinceSync = 0;
    this.lastSync = this.now();
  }

  /** Unbuffered: fsync and close. */
  close(): void {
    if (this.opts.buffered) throw new Error('a buffered ResultsWriter is closed with `await end()`');
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (!this.failure) this.fs.fsyncSync(fd);
    } finally {
      this.fs.closeSync(fd);
    }
  }

  /**
   * Writes what is waiting, fsyncs and closes (both modes). Throws the write failure, if any,
   * after the file was cut back to whole lines and closed.
   */
  async end(): Promise<void> {
    if (!this.opts.buffered) return this.close();
    if (this.fd === undefined) return;
    try {
      await this.flush(true);
    } finally {
      const fd = this.fd;
      this.fd = undefined;
      if (fd !== undefined) this.fs.closeSync(fd);
    }
    if (this.failure) throw this.failure;
  }

  /** Buffered: one write of everything waiting; chained so writes never overlap. Never rejects (failures land in `failure`). */
  private flush(final = false): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = (this.flushing ?? Promise.resolve()).then(() => this.writePending(final)).catch((e: unknown) => this.fail(e));
    this.flushing = next;
    return next;
  }

  private takePending(): string[] {
    const taken = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return taken;
  }

  /** Writes `taken`, else every line waiting when it runs; then fsyncs when due. */
  private async writePending(final: boolean, taken?: string[]): Promise<void> {
    const fd = this.fd;
    if (fd === undefined || this.failure) return;
    const pending = taken ?? this.takePending();
    if (pending.length > 0) {
      const lines = pending.length;
      const buffer = Buffer.from(pending.join(''), 'utf8');
      let offset = 0;
      try {
        while (offset < buffer.length) offset += await write(this.fs, fd, buffer, offset);
      } catch (e) {
        this.fail(e);
        this.keepWholeLines(buffer, offset);
        return;
      }
      this.size += buffer.length;
      this.written += lines;
    }
    if (final || this.now() - this.lastSync >= (this.opts.checkpointMs ?? 2_000)) {
      try {
        await new Promise<void>((resolve, reject) => this.fs.fsync(fd, (e) => (e ? reject(e) : resolve())));
        this.lastSync = this.now();
      } catch (e) {
        // The lines may not be on the disk: say so rather than claim success.
        this.failure ??= new Error(`cannot flush ${this.file}: ${(e as Error).message}`, { cause: e });
      }
    }
  }

  private fail(e: unknown): void {
    const code = (e as NodeJS.ErrnoException).code;
    this.failure ??= new Error(`cannot write ${this.file}${code ? ` (${code})` : ''}: ${(e as Error).message}`, { cause: e });
  }

  /** After a write failed part-way: keep the whole lines that made it, cut the partial one. */
  private keepWholeLines(buffer: Buffer, writtenBytes: number): void {
    const end = buffer.subarray(0, writtenBytes).lastIndexOf(0x0a) + 1;
    let lines = 0;
    for (let i = buffer.indexOf(0x0a); i >= 0 && i < end; i = buffer.indexOf(0x0a, i + 1)) lines++;
    this.size += end;
    this.written += lines;
    this.cutBack();
  }

  /** Truncates the file to its whole lines (a full disk can always shrink a file). */
  private cutBack(): void {
    if (this.fd === undefined) return;
    try {
      this.fs.ftruncateSync(this.fd, this.size);
    } catch {
      // Left for --resume, which cuts a torn last line too.
    }
  }
}

function write(fs: WriterFs, fd: number, buffer: Buffer, offset: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.write(fd, buffer, offset, buffer.length - offset, null, (e, n) => (e ? reject(e) : n === 0 ? reject(new Error('wrote 0 bytes')) : resolve(n))),
  );
}
