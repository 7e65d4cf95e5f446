// Editor help for multi-criterion templates: completion of `## <criterion>` rubric headings and of
// a criterion's keys, hover on those headings and keys, and the rubric outline grouped by criterion.
import type { ParsedTemplate } from '../../../core/template';
import { criterionRubrics, normalisedWeights } from '../../../core/template/criteria';
import { shorten } from '../../preview/rows';
import type { CompletionEntry } from './completion';
import type { HoverInfo } from './hover';
import { frontMatterRegion } from './structure';
import type { OutlineSymbol } from './symbols';

export const CRITERION_KEYS: Record<string, string> = {
  name: 'The criterion\'s name: lower case letters, digits and `_`. Its rubric is the `## <name>` subsection of `# Rubric`; its score is the column `<metric>/score_<name>`, its human label `<metric>/human_rating/<name>`.',
  description: 'What the criterion measures, in one sentence. The judge sees it next to the criterion in the reply format.',
  weight: 'The criterion\'s share of the overall score, from 0 to 1. Weights that do not sum to 1 are normalised (with a warning).',
};

function rubricSection(t: ParsedTemplate) {
  return t.sections.find((s) => s.key === 'rubric');
}

/** The criterion item the line belongs to, when it is inside `criteria:` of the front matter. */
function inCriteriaBlock(t: ParsedTemplate, line: number): boolean {
  const region = frontMatterRegion(t);
  if (!region || t.index.lineStart(line) < region.start || t.index.lineStart(line) > region.end) return false;
  for (let l = line - 1; l > 1; l--) {
    const m = /^([A-Za-z_]\w*)\s*:/.exec(t.index.lineText(l));
    if (m) return m[1] === 'criteria';
  }
  return false;
}

export function criteriaCompletions(t: ParsedTemplate, offset: number): CompletionEntry[] | undefined {
  const pos = t.index.position(offset);
  const lineStart = t.index.lineStart(pos.line);
  const before = t.text.slice(lineStart, offset);
  const lineEnd = t.index.lineEnd(pos.line);
  const rubric = rubricSection(t);
  const heading = /^##[ \t]+([\w ]*)$/.exec(before);
  if (heading && rubric && offset > rubric.bodyStart && offset <= rubric.bodyEnd) {
    const criteria = t.config?.criteria ?? [];
    const weights = normalisedWeights(criteria);
    const written = new Set(criterionRubrics(t).filter((r) => r.heading.line !== pos.line).map((r) => r.key));
    return criteria
      .map((c, i) => ({ c, w: weights[i] ?? 0 }))
      .filter(({ c }) => !written.has(c.name))
      .map(({ c, w }, i) => ({ label: c.name, kind: 'section', detail: `criterion rubric · weight ${Math.round(w * 1000) / 10}%`, doc: c.description, insertText: c.name, sortText: String(i).padStart(2, '0'), start: offset - (heading[1]?.length ?? 0), end: lineEnd }));
  }
  const key = /^(\s*(?:-\s+)?)([A-Za-z_]\w*)?$/.exec(before);
  if (key && (key[1] ?? '').length > 0 && inCriteriaBlock(t, pos.line)) {
    const typed = key[2] ?? '';
    return Object.entries(CRITERION_KEYS).map(([k, doc], i) => ({ label: k, kind: 'key', detail: 'criterion key', doc, insertText: `${k}: `, sortText: String(i), start: offset - typed.length, end: offset + (/^\w*/.exec(t.text.slice(offset, lineEnd))?.[0].length ?? 0) }));
  }
  return undefined;
}

export function criteriaHover(t: ParsedTemplate, offset: number): HoverInfo | undefined {
  const line = t.index.position(offset).line;
  const r = criterionRubrics(t).find((x) => x.heading.line === line);
  const criteria = t.config?.criteria ?? [];
  if (r) {
    const i = criteria.findIndex((c) => c.name === r.key);
    const c = criteria[i];
    const start = t.index.offset(r.span.line, r.span.column);
    const end = t.index.offset(r.span.endLine, r.span.endColumn);
    if (!c) return { start, end, parts: [{ md: `**Rubric subsection** \`${r.key.replace(/`/g, '')}\` names no declared criterion.` }] };
    const w = normalisedWeights(criteria)[i] ?? 0;
    return { start, end, parts: [{ md: `**Criterion** \`${c.name}\` · weight ${c.weight} (${Math.round(w * 1000) / 10}% of the overall score)` }, { text: c.description }, { md: `Rubric: ${r.points.length} score line(s). Column \`${t.config?.name ?? 'metric'}/score_${c.name}\`.` }] };
  }
  const m = /^(\s*(?:-\s+)?)([A-Za-z_]\w*)\s*:/.exec(t.index.lineText(line));
  if (m?.[2] && CRITERION_KEYS[m[2]] && (m[1] ?? '').length > 0 && inCriteriaBlock(t, line)) {
    const start = t.index.lineStart(line) + (m[1] ?? '').length;
    if (offset >= start && offset <= start + m[2].length) return { start, end: start + m[2].length, parts: [{ md: `**criteria.${m[2]}**` }, { md: CRITERION_KEYS[m[2]]! }] };
  }
  return undefined;
}

/** The rubric's outline children, one symbol per criterion subsection with its score lines. */
export function criteriaOutline(t: ParsedTemplate, points: (lines: number[]) => OutlineSymbol[]): OutlineSymbol[] | undefined {
  const rubrics = criterionRubrics(t);
  if (!t.config?.criteria || rubrics.length === 0) return undefined;
  const weights = normalisedWeights(t.config.criteria);
  return rubrics.map((r) => {
    const i = t.config!.criteria!.findIndex((c) => c.name === r.key);
    const last = r.points.length ? Math.max(...r.points.map((p) => p.lineSpan.line)) : r.heading.line;
    return {
      name: r.title,
      detail: i >= 0 ? `weight ${Math.round((weights[i] ?? 0) * 1000) / 10}%` : shorten('not a declared criterion', 40),
      kind: 'heading',
      firstLine: r.heading.line,
      lastLine: last,
      selectionLine: r.heading.line,
      children: points(r.points.map((p) => p.lineSpan.line)),
    };
  });
}
