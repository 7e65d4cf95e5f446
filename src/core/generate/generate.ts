// Generate a rubric or evaluation steps for a template: one request through askJson (structured
// output, one repair request, the cache), and a final check
// that the new template's rubric covers the scale. Failures are values.
import type { z } from 'zod';
import type { JudgeErrorKind } from '../judge/transport/types';
import { validateTemplate } from '../template/validate';
import type { ParsedTemplate } from '../template/types';
import { askJson, type AskDeps } from './ask';
import { applyGenerated, rubricMarkdown, stepsMarkdown, today, type Provenance } from './apply';
import { generateInput, repairInstruction, rubricMessages, stepsMessages, type GenerateKind, type GenerateOptions } from './prompt';
import { rubricJsonSchema, rubricSchema, stepsJsonSchema, stepsSchema } from './schema';

export interface GenerateDeps extends AskDeps {
  now?: () => Date;
}

export type GenerateErrorCode = 'template-invalid' | 'no-criteria' | 'no-scale' | 'request-failed' | 'invalid-reply' | 'result-invalid';

export type GenerateOutcome =
  | {
      ok: true;
      /** The whole template with the new section and the provenance. */
      text: string;
      /** The new section body alone. */
      markdown: string;
      provenance: Provenance;
      cached: boolean;
      repaired: boolean;
    }
  | { ok: false; code: GenerateErrorCode; message: string; kind?: JudgeErrorKind; replies?: string[] };

/** The codes that make a generated rubric unusable: it must cover the scale with a description per level. */
const RUBRIC_CODES = new Set(['rubric-gap', 'rubric-duplicate', 'rubric-out-of-scale', 'ranking-level-missing', 'empty-rubric-level']);

export async function generateSection(t: ParsedTemplate, what: GenerateKind, options: GenerateOptions, deps: GenerateDeps): Promise<GenerateOutcome> {
  const input = generateInput(t, what);
  if (!input.ok) return input;
  const messages = what === 'rubric' ? rubricMessages(input, options) : stepsMessages(input, options);
  const schema = (what === 'rubric' ? rubricSchema(input.scale ?? { min: 1, max: 5 }) : stepsSchema) as z.ZodType<Record<string, unknown>>;
  const jsonSchema = what === 'rubric' ? rubricJsonSchema(input.scale ?? { min: 1, max: 5 }) : stepsJsonSchema();
  const asked = await askJson(
    { messages, schema, jsonSchema, schemaName: `judge_studio_${what}`, repairInstruction: repairInstruction(what, input.scale), what, cacheTag: '#generate' },
    deps,
  );
  if (!asked.ok) return { ok: false, code: asked.code, message: asked.message, ...(asked.kind && { kind: asked.kind }), replies: asked.replies };
  const reply = asked;

  const markdown = what === 'rubric' ? rubricMarkdown(reply.value as never) : stepsMarkdown(reply.value as never);
  const provenance: Provenance = {
    model: reply.model,
    date: today((deps.now ?? (() => new Date()))()),
    ...(options.domain && { domain: options.domain }),
    strictness: options.strictness,
  };
  const text = applyGenerated(t, what, markdown, provenance);
  // The last guard: the template as it will be written must have a complete rubric and valid front matter.
  const problems = validateTemplate(text).filter((d) => (what === 'rubric' && RUBRIC_CODES.has(d.code)) || d.code === 'front-matter-invalid');
  if (problems.length) {
    return { ok: false, code: 'result-invalid', message: `The generated ${what} does not fit the template: ${problems.map((d) => `line ${d.line}: ${d.message}`).join('; ')}`, replies: reply.replies };
  }
  return { ok: true, text, markdown, provenance, cached: reply.cached, repaired: reply.repaired };
}
