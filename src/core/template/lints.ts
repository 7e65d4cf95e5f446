// Lints for judge-prompt pitfalls: empty or vague rubric levels, judged text pasted in without
// delimiters, a verdict asked for before the reasoning, and few-shot examples on one side only.
import type { Diagnostic } from '../diagnostics';
import { bodyStructure } from './sections';
import type { ParsedTemplate, Placeholder, RubricPoint, TemplateConfig } from './types';

/** The dataset fields that hold the text being judged: the ones an attacker controls. */
export const JUDGED_FIELDS = ['response', 'response_a', 'response_b', 'baseline_model_response'];

export function lintTemplate(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]): void {
  lintRubricLevels(t, out);
  lintUndelimited(t, out);
  lintVerdictOrder(t, config, out);
  lintBalance(t, config, out);
  lintCachePrefix(t, out);
}

// ---- empty-rubric-level, rubric-vague ----

/** Words that grade without describing: removing them from two levels must leave a difference. */
const INTENSITY = new Set(
  ('very really extremely highly completely fully totally entirely perfectly mostly largely partly partially somewhat slightly ' +
    'moderately fairly quite rather barely hardly little mildly reasonably generally mainly almost nearly truly ' +
    'good great excellent outstanding exceptional perfect superb amazing poor bad terrible awful horrible weak strong ' +
    'average mediocre fair decent acceptable adequate okay ok fine satisfactory unsatisfactory sufficient insufficient ' +
    'high low more less most least better best worse worst some many few much minor major significant not no ' +
    'a an the is are it its and or but of to in on with at by for as be this that quality level score rating overall').split(' '),
);

/** The description with numbers, punctuation and intensity words removed. */
export function substance(description: string): string {
  return description
    .toLowerCase()
    .split(/[^a-z\u00c0-\uffff]+/)
    .filter((w) => w && !INTENSITY.has(w))
    .join(' ');
}

/** One point per rubric line (a "9-10" line stands for two scores but is one description). */
function rubricLines(rubric: RubricPoint[]): RubricPoint[] {
  const seen = new Set<number>();
  return rubric.filter((p) => !seen.has(p.lineSpan.line) && seen.add(p.lineSpan.line));
}

function descriptionSpan(t: ParsedTemplate, p: RubricPoint) {
  const line = t.index.lineText(p.lineSpan.line);
  const at = line.lastIndexOf(p.description);
  const start = t.index.lineStart(p.lineSpan.line) + Math.max(0, at);
  return t.index.span(start, start + p.description.length);
}

function lintRubricLevels(t: ParsedTemplate, out: Diagnostic[]): void {
  const lines = rubricLines(t.rubric);
  for (const p of lines) {
    if (p.description === '') {
      const label = p.label ? ` beyond its label "${p.label}"` : '';
      out.push({ ...trimmedLine(t, p.lineSpan.line), severity: 'warning', code: 'empty-rubric-level', message: `Score ${p.score} has no description${label}; say what a response at this level looks like, or generate the rubric from the criteria.`, data: { score: p.score } });
    } else if (substance(p.description) === '') {
      out.push({ ...descriptionSpan(t, p), severity: 'info', code: 'rubric-vague', message: `Score ${p.score} is described only with intensity words ("${p.description}"); name what a response at this level does or lacks.`, data: { score: p.score } });
    }
  }
  // Adjacent levels in score order, each compared once.
  const described = lines.filter((p) => substance(p.description) !== '').sort((a, b) => a.score - b.score);
  for (let i = 1; i < described.length; i++) {
    const lo = described[i - 1];
    const hi = described[i];
    if (!lo || !hi || substance(lo.description) !== substance(hi.description)) continue;
    // Point at whichever of the two comes later in the text.
    const [first, later] = lo.lineSpan.line < hi.lineSpan.line ? [lo, hi] : [hi, lo];
    out.push({ ...descriptionSpan(t, later), severity: 'info', code: 'rubric-vague', message: `Scores ${later.score} and ${first.score} (line ${first.lineSpan.line}) differ only in intensity words; say what tells them apart (what is missing, wrong or extra at each level).`, data: { score: later.score, other: first.score } });
  }
}

function trimmedLine(t: ParsedTemplate, line: number) {
  const text = t.index.lineText(line);
  const start = t.index.lineStart(line) + (text.length - text.trimStart().length);
  return t.index.span(start, t.index.lineStart(line) + text.trimEnd().length);
}

// ---- undelimited-input ----

const TAG = /<(\/?)([A-Za-z][\w.-]*)(?:\s[^<>]*)?>/g;

function lintUndelimited(t: ParsedTemplate, out: Diagnostic[]): void {
  const judged = t.placeholders.filter((p) => p.kind === 'mustache' && !p.inBlock && JUDGED_FIELDS.includes(p.head) && p.path === p.head);
  if (!judged.length) return;
  const { codeLines } = bodyStructure(t);
  const tags = [...t.text.slice(t.bodyStart).matchAll(TAG)].map((m) => ({ at: t.bodyStart + (m.index ?? 0), end: t.bodyStart + (m.index ?? 0) + m[0].length, close: m[1] === '/', name: (m[2] ?? '').toLowerCase() }));
  for (const p of judged) {
    const whole = mustacheRange(t.text, p);
    if (codeLines.has(p.span.line) || insideTags(tags, whole.start, whole.end) || betweenQuotes(t.text, whole.start, whole.end) || betweenMarkers(t.text, whole.start, whole.end)) continue;
    out.push({ ...t.index.span(whole.start, whole.end), severity: 'warning', code: 'undelimited-input', message: `\`{{${p.head}}}\` is inserted without delimiters, so text in it can pass itself off as instructions to the judge; wrap it in tags such as <${p.head}>…</${p.head}> (or a code fence).`, data: { field: p.head } });
  }
}

/** Offsets of the whole `{{…}}` (or `{{{…}}}`) around a placeholder's path. */
export function mustacheRange(text: string, p: Placeholder): { start: number; end: number } {
  let start = text.lastIndexOf('{{', p.start);
  while (start > 0 && text[start - 1] === '{') start--;
  let end = text.indexOf('}}', p.end);
  if (start < 0 || end < 0) return { start: p.start, end: p.end };
  end += 2;
  while (text[end] === '}') end++;
  return { start, end };
}

/** An opening tag before `start` that is not closed before it, and its closing tag after `end`. */
function insideTags(tags: { at: number; end: number; close: boolean; name: string }[], start: number, end: number): boolean {
  const open = new Map<string, number>();
  for (const tag of tags) {
    if (tag.end > start) break;
    open.set(tag.name, (open.get(tag.name) ?? 0) + (tag.close ? -1 : 1));
  }
  for (const [name, depth] of open) {
    if (depth > 0 && tags.some((tag) => tag.close && tag.name === name && tag.at >= end)) return true;
  }
  return false;
}

/** `"""{{response}}"""` or `'''`, the quotes on the same or the neighbouring lines. */
function betweenQuotes(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 200), start).trimEnd();
  const after = text.slice(end, end + 200).trimStart();
  return ['"""', "'''"].some((q) => before.endsWith(q) && after.startsWith(q));
}

/** How far from a placeholder a start or end marker line is looked for (bounded: no scan of the file). */
const MARKER_REACH = 300;
/** Words of a marker line at most: a sentence of prose is not a marker. */
const MARKER_WORDS = 12;
const START_WORDS = new Set(['start', 'begin', 'beginning']);
const END_WORDS = new Set(['end', 'stop']);

/**
 * `<|The Start of Assistant A's Answer|>` {{response_a}} `<|The End of Assistant A's Answer|>`
 * (Arena-Hard), `[The Start of Reference Answer]` (MT-Bench), `BEGIN RESPONSE` … `END RESPONSE`:
 * the nearest text before and after the placeholder are the same words but for one start and one
 * end word, in the template's own words.
 */
function betweenMarkers(text: string, start: number, end: number): boolean {
  const before = markerWords(nearestLine(text.slice(Math.max(0, start - MARKER_REACH), start), 'before'));
  const after = markerWords(nearestLine(text.slice(end, end + MARKER_REACH), 'after'));
  if (!before || !after || before.length !== after.length) return false;
  const s = before.findIndex((w) => START_WORDS.has(w));
  const e = after.findIndex((w) => END_WORDS.has(w));
  return s >= 0 && s === e && before.every((w, i) => i === s || w === after[i]);
}

/** The text on the placeholder's own line beside it, else the nearest non-blank line; up to another placeholder on that line. */
function nearestLine(slice: string, side: 'before' | 'after'): string {
  const lines = slice.split(/\r?\n/);
  if (side === 'before') lines.reverse();
  const line = lines.find((l) => l.trim() !== '') ?? '';
  return (side === 'before' ? line.split('}}').pop() : line.split('{{')[0])?.trim() ?? '';
}

function markerWords(line: string): string[] | undefined {
  const words = line.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter(Boolean);
  return words.length > 0 && words.length <= MARKER_WORDS ? words : undefined;
}

// ---- verdict-before-reasoning ----

const VERDICT_KEYS = ['score', 'winner', 'verdict', 'rating'];
const REASON_KEYS = ['justification', 'reasoning', 'explanation', 'rationale', 'analysis'];

function lintVerdictOrder(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]): void {
  if (!config.dimensions) {
    for (const ex of t.examples) {
      const v = ex.value;
      if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
      const keys = Object.keys(v);
      const verdict = keys.findIndex((k) => VERDICT_KEYS.includes(k));
      const reason = keys.findIndex((k) => REASON_KEYS.includes(k));
      if (verdict < 0 || reason < 0 || verdict > reason) continue;
      const key = keys[verdict] ?? '';
      const start = t.index.offset(ex.span.line, ex.span.column) + Math.max(0, ex.jsonText.indexOf(`"${key}"`));
      out.push({ ...t.index.span(start, start + key.length + 2), severity: 'warning', code: 'verdict-before-reasoning', message: `This example gives "${key}" before "${keys[reason]}"; the judge copies the order, and a verdict written first is only rationalised afterwards. Put the reasoning first.`, data: { example: ex.span.line } });
    }
  }
  const format = t.sections.find((s) => s.key === 'output_format');
  if (!format) return;
  const body = t.text.slice(format.bodyStart, format.bodyEnd);
  const first = (keys: string[]) => Math.min(...keys.map((k) => body.indexOf(`"${k}"`)).filter((i) => i >= 0), Infinity);
  const verdictAt = first(VERDICT_KEYS);
  const reasonAt = first(REASON_KEYS);
  if (verdictAt === Infinity || reasonAt === Infinity || verdictAt > reasonAt) return;
  const key = /^"(\w+)"/.exec(body.slice(verdictAt))?.[1] ?? 'score';
  const start = format.bodyStart + verdictAt;
  out.push({ ...t.index.span(start, start + key.length + 2), severity: 'warning', code: 'verdict-before-reasoning', message: `The output format asks for "${key}" before the reasoning; ask for the justification first so the verdict follows from it.` });
}

// ---- examples-unbalanced ----

function lintBalance(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]): void {
  const section = t.sections.find((s) => s.key === 'examples');
  if (!section || config.dimensions) return;
  const values = t.examples.map((ex) => ex.value).filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
  if (config.kind === 'pointwise' && config.scale) {
    const { min, max } = config.scale;
    const scores = values.map((v) => v.score).filter((s): s is number => typeof s === 'number' && Number.isInteger(s) && s >= min && s <= max);
    if (scores.length < 2) return;
    const mid = (min + max) / 2;
    const low = scores.some((s) => s < mid);
    const high = scores.some((s) => s > mid);
    if (low && high) return;
    const side = high ? 'high' : low ? 'low' : 'middle';
    const want = high ? `a low score (below ${mid})` : low ? `a high score (above ${mid})` : 'a high and a low score';
    out.push({ ...section.heading, severity: 'info', code: 'examples-unbalanced', message: `All ${scores.length} examples score on the ${side} side of ${min}–${max} (${scores.join(', ')}); the judge leans toward what it is shown. Add an example with ${want}.`, data: { scores } });
  } else if (config.kind === 'pairwise') {
    const winners = values.map((v) => v.winner).filter((w): w is string => w === 'A' || w === 'B');
    if (winners.length < 2 || new Set(winners).size > 1) return;
    const other = winners[0] === 'A' ? 'B' : 'A';
    out.push({ ...section.heading, severity: 'info', code: 'examples-unbalanced', message: `Every example's winner is ${winners[0]}; that teaches a position bias. Add an example where ${other} wins.`, data: { winners } });
  }
}

// ---- placeholder-before-rubric ----

/**
 * Providers cache a prompt's longest fixed prefix (OpenAI, Azure, Anthropic, vLLM): the criteria and
 * rubric are the same for every row, so a row value placed before them makes every prompt differ
 * early and the cache useless. Said once, at the first placeholder before the rubric.
 */
function lintCachePrefix(t: ParsedTemplate, out: Diagnostic[]): void {
  const rubric = t.sections.find((s) => s.key === 'rubric');
  if (!rubric) return;
  const first = t.placeholders.filter((p) => !p.inBlock && p.head !== '' && p.start < rubric.headingStart).sort((a, b) => a.start - b.start)[0];
  if (!first) return;
  const whole = mustacheRange(t.text, first);
  out.push({
    ...t.index.span(whole.start, whole.end),
    severity: 'info',
    code: 'placeholder-before-rubric',
    message: `\`{{${first.path}}}\` comes before the rubric, so every row's prompt differs from here on and providers' prompt caches (which reuse a fixed prefix, at a lower price) cannot hold the criteria and rubric. Put row values after the rubric, e.g. in a final section.`,
    data: { field: first.head },
  });
}
