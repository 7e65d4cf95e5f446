// Line structure the editor features need beyond the core's parse: sub-headings and code fences
// of the body, and where the front matter is while it is still being typed.
import type { ParsedTemplate, Section } from '../../../core/template';

export interface Heading {
  level: number;
  /** 1-based line. */
  line: number;
  title: string;
}

export interface Fence {
  /** 1-based lines of the opening and closing fence (close = last line when unclosed). */
  open: number;
  close: number;
}

export interface BodyLines {
  headings: Heading[];
  fences: Fence[];
  codeLines: Set<number>;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/** ATX headings and fences of the body, by a line scan that skips fenced code. */
export function bodyLines(t: ParsedTemplate): BodyLines {
  const headings: Heading[] = [];
  const fences: Fence[] = [];
  const codeLines = new Set<number>();
  const first = t.index.position(t.bodyStart).line;
  let open: { line: number; marker: string } | undefined;
  for (let line = first; line <= t.index.lineCount; line++) {
    const text = t.index.lineText(line);
    const fence = FENCE.exec(text);
    if (open) {
      codeLines.add(line);
      if (fence?.[1] && fence[1][0] === open.marker[0] && fence[1].length >= open.marker.length && text.trim() === fence[1]) {
        fences.push({ open: open.line, close: line });
        open = undefined;
      }
      continue;
    }
    if (fence?.[1]) {
      open = { line, marker: fence[1] };
      codeLines.add(line);
      continue;
    }
    const h = HEADING.exec(text);
    if (h?.[1]) headings.push({ level: h[1].length, line, title: (h[2] ?? '').trim() });
  }
  if (open) fences.push({ open: open.line, close: t.index.lineCount });
  return { headings, fences, codeLines };
}

/** 1-based first and last line of a section's whole extent (heading through its body). */
export function sectionLines(t: ParsedTemplate, s: Section): { first: number; last: number } {
  const first = s.heading.line;
  return { first, last: lastContentLine(t, first, s.bodyEnd) };
}

/** The last non-blank line at or after `first` that ends before offset `end`. */
export function lastContentLine(t: ParsedTemplate, first: number, end: number): number {
  let last = t.index.position(Math.max(0, end - 1)).line;
  if (end >= t.text.length) last = t.index.lineCount;
  else if (t.index.lineStart(last) >= end) last--;
  while (last > first && t.index.lineText(last).trim() === '') last--;
  return Math.max(first, last);
}

export interface Region {
  /** Offsets of the YAML text (after the opening `---` line, up to the closing line). */
  start: number;
  end: number;
  /** 1-based lines of the `---` lines; close is undefined while the block is unclosed. */
  openLine: number;
  closeLine: number | undefined;
}

/**
 * The front matter, also while it is unclosed (then it runs to the first Markdown heading), so
 * completion works before the closing `---` is typed.
 */
export function frontMatterRegion(t: ParsedTemplate): Region | undefined {
  if (t.frontMatter) {
    return { start: t.frontMatter.start, end: t.frontMatter.end, openLine: 1, closeLine: t.index.position(t.frontMatter.end).line };
  }
  if (!/^\uFEFF?---[ \t]*$/.test(t.index.lineText(1))) return undefined;
  const start = t.index.lineCount > 1 ? t.index.lineStart(2) : t.text.length;
  for (let line = 2; line <= t.index.lineCount; line++) {
    const text = t.index.lineText(line);
    if (/^(?:---|\.\.\.)[ \t]*$/.test(text)) return { start, end: t.index.lineStart(line), openLine: 1, closeLine: line };
    if (/^#\s/.test(text)) return { start, end: t.index.lineStart(line), openLine: 1, closeLine: undefined };
  }
  return { start, end: t.text.length, openLine: 1, closeLine: undefined };
}
