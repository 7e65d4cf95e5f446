// Turns a generated rubric or step list into template text: the section's new body, spliced into
// the template (replacing the old body, or as a new section in the conventional place), and the
// provenance (`generated: {rubric: {model, date}}`) recorded in the front matter.
import { isMap, parseDocument } from 'yaml';
import { SECTION_ORDER, SECTION_TITLES } from '../template/sections';
import type { ParsedTemplate, SectionKey } from '../template/types';
import type { GenerateKind } from './prompt';
import type { GeneratedRubric, GeneratedSteps } from './schema';

export interface Provenance {
  model: string;
  /** YYYY-MM-DD. */
  date: string;
  domain?: string;
  strictness?: string;
}

/** One line of Markdown: line breaks and runs of blanks become one space. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** A bullet that the rubric parser will not read as a score line (it must not start with a number). */
function bullet(s: string): string {
  const line = oneLine(s);
  return `- ${/^[-*+]?\s*\d/.test(line) ? `Note: ${line}` : line}`;
}

export function rubricMarkdown(r: GeneratedRubric): string {
  const levels = [...r.levels].sort((a, b) => b.score - a.score);
  const lines = levels.map((l) => {
    const label = oneLine(l.label).replace(/[()\r\n]/g, '');
    const description = oneLine(l.description);
    const distinguishing = oneLine(l.distinguishing);
    const sep = /[.!?]$/.test(description) ? ' ' : '. ';
    return `- ${l.score}${label ? ` (${label})` : ''}: ${description}${distinguishing ? `${sep}${distinguishing}` : ''}`;
  });
  const out = [lines.join('\n')];
  if (r.edge_cases.length) out.push(`Edge cases:\n\n${r.edge_cases.map(bullet).join('\n')}`);
  if (r.guidelines.length) out.push(`Scoring guidelines:\n\n${r.guidelines.map(bullet).join('\n')}`);
  return out.join('\n\n');
}

export function stepsMarkdown(s: GeneratedSteps): string {
  return s.steps.map((step, i) => `${i + 1}. ${oneLine(step).replace(/^\d+[.)]\s*/, '')}`).join('\n');
}

const SECTION_OF: Record<GenerateKind, Exclude<SectionKey, 'other'>> = { rubric: 'rubric', steps: 'evaluation_steps' };

/** The template with the section's body replaced (or the section added) and the provenance recorded. */
export function applyGenerated(t: ParsedTemplate, what: GenerateKind, markdown: string, provenance: Provenance): string {
  return withProvenance(withSection(t, SECTION_OF[what], markdown), what, provenance);
}

function withSection(t: ParsedTemplate, key: Exclude<SectionKey, 'other'>, markdown: string): string {
  const text = t.text;
  const section = t.sections.find((s) => s.key === key);
  if (section) {
    const next = section.bodyEnd < text.length;
    return `${text.slice(0, section.bodyStart)}\n${markdown}\n${next ? '\n' : ''}${text.slice(section.bodyEnd)}`;
  }
  // After the section that conventionally precedes it, else before the first that follows it.
  const rank = SECTION_ORDER.indexOf(key);
  const known = t.sections.filter((s) => s.key !== 'other');
  const before = known.filter((s) => SECTION_ORDER.indexOf(s.key as Exclude<SectionKey, 'other'>) < rank).pop();
  const after = known.find((s) => SECTION_ORDER.indexOf(s.key as Exclude<SectionKey, 'other'>) > rank);
  const at = before ? before.bodyEnd : after ? after.headingStart : text.length;
  const block = `# ${SECTION_TITLES[key]}\n\n${markdown}\n`;
  if (at >= text.length) return `${text}${text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n'}${block}`;
  const blankBefore = text.slice(0, at).endsWith('\n\n') || at === t.bodyStart;
  return `${text.slice(0, at)}${blankBefore ? '' : '\n'}${block}\n${text.slice(at)}`;
}

/** Sets `generated.<what>` in the front matter, leaving every other line as written. */
export function withProvenance(text: string, what: GenerateKind, p: Provenance): string {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
  if (!open) return text;
  const close = /^(?:---|\.\.\.)[ \t]*$/m.exec(text.slice(open[0].length));
  if (!close) return text;
  const start = open[0].length;
  const end = start + close.index;
  const yamlText = text.slice(start, end);
  const doc = parseDocument(yamlText);
  const entry = { model: p.model, date: p.date, ...(p.domain && { domain: p.domain }), ...(p.strictness && { strictness: p.strictness }) };
  let next: string;
  if (!doc.has('generated')) {
    const flow = Object.entries(entry).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
    next = `${yamlText}${yamlText === '' || yamlText.endsWith('\n') ? '' : '\n'}generated:\n  ${what}: {${flow}}\n`;
  } else {
    if (!isMap(doc.get('generated', true))) doc.set('generated', doc.createNode({}));
    doc.setIn(['generated', what], doc.createNode(entry, { flow: true }));
    next = doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
  }
  return text.slice(0, start) + next + text.slice(end);
}

export function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

