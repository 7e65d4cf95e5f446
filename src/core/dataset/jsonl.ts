// JSON Lines: one object per line. Blank lines are not rows; a bad line is a skip that keeps its
// row number, whatever is wrong with it (syntax, kind, nesting, encoding, NUL, length).
import { INVALID_UTF8, jsonProblem, kindOf, nestsDeeperThan, NUL_BYTE, skip, tooDeep, tooLong } from './messages';
import { LIMITS, type ChunkReader, type DatasetItem, type ReaderLimits, type RecordShape } from './types';

const LF = 0x0a;

export class JsonlReader implements ChunkReader {
  private rest = ''; // text after the last line break seen
  private restTooLong = false; // `rest` passed the limit and was dropped; the line is skipped when it ends
  private line = 1; // line number of the first line in `rest`
  private row = 0;
  private afterCR = false; // the previous chunk ended in CR: a leading LF completes that break
  private readonly invalidUtf8 = new Set<number>();
  private readonly maxChars: number;
  private readonly maxDepth: number;

  /** `at`: where the text starts (for reading one row on its own): its line, and the rows before it. */
  constructor(
    limits: ReaderLimits = {},
    at: { line: number; row: number } = { line: 1, row: 0 },
    private readonly shape?: RecordShape,
  ) {
    this.line = at.line;
    this.row = at.row;
    this.maxChars = limits.recordChars ?? LIMITS.recordChars;
    this.maxDepth = limits.depth ?? LIMITS.depth;
  }

  flagInvalidUtf8(line: number): void {
    this.invalidUtf8.add(line);
  }

  push(chunk: string): DatasetItem[] {
    const out: DatasetItem[] = [];
    if (chunk === '') return out;
    let from = this.afterCR && chunk.charCodeAt(0) === LF ? 1 : 0;
    this.afterCR = false;
    // LF, CRLF and a lone CR all end a line, matching how the editor numbers lines. The next LF
    // and CR are looked up only once passed: most files have no CR at all.
    let lf = chunk.indexOf('\n', from);
    let cr = chunk.indexOf('\r', from);
    while (lf >= 0 || cr >= 0) {
      let at: number;
      let width = 1;
      if (cr < 0 || (lf >= 0 && lf < cr)) at = lf;
      else {
        at = cr;
        if (chunk.charCodeAt(cr + 1) === LF) width = 2;
        // A CR at the very end may be the first half of a CRLF split across chunks.
        else if (cr === chunk.length - 1) this.afterCR = true;
      }
      const long = this.restTooLong || this.rest.length + (at - from) > this.maxChars;
      this.lineItem(long ? undefined : this.rest + chunk.slice(from, at), out);
      this.rest = '';
      this.restTooLong = false;
      from = at + width;
      if (lf >= 0 && lf < from) lf = chunk.indexOf('\n', from);
      if (cr >= 0 && cr < from) cr = chunk.indexOf('\r', from);
    }
    if (!this.restTooLong) {
      if (this.rest.length + (chunk.length - from) > this.maxChars) {
        // Memory stays bounded by the limit: the rest of this line is only scanned for its end.
        this.rest = '';
        this.restTooLong = true;
      } else this.rest += chunk.slice(from);
    }
    return out;
  }

  /**
   * The unfinished last line read as if the input ended here, without consuming it (a file still
   * being appended to, whose last line may yet lack its line break). Undefined when blank.
   */
  peek(): DatasetItem | undefined {
    if (this.restTooLong || this.rest.trim() === '') return undefined;
    const probe = new JsonlReader({ recordChars: this.maxChars, depth: this.maxDepth }, { line: this.line, row: this.row }, this.shape);
    if (this.invalidUtf8.has(this.line)) probe.flagInvalidUtf8(this.line);
    probe.push(this.rest);
    return probe.end()[0];
  }

  end(): DatasetItem[] {
    const out: DatasetItem[] = [];
    this.lineItem(this.restTooLong ? undefined : this.rest, out);
    this.rest = '';
    this.restTooLong = false;
    return out;
  }

  /** `text` undefined: the line was longer than the limit. */
  private lineItem(text: string | undefined, out: DatasetItem[]): void {
    const line = this.line++;
    const invalid = this.invalidUtf8.size > 0 && this.invalidUtf8.delete(line);
    if (text === undefined) {
      out.push(skip(++this.row, line, 'line-too-long', tooLong(this.maxChars)));
      return;
    }
    if (!invalid && blank(text)) return;
    const row = ++this.row;
    if (invalid) return void out.push(skip(row, line, 'invalid-utf8', INVALID_UTF8));
    const shaped = this.shape?.fromLine?.(text);
    if (shaped !== undefined) return void out.push({ row, line, record: shaped });
    if (text.includes('\0')) return void out.push(skip(row, line, 'nul-byte', NUL_BYTE));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const p = jsonProblem(e);
      const at = p.position === undefined ? '' : ` at column ${p.position + 1}`;
      out.push(skip(row, line, 'invalid-json', `invalid JSON${at} (${p.message})`));
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      out.push(skip(row, line, 'not-an-object', `expected a JSON object such as {"prompt": "..."} but found ${kindOf(value)}`));
      return;
    }
    // A line with no bracket after its first brace cannot nest; others are walked.
    if ((text.indexOf('[') >= 0 || text.indexOf('{', text.indexOf('{') + 1) >= 0) && nestsDeeperThan(value, this.maxDepth)) return void out.push(skip(row, line, 'too-deep', tooDeep(this.maxDepth)));
    const record = value as Record<string, unknown>;
    out.push({ row, line, record: this.shape ? this.shape.shape(record) : record });
  }
}

/** Whitespace only (as String.trim sees it); a line that starts with a printable ASCII character is not. */
function blank(text: string): boolean {
  const c = text.charCodeAt(0);
  return !(c > 0x20 && c < 0x7f) && text.trim() === '';
}
