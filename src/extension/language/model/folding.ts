// Folding as data: the front matter, each section (heading to its last line), sub-headings,
// fenced code blocks and `{{!-- #region --}}` … `{{!-- #endregion --}}` markers. Lines are
// 1-based and inclusive. (A folding provider replaces the language configuration's markers, so
// they are honoured here.)
import type { ParsedTemplate } from '../../../core/template';
import { bodyLines, lastContentLine } from './structure';

export interface Fold {
  start: number;
  end: number;
  kind: 'region' | 'code';
}

export function foldingRanges(t: ParsedTemplate): Fold[] {
  const folds: Fold[] = [];
  if (t.frontMatter) folds.push({ start: 1, end: t.index.position(t.frontMatter.end).line, kind: 'region' });
  for (const s of t.sections) {
    folds.push({ start: s.heading.line, end: lastContentLine(t, s.heading.line, s.bodyEnd), kind: 'region' });
  }
  const { headings, fences } = bodyLines(t);
  const sectionEnds = t.sections.map((s) => ({ first: s.heading.line, end: s.bodyEnd }));
  headings.forEach((h, i) => {
    if (h.level < 2) return;
    // A sub-heading runs to the next heading of its level or higher, within its section.
    const next = headings.slice(i + 1).find((x) => x.level <= h.level);
    const section = [...sectionEnds].reverse().find((s) => s.first <= h.line);
    let endOffset = section ? section.end : t.text.length;
    if (next) endOffset = Math.min(endOffset, t.index.lineStart(next.line));
    folds.push({ start: h.line, end: lastContentLine(t, h.line, endOffset), kind: 'region' });
  });
  for (const f of fences) folds.push({ start: f.open, end: f.close, kind: 'code' });
  folds.push(...regionMarkers(t));
  return folds.filter((f) => f.end > f.start).sort((a, b) => a.start - b.start || b.end - a.end);
}

const REGION_START = /^\s*(?:\{\{!--\s*#region\b.*--\}\}|<!--\s*#region\b.*-->)/;
const REGION_END = /^\s*(?:\{\{!--\s*#endregion\b.*--\}\}|<!--\s*#endregion\b.*-->)/;

function regionMarkers(t: ParsedTemplate): Fold[] {
  const open: number[] = [];
  const folds: Fold[] = [];
  for (let line = 1; line <= t.index.lineCount; line++) {
    const text = t.index.lineText(line);
    if (REGION_START.test(text)) open.push(line);
    else if (REGION_END.test(text)) {
      const start = open.pop();
      if (start !== undefined) folds.push({ start, end: line, kind: 'region' });
    }
  }
  return folds;
}
