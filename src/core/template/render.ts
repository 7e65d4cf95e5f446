// renderTemplate: a template and one dataset row -> the exact chat messages sent to the judge.
import Handlebars from 'handlebars';
import type { DatasetRecord } from '../dataset/types';
import type { ChatMessage } from '../judge/transport/types';
import { outputInstruction } from '../judge/strategies/replySchema';
import { LineIndex, printable } from '../text';
import { pairFields, pairStyle } from './fields';
import type { ParsedTemplate } from './types';

export interface RenderOptions {
  /** Pairwise: exchange the two responses (pass 2 of the position swap). */
  swap?: boolean;
  /** 1-based row number, named in error messages. */
  row?: number;
  /**
   * Also report where each dataset value landed (the preview's highlighting). It costs a second
   * render with every value wrapped, so the judge, which only sends the messages, leaves it off.
   */
  values?: boolean;
}

/** Where a dataset value landed in a message (for the preview's highlighting). */
export interface PlaceholderValue {
  name: string;
  messageIndex: number;
  start: number;
  end: number;
}

export interface RenderedPrompt {
  messages: ChatMessage[];
  values: PlaceholderValue[];
}

export type RenderOutcome = { ok: true; prompt: RenderedPrompt } | { ok: false; error: string; field?: string };

interface Part {
  role: 'system' | 'user';
  source: string;
  /** Sent exactly as rendered (a free-form body, a front-matter system message): nothing trimmed. */
  verbatim?: boolean;
  /** Plain text, not a Handlebars template (the front matter's `system:`). */
  literal?: boolean;
  /** Maps an offset in `source` back to a document offset, for error positions. */
  toDoc: (offset: number) => number;
}

interface Compiled {
  parts: { part: Part; fn: Handlebars.TemplateDelegate }[];
  instruction: string | undefined;
}

const cache = new WeakMap<ParsedTemplate, Compiled>();

function compile(t: ParsedTemplate): Compiled {
  const hit = cache.get(t);
  if (hit) return hit;
  const system = t.sections.find((s) => s.key === 'system');
  const body = t.text.slice(t.bodyStart);
  const parts: Part[] = [];
  const freeform = t.config?.freeform === true;
  if (t.config?.system !== undefined) parts.push({ role: 'system', source: t.config.system, toDoc: () => 0, verbatim: true, literal: true });
  if (system) {
    const a = system.headingStart - t.bodyStart;
    const b = system.bodyEnd - t.bodyStart;
    const sysStart = system.bodyStart;
    parts.push({ role: 'system', source: t.text.slice(system.bodyStart, system.bodyEnd), toDoc: (o) => sysStart + o });
    const before = body.slice(0, a);
    parts.push({ role: 'user', source: before + body.slice(b), toDoc: (o) => (o < before.length ? t.bodyStart + o : system.bodyEnd + (o - before.length)) });
  } else if (freeform) {
    // Free-form: the body as written, minus the line break that ends the file.
    const source = body.replace(/\r?\n$/, '');
    parts.push({ role: 'user', source, toDoc: (o) => t.bodyStart + o, verbatim: true });
  } else {
    parts.push({ role: 'user', source: body, toDoc: (o) => t.bodyStart + o });
  }
  const compiled: Compiled = {
    parts: parts.map((part) => ({ part, fn: part.literal ? () => part.source : Handlebars.compile(part.source, { noEscape: true, strict: true }) })),
    instruction: t.config && !freeform && !t.sections.some((s) => s.key === 'output_format') ? outputInstruction(t.config) : undefined,
  };
  cache.set(t, compiled);
  return compiled;
}

export function renderTemplate(t: ParsedTemplate, record: DatasetRecord, opts: RenderOptions = {}): RenderOutcome {
  const rowText = opts.row !== undefined ? `row ${opts.row}` : 'the sample';
  if (!t.config) return { ok: false, error: 'The template has front-matter errors; fix them before rendering.' };
  if (!t.handlebarsOk) return { ok: false, error: 'The template has Handlebars syntax errors; fix them before rendering.' };
  const missing = checkFields(t, record, rowText);
  if (missing) return missing;
  const context = buildContext(t, record, opts.swap === true);
  let compiled: Compiled;
  try {
    compiled = compile(t);
  } catch (e) {
    return { ok: false, error: `Handlebars could not compile the template: ${(e as Error).message}` };
  }
  const messages: ChatMessage[] = [];
  const values: PlaceholderValue[] = [];
  for (const { part, fn } of compiled.parts) {
    let raw: string;
    try {
      raw = fn(displayable(context));
    } catch (e) {
      return renderError(e, t, part, rowText);
    }
    const instruction = part.role === 'user' ? compiled.instruction : undefined;
    // The template's own leading/trailing whitespace is trimmed, never a value's.
    const finish = (s: string) => (part.verbatim ? s : (instruction ? `${s.trimEnd()}\n\n${instruction}` : s).trim());
    const index = messages.length;
    if (opts.values === true) {
      const marked = markedRender(fn, context, raw);
      if (marked) {
        const { plain, marks } = unmark(finish(marked), index);
        messages.push({ role: part.role, content: plain });
        values.push(...marks);
      } else messages.push({ role: part.role, content: finish(raw) });
    } else messages.push({ role: part.role, content: part.verbatim ? raw : (trimTemplateOnly(fn, context, raw, instruction) ?? finish(raw)) });
  }
  // A free-form prompt that is all system message (promptfoo's closed-QA grader) sends no empty user turn.
  const kept = t.config.freeform === true ? messages.filter((m, i) => m.role !== 'user' || m.content !== '' || i === 0) : messages;
  return { ok: true, prompt: { messages: kept, values } };
}

/** Every top-level field the body reads must exist in the row and not be null, down its whole path. */
function checkFields(t: ParsedTemplate, record: DatasetRecord, rowText: string): RenderOutcome | undefined {
  for (const p of t.placeholders) {
    if (p.inBlock || !p.head) continue;
    // `a.b` and `a/b` walk into objects; a `[literal]` segment is left to Handlebars.
    const segments = p.path.includes('[') ? [p.head] : p.path.split(/[./]/);
    const at = `(used at line ${p.span.line}, column ${p.span.column})`;
    let value: unknown = record;
    for (let i = 0; i < segments.length; i++) {
      const name = segments.slice(0, i + 1).join('.');
      if (i > 0 && (typeof value !== 'object' || value === null)) {
        const parent = segments.slice(0, i).join('.');
        return { ok: false, field: name, error: `${capital(rowText)}: \`${parent}\` is ${typeof value === 'string' ? 'text' : `a ${typeof value}`}, not an object, so \`${p.path}\` cannot be read ${at}; use \`{{${parent}}}\` or fix the dataset.` };
      }
      value = (value as Record<string, unknown>)[segments[i] ?? ''];
      if (value === undefined || value === null) {
        const what = value === null ? 'is null' : 'is missing';
        return { ok: false, field: name, error: `${capital(rowText)}: field \`${name}\` ${what} ${at}; add it to the dataset or remove the placeholder.` };
      }
    }
  }
  return undefined;
}

function buildContext(t: ParsedTemplate, record: DatasetRecord, swap: boolean): DatasetRecord {
  if (!swap || t.config?.kind !== 'pairwise') return { ...record };
  const pairs: [string, string][] = t.config.pair ? t.config.pair.a.map((a, i) => [a, t.config!.pair!.b[i] ?? a]) : [pairFields(pairStyle(t))];
  const swapped: DatasetRecord = { ...record };
  for (const [a, b] of pairs) {
    swapped[a] = record[b];
    swapped[b] = record[a];
  }
  return swapped;
}

/**
 * Objects print as JSON rather than "[object Object]"; arrays and objects still iterate in blocks.
 * The JSON is made only when an object is printed: a row with a 50 MB field is not serialised
 * (once per nesting level) just to be rendered.
 */
function displayable(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? value.map((v) => displayable(v, depth + 1))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, displayable(v, depth + 1)]));
  Object.defineProperty(copy, 'toString', { value: () => JSON.stringify(value, null, 2), enumerable: false });
  return copy;
}

function renderError(e: unknown, t: ParsedTemplate, part: Part, rowText: string): RenderOutcome {
  const message = (e as Error).message ?? String(e);
  // The message quotes the context, which prints as multi-line JSON here (see displayable).
  const m = /^"([^"]+)" not defined in [\s\S]* - (\d+):(\d+)$/.exec(message);
  if (m) {
    const [, field = '', line, column] = m;
    const local = offsetIn(part.source, Number(line), Number(column));
    const pos = t.index.position(part.toDoc(local));
    return { ok: false, field, error: `${capital(rowText)}: field \`${field}\` is missing inside a block (line ${pos.line}, column ${pos.column}); add it to every item or remove the placeholder.` };
  }
  // Handlebars may quote the row (megabytes, control characters): only a printable head is kept.
  return { ok: false, error: `${capital(rowText)}: rendering failed: ${printable(message, 300)}` };
}

function offsetIn(source: string, line: number, column: number): number {
  // Handlebars' lines break at \n, \r\n and \r, like LineIndex's; its columns are 0-based.
  return new LineIndex(source).offset(line, column + 1);
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// Value marking: render again with each non-empty string wrapped in private-use sentinels, then
// strip them. If the stripped text differs from the real render (a helper saw the wrapping), no
// marks are reported rather than wrong ones.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const SEP = '\uE002';
/** An opening sentinel with its field name, or a closing one. */
const MARK = /\uE000([^\uE002]*)\uE002|\uE001/g;

/** The render with every string value wrapped in sentinels, or undefined when that differs from `raw`. */
function markedRender(fn: Handlebars.TemplateDelegate, context: DatasetRecord, raw: string): string | undefined {
  if (holdsSentinel(context)) return undefined;
  let marked: string;
  try {
    marked = fn(displayable(wrap(context, '')));
  } catch {
    return undefined;
  }
  return marked.replace(MARK, '') === raw ? marked : undefined;
}

/**
 * The same text the marked render gives, without copying the values: a skeleton render, with every
 * string value standing in as OPEN+CLOSE, shows how much leading and trailing whitespace is the
 * template's own. Undefined when the skeleton does not frame `raw` (a helper saw the stand-ins).
 */
function trimTemplateOnly(fn: Handlebars.TemplateDelegate, context: DatasetRecord, raw: string, instruction: string | undefined): string | undefined {
  if (holdsSentinel(context)) return undefined;
  let skeleton: string;
  try {
    skeleton = fn(displayable(standIn(context)));
  } catch {
    return undefined;
  }
  const first = skeleton.indexOf(OPEN);
  const last = skeleton.lastIndexOf(CLOSE);
  if (first < 0 || last < first) return undefined;
  const head = skeleton.slice(0, first);
  const tail = skeleton.slice(last + 1);
  if (head.length + tail.length > raw.length || !raw.startsWith(head) || !raw.endsWith(tail)) return undefined;
  const lead = head.length - head.trimStart().length;
  const trail = tail.length - tail.trimEnd().length;
  const body = raw.slice(lead, raw.length - trail);
  return instruction ? `${body}\n\n${instruction.trimEnd()}` : body;
}

/** The row with every non-empty string replaced by OPEN+CLOSE (as `wrap` marks them, without the text). */
function standIn(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? value : OPEN + SEP + CLOSE;
  if (Array.isArray(value)) return value.map(standIn);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, standIn(v)]));
  return value;
}

/** Whether any string (key or value) in the row holds a sentinel; iterative, no copy of the row. */
function holdsSentinel(value: unknown): boolean {
  const sentinel = /[\uE000-\uE002]/;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (sentinel.test(v)) return true;
    } else if (Array.isArray(v)) for (const child of v) stack.push(child);
    else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (sentinel.test(k)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** Strips the sentinels, noting where each wrapped value starts and ends in the plain text. */
function unmark(marked: string, messageIndex: number): { plain: string; marks: PlaceholderValue[] } {
  const marks: PlaceholderValue[] = [];
  const stack: { name: string; start: number }[] = [];
  let plain = '';
  let last = 0;
  for (let m = MARK.exec(marked); m; m = MARK.exec(marked)) {
    plain += marked.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[1] !== undefined) stack.push({ name: m[1], start: plain.length });
    else {
      const open = stack.pop();
      if (open) marks.push({ name: open.name, messageIndex, start: open.start, end: plain.length });
    }
  }
  return { plain: plain + marked.slice(last), marks };
}

function wrap(value: unknown, path: string): unknown {
  if (typeof value === 'string') return value === '' ? value : `${OPEN}${path}${SEP}${value}${CLOSE}`;
  if (Array.isArray(value)) return value.map((v, i) => wrap(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrap(v, path ? `${path}.${k}` : k)]));
  return value;
}
