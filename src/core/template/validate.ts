// validateTemplate: every design.md diagnostic code, each at the text it is about.
import { compareDiagnostics, type Diagnostic } from '../diagnostics';
import { replySchema } from '../judge/strategies/replySchema';
import { parseTemplate } from './parse';
import { knownFields, pairStyle, usedFields } from './fields';
import { bodyStructure, SECTION_TITLES } from './sections';
import { lintTemplate } from './lints';
import { checkVerdict } from './verdictChecks';
import { closest } from './suggest';
import { checkCriteria } from './criteria';
import type { ParsedTemplate, Section, SectionKey, TemplateConfig } from './types';
import { isMap, isSeq, parseDocument, type Node } from 'yaml';

const REQUIRED: Record<'pointwise' | 'pairwise', Exclude<SectionKey, 'other'>[]> = {
  pointwise: ['criteria', 'rubric', 'evaluation_steps'],
  pairwise: ['criteria', 'rubric', 'evaluation_steps'],
};

const ALIAS_HINT: Partial<Record<SectionKey, string>> = { rubric: ' (or `# Rating rubric`)', evaluation_steps: ' (or `# Instructions`)' };

export function validateTemplate(input: string | ParsedTemplate): Diagnostic[] {
  const t = typeof input === 'string' ? parseTemplate(input) : input;
  const out: Diagnostic[] = [...t.diagnostics];
  try {
    checkSections(t, out);
    if (t.config) {
      checkPlaceholders(t, t.config, out);
      // A multi-criterion template has a rubric per criterion; criteria.ts checks those and their examples.
      if (t.config.criteria) checkCriteria(t, t.config, out);
      else checkRubric(t, t.config, out);
      checkExamples(t, t.config, out);
      if (t.config.dimensions) checkDimensions(t, t.config, out);
      lintTemplate(t, t.config, out);
      checkVerdict(t, t.config, out, bodyAnchor(t));
    }
  } catch (e) {
    out.push({ line: 1, column: 1, endLine: 1, endColumn: 1, severity: 'error', code: 'front-matter-invalid', message: `Judge Studio could not finish validating this template (${(e as Error).message}); please report this with the file.` });
  }
  return out.sort(compareDiagnostics);
}

export function hasErrors(diagnostics: Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

function bodyAnchor(t: ParsedTemplate) {
  // Whole-template findings sit on the first line after the front matter.
  const line = t.index.position(t.bodyStart).line;
  return t.index.span(t.index.lineStart(line), t.index.lineEnd(line));
}

function checkSections(t: ParsedTemplate, out: Diagnostic[]) {
  const seen = new Map<SectionKey, Section>();
  for (const s of t.sections) {
    if (s.key === 'other') continue;
    const first = seen.get(s.key);
    if (first) {
      out.push({ ...s.heading, severity: 'error', code: 'duplicate-section', message: `A second \`# ${s.title}\` section (the first is on line ${first.heading.line}); merge them into one.` });
      continue;
    }
    seen.set(s.key, s);
    if (isBlank(t.text.slice(s.bodyStart, s.bodyEnd))) {
      out.push({ ...s.heading, severity: 'warning', code: 'empty-section', message: `\`# ${s.title}\` has no content; write it or delete the heading.` });
    }
  }
  if (!t.config) return;
  const system = seen.get('system');
  if (t.config.system !== undefined && system) {
    out.push({ ...system.heading, severity: 'error', code: 'duplicate-section', message: 'The system message is given twice: by `system:` in the front matter and by this section; keep one.' });
  }
  if (t.config.freeform) return; // a free-form body is the prompt as written: no section is required
  for (const key of REQUIRED[t.config.kind]) {
    if (seen.has(key)) continue;
    const title = SECTION_TITLES[key];
    out.push({ ...bodyAnchor(t), severity: 'error', code: 'missing-section', message: `A ${t.config.kind} template needs a \`# ${title}\` section${ALIAS_HINT[key] ?? ''} as a level-1 heading outside code fences; add it.`, data: { section: key, title } });
  }
}

/** Only whitespace and Handlebars comments. A linear scan: a lazy regex is quadratic on many unclosed `{{!--`. */
function isBlank(s: string): boolean {
  let i = 0;
  for (;;) {
    const open = s.indexOf('{{!', i);
    if (s.slice(i, open < 0 ? s.length : open).trim() !== '') return false;
    if (open < 0) return true;
    const long = s.startsWith('{{!--', open);
    const close = long ? s.indexOf('--}}', open + 5) : s.indexOf('}}', open + 3);
    if (close < 0) return false;
    i = close + (long ? 4 : 2);
  }
}

function checkPlaceholders(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]) {
  if (!t.handlebarsOk) return;
  const known = knownFields(config);
  const used = usedFields(t);
  // One edit-distance search per distinct name: a large template may repeat one typo thousands of times.
  const guesses = new Map<string, string | undefined>();
  for (const p of t.placeholders) {
    if (p.inBlock || !p.head || known.includes(p.head)) continue;
    if (!guesses.has(p.head)) guesses.set(p.head, closest(p.head, known));
    const guess = guesses.get(p.head);
    const declare = config.inputs ? 'add it to `inputs`' : 'declare it under `inputs:` in the front matter';
    out.push({ ...p.span, severity: 'error', code: 'unknown-placeholder', message: `Unknown placeholder \`${p.head}\`${guess ? `; did you mean \`${guess}\`?` : ''} If it is a dataset field, ${declare}.`, ...(guess && { data: { suggestion: guess, name: p.head } }) });
  }
  const anchor = bodyAnchor(t);
  const require = (field: string, why: string) => {
    if (!used.has(field)) out.push({ ...anchor, severity: 'error', code: 'missing-placeholder', message: `${why}: add \`{{${field}}}\` where the judge should see it.`, data: { placeholder: field } });
  };
  if (config.pair) {
    for (const field of [...config.pair.a, ...config.pair.b]) require(field, `\`pair\` swaps \`${field}\`, but the judge never sees it`);
  } else if (config.kind === 'pointwise') {
    if (!config.freeform) require('response', 'The judge never sees the response being rated');
  } else if (pairStyle(t) === 'vertex') {
    require('response', 'With `{{baseline_model_response}}` (slot A) the candidate `{{response}}` (slot B) is needed');
  } else {
    require('response_a', 'A pairwise judge must see both responses');
    require('response_b', 'A pairwise judge must see both responses');
  }
  if (!used.has('prompt') && !config.freeform) {
    out.push({ ...anchor, severity: 'warning', code: 'missing-placeholder', message: 'The judge never sees the prompt the response answers; add `{{prompt}}` unless the criteria need no context.', data: { placeholder: 'prompt' } });
  }
  for (const input of config.inputs ?? []) {
    if (used.has(input)) continue;
    out.push({ ...inputSpan(t, input), severity: 'warning', code: 'unused-input', message: `Input \`${input}\` is declared but no placeholder uses it; use \`{{${input}}}\` or remove it from \`inputs\`.`, data: { name: input } });
  }
}

/** The YAML position of an `inputs:` item. */
function inputSpan(t: ParsedTemplate, input: string) {
  const fm = t.frontMatter;
  if (fm) {
    const doc = parseDocument(t.text.slice(fm.start, fm.end));
    const seq = doc.get('inputs', true) as Node | undefined;
    if (isSeq(seq)) {
      for (const item of seq.items as Node[]) {
        if (item && 'value' in item && (item as { value: unknown }).value === input && item.range) return t.index.span(fm.start + item.range[0], fm.start + item.range[1]);
      }
    } else if (isMap(seq) && seq.range) return t.index.span(fm.start + seq.range[0], fm.start + seq.range[1]);
  }
  return t.index.span(0, 3);
}

function checkRubric(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]) {
  // A continuous `range` has no score points to describe one by one.
  const range = config.kind === 'pointwise' ? (config.scale?.continuous ? undefined : config.scale) : config.ranking;
  const section = t.sections.find((s) => s.key === 'rubric');
  if (!range || !section) return;
  const gapCode = config.kind === 'pointwise' ? 'rubric-gap' : 'ranking-level-missing';
  const what = config.kind === 'pointwise' ? 'scale' : 'ranking';
  const seen = new Map<number, number>();
  for (const p of t.rubric) {
    if (p.score < range.min || p.score > range.max) {
      out.push({ ...p.span, severity: 'error', code: 'rubric-out-of-scale', message: `Score ${p.score} is outside the ${what} ${range.min}–${range.max}; fix the number or the \`${what}\` in the front matter.` });
      continue;
    }
    const prev = seen.get(p.score);
    if (prev !== undefined) {
      out.push({ ...p.span, severity: 'error', code: 'rubric-duplicate', message: `Score ${p.score} is described twice (also on line ${prev}); keep one description per score.` });
    } else seen.set(p.score, p.span.line);
  }
  const inScale = t.rubric.filter((p) => p.score >= range.min && p.score <= range.max);
  if (!inScale.length) {
    out.push({ ...section.heading, severity: 'error', code: gapCode, message: `The rubric describes no score points; add one line per score from ${range.min} to ${range.max}, e.g. \`- ${range.max}: …\`.`, data: { scores: seq(range.min, range.max) } });
    return;
  }
  const ascending = (inScale[0]?.score ?? 0) <= (inScale[inScale.length - 1]?.score ?? 0);
  for (const score of seq(range.min, range.max)) {
    if (seen.has(score)) continue;
    // Point at the line before which the missing score belongs, in the rubric's own order.
    const next = inScale.find((p) => (ascending ? p.score > score : p.score < score));
    const anchor = next ?? inScale[inScale.length - 1];
    if (!anchor) continue;
    out.push({
      ...anchor.lineSpan,
      severity: 'error',
      code: gapCode,
      message: `The rubric skips score ${score} of the ${what} ${range.min}–${range.max}; describe it ${next ? 'above this line' : 'below this line'}.`,
      data: { score, insert: next ? 'before' : 'after', line: anchor.lineSpan.line },
    });
  }
}

function seq(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

function checkExamples(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]) {
  const schema = replySchema(config);
  for (const ex of t.examples) {
    if (ex.jsonError !== undefined) {
      out.push({ ...jsonErrorSpan(t, ex), severity: 'error', code: 'example-invalid-json', message: `The expected output is not valid JSON (${ex.jsonError}); fix it so the judge sees a reply it could give.` });
      continue;
    }
    const v = ex.value as Record<string, unknown> | undefined;
    if (config.dimensions || typeof v !== 'object' || v === null) continue;
    // Missing criteria and out-of-scale criterion scores are reported by checkCriteria, once.
    if (config.criteria && !criteriaComplete(v, config)) continue;
    if (config.kind === 'pointwise' && config.scale && 'score' in v) {
      const s = v.score;
      const { min, max, continuous } = config.scale;
      if (typeof s !== 'number' || !(continuous ? Number.isFinite(s) : Number.isInteger(s)) || s < min || s > max) {
        out.push({ ...ex.span, severity: 'error', code: 'example-out-of-scale', message: `The example's score ${JSON.stringify(s)} is not ${continuous ? 'a number' : 'an integer'} from ${min} to ${max}; the judge would copy an invalid reply.` });
        continue;
      }
    }
    if (config.labels && 'label' in v && !config.labels.includes(String(v.label))) {
      out.push({ ...ex.span, severity: 'error', code: 'example-label-unknown', message: `The example's label ${JSON.stringify(v.label)} is not one of the labels (${config.labels.map((l) => JSON.stringify(l)).join(', ')}); the judge would copy an invalid reply.` });
      continue;
    }
    if (config.kind === 'pairwise' && 'winner' in v && !['A', 'B', 'TIE'].includes(String(v.winner))) {
      out.push({ ...ex.span, severity: 'error', code: 'example-out-of-scale', message: `The example's winner ${JSON.stringify(v.winner)} must be "A", "B" or "TIE".` });
      continue;
    }
    const r = schema.safeParse(v);
    if (!r.success) {
      const issue = r.error.issues[0];
      out.push({ ...ex.span, severity: 'warning', code: 'example-invalid-json', message: `The example does not match the reply format (${issue?.path.join('.') || 'reply'}: ${issue?.message}); the judge imitates examples, so make it a valid reply.` });
    }
  }
}

function criteriaComplete(v: Record<string, unknown>, config: TemplateConfig): boolean {
  const given = v.criteria;
  if (typeof given !== 'object' || given === null) return false;
  const { min, max } = config.scale ?? { min: 1, max: 5 };
  return (config.criteria ?? []).every((c) => {
    const score = ((given as Record<string, unknown>)[c.name] as Record<string, unknown> | undefined)?.score;
    return typeof score === 'number' && Number.isInteger(score) && score >= min && score <= max;
  });
}

function jsonErrorSpan(t: ParsedTemplate, ex: ParsedTemplate['examples'][number]) {
  const m = /position (\d+)/.exec(ex.jsonError ?? '');
  if (!m) return ex.span;
  const start = t.index.offset(ex.span.line, 1) + Number(m[1]);
  // One character, but never past the end of its line (the bad character may be the \r of a CRLF).
  const end = Math.min(start + 1, t.index.lineEnd(t.index.position(start).line));
  return t.index.span(start, end);
}

function checkDimensions(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]) {
  // In a multi-dimension template, level-2 headings of the Criteria section name dimensions.
  const criteria = t.sections.find((s) => s.key === 'criteria');
  if (!criteria) return;
  // markdown-it's view of the body, so a `## x` line inside a code fence is not a heading.
  const { headingLines } = bodyStructure(t);
  const names = (config.dimensions ?? []).map((d) => d.name);
  const first = t.index.position(criteria.bodyStart).line;
  const last = t.index.position(Math.max(criteria.bodyStart, criteria.bodyEnd - 1)).line;
  for (let line = first; line <= last && criteria.bodyStart < criteria.bodyEnd; line++) {
    if (headingLines.get(line) !== 2) continue;
    const text = t.index.lineText(line);
    const heading = dimensionHeading(text);
    if (!heading) continue;
    const name = heading.text.toLowerCase().replace(/\s+/g, '_');
    if (names.includes(name)) continue;
    const guess = closest(name, names);
    const col = heading.offset + 1;
    out.push({ line, column: col, endLine: line, endColumn: col + heading.text.length, severity: 'error', code: 'unknown-dimension', message: `\`${heading.text}\` is not a declared dimension${guess ? `; did you mean \`${guess}\`?` : ''} Declared: ${names.join(', ')}. Add it to \`dimensions\` or rename the heading.` });
  }
}

const BLANK = ' \t';

/**
 * The name in an ATX `## 1. Harmless (safety):` heading ("Harmless") and its offset in the line;
 * undefined when the heading is more than a name. String scans, not one regex: nested `\s*` backtrack badly.
 */
export function dimensionHeading(line: string): { text: string; offset: number } | undefined {
  if (!/^##[ \t]/.test(line)) return undefined;
  let end = line.length;
  const skipBack = (chars: string) => {
    while (end > 2 && chars.includes(line.charAt(end - 1))) end--;
  };
  skipBack(BLANK);
  // A closing run of #s counts only after a blank ("## C#" is about C#).
  const beforeHashes = end;
  skipBack('#');
  if (end < beforeHashes && end > 2 && !BLANK.includes(line.charAt(end - 1))) end = beforeHashes;
  skipBack(BLANK);
  if (line.charAt(end - 1) === ':') end--;
  skipBack(BLANK);
  let start = 2;
  while (start < end && BLANK.includes(line.charAt(start))) start++;
  const numbered = /^\d+[.)]/.exec(line.slice(start, Math.min(end, start + 12)));
  if (numbered) {
    start += numbered[0].length;
    while (start < end && BLANK.includes(line.charAt(start))) start++;
  }
  if (line.charAt(end - 1) === ')') {
    const paren = line.indexOf('(', start);
    if (paren > start) {
      end = paren;
      skipBack(BLANK);
    }
  }
  const text = line.slice(start, end);
  if (!text || /[#(:]/.test(text)) return undefined;
  return { text, offset: start };
}
