// Hover as data: a placeholder (where its value comes from and what it is in the chosen row), a
// rubric point, a front-matter key, a section heading.
import { FIELD_DOCS, STANDARD_FIELDS, type ParsedTemplate, type Placeholder } from '../../../core/template';
import { verdictRule } from '../../../core/verdict';
import { displayValue, valueAt } from '../../preview/rows';
import { declaredInputs, templateKind } from './completion';
import { MODEL_KEYS, SECTION_DOCS, TOP_LEVEL_KEYS } from './docs';
import type { SampleView } from './edits';
import { frontMatterRegion } from './structure';
import { criteriaHover } from './criteria';

/** `md` is Markdown we wrote; `text` comes from the template or dataset and is shown literally. */
export type HoverPart = { md: string } | { text: string } | { code: string };

export interface HoverInfo {
  start: number;
  end: number;
  parts: HoverPart[];
}

export function hoverAt(t: ParsedTemplate, offset: number, sample: SampleView): HoverInfo | undefined {
  return placeholderHover(t, offset, sample) ?? criteriaHover(t, offset) ?? rubricHover(t, offset) ?? keyHover(t, offset) ?? sectionHover(t, offset);
}

function placeholderHover(t: ParsedTemplate, offset: number, sample: SampleView): HoverInfo | undefined {
  const p = t.placeholders.find((x) => x.start <= offset && offset <= x.end);
  if (!p) return undefined;
  const parts: HoverPart[] = [{ md: `**Placeholder** \`${p.path.replace(/`/g, '')}\`` }, { md: origin(t, p) }];
  const doc = FIELD_DOCS[p.head];
  if (doc && !p.inBlock) parts.push({ md: doc });
  parts.push(...valueParts(p, sample));
  return { start: p.start, end: p.end, parts };
}

function origin(t: ParsedTemplate, p: Placeholder): string {
  if (p.inBlock) return 'Read from the item of the enclosing `{{#each}}` / `{{#with}}` block, not from the row itself.';
  const kind = templateKind(t);
  const inputs = declaredInputs(t);
  const standard = kind ? (STANDARD_FIELDS[kind] as readonly string[]).includes(p.head) : false;
  if (inputs.includes(p.head)) return `A dataset field declared in \`inputs\`${standard ? ` (also a standard ${kind} field)` : ''}.`;
  if (standard) return `A standard ${kind} field, read from the dataset row.`;
  return 'Not a declared input or a standard field: rendering will fail unless it is declared under `inputs` and present in the dataset.';
}

function valueParts(p: Placeholder, sample: SampleView): HoverPart[] {
  if (p.inBlock) return [];
  if (!sample.record || sample.row === undefined) {
    return [{ md: sample.dataset ? `No readable row in the chosen dataset.` : 'No dataset chosen for the preview (command *Judge Studio: Select Dataset for Preview*).' }];
  }
  const where = `row ${sample.row} of ${sample.dataset ?? 'the dataset'}`;
  const value = valueAt(sample.record, p.path.split('.'));
  if (value === undefined || value === null) return [{ text: `Missing in ${where}: rendering this row fails.` }];
  return [{ text: `Value in ${where}:` }, { code: displayValue(value, 1000) }];
}

function rubricHover(t: ParsedTemplate, offset: number): HoverInfo | undefined {
  const line = t.index.position(offset).line;
  const points = t.rubric.filter((p) => p.lineSpan.line === line);
  const first = points[0];
  if (!first) return undefined;
  const scores = points.map((p) => p.score);
  const lo = Math.min(...scores);
  const hi = Math.max(...scores);
  const config = t.config;
  const range = config?.kind === 'pointwise' ? config.scale : config?.ranking;
  const what = config?.kind === 'pointwise' ? 'scale' : 'ranking';
  const parts: HoverPart[] = [{ md: `**Rubric point** ${lo === hi ? `score ${lo}` : `scores ${lo}–${hi}`}` }];
  if (first.label) parts.push({ text: first.label });
  if (first.description) parts.push({ text: first.description });
  if (range) {
    const inside = lo >= range.min && hi <= range.max;
    parts.push({ md: inside ? `Within the ${what} ${range.min}–${range.max}.` : `Outside the ${what} ${range.min}–${range.max}.` });
  }
  const start = t.index.offset(first.lineSpan.line, first.lineSpan.column);
  return { start, end: t.index.offset(first.lineSpan.endLine, first.lineSpan.endColumn), parts };
}

function keyHover(t: ParsedTemplate, offset: number): HoverInfo | undefined {
  const region = frontMatterRegion(t);
  if (!region || offset < region.start || offset > region.end) return undefined;
  const line = t.index.position(offset).line;
  const lineStart = t.index.lineStart(line);
  const m = /^(\s*)([A-Za-z_]\w*)\s*:/.exec(t.index.lineText(line));
  if (!m?.[2]) return undefined;
  const start = lineStart + (m[1] ?? '').length;
  const end = start + m[2].length;
  if (offset < start || offset > end) return undefined;
  const nested = (m[1] ?? '').length > 0;
  const doc = nested ? (isUnderModel(t, line) ? MODEL_KEYS[m[2]] : undefined) : TOP_LEVEL_KEYS[m[2]];
  if (!doc) return undefined;
  const parts: HoverPart[] = [{ md: `**${nested ? 'model.' : ''}${m[2]}** — ${doc.summary}` }, { md: doc.doc }];
  // The rule this template's replies are read by (the pattern comes from the file: shown as text).
  if (!nested && m[2] === 'verdict' && t.config) parts.push({ text: verdictRule(t.config.verdict, t.config.kind, t.config.scale, t.config.labels, t.config.passing_labels) });
  return { start, end, parts };
}

function isUnderModel(t: ParsedTemplate, line: number): boolean {
  for (let l = line - 1; l > 1; l--) {
    const m = /^([A-Za-z_]\w*)\s*:/.exec(t.index.lineText(l));
    if (m) return m[1] === 'model';
  }
  return false;
}

function sectionHover(t: ParsedTemplate, offset: number): HoverInfo | undefined {
  const line = t.index.position(offset).line;
  const s = t.sections.find((x) => x.heading.line === line);
  if (!s || s.key === 'other') return undefined;
  return { start: t.index.offset(s.heading.line, s.heading.column), end: t.index.offset(s.heading.endLine, s.heading.endColumn), parts: [{ md: `**Section** ${SECTION_DOCS[s.key]}` }] };
}
