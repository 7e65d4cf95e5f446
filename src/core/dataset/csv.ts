// RFC 4180 CSV, read incrementally: quoted commas, doubled quotes and quoted line breaks
// (LF, CRLF, CR) are values; outside quotes LF, CRLF and a lone CR end a record, as in the editor.
import { skip } from './messages';
import { DatasetError, type ChunkReader, type DatasetItem } from './types';

export interface CsvRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
  /** Set when the record is malformed; the fields are then incomplete. */
  error?: string;
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
  private error: string | undefined;

  push(chunk: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charAt(i);
      if (this.afterCR) {
        this.afterCR = false;
        if (c === '\n') {
          if (this.state === 'quoted') this.field += c;
          continue;
        }
      }
      const newline = c === '\n' || c === '\r';
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
            this.field += c;
            this.state = 'unquoted';
          }
          break;
        case 'quoted':
          if (c === '"') this.state = 'afterQuote';
          else {
            this.field += c;
            if (newline) this.breakLine(c);
          }
          break;
        case 'afterQuote':
          if (c === '"') {
            this.field += '"';
            this.state = 'quoted';
          } else if (c === ',') this.endField();
          else if (newline) this.endRecord(out, c);
          else {
            this.error ??=
              `unexpected text after the closing quote of field ${this.fields.length + 1} ` +
              '(a quote inside a quoted value must be doubled: "")';
            this.field += c;
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
      this.error ??=
        `the quoted value of field ${this.fields.length + 1}, opened on line ${this.quoteLine}, ` +
        'is never closed (add the closing ")';
    }
    this.endRecord(out);
    return out;
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
    if (!blank) {
      this.fields.push(this.field);
      const record: CsvRecord = { fields: this.fields, line: this.recordLine };
      if (this.error !== undefined) record.error = this.error;
      out.push(record);
    }
    this.fields = [];
    this.field = '';
    this.state = 'fieldStart';
    this.quoted = false;
    this.error = undefined;
    if (newline !== undefined) this.breakLine(newline);
    this.recordLine = this.line;
  }
}

/** CSV with a header row: each later record becomes an object of strings keyed by column name. */
export class CsvReader implements ChunkReader {
  private readonly parser = new CsvParser();
  private header: string[] | undefined;
  private row = 0;

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
    if (r.error !== undefined) return skip(row, r.line, r.error);
    if (r.fields.length !== header.length) {
      const names = header.length <= 8 ? ` (${header.join(', ')})` : '';
      return skip(
        row,
        r.line,
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
    throw new DatasetError(`line ${r.line}: the CSV header row is malformed: ${r.error}`, r.line);
  }
  const names = r.fields.map((f) => f.trim());
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    const first = seen.get(name);
    if (first !== undefined) {
      throw new DatasetError(
        `line ${r.line}: the CSV header names column "${name}" twice (columns ${first + 1} and ${i + 1}); ` +
          'rename one so every column has its own name',
        r.line,
      );
    }
    seen.set(name, i);
  });
  return names;
}
