// parseTemplate: one pass over a `.judge` file into the structure every feature uses. Never throws.
import type { Diagnostic } from '../diagnostics';
import { LineIndex } from '../text';
import { parseFrontMatter } from './frontMatter';
import { scanBody } from './placeholders';
import { parseExamples, parseRubric } from './rubric';
import { parseSections } from './sections';
import type { ParsedTemplate } from './types';

export function parseTemplate(text: string): ParsedTemplate {
  const index = new LineIndex(text);
  try {
    const fm = parseFrontMatter(text, index);
    const body = parseSections(text, fm.bodyStart, index);
    const hb = scanBody(text, fm.bodyStart, body.sections, index);
    const rubric = body.sections.find((s) => s.key === 'rubric');
    const examples = body.sections.find((s) => s.key === 'examples');
    const diagnostics: Diagnostic[] = [...fm.diagnostics, ...hb.diagnostics];
    for (const h of hb.unknownHelpers) {
      diagnostics.push({
        ...index.span(h.start, h.end),
        severity: 'error',
        code: 'handlebars-syntax',
        message: `\`${h.name}\` is not a Handlebars helper (available: if, unless, each, with, lookup); to print a field write \`{{${h.name}}}\` alone.`,
      });
    }
    return {
      text,
      index,
      frontMatter: fm.frontMatter,
      config: fm.config,
      bodyStart: fm.bodyStart,
      sections: body.sections,
      placeholders: hb.placeholders,
      handlebarsOk: hb.ok,
      rubric: parseRubric(rubric, index, body.codeLines),
      examples: parseExamples(examples, index, text),
      diagnostics,
      structure: { codeLines: body.codeLines, headingLines: body.headingLines },
    };
  } catch (e) {
    // A bug here must not take the editor down: report it as a diagnostic on line 1.
    return {
      text,
      index,
      frontMatter: null,
      config: null,
      bodyStart: 0,
      sections: [],
      placeholders: [],
      handlebarsOk: false,
      rubric: [],
      examples: [],
      diagnostics: [
        {
          line: 1,
          column: 1,
          endLine: 1,
          endColumn: 1,
          severity: 'error',
          code: 'front-matter-invalid',
          message: `Judge Studio could not read this template (${(e as Error).message}); please report this with the file.`,
        },
      ],
    };
  }
}
