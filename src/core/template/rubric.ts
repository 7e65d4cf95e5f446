// Rubric points ("- 5: …", "- 5 (Excellent): …", "- 7 Great: …", "- 9-10: …") and few-shot
// examples (```json fences in the Examples section) read from their sections' lines.
import type { LineIndex } from '../text';
import type { FewShotExample, RubricPoint, Section } from './types';

const POINT =
  /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:score\s+)?(-?\d+)(?:\s*(?:-|–|—|to)\s*(-?\d+))?(?:\*\*|__)?(?:\s*\(([^)]*)\))?(?:\s*[:–—-]|\s+([A-Z][\w' ]{0,30}?)\s*[:–—-])\s*(.*)$/i;

export function parseRubric(section: Section | undefined, index: LineIndex, codeLines: Set<number>): RubricPoint[] {
  if (!section) return [];
  const points: RubricPoint[] = [];
  const first = index.position(section.bodyStart).line;
  const last = index.position(Math.max(section.bodyStart, section.bodyEnd - 1)).line;
  if (section.bodyStart >= section.bodyEnd) return [];
  for (let line = first; line <= last; line++) {
    if (codeLines.has(line)) continue;
    const text = index.lineText(line);
    const m = POINT.exec(text);
    if (!m || !m[1]) continue;
    const lineStart = index.lineStart(line);
    const numberAt = lineStart + text.indexOf(m[1]);
    const from = Number(m[1]);
    const to = m[2] !== undefined ? Number(m[2]) : from;
    const label = (m[3] ?? m[4])?.trim() || undefined;
    const description = (m[5] ?? '').trim();
    const numberEnd = m[2] !== undefined ? lineStart + text.indexOf(m[2], text.indexOf(m[1]) + m[1].length) + m[2].length : numberAt + m[1].length;
    const lo = Math.min(from, to);
    const hi = Math.max(from, to);
    // A range like "9-10" stands for each score in it; ranges wider than 20 are prose, not points.
    if (hi - lo > 20) continue;
    for (let score = lo; score <= hi; score++) {
      points.push({
        score,
        ...(label !== undefined && { label }),
        description,
        span: index.span(numberAt, numberEnd),
        lineSpan: index.span(lineStart, index.lineEnd(line)),
      });
    }
  }
  return points;
}

const FENCE_OPEN = /^\s{0,3}(`{3,}|~{3,})\s*([\w-]*)/;

export function parseExamples(section: Section | undefined, index: LineIndex, text: string): FewShotExample[] {
  if (!section || section.bodyStart >= section.bodyEnd) return [];
  const examples: FewShotExample[] = [];
  const first = index.position(section.bodyStart).line;
  const last = index.position(section.bodyEnd - 1).line;
  for (let line = first; line <= last; line++) {
    const open = FENCE_OPEN.exec(index.lineText(line));
    if (!open || !open[1]) continue;
    const fence = open[1];
    const lang = (open[2] ?? '').toLowerCase();
    let close = line + 1;
    while (close <= last && !index.lineText(close).trim().startsWith(fence)) close++;
    const contentStart = index.lineStart(line + 1);
    const contentEnd = close <= last ? index.lineStart(close) : section.bodyEnd;
    const jsonText = text.slice(contentStart, contentEnd);
    line = close;
    // Only JSON fences (or untagged fences that look like an object) are expected outputs.
    if (lang !== 'json' && !(lang === '' && jsonText.trimStart().startsWith('{'))) continue;
    // The span ends before the last line break (both characters of a CRLF).
    let spanEnd = contentEnd;
    if (text.charCodeAt(spanEnd - 1) === 10) spanEnd--;
    if (text.charCodeAt(spanEnd - 1) === 13) spanEnd--;
    const example: FewShotExample = { span: index.span(contentStart, Math.max(contentStart, spanEnd)), jsonText };
    try {
      example.value = JSON.parse(jsonText);
    } catch (e) {
      example.jsonError = (e as Error).message;
    }
    examples.push(example);
  }
  return examples;
}
