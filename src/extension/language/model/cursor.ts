// What the cursor is in: a placeholder being typed, a section heading, a front-matter key or
// value. Completion decides what to offer from this alone.
import type { ParsedTemplate } from '../../../core/template';
import { bodyLines, frontMatterRegion } from './structure';

export type CursorContext =
  | {
      kind: 'placeholder';
      /** Segments before the last dot, e.g. ['this'] for `{{this.na|`. */
      path: string[];
      /** `#` or `/` typed right after the braces; then a helper name is being typed (unless `param`). */
      sigil: '' | '#' | '/' | '^';
      /** The helper when typing its parameter, e.g. `each` in `{{#each exa|`. */
      helper: string | undefined;
      start: number;
      end: number;
    }
  | { kind: 'section'; start: number; end: number }
  | { kind: 'frontMatterKey'; parent: string | undefined; start: number; end: number; /** The line already has `key:` after the cursor. */ colonAfter: boolean }
  | { kind: 'frontMatterValue'; key: string; parent: string | undefined; start: number; end: number }
  | { kind: 'none' };

const PLACEHOLDER = /\{\{~?\s*([#/^]?)\s*(?:([A-Za-z_][\w-]*)\s+)?([\w.@-]*)$/;

export function cursorContext(t: ParsedTemplate, offset: number): CursorContext {
  const pos = t.index.position(offset);
  const lineStart = t.index.lineStart(pos.line);
  const lineEnd = t.index.lineEnd(pos.line);
  const before = t.text.slice(lineStart, offset);
  const after = t.text.slice(offset, lineEnd);
  const wordAfter = /^[\w-]*/.exec(after)?.[0].length ?? 0;

  const fm = frontMatterRegion(t);
  if (fm && pos.line > fm.openLine && (fm.closeLine === undefined || pos.line < fm.closeLine)) {
    return frontMatterContext(t, pos.line, before, offset, wordAfter);
  }
  if (offset < t.bodyStart) return { kind: 'none' };

  const heading = /^#[ \t]+([^#]*)$/.exec(before);
  if (heading && !bodyLines(t).codeLines.has(pos.line)) {
    return { kind: 'section', start: offset - (heading[1]?.length ?? 0), end: lineEnd };
  }

  const m = PLACEHOLDER.exec(before);
  if (m) {
    const typed = m[3] ?? '';
    const dot = typed.lastIndexOf('.');
    const partial = dot < 0 ? typed : typed.slice(dot + 1);
    return {
      kind: 'placeholder',
      path: dot < 0 ? [] : typed.slice(0, dot).split('.'),
      sigil: (m[1] ?? '') as '' | '#' | '/' | '^',
      helper: m[2],
      start: offset - partial.length,
      end: offset + wordAfter,
    };
  }
  return { kind: 'none' };
}

function frontMatterContext(t: ParsedTemplate, line: number, before: string, offset: number, wordAfter: number): CursorContext {
  const indent = /^\s*/.exec(before)?.[0].length ?? 0;
  const parent = indent > 0 ? parentKey(t, line) : undefined;
  const key = /^\s*([A-Za-z_]\w*)$/.exec(before);
  if (key || /^\s*$/.test(before)) {
    const typed = key?.[1] ?? '';
    const colonAfter = /^[\w-]*\s*:/.test(t.text.slice(offset, t.index.lineEnd(line)));
    return { kind: 'frontMatterKey', parent, start: offset - typed.length, end: offset + wordAfter, colonAfter };
  }
  const value = /^\s*([A-Za-z_]\w*)\s*:\s*(\S*)$/.exec(before);
  if (value?.[1]) {
    const typed = value[2] ?? '';
    return { kind: 'frontMatterValue', key: value[1], parent, start: offset - typed.length, end: t.index.lineEnd(line) };
  }
  return { kind: 'none' };
}

/** The key of the nearest less-indented `key:` line above, e.g. `model` for its sub-keys. */
function parentKey(t: ParsedTemplate, line: number): string | undefined {
  const own = /^\s*/.exec(t.index.lineText(line))?.[0].length ?? 0;
  for (let l = line - 1; l > 1; l--) {
    const text = t.index.lineText(l);
    if (text.trim() === '') continue;
    const indent = /^\s*/.exec(text)?.[0].length ?? 0;
    if (indent >= own) continue;
    return /^\s*([A-Za-z_]\w*)\s*:/.exec(text)?.[1];
  }
  return undefined;
}
