// RFC 4180 CSV, read incrementally: quoted commas, doubled quotes and quoted line breaks
// (LF, CRLF, CR) are values; outside quotes LF, CRLF and a lone CR end a record, as in the editor.
import { printable } from '../text';
import { INVALID_UTF8, NUL_BYTE, skip, tooLong } from './messages';
import { DatasetError, LIMITS, type ChunkReader, type DatasetItem, type ReaderLimits, type SkipReason } from './types';

export interface CsvProblem {
  reason: SkipReason;
  message: string;
}

export interface CsvRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
  /** Set when the record is malformed; the fields are then incomplete. */
  error?: CsvProblem;
}

type State = 'fieldStart' | 'unquoted' | 'quoted' | 'afterQuote';

/** Splits text into records. Lines that are empty or only whitespace (outside quotes) are not records. */
export class CsvParser {
  private state: State = 'fieldStart';
  private field = '';
  private fields: string[] = [];
  private line = 1;
  private recordLine = 1;
  private quoteLine = 1;
  private quoted = false; // the current record has a quoted field, so it is never blank
  private afterCR = false; // the previous character was CR: an LF now belongs to the same break
  private error: CsvProblem | undefined;
  private chars = 0; // characters in the current record, bounded by the limit
  private readonly invalidUtf8 = new Set<number>();

  constructor(private readonly maxChars: number = LIMITS.recordChars) {}

  flagInvalidUtf8(line: number): void {
    this.invalidUtf8.add(line);
  }

  push(chunk: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charAt(i);
      if (this.afterCR) {
        this.afterCR = false;
        if (c === '\n') {
          if (this.state === 'quoted') this.append(c);
          continue;
        }
      }
      const newline = c === '\n' || c === '\r';
      if (c === '\0') this.error ??= { reason: 'nul-byte', message: NUL_BYTE };
      switch (this.state) {
        case 'fieldStart':
        case 'unquoted':
          if (c === '"' && this.state === 'fieldStart') {
            this.state = 'quoted';
            this.quoted = true;
            this.quoteLine = this.line;
          } else if (c === ',') this.endField();
          else if (newline) this.endRecord(out, c);
          else {
            // A quote inside an unquoted value is kept as text, as most spreadsheet tools do.
            this.append(c);
            this.state = 'unquoted';
          }
          break;
        case 'quoted':
          if (c === '"') this.state = 'afterQuote';
          else {
            this.append(c);
            if (newline) this.breakLine(c);
          }
          break;
        case 'afterQuote':
          if (c === '"') {
            this.append('"');
            this.state = 'quoted';
          } else if (c === ',') this.endField();
          else if (newline) this.endRecord(out, c);
          else {
            this.error ??= {
              reason: 'text-after-quote',
              message: `unexpected text after the closing quote of field ${this.fields.length + 1} (a quote inside a quoted value must be doubled: "")`,
            };
            this.append(c);
            this.state = 'unquoted';
          }
          break;
      }
    }
    return out;
  }

  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.state === 'quoted') {
      // The cause wins over its effect (a record that ran on past the length limit).
      if (this.error === undefined || this.error.reason === 'line-too-long') {
        this.error = {
          reason: 'unterminated-quote',
          message: `the quoted value of field ${this.fields.length + 1}, opened on line ${this.quoteLine}, is never closed before the end of the file (add the closing ")`,
        };
      }
    }
    this.endRecord(out);
    return out;
  }

  /** Keeps `c` in the current field unless the record has passed the length limit. */
  private append(c: string): void {
    if (++this.chars > this.maxChars) {
      if (this.error?.reason !== 'line-too-long') this.error ??= { reason: 'line-too-long', message: tooLong(this.maxChars) };
      this.field = '';
      return;
    }
    this.field += c;
  }

  private breakLine(c: string): void {
    this.line++;
    if (c === '\r') this.afterCR = true;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.state = 'fieldStart';
  }

  private endRecord(out: CsvRecord[], newline?: string): void {
    const blank = !this.quoted && this.fields.length === 0 && this.field.trim() === '';
    const invalid = this.takeInvalidUtf8();
    if (!blank || invalid) {
      this.fields.push(this.field);
      const record: CsvRecord = { fields: this.fields, line: this.recordLine };
      // Bad bytes come first: every other problem may be their effect.
      const error = invalid ? { reason: 'invalid-utf8' as const, message: INVALID_UTF8 } : this.error;
      if (error !== undefined) record.error = error;
      out.push(record);
    }
    this.chars = 0;
    this.fields = [];
    this.field = '';
    this.state = 'fieldStart';
    this.quoted = false;
    this.error = undefined;
    if (newline !== undefined) this.breakLine(newline);
    this.recordLine = this.line;
  }

  /** Whether a line of the record now ending had invalid UTF-8; forgets the flags it covered. */
  private takeInvalidUtf8(): boolean {
    let found = false;
    for (const line of this.invalidUtf8) {
      if (line > this.line) continue;
      if (line >= this.recordLine) found = true;
      this.invalidUtf8.delete(line);
    }
    return found;
  }
}

/** CSV with a header row: each later record becomes an object of strings keyed by column name. */
export class CsvReader implements ChunkReader {
  private readonly parser: CsvParser;
  private header: string[] | undefined;
  private row = 0;

  constructor(limits: ReaderLimits = {}) {
    this.parser = new CsvParser(limits.recordChars);
  }

  flagInvalidUtf8(line: number): void {
    this.parser.flagInvalidUtf8(line);
  }

  push(chunk: string): DatasetItem[] {
    return this.items(this.parser.push(chunk));
  }

  end(): DatasetItem[] {
    return this.items(this.parser.end());
  }

  private items(records: CsvRecord[]): DatasetItem[] {
    const out: DatasetItem[] = [];
    for (const r of records) {
      if (this.header === undefined) this.header = readHeader(r);
      else out.push(this.item(r, this.header));
    }
    return out;
  }

  private item(r: CsvRecord, header: string[]): DatasetItem {
    const row = ++this.row;
    if (r.error !== undefined) return skip(row, r.line, r.error.reason, r.error.message);
    if (r.fields.length !== header.length) {
      const names = header.length <= 8 ? ` (${printable(header.join(', '))})` : '';
      return skip(
        row,
        r.line,
        'field-count',
        `expected ${header.length} fields${names} but found ${r.fields.length} ` +
          '(quote values that contain commas or line breaks)',
      );
    }
    const record: Record<string, unknown> = {};
    header.forEach((name, i) => (record[name] = r.fields[i]));
    return { row, line: r.line, record };
  }
}

/** Column names are trimmed so " b" in a hand-written header still matches {{b}}. */
function readHeader(r: CsvRecord): string[] {
  if (r.error !== undefined) {
    throw new DatasetError(`line ${r.line}: the CSV header row is malformed: ${r.error.message}`, r.line, 'bad-header');
  }
  const names = r.fields.map((f) => f.trim());
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    const first = seen.get(name);
    if (first !== undefined) {
      throw new DatasetError(
        `line ${r.line}: the CSV header names column "${printable(name)}" twice (columns ${first + 1} and ${i + 1}); ` +
          'rename one so every column has its own name',
        r.line,
        'bad-header',
      );
    }
    seen.set(name, i);
  });
  return names;
}
