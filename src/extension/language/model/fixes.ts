// Quick fixes as data, from a core diagnostic and its `data`: insert a missing section (or just
// its heading, when the content is still there), replace an unknown placeholder, fill a rubric gap,
// wrap judged text in tags, put an example's reasoning before its verdict.
import type { Diagnostic } from '../../../core/diagnostics';
import { SECTION_ORDER, SECTION_TITLES, type ParsedTemplate, type SectionKey } from '../../../core/template';
import { parseRubric } from '../../../core/template/rubric';
import { declareInputEdit, type TextEditSpec } from './edits';
import { bodyLines } from './structure';

export interface FixSpec {
  title: string;
  edits: TextEditSpec[];
  preferred: boolean;
}

export const FIXABLE_CODES = new Set(['missing-section', 'unknown-placeholder', 'rubric-gap', 'ranking-level-missing', 'undelimited-input', 'verdict-before-reasoning']);

export function fixesFor(t: ParsedTemplate, d: Diagnostic): FixSpec[] {
  switch (d.code) {
    case 'missing-section':
      return missingSection(t, d);
    case 'unknown-placeholder':
      return unknownPlaceholder(t, d);
    case 'rubric-gap':
    case 'ranking-level-missing':
      return rubricGap(t, d);
    case 'undelimited-input':
      return wrapInTags(t, d);
    case 'verdict-before-reasoning':
      return reasoningFirst(t, d);
    default:
      return [];
  }
}

type Known = Exclude<SectionKey, 'other'>;

function missingSection(t: ParsedTemplate, d: Diagnostic): FixSpec[] {
  const key = d.data?.section as Known | undefined;
  if (!key || !SECTION_ORDER.includes(key)) return [];
  const title = typeof d.data?.title === 'string' ? d.data.title : SECTION_TITLES[key];
  const fixes: FixSpec[] = [];
  const orphan = key === 'rubric' ? orphanedRubricLine(t) : undefined;
  if (orphan !== undefined) {
    fixes.push({ title: `Add the \`# ${title}\` heading above the score lines (line ${orphan})`, edits: [headingAbove(t, orphan, title)], preferred: true });
  }
  fixes.push({ title: `Insert a \`# ${title}\` section`, edits: [skeletonEdit(t, key, title)], preferred: orphan === undefined });
  return fixes;
}

/** Where the new section goes: after the section that conventionally precedes it, else before the one that follows. */
export function sectionInsertOffset(t: ParsedTemplate, key: Known): number {
  const rank = SECTION_ORDER.indexOf(key);
  const known = t.sections.filter((s) => s.key !== 'other');
  const before = known.filter((s) => SECTION_ORDER.indexOf(s.key as Known) < rank).pop();
  if (before) return before.bodyEnd;
  const after = known.find((s) => SECTION_ORDER.indexOf(s.key as Known) > rank);
  return after ? after.headingStart : t.text.length;
}

function skeletonEdit(t: ParsedTemplate, key: Known, title: string): TextEditSpec {
  const at = sectionInsertOffset(t, key);
  const body = skeletonBody(t, key);
  const block = `# ${title}\n\n${body}\n`;
  if (at >= t.text.length) {
    const sep = t.text.length === 0 || t.text.endsWith('\n\n') ? '' : t.text.endsWith('\n') ? '\n' : '\n\n';
    return { start: at, end: at, newText: `${sep}${block}` };
  }
  // `at` is the start of a heading line; keep one blank line on each side.
  const blankBefore = at === t.bodyStart || t.text.slice(0, at).endsWith('\n\n');
  return { start: at, end: at, newText: `${blankBefore ? '' : '\n'}${block}\n` };
}

/** The skeleton's body: one line per score for a rubric, a starting point for the others. */
export function skeletonBody(t: ParsedTemplate, key: Known): string {
  const config = t.config;
  switch (key) {
    case 'rubric': {
      const range = config?.kind === 'pointwise' ? config.scale : config?.ranking;
      if (range) return rubricLevelLines(scoresDescending(range.min, range.max)).join('\n');
      if (config?.kind === 'pairwise') {
        return [
          '- A: Replace with what makes response A the better one under the Criteria.',
          '- B: Replace with what makes response B the better one under the Criteria.',
          '- TIE: Replace with when both responses meet the Criteria equally.',
        ].join('\n');
      }
      return rubricLevelLines([5]).join('\n');
    }
    case 'evaluation_steps':
      return stepsSkeleton(t).map((step, i) => `${i + 1}. ${step}`).join('\n');
    case 'criteria':
      return '{{!-- What the judge looks for, and what matters most. --}}';
    case 'system':
      return '{{!-- Who the judge is and how it behaves. --}}';
    case 'examples':
      return '{{!-- An input, then the expected reply as a ```json block. --}}';
    case 'output_format':
      return '{{!-- The exact reply format; without this section the engine appends it. --}}';
  }
}

/**
 * Evaluation steps a judge can follow as they stand, written for this template's kind (and its
 * criteria, when it declares several), to be sharpened by the author: an empty list helps no one.
 */
export function stepsSkeleton(t: ParsedTemplate): string[] {
  const config = t.config;
  if (config?.kind === 'pairwise') {
    return [
      'Read the prompt and both responses in full before judging either.',
      'Check each response against the Criteria, noting what it gets right and what it misses.',
      'Decide which response better meets the Criteria; ignore which one came first, their length and their tone.',
      'Write your justification first, then the verdict.',
    ];
  }
  const criteria = config?.kind === 'pointwise' ? (config.criteria ?? []).map((c) => c.name) : [];
  return [
    'Read the prompt and the response in full before judging.',
    criteria.length
      ? `For each criterion (${criteria.join(', ')}), quote the parts of the response that meet or miss it.`
      : 'Check the response against each point of the Criteria, quoting the parts that meet or miss it.',
    'Compare what you found with the Rubric and choose the score whose description fits best; when torn between two, choose the lower.',
    'Write your justification first, then the score.',
  ];
}

const ORDINALS = ['second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/**
 * One line per score (highest first) whose text says what to write there: an empty level raises
 * empty-rubric-level, and the same words on every level raise rubric-vague, so each level's
 * placeholder names its own place in the scale.
 */
export function rubricLevelLines(descending: readonly number[]): string[] {
  return descending.map((s, i) => {
    const last = descending.length - 1;
    const what =
      i === 0 && last > 0
        ? 'Replace with what a response at the top of the scale does: every point of the Criteria met.'
        : i === last && last > 0
          ? 'Replace with what a response at the bottom of the scale does: it misses what the Criteria ask for.'
          : last === 0
            ? 'Replace with what a response given this score does.'
            : `Replace with what a response at the ${ORDINALS[i - 1] ?? `level ${i + 1}`} step from the top gets right, and what it misses that the step above gets.`;
    return `- ${s}: ${what}`;
  });
}

function scoresDescending(min: number, max: number): number[] {
  return Array.from({ length: max - min + 1 }, (_, i) => max - i);
}

/**
 * A run of two or more score lines outside any rubric section: the content of a rubric whose
 * heading was deleted. Returns the 1-based line the heading belongs above.
 */
export function orphanedRubricLine(t: ParsedTemplate): number | undefined {
  const { codeLines } = bodyLines(t);
  const regions = t.sections.filter((s) => s.key !== 'rubric' && s.key !== 'examples');
  const firstHeading = t.sections[0]?.headingStart ?? t.text.length;
  for (const s of [{ bodyStart: t.bodyStart, bodyEnd: firstHeading }, ...regions]) {
    if (s.bodyStart >= s.bodyEnd) continue;
    const lines = [...new Set(parseRubric({ ...s, key: 'rubric', title: '', heading: { line: 1, column: 1, endLine: 1, endColumn: 1 }, headingStart: s.bodyStart }, t.index, codeLines).map((p) => p.lineSpan.line))];
    const start = lines.findIndex((l, i) => lines[i + 1] === l + 1);
    const first = lines[start];
    if (start < 0 || first === undefined) continue;
    return introParagraph(t, first) ?? first;
  }
  return undefined;
}

/** The first line of a paragraph ending in ':' right above the list (e.g. "Rank each response:"). */
function introParagraph(t: ParsedTemplate, listLine: number): number | undefined {
  let line = listLine - 1;
  while (line > 1 && t.index.lineText(line).trim() === '') line--;
  if (line < 1 || !t.index.lineText(line).trim().endsWith(':')) return undefined;
  while (line > 1 && t.index.lineText(line - 1).trim() !== '' && !/^\s{0,3}#/.test(t.index.lineText(line - 1))) line--;
  return /^\s{0,3}#/.test(t.index.lineText(line)) ? undefined : line;
}

/** `# Title` above `line`, reusing a spare blank line so the text reads as before the heading was lost. */
function headingAbove(t: ParsedTemplate, line: number, title: string): TextEditSpec {
  const blank = (l: number) => l >= 1 && t.index.lineText(l).trim() === '';
  if (blank(line - 1) && blank(line - 2)) {
    const at = t.index.lineStart(line - 1);
    return { start: at, end: at, newText: `# ${title}\n` };
  }
  const at = t.index.lineStart(line);
  return { start: at, end: at, newText: blank(line - 1) || line === 1 ? `# ${title}\n\n` : `\n# ${title}\n\n` };
}

function unknownPlaceholder(t: ParsedTemplate, d: Diagnostic): FixSpec[] {
  const start = t.index.offset(d.line, d.column);
  const end = t.index.offset(d.endLine, d.endColumn);
  const written = t.text.slice(start, end);
  const name = typeof d.data?.name === 'string' ? d.data.name : written.split('.')[0] ?? '';
  if (!name || !written.startsWith(name)) return [];
  const fixes: FixSpec[] = [];
  const suggestion = d.data?.suggestion;
  if (typeof suggestion === 'string' && suggestion) {
    fixes.push({ title: `Change to \`${suggestion}\``, edits: [{ start, end: start + name.length, newText: suggestion }], preferred: true });
  }
  const declare = declareInputEdit(t, name);
  if (declare) fixes.push({ title: `Declare \`${name}\` under \`inputs\``, edits: [declare], preferred: false });
  return fixes;
}

function rubricGap(t: ParsedTemplate, d: Diagnostic): FixSpec[] {
  const score = d.data?.score;
  const line = d.data?.line;
  if (typeof score === 'number' && typeof line === 'number') {
    const text = t.index.lineText(line);
    const prefix = /^(\s*(?:[-*+]\s+)?)/.exec(text)?.[1] ?? '- ';
    const newLine = `${prefix || '- '}${score}: `;
    const edit =
      d.data?.insert === 'after'
        ? { start: t.index.lineEnd(line), end: t.index.lineEnd(line), newText: `\n${newLine}` }
        : { start: t.index.lineStart(line), end: t.index.lineStart(line), newText: `${newLine}\n` };
    return [{ title: `Add a line for score ${score}`, edits: [edit], preferred: true }];
  }
  const scores = d.data?.scores;
  if (Array.isArray(scores) && scores.every((s) => typeof s === 'number')) {
    // No points at all: one line per score right under the rubric heading.
    const rubric = t.sections.find((s) => s.key === 'rubric');
    if (!rubric) return [];
    const lines = rubricLevelLines([...(scores as number[])].sort((a, b) => b - a));
    const list = lines.join('\n');
    let edit: TextEditSpec;
    if (rubric.bodyStart >= t.text.length) {
      edit = { start: t.text.length, end: t.text.length, newText: `${t.text.endsWith('\n') ? '\n' : '\n\n'}${list}\n` };
    } else {
      const line = t.index.position(rubric.bodyStart).line;
      const blank = t.index.lineText(line).trim() === '';
      // After the blank line that follows the heading, with a blank line before whatever comes next.
      const at = blank ? (line < t.index.lineCount ? t.index.lineStart(line + 1) : t.text.length) : rubric.bodyStart;
      edit = { start: at, end: at, newText: blank ? `${list}\n\n` : `\n${list}\n\n` };
    }
    return [{ title: `Add one line per score (${lines.length})`, edits: [edit], preferred: true }];
  }
  return [];
}

/** `<response>{{response}}</response>`: on lines of their own when the placeholder has its line to itself. */
function wrapInTags(t: ParsedTemplate, d: Diagnostic): FixSpec[] {
  const field = d.data?.field;
  if (typeof field !== 'string' || !/^\w+$/.test(field)) return [];
  const start = t.index.offset(d.line, d.column);
  const end = t.index.offset(d.endLine, d.endColumn);
  const mustache = t.text.slice(start, end);
  const line = t.index.lineText(d.line);
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const alone = d.line === d.endLine && line.trim() === mustache;
  const newText = alone ? `<${field}>\n${indent}${mustache}\n${indent}</${field}>` : `<${field}>${mustache}</${field}>`;
  return [{ title: `Wrap \`${mustache}\` in <${field}> tags`, edits: [{ start, end, newText }], preferred: true }];
}

const REASON_KEYS = ['justification', 'reasoning', 'explanation', 'rationale', 'analysis'];

/** Rewrites the example's JSON with the reasoning key first, keeping one line or two-space indents. */
function reasoningFirst(t: ParsedTemplate, d: Diagnostic): FixSpec[] {
  const ex = t.examples.find((e) => e.span.line <= d.line && e.span.endLine >= d.line);
  const v = ex?.value;
  if (!ex || typeof v !== 'object' || v === null || Array.isArray(v)) return [];
  const entries = Object.entries(v as Record<string, unknown>);
  const reasons = entries.filter(([k]) => REASON_KEYS.includes(k));
  const reordered = Object.fromEntries([...reasons, ...entries.filter(([k]) => !REASON_KEYS.includes(k))]);
  const multiline = ex.jsonText.trim().includes('\n');
  const json = multiline ? JSON.stringify(reordered, null, 2) : `{${Object.entries(reordered).map(([k, x]) => `${JSON.stringify(k)}: ${JSON.stringify(x)}`).join(', ')}}`;
  const start = t.index.offset(ex.span.line, ex.span.column);
  const end = t.index.offset(ex.span.endLine, ex.span.endColumn);
  return [{ title: 'Put the reasoning before the verdict in this example', edits: [{ start, end, newText: json }], preferred: true }];
}
