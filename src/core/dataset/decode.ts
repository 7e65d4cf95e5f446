// Bytes -> text for the readers. The first 8 KB decide up front whether the file is text at all
// and in which encoding (UTF-8 with or without BOM; UTF-16 with BOM is decoded); after that, a
// line that is not valid UTF-8 is flagged so its record is skipped with reason `invalid-utf8`.
import { isUtf8 } from 'node:buffer';
import { DatasetError, type ChunkReader, type DatasetItem } from './types';

/** How much of the start of a file is looked at before any row is read. */
export const SNIFF_BYTES = 8 * 1024;

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface Sniffed {
  encoding: TextEncoding;
  /** Bytes of the byte order mark to drop (UTF-16's is dropped by its decoder). */
  skip: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The encoding of a file from its first bytes, or a DatasetError (`binary-file`,
 * `unsupported-encoding`) when it is not text we read. `name` goes into the conversion command.
 */
export function sniffEncoding(head: Uint8Array, name = 'in.jsonl'): Sniffed | DatasetError {
  const b = (i: number): number | undefined => head[i];
  if (b(0) === 0xef && b(1) === 0xbb && b(2) === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (b(0) === 0xff && b(1) === 0xfe && b(2) === 0 && b(3) === 0) return unsupported('UTF-32LE', 'byte order mark FF FE 00 00', name);
  if (b(0) === 0 && b(1) === 0 && b(2) === 0xfe && b(3) === 0xff) return unsupported('UTF-32BE', 'byte order mark 00 00 FE FF', name);
  if (b(0) === 0xff && b(1) === 0xfe) return { encoding: 'utf-16le', skip: 0 };
  if (b(0) === 0xfe && b(1) === 0xff) return { encoding: 'utf-16be', skip: 0 };
  const n = Math.min(head.length, SNIFF_BYTES);
  let nulEven = 0;
  let nulOdd = 0;
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const c = head[i]!;
    if (c === 0) {
      if (i % 2 === 0) nulEven++;
      else nulOdd++;
    } else if (c < 0x20 && c !== 0x09 && c !== LF && c !== CR && c !== 0x0c && c !== 0x1b) controls++;
  }
  if (nulEven + nulOdd > 0) {
    // ASCII text in UTF-16 has a zero in every other byte: name it rather than call it binary.
    const half = n / 2;
    if (nulOdd > half * 0.6 && nulEven === 0) return unsupported('UTF-16LE', 'no byte order mark, a zero byte after every character', name);
    if (nulEven > half * 0.6 && nulOdd === 0) return unsupported('UTF-16BE', 'no byte order mark, a zero byte before every character', name);
    return new DatasetError(
      `not a text file: it holds NUL bytes in its first ${n.toLocaleString('en-US')} bytes; a dataset is UTF-8 text ` +
        '(JSON Lines, a JSON array of objects, or CSV with a header row)',
      undefined,
      'binary-file',
    );
  }
  if (controls > n * 0.05) {
    return new DatasetError(
      `not a text file: ${controls.toLocaleString('en-US')} of its first ${n.toLocaleString('en-US')} bytes are control characters; a dataset is UTF-8 text ` +
        '(JSON Lines, a JSON array of objects, or CSV with a header row)',
      undefined,
      'binary-file',
    );
  }
  return { encoding: 'utf-8', skip: 0 };
}

function unsupported(encoding: string, evidence: string, name: string): DatasetError {
  const out = name.replace(/(\.[^./\\]*)?$/, (ext) => `.utf8${ext || ''}`);
  return new DatasetError(
    `the file is encoded as ${encoding} (${evidence}), not UTF-8; convert it first, for example: ` +
      `iconv -f ${encoding} -t UTF-8 ${name} > ${out}`,
    undefined,
    'unsupported-encoding',
  );
}

/**
 * Feeds a ChunkReader from bytes. Nothing reaches the reader until the first 8 KB (or the whole
 * file, when shorter) were checked, so an unreadable file throws before any item is produced.
 */
export class ByteDecoder {
  private head: Buffer[] = [];
  private headBytes = 0;
  private sniffed: Sniffed | undefined;
  private utf16: TextDecoder | undefined;
  private pending: Buffer = Buffer.alloc(0); // an incomplete UTF-8 sequence at the end of the last chunk
  private line = 1;
  private lineBad = false;
  private afterCR = false;

  constructor(
    private readonly reader: ChunkReader,
    private readonly name?: string,
    /** For bytes that are part of a file already checked (one row read on its own): UTF-8, starting on this line. */
    part?: { line: number },
  ) {
    if (part) {
      this.sniffed = { encoding: 'utf-8', skip: 0 };
      this.line = part.line;
    }
  }

  /** Throws a DatasetError when the start of the file shows it is not text we read. */
  push(bytes: Uint8Array): DatasetItem[] {
    if (this.sniffed === undefined) {
      this.head.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      this.headBytes += bytes.byteLength;
      if (this.headBytes < SNIFF_BYTES) return [];
      return this.start();
    }
    return this.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /** Checks the start now, even if shorter than 8 KB (the file may still grow): for reading a file as it is appended to. */
  flushHead(): DatasetItem[] {
    return this.sniffed === undefined && this.headBytes > 0 ? this.start() : [];
  }

  end(): DatasetItem[] {
    const out = this.sniffed === undefined ? this.start() : [];
    if (this.utf16) out.push(...this.reader.push(this.utf16.decode()));
    else if (this.pending.length > 0) {
      // A sequence cut off by the end of the file.
      this.lineBad = true;
      const text = this.pending.toString('utf8');
      this.pending = Buffer.alloc(0);
      this.flagLine();
      out.push(...this.reader.push(text));
    } else this.flagLine();
    out.push(...this.reader.end());
    return out;
  }

  private start(): DatasetItem[] {
    const all = Buffer.concat(this.head);
    this.head = [];
    const sniffed = sniffEncoding(all, this.name);
    if (sniffed instanceof DatasetError) throw sniffed;
    this.sniffed = sniffed;
    if (sniffed.encoding !== 'utf-8') this.utf16 = new TextDecoder(sniffed.encoding);
    return this.decode(all.subarray(sniffed.skip));
  }

  private decode(bytes: Buffer): DatasetItem[] {
    if (this.utf16) return this.reader.push(this.utf16.decode(bytes, { stream: true }));
    const buf = this.pending.length > 0 ? Buffer.concat([this.pending, bytes]) : bytes;
    const cut = completeLength(buf);
    this.pending = Buffer.from(buf.subarray(cut));
    const body = buf.subarray(0, cut);
    this.scanLines(body, !isUtf8(body));
    return this.reader.push(body.toString('utf8'));
  }

  /** Counts lines as the readers do (LF, CRLF, lone CR) and flags those with invalid bytes. */
  private scanLines(body: Buffer, check: boolean): void {
    let from = 0;
    if (this.afterCR && body[0] === LF) from = 1;
    this.afterCR = false;
    // Each of LF and CR is looked up again only once passed, so a chunk is scanned once.
    let lf = body.indexOf(LF, from);
    let cr = body.indexOf(CR, from);
    while (from <= body.length) {
      if (lf >= 0 && lf < from) lf = body.indexOf(LF, from);
      if (cr >= 0 && cr < from) cr = body.indexOf(CR, from);
      const at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      const end = at < 0 ? body.length : at;
      if (check && !this.lineBad && end > from && !isUtf8(body.subarray(from, end))) this.lineBad = true;
      if (at < 0) return;
      this.flagLine();
      this.line++;
      if (body[at] === CR) {
        if (at + 1 === body.length) {
          this.afterCR = true;
          return;
        }
        from = body[at + 1] === LF ? at + 2 : at + 1;
      } else from = at + 1;
    }
  }

  private flagLine(): void {
    if (this.lineBad) this.reader.flagInvalidUtf8?.(this.line);
    this.lineBad = false;
  }
}

/** Length of `buf` without an incomplete multi-byte sequence at its end. */
function completeLength(buf: Buffer): number {
  for (let back = 1; back <= 3 && back <= buf.length; back++) {
    const c = buf[buf.length - back]!;
    if ((c & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > back ? buf.length - back : buf.length;
  }
  return buf.length;
}
