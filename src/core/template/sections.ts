// Sections are level-1 headings of the Markdown body, found by markdown-it so that a `# Rubric`
// inside a code fence or an indented code block is not a heading.
import MarkdownIt from 'markdown-it';
import type { LineIndex } from '../text';
import type { ParsedTemplate, Section, SectionKey } from './types';

const ALIASES: Record<string, SectionKey> = {
  criteria: 'criteria',
  rubric: 'rubric',
  'rating rubric': 'rubric',
  'evaluation steps': 'evaluation_steps',
  instructions: 'evaluation_steps',
  examples: 'examples',
  'output format': 'output_format',
  system: 'system',
};

/** Display names in conventional order, used by messages and quick fixes. */
export const SECTION_TITLES: Record<Exclude<SectionKey, 'other'>, string> = {
  system: 'System',
  criteria: 'Criteria',
  rubric: 'Rubric',
  evaluation_steps: 'Evaluation steps',
  examples: 'Examples',
  output_format: 'Output format',
};

export const SECTION_ORDER: Exclude<SectionKey, 'other'>[] = ['system', 'criteria', 'rubric', 'evaluation_steps', 'examples', 'output_format'];

export function sectionKey(title: string): SectionKey {
  return ALIASES[title.trim().replace(/\s+/g, ' ').replace(/:$/, '').toLowerCase()] ?? 'other';
}

export function sectionAliases(): string[] {
  return Object.keys(ALIASES);
}

let parser: MarkdownIt | undefined;
function markdown(): MarkdownIt {
  if (!parser) {
    // Block structure is all we need; inline parsing is most of markdown-it's cost. Its normalize
    // rule rewrites every line break even when there is nothing to change: done below when needed.
    parser = new MarkdownIt('commonmark');
    parser.core.ruler.disable(['normalize', 'inline', 'text_join']);
  }
  return parser;
}

export interface BodyStructure {
  sections: Section[];
  /** 1-based document lines that are inside fenced or indented code. */
  codeLines: Set<number>;
  /** 1-based document line of every heading, with its level. */
  headingLines: Map<number, number>;
}

/** The body's code lines and heading levels: the ones parseTemplate found, else parsed now. */
export function bodyStructure(t: ParsedTemplate): Pick<BodyStructure, 'codeLines' | 'headingLines'> {
  return t.structure ?? parseSections(t.text, t.bodyStart, t.index);
}

export function parseSections(text: string, bodyStart: number, index: LineIndex): BodyStructure {
  const body = text.slice(bodyStart);
  const firstLine = index.position(bodyStart).line;
  // markdown-it's own normalisation (CR and CRLF to LF, NUL to U+FFFD), for the texts it changes.
  const tokens = markdown().parse(/[\r\0]/.test(body) ? body.replace(/\r\n?|\n/g, '\n').replace(/\0/g, '\uFFFD') : body, {});
  const sections: Section[] = [];
  const codeLines = new Set<number>();
  const headingLines = new Map<number, number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t || !t.map) continue;
    const [from, to] = t.map;
    if (t.type === 'fence' || t.type === 'code_block') {
      for (let l = from; l < to; l++) codeLines.add(firstLine + l);
      continue;
    }
    if (t.type !== 'heading_open') continue;
    const level = Number(t.tag.slice(1));
    headingLines.set(firstLine + from, level);
    if (level !== 1) continue;
    const inline = tokens[i + 1];
    const title = (inline?.content ?? '').trim();
    const line = firstLine + from;
    const headingStart = index.lineStart(line);
    // Setext headings span two lines; the body starts after the underline.
    const lastHeadingLine = firstLine + to - 1;
    const isLastLine = lastHeadingLine >= index.lineCount;
    sections.push({
      key: sectionKey(title),
      title,
      heading: index.span(headingStart, index.lineEnd(line)),
      headingStart,
      bodyStart: isLastLine ? text.length : index.lineStart(lastHeadingLine + 1),
      bodyEnd: text.length,
    });
  }
  for (let i = 0; i < sections.length - 1; i++) {
    const cur = sections[i];
    const next = sections[i + 1];
    if (cur && next) cur.bodyEnd = next.headingStart;
  }
  return { sections: withVertexSubsections(sections, headingLines, index), codeLines, headingLines };
}

/** Level-2 headings that stand for sections inside Vertex AI's `# Evaluation` section. */
const VERTEX_SUBSECTIONS: Record<string, SectionKey> = { criteria: 'criteria', 'rating rubric': 'rubric', 'evaluation steps': 'evaluation_steps' };

/**
 * Vertex AI's metric prompt templates put Criteria, Rating Rubric and Evaluation Steps as `##`
 * headings under `# Evaluation`; there they count as the sections, so such a prompt is a
 * structured template as written.
 */
function withVertexSubsections(sections: Section[], headingLines: Map<number, number>, index: LineIndex): Section[] {
  const evaluation = sections.find((s) => s.key === 'other' && s.title.replace(/:$/, '').trim().toLowerCase() === 'evaluation');
  if (!evaluation) return sections;
  const first = index.position(evaluation.bodyStart).line;
  const last = index.position(Math.max(evaluation.bodyStart, evaluation.bodyEnd - 1)).line;
  const subs: Section[] = [];
  for (let line = first; line <= last && evaluation.bodyStart < evaluation.bodyEnd; line++) {
    if (headingLines.get(line) !== 2) continue;
    const title = index.lineText(line).replace(/^##\s+/, '').replace(/\s+#*\s*$/, '').trim();
    const key = VERTEX_SUBSECTIONS[title.replace(/\s+/g, ' ').replace(/:$/, '').toLowerCase()];
    const prev = subs[subs.length - 1];
    const headingStart = index.lineStart(line);
    if (prev && prev.bodyEnd === evaluation.bodyEnd) prev.bodyEnd = headingStart;
    if (!key) continue;
    subs.push({
      key,
      title,
      heading: index.span(headingStart, index.lineEnd(line)),
      headingStart,
      bodyStart: line + 1 > index.lineCount ? evaluation.bodyEnd : Math.min(evaluation.bodyEnd, index.lineStart(line + 1)),
      bodyEnd: evaluation.bodyEnd,
    });
  }
  if (subs.length === 0) return sections;
  return [...sections, ...subs].sort((a, b) => a.headingStart - b.headingStart);
}
