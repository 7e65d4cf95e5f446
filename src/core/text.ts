// Offset <-> 1-based line/column conversion for a whole document.
import type { Span } from './diagnostics';

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based line and column of a 0-based offset. */
  position(offset: number): { line: number; column: number } {
    let o = Math.max(0, Math.min(offset, this.text.length));
    // Between the \r and \n of a CRLF is still the end of the line, not one column past it.
    if (o > 0 && this.text.charCodeAt(o) === 10 && this.text.charCodeAt(o - 1) === 13) o--;
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - (this.starts[lo] ?? 0) + 1 };
  }

  /** 0-based offset of a 1-based line and column (clamped to the text). */
  offset(line: number, column: number): number {
    const start = this.starts[Math.max(0, Math.min(line - 1, this.starts.length - 1))] ?? 0;
    return Math.min(this.text.length, start + Math.max(0, column - 1));
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line - 1, this.starts.length - 1))] ?? 0;
  }

  /** Offset just before the line break of a 1-based line. */
  lineEnd(line: number): number {
    const next = this.starts[line];
    if (next === undefined) return this.text.length;
    let end = next;
    if (this.text.charCodeAt(end - 1) === 10) end--;
    if (this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  span(start: number, end: number): Span {
    const a = this.position(start);
    const b = this.position(Math.max(start, end));
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }
}

// Characters that would move the cursor, ring, reorder or hide text in a terminal or a log line:
// controls (C0, DEL, C1), format characters (bidi overrides, zero-width), line/paragraph
// separators, private-use characters and lone surrogates.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]|\p{Cs}/u;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };

/** Default length of an excerpt of input quoted in a message. */
export const EXCERPT_CHARS = 120;

/**
 * Input text made safe to quote in a one-line message: non-printable characters become escapes
 * (`\n`, `\x1b`, `\u202e`), and text past `max` characters (code points) is cut with a marker
 * saying how much was left out. Only the head of the text is looked at, so megabytes cost nothing.
 */
export function printable(text: string, max = EXCERPT_CHARS): string {
  let out = '';
  let shown = 0;
  let i = 0;
  while (i < text.length && shown < max) {
    const cp = text.codePointAt(i) ?? 0;
    let ch = String.fromCodePoint(cp);
    // A lone surrogate: codePointAt returns its own value; take one code unit.
    if (cp >= 0xd800 && cp <= 0xdfff) ch = text.charAt(i);
    i += ch.length;
    shown++;
    // The zero-width joiner stays: emoji sequences and several scripts need it.
    out += UNPRINTABLE.test(ch) && cp !== 0x200d ? escapeChar(ch, cp) : ch;
  }
  if (i >= text.length) return out;
  return `${out}… [${(text.length - i).toLocaleString('en-US')} more characters]`;
}

function escapeChar(ch: string, cp: number): string {
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) return short;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}
