// The outline as data: front matter (with its keys), sections, rubric points under the rubric,
// examples under Examples, and sub-headings elsewhere.
import { isMap, isPair, isScalar, parseDocument } from 'yaml';
import { SECTION_TITLES, type ParsedTemplate, type Section } from '../../../core/template';
import { shorten } from '../../preview/rows';
import { bodyLines, lastContentLine, type Heading } from './structure';
import { criteriaOutline } from './criteria';

export type OutlineKind = 'frontMatter' | 'key' | 'section' | 'otherSection' | 'rubricPoint' | 'example' | 'heading';

export interface OutlineSymbol {
  name: string;
  detail: string;
  kind: OutlineKind;
  /** 1-based inclusive lines of the whole symbol, and of the part to select (its heading). */
  firstLine: number;
  lastLine: number;
  selectionLine: number;
  children: OutlineSymbol[];
}

export function outline(t: ParsedTemplate): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  const fm = frontMatterSymbol(t);
  if (fm) out.push(fm);
  const { headings } = bodyLines(t);
  for (const s of t.sections) {
    const first = s.heading.line;
    const last = lastContentLine(t, first, s.bodyEnd);
    const inside = headings.filter((h) => h.level >= 2 && h.line > first && h.line <= last);
    let children: OutlineSymbol[];
    if (s.key === 'rubric') children = criteriaOutline(t, (lines) => rubricChildren(t).filter((p) => lines.includes(p.firstLine))) ?? rubricChildren(t);
    else if (s.key === 'examples') children = exampleChildren(t, s, inside, last);
    else children = subHeadings(t, inside, last, 'heading');
    out.push({
      name: s.title || '(untitled)',
      detail: s.key === 'other' ? '' : s.title.toLowerCase() === SECTION_TITLES[s.key].toLowerCase() ? '' : SECTION_TITLES[s.key],
      kind: s.key === 'other' ? 'otherSection' : 'section',
      firstLine: first,
      lastLine: last,
      selectionLine: first,
      children,
    });
  }
  return out;
}

function frontMatterSymbol(t: ParsedTemplate): OutlineSymbol | undefined {
  const fm = t.frontMatter;
  if (!fm) return undefined;
  const closeLine = t.index.position(fm.end).line;
  const children: OutlineSymbol[] = [];
  const doc = parseDocument(t.text.slice(fm.start, fm.end));
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) continue;
      const keyLine = t.index.position(fm.start + pair.key.range[0]).line;
      const range = (pair.value as { range?: [number, number, number] } | null)?.range;
      const endLine = range ? t.index.position(Math.max(fm.start, fm.start + range[1] - 1)).line : keyLine;
      // Scalars by value; one-line lists and maps as written, e.g. `[1, 5]`.
      const source = range ? t.text.slice(fm.start + range[0], fm.start + range[1]).trim() : '';
      const value = isScalar(pair.value) ? String(pair.value.value ?? '') : source.includes('\n') ? '' : source;
      children.push({ name: String(pair.key.value), detail: shorten(value, 60), kind: 'key', firstLine: keyLine, lastLine: Math.min(Math.max(keyLine, endLine), closeLine), selectionLine: keyLine, children: [] });
    }
  }
  const name = t.config ? `${t.config.name} (${t.config.kind})` : 'Front matter';
  return { name, detail: t.config ? 'front matter' : '', kind: 'frontMatter', firstLine: 1, lastLine: closeLine, selectionLine: 1, children };
}

function rubricChildren(t: ParsedTemplate): OutlineSymbol[] {
  const byLine = new Map<number, number[]>();
  for (const p of t.rubric) byLine.set(p.lineSpan.line, [...(byLine.get(p.lineSpan.line) ?? []), p.score]);
  const seen = new Set<number>();
  const out: OutlineSymbol[] = [];
  for (const p of t.rubric) {
    const line = p.lineSpan.line;
    if (seen.has(line)) continue;
    seen.add(line);
    const scores = byLine.get(line) ?? [p.score];
    const lo = Math.min(...scores);
    const hi = Math.max(...scores);
    const score = lo === hi ? String(lo) : `${lo}–${hi}`;
    out.push({ name: p.label ? `${score} ${p.label}` : score, detail: shorten(p.description, 80), kind: 'rubricPoint', firstLine: line, lastLine: line, selectionLine: line, children: [] });
  }
  return out;
}

function exampleChildren(t: ParsedTemplate, s: Section, inside: Heading[], last: number): OutlineSymbol[] {
  const level = Math.min(...inside.map((h) => h.level));
  if (inside.length) return subHeadings(t, inside.filter((h) => h.level === level), last, 'example');
  // No sub-headings: each expected-output block is one example.
  return t.examples
    .filter((ex) => ex.span.line > s.heading.line)
    .map((ex, i) => ({ name: `Example ${i + 1}`, detail: shorten(ex.jsonText.replace(/\s+/g, ' ').trim(), 60), kind: 'example', firstLine: Math.max(s.heading.line + 1, ex.span.line - 1), lastLine: Math.min(last, ex.span.endLine + 1), selectionLine: ex.span.line, children: [] }));
}

/** Headings of one level as siblings, each up to the next heading of that level or higher. */
function subHeadings(t: ParsedTemplate, headings: Heading[], last: number, kind: OutlineKind): OutlineSymbol[] {
  if (!headings.length) return [];
  const level = Math.min(...headings.map((h) => h.level));
  const top = headings.filter((h) => h.level === level);
  return top.map((h, i) => {
    const next = top[i + 1];
    const end = next ? lastContentLine(t, h.line, t.index.lineStart(next.line)) : last;
    const nested = headings.filter((x) => x.level > level && x.line > h.line && x.line <= end);
    return { name: h.title || '(untitled)', detail: '', kind, firstLine: h.line, lastLine: Math.max(h.line, end), selectionLine: h.line, children: subHeadings(t, nested, end, 'heading') };
  });
}
