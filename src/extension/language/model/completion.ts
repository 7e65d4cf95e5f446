// Completion as data: placeholders (declared inputs, the kind's standard fields, dataset
// columns), block helpers, section names, and front-matter keys and values.
import { FIELD_DOCS, SECTION_ORDER, SECTION_TITLES, STANDARD_FIELDS, type JudgeKind, type ParsedTemplate } from '../../../core/template';
import { displayValue, valueAt } from '../../preview/rows';
import { cursorContext, type CursorContext } from './cursor';
import { KEY_VALUES, MODEL_KEYS, SECTION_DOCS, TOP_LEVEL_KEYS, type KeyDoc } from './docs';
import { declareInputEdit, type SampleView, type TextEditSpec } from './edits';
import { frontMatterRegion } from './structure';
import { criteriaCompletions } from './criteria';

export type EntryKind = 'field' | 'property' | 'helper' | 'section' | 'key' | 'value';

export interface CompletionEntry {
  label: string;
  kind: EntryKind;
  detail: string;
  /** Markdown we wrote. */
  doc?: string;
  /** The chosen dataset row's value, shown verbatim as code. */
  value?: string;
  insertText: string;
  sortText: string;
  /** Offsets of the text the entry replaces. */
  start: number;
  end: number;
  additionalEdits?: TextEditSpec[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HELPERS: [string, string][] = [
  ['each', 'Repeat the block for each item of a list; inside, `{{this}}` or `{{this.field}}` is the item.'],
  ['if', 'Include the block when the field is present and not empty.'],
  ['unless', 'Include the block when the field is missing or empty.'],
  ['with', 'Use a nested object as the context inside the block.'],
];

export function completionsAt(t: ParsedTemplate, offset: number, sample: SampleView): CompletionEntry[] {
  const criteria = criteriaCompletions(t, offset);
  if (criteria) return criteria;
  const ctx = cursorContext(t, offset);
  switch (ctx.kind) {
    case 'placeholder':
      return placeholderEntries(t, ctx, offset, sample);
    case 'section':
      return sectionEntries(t, ctx);
    case 'frontMatterKey':
      return keyEntries(t, ctx);
    case 'frontMatterValue':
      return valueEntries(ctx);
    default:
      return [];
  }
}

type PlaceholderCtx = Extract<CursorContext, { kind: 'placeholder' }>;

function placeholderEntries(t: ParsedTemplate, ctx: PlaceholderCtx, offset: number, sample: SampleView): CompletionEntry[] {
  const span = { start: ctx.start, end: ctx.end };
  if ((ctx.sigil === '#' || ctx.sigil === '^') && !ctx.helper && !ctx.path.length) {
    return HELPERS.map(([name, doc], i) => ({ label: name, kind: 'helper', detail: 'Handlebars block helper', doc, insertText: `${name} `, sortText: `0${i}`, ...span }));
  }
  if (ctx.sigil === '/') {
    const open = openBlocks(t.text.slice(t.bodyStart, offset)).pop();
    return open ? [{ label: open, kind: 'helper', detail: 'close the open block', insertText: `${open}}}`, sortText: '0', ...span }] : [];
  }
  if (ctx.path.length) return propertyEntries(t, ctx, offset, sample);

  const kind = templateKind(t);
  const inputs = declaredInputs(t);
  const standard: readonly string[] = kind ? STANDARD_FIELDS[kind] : [...new Set([...STANDARD_FIELDS.pointwise, ...STANDARD_FIELDS.pairwise])];
  const columns = sample.columns.filter((c) => IDENTIFIER.test(c));
  const names = [...new Set([...inputs, ...standard, ...columns])];
  return names.map((name) => {
    const sources: string[] = [];
    if (inputs.includes(name)) sources.push('declared input');
    if (standard.includes(name)) sources.push(kind ? `standard ${kind} field` : 'standard field');
    const known = sources.length > 0;
    if (columns.includes(name)) sources.push(known ? 'in the dataset' : 'dataset column, not declared: adds it to inputs');
    const declare = known ? undefined : declareInputEdit(t, name);
    const value = sample.record && name in sample.record ? displayValue(sample.record[name]) : undefined;
    return {
      label: name,
      kind: 'field',
      detail: sources.join(' · '),
      ...(FIELD_DOCS[name] && { doc: FIELD_DOCS[name] }),
      ...(value !== undefined && { value }),
      insertText: name,
      sortText: `${inputs.includes(name) ? 0 : standard.includes(name) ? 1 : 2}${name}`,
      ...span,
      ...(declare && { additionalEdits: [declare] }),
    };
  });
}

/** Keys of an object value in the chosen row: `{{meta.` or, inside `{{#each list}}`, `{{this.`. */
function propertyEntries(t: ParsedTemplate, ctx: PlaceholderCtx, offset: number, sample: SampleView): CompletionEntry[] {
  if (!sample.record) return [];
  let value: unknown;
  if (ctx.path[0] === 'this') {
    const each = openEachLists(t.text.slice(t.bodyStart, offset)).pop();
    const list = each ? valueAt(sample.record, each.split('.')) : undefined;
    value = Array.isArray(list) ? valueAt({ item: list[0] }, ['item', ...ctx.path.slice(1)]) : undefined;
  } else value = valueAt(sample.record, ctx.path);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([k]) => IDENTIFIER.test(k))
    .map(([k, v], i) => ({ label: k, kind: 'property', detail: `${ctx.path.join('.')}.${k} in the chosen row`, value: displayValue(v), insertText: k, sortText: String(i).padStart(4, '0'), start: ctx.start, end: ctx.end }));
}

/** Names of blocks opened and not yet closed in `text`, innermost last. */
export function openBlocks(text: string): string[] {
  return openBlockTags(text).map((b) => b.name);
}

function openEachLists(text: string): string[] {
  return openBlockTags(text).filter((b) => b.name === 'each' && b.param).map((b) => b.param as string);
}

function openBlockTags(text: string): { name: string; param?: string }[] {
  const stack: { name: string; param?: string }[] = [];
  const re = /\{\{~?\s*([#/])\s*([\w-]+)(?:\s+([\w.]+))?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const name = m[2] ?? '';
    if (m[1] === '#') stack.push({ name, ...(m[3] && { param: m[3] }) });
    else {
      const i = stack.map((s) => s.name).lastIndexOf(name);
      if (i >= 0) stack.length = i;
    }
  }
  return stack;
}

function sectionEntries(t: ParsedTemplate, ctx: { start: number; end: number }): CompletionEntry[] {
  // The heading being typed does not count as present.
  const line = t.index.position(ctx.start).line;
  const present = new Set(t.sections.filter((s) => s.heading.line !== line).map((s) => s.key));
  const required = new Set(['criteria', 'rubric', 'evaluation_steps']);
  const entries: CompletionEntry[] = [];
  SECTION_ORDER.forEach((key, i) => {
    if (present.has(key)) return;
    const title = SECTION_TITLES[key];
    entries.push({ label: title, kind: 'section', detail: required.has(key) ? 'required section' : 'optional section', doc: SECTION_DOCS[key], insertText: title, sortText: `${required.has(key) ? 0 : 1}${i}`, start: ctx.start, end: ctx.end });
  });
  const aliases: [string, 'rubric' | 'evaluation_steps'][] = [['Rating rubric', 'rubric'], ['Instructions', 'evaluation_steps']];
  for (const [alias, key] of aliases) {
    if (present.has(key)) continue;
    entries.push({ label: alias, kind: 'section', detail: `same as # ${SECTION_TITLES[key]}`, doc: SECTION_DOCS[key], insertText: alias, sortText: `2${alias}`, start: ctx.start, end: ctx.end });
  }
  return entries;
}

function keyEntries(t: ParsedTemplate, ctx: Extract<CursorContext, { kind: 'frontMatterKey' }>): CompletionEntry[] {
  const table: Record<string, KeyDoc> | undefined = ctx.parent === undefined ? TOP_LEVEL_KEYS : ctx.parent === 'model' ? MODEL_KEYS : undefined;
  if (!table) return [];
  const kind = templateKind(t);
  const present = presentKeys(t, ctx.parent);
  return Object.entries(table)
    .filter(([key, doc]) => !present.has(key) && (!doc.kind || !kind || doc.kind === kind))
    .map(([key, doc], i) => ({
      label: key,
      kind: 'key',
      detail: doc.summary,
      doc: doc.doc,
      insertText: ctx.colonAfter ? key : key === 'model' ? 'model:\n  ' : `${key}: `,
      sortText: String(i).padStart(2, '0'),
      start: ctx.start,
      end: ctx.end,
    }));
}

function valueEntries(ctx: Extract<CursorContext, { kind: 'frontMatterValue' }>): CompletionEntry[] {
  const allowed = ctx.parent === undefined ? ['kind', 'scale'] : ctx.parent === 'model' ? ['swap', 'temperature'] : [];
  if (!allowed.includes(ctx.key)) return [];
  return (KEY_VALUES[ctx.key] ?? []).map((v, i) => ({ label: v.value, kind: 'value', detail: v.doc, insertText: v.value, sortText: String(i), start: ctx.start, end: ctx.end }));
}

/** Keys already written at one level of the front matter (read from lines, so it works mid-edit). */
function presentKeys(t: ParsedTemplate, parent: string | undefined): Set<string> {
  const region = frontMatterRegion(t);
  const keys = new Set<string>();
  if (!region) return keys;
  const first = t.index.position(region.start).line;
  const last = t.index.position(region.end).line;
  let inParent = false;
  for (let line = first; line <= last && t.index.lineStart(line) < region.end; line++) {
    const text = t.index.lineText(line);
    const m = /^(\s*)([A-Za-z_]\w*)\s*:/.exec(text);
    if (!m) continue;
    const top = (m[1] ?? '').length === 0;
    if (top) inParent = m[2] === parent;
    if (parent === undefined ? top : !top && inParent) keys.add(m[2] ?? '');
  }
  return keys;
}

export function templateKind(t: ParsedTemplate): JudgeKind | undefined {
  if (t.config) return t.config.kind;
  const data = t.frontMatter?.data as Record<string, unknown> | null | undefined;
  const kind = data && typeof data === 'object' ? data.kind : undefined;
  return kind === 'pointwise' || kind === 'pairwise' ? kind : undefined;
}

export function declaredInputs(t: ParsedTemplate): string[] {
  if (t.config) return t.config.inputs ?? [];
  const data = t.frontMatter?.data as Record<string, unknown> | null | undefined;
  const inputs = data && typeof data === 'object' ? data.inputs : undefined;
  return Array.isArray(inputs) ? inputs.filter((i): i is string => typeof i === 'string') : [];
}

/** A snippet as written in snippets/judge.code-snippets. */
export interface SnippetDef {
  prefix: string;
  description?: string;
  body: string[] | string;
}

/** The whole-template snippets, in the order a new file should offer them. */
export const TEMPLATE_PREFIXES = ['template-pointwise', 'template-pairwise', 'template-hhh'];

/** A file with nothing in it yet but, perhaps, the word being typed (`tem…`). */
export function isNewFile(text: string): boolean {
  return /^[\w-]*$/.test(text.trim());
}

/**
 * In a new file, the whole-template snippets come first: a new `.judge` file needs a template,
 * not words from other files. They replace the whole (nearly empty) text. Empty for any other file.
 */
export function emptyFileEntries(text: string, snippets: Record<string, SnippetDef>): (CompletionEntry & { snippet: true })[] {
  if (!isNewFile(text)) return [];
  const byPrefix = new Map(Object.entries(snippets).map(([name, s]) => [s.prefix, { name, ...s }]));
  return TEMPLATE_PREFIXES.flatMap((prefix, i) => {
    const s = byPrefix.get(prefix);
    if (!s) return [];
    const body = Array.isArray(s.body) ? s.body.join('\n') : s.body;
    return [{ label: prefix, kind: 'value' as const, detail: s.name, ...(s.description ? { doc: s.description } : {}), insertText: body, sortText: ` ${i}`, start: 0, end: text.length, snippet: true as const }];
  });
}
