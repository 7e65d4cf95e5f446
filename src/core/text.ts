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
