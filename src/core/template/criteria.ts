// Multi-criterion pointwise templates (direct scoring with weights): the front matter declares
// `criteria: [{name, description, weight}]` and `# Rubric` holds one `## <criterion>` subsection
// per criterion, each describing every score of the scale.
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { Diagnostic, Span } from '../diagnostics';
import { bodyStructure } from './sections';
import { closest } from './suggest';
import type { Criterion, ParsedTemplate, RubricPoint, TemplateConfig } from './types';

/** Names a criterion may not take: `score_<name>` would clash with `score_rounded`, `score_mean`, `score_sd`. */
export const RESERVED_CRITERION_NAMES: readonly string[] = ['rounded', 'mean', 'sd'];

export interface CriterionRubric {
  /** The heading's name as written ("Factual accuracy"). */
  title: string;
  /** The name it stands for: lower case, blanks as `_` ("factual_accuracy"). */
  key: string;
  /** Span of the name inside the `##` heading. */
  span: Span;
  /** Span of the whole heading line. */
  heading: Span;
  /** 0-based offsets of the subsection's body (up to the next `##` or the end of `# Rubric`). */
  bodyStart: number;
  bodyEnd: number;
  points: RubricPoint[];
}

/** "Factual accuracy" → "factual_accuracy": how a heading names a criterion. */
export function criterionKey(title: string): string {
  return title.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** Weights scaled to sum to 1; equal shares when they sum to 0 (validation reports that as an error). */
export function normalisedWeights(criteria: readonly Criterion[]): number[] {
  const total = criteria.reduce((a, c) => a + c.weight, 0);
  return criteria.map((c) => (total > 0 ? c.weight / total : 1 / criteria.length));
}

const HEADING = /^##[ \t]+(.*?)[ \t]*(?:#+[ \t]*)?$/;

/** The `##` subsections of `# Rubric`, each with the rubric points written under it. */
export function criterionRubrics(t: ParsedTemplate): CriterionRubric[] {
  const rubric = t.sections.find((s) => s.key === 'rubric');
  if (!rubric || rubric.bodyStart >= rubric.bodyEnd) return [];
  const { headingLines } = bodyStructure(t);
  const first = t.index.position(rubric.bodyStart).line;
  const last = t.index.position(rubric.bodyEnd - 1).line;
  const out: CriterionRubric[] = [];
  for (let line = first; line <= last; line++) {
    if (headingLines.get(line) !== 2) continue;
    const text = t.index.lineText(line);
    const m = HEADING.exec(text);
    const title = (m?.[1] ?? '').replace(/:$/, '').trim();
    if (!title) continue;
    const at = t.index.lineStart(line) + text.indexOf(title, 2);
    const prev = out[out.length - 1];
    if (prev) prev.bodyEnd = t.index.lineStart(line);
    out.push({
      title,
      key: criterionKey(title),
      span: t.index.span(at, at + title.length),
      heading: t.index.span(t.index.lineStart(line), t.index.lineEnd(line)),
      bodyStart: line < t.index.lineCount ? t.index.lineStart(line + 1) : t.text.length,
      bodyEnd: rubric.bodyEnd,
      points: [],
    });
  }
  for (const p of t.rubric) {
    const owner = [...out].reverse().find((r) => r.heading.line < p.lineSpan.line);
    owner?.points.push(p);
  }
  return out;
}

/** The rubric subsection of each declared criterion (undefined when it has none). */
export function rubricFor(t: ParsedTemplate, name: string): CriterionRubric | undefined {
  return criterionRubrics(t).find((r) => r.key === name);
}

/** Every criterion diagnostic: rubric per criterion, weights, coverage of the scale, examples. */
export function checkCriteria(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]): void {
  const criteria = config.criteria;
  if (!criteria || !config.scale) return;
  const { min, max } = config.scale;
  const names = criteria.map((c) => c.name);
  const rubrics = criterionRubrics(t);
  const rubricSection = t.sections.find((s) => s.key === 'rubric');
  criteria.forEach((c, i) => {
    if (c.weight < 0 || c.weight > 1) {
      out.push({ ...yamlSpan(t, ['criteria', i, 'weight']), severity: 'error', code: 'criterion-weight-range', message: `The weight of "${c.name}" is ${c.weight}; a weight is a share of the overall score from 0 to 1.` });
    }
    if (rubricSection && !rubrics.some((r) => r.key === c.name)) {
      out.push({ ...yamlSpan(t, ['criteria', i, 'name']), severity: 'error', code: 'criterion-rubric-missing', message: `Criterion "${c.name}" has no rubric; add a \`## ${c.name}\` subsection under \`# Rubric\` with one line per score from ${min} to ${max}.`, data: { criterion: c.name } });
    }
  });
  const total = criteria.reduce((a, c) => a + c.weight, 0);
  if (Math.abs(total - 1) > 1e-9) {
    const zero = total <= 0;
    out.push({
      ...yamlKeySpan(t, 'criteria'),
      severity: zero ? 'error' : 'warning',
      code: 'criterion-weights-sum',
      message: zero
        ? 'The criteria weights sum to 0, so there is no overall score to weigh; give at least one criterion a weight above 0.'
        : `The criteria weights sum to ${round(total)}, not 1; they are normalised (each divided by ${round(total)}) for the overall score. Write the shares you mean so readers see them.`,
      data: { sum: total },
    });
  }
  const seen = new Map<string, CriterionRubric>();
  for (const r of rubrics) {
    if (!names.includes(r.key)) {
      const guess = closest(r.key, names);
      out.push({ ...r.span, severity: 'error', code: 'unknown-criterion', message: `\`${r.title}\` is not a declared criterion${guess ? `; did you mean \`${guess}\`?` : ''} Declared: ${names.join(', ')}. Add it to \`criteria\` or rename the heading.` });
      continue;
    }
    const first = seen.get(r.key);
    if (first) {
      out.push({ ...r.heading, severity: 'error', code: 'duplicate-section', message: `A second rubric for "${r.key}" (the first is on line ${first.heading.line}); merge them into one.` });
      continue;
    }
    seen.set(r.key, r);
    checkCoverage(r, min, max, out);
  }
  checkExampleCriteria(t, criteria, min, max, out);
}

function checkCoverage(r: CriterionRubric, min: number, max: number, out: Diagnostic[]): void {
  const seen = new Map<number, number>();
  for (const p of r.points) {
    if (p.score < min || p.score > max) {
      out.push({ ...p.span, severity: 'error', code: 'rubric-out-of-scale', message: `Score ${p.score} is outside the scale ${min}–${max}; fix the number or the \`scale\` in the front matter.` });
      continue;
    }
    const prev = seen.get(p.score);
    if (prev !== undefined) out.push({ ...p.span, severity: 'error', code: 'rubric-duplicate', message: `Score ${p.score} of "${r.key}" is described twice (also on line ${prev}); keep one description per score.` });
    else seen.set(p.score, p.span.line);
  }
  const missing: number[] = [];
  for (let s = min; s <= max; s++) if (!seen.has(s)) missing.push(s);
  if (missing.length === 0) return;
  const what = missing.length === 1 ? `score ${missing[0]}` : `scores ${missing.join(', ')}`;
  out.push({ ...r.span, severity: 'error', code: 'criterion-rubric-gap', message: `The rubric of "${r.key}" does not describe ${what} of the scale ${min}–${max}; add a line for each (e.g. \`- ${missing[0]}: …\`).`, data: { criterion: r.key, scores: missing } });
}

function checkExampleCriteria(t: ParsedTemplate, criteria: readonly Criterion[], min: number, max: number, out: Diagnostic[]): void {
  for (const ex of t.examples) {
    const v = ex.value;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const given = (v as Record<string, unknown>).criteria;
    const obj = typeof given === 'object' && given !== null && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
    const missing = criteria.filter((c) => !Object.hasOwn(obj, c.name)).map((c) => c.name);
    if (missing.length > 0) {
      out.push({ ...ex.span, severity: 'error', code: 'example-criterion-missing', message: `This example reply has no entry for ${missing.map((m) => `"${m}"`).join(', ')} under "criteria"; the judge copies examples, and a reply without every criterion is rejected.`, data: { missing } });
      continue;
    }
    for (const c of criteria) {
      const score = (obj[c.name] as Record<string, unknown> | null)?.score;
      if (typeof score !== 'number' || !Number.isInteger(score) || score < min || score > max) {
        out.push({ ...ex.span, severity: 'error', code: 'example-out-of-scale', message: `The example's score for "${c.name}" is ${JSON.stringify(score)}, not an integer from ${min} to ${max}; the judge would copy an invalid reply.` });
        break;
      }
    }
  }
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** The YAML value at `path` in the front matter, else its key, else the `---` line. */
function yamlSpan(t: ParsedTemplate, path: (string | number)[]): Span {
  const fm = t.frontMatter;
  if (fm) {
    const doc = parseDocument(t.text.slice(fm.start, fm.end));
    const node = doc.getIn(path, true) as Node | undefined;
    if (node && (isScalar(node) || isMap(node) || isSeq(node)) && node.range) return t.index.span(fm.start + node.range[0], fm.start + node.range[1]);
  }
  return t.index.span(0, 3);
}

/** The `criteria:` key itself. */
function yamlKeySpan(t: ParsedTemplate, key: string): Span {
  const fm = t.frontMatter;
  if (fm) {
    const doc = parseDocument(t.text.slice(fm.start, fm.end));
    if (isMap(doc.contents)) {
      const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (pair && isScalar(pair.key) && pair.key.range) return t.index.span(fm.start + pair.key.range[0], fm.start + pair.key.range[1]);
    }
  }
  return t.index.span(0, 3);
}
