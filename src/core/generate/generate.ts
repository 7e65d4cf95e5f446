// Generate a rubric or evaluation steps for a template: one request with structured output,
// tolerant JSON extraction, one repair request quoting what was wrong, a cache keyed by the exact
// request, and a final check that the new template's rubric covers the scale. Failures are values.
import type { z } from 'zod';
import type { JudgeCache } from '../judge/engine/cache';
import { buildRequest, checkReply, repairMessage, requestKey } from '../judge/engine/pass';
import type { ChatMessage, JudgeClient, JudgeErrorKind, StructuredOutputMode } from '../judge/transport/types';
import { JudgeError } from '../judge/transport/types';
import { validateTemplate } from '../template/validate';
import type { ParsedTemplate } from '../template/types';
import { applyGenerated, rubricMarkdown, stepsMarkdown, today, type Provenance } from './apply';
import { generateInput, repairInstruction, rubricMessages, stepsMessages, type GenerateKind, type GenerateOptions } from './prompt';
import { rubricJsonSchema, rubricSchema, stepsJsonSchema, stepsSchema } from './schema';

export interface GenerateDeps {
  client: JudgeClient;
  model: string;
  structured: StructuredOutputMode;
  cache?: JudgeCache;
  /** Distinguishes endpoints in cache keys (the base URL). */
  cacheScope: string;
  signal?: AbortSignal;
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
  const request = buildRequest(messages, { model: deps.model, temperature: 0, structured: deps.structured, schemaName: `judge_studio_${what}` }, jsonSchema);
  const key = deps.cache ? requestKey(request, 0, `${deps.cacheScope}#generate`) : undefined;

  let reply: { value: Record<string, unknown>; model: string; cached: boolean; repaired: boolean } | undefined;
  const hit = key ? await deps.cache?.get(key) : undefined;
  const fromCache = hit ? checkReply(hit.text, schema) : undefined;
  if (hit && fromCache?.ok) reply = { value: fromCache.value, model: hit.model, cached: true, repaired: hit.repaired ?? false };

  const replies: string[] = [];
  if (!reply) {
    const ask = async (conversation: ChatMessage[]) => {
      const res = await deps.client.complete({ ...request, messages: conversation, ...(deps.signal && { signal: deps.signal }) });
      replies.push(res.text);
      return res;
    };
    try {
      let answer = await ask(messages);
      let checked = checkReply(answer.text, schema);
      let repaired = false;
      if (!checked.ok) {
        const first = checked.error;
        answer = await ask([...messages, { role: 'assistant', content: answer.text }, { role: 'user', content: repairMessage(first, repairInstruction(what, input.scale)) }]);
        checked = checkReply(answer.text, schema);
        if (!checked.ok) {
          return { ok: false, code: 'invalid-reply', message: `The model's ${what} was not usable (${first}), nor after one repair request (${checked.error}). Try again, or another model.`, replies };
        }
        repaired = true;
      }
      reply = { value: checked.value, model: answer.model, cached: false, repaired };
      if (deps.cache && key) await deps.cache.put(key, { text: answer.text, model: answer.model, ...(repaired && { repaired }) }).catch(() => undefined);
    } catch (e) {
      const error = e instanceof JudgeError ? e : new JudgeError('network', e instanceof Error ? e.message : String(e));
      return { ok: false, code: 'request-failed', kind: error.kind, message: `Asking ${deps.model} for a ${what} failed: ${error.message}`, replies };
    }
  }

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
    return { ok: false, code: 'result-invalid', message: `The generated ${what} does not fit the template: ${problems.map((d) => `line ${d.line}: ${d.message}`).join('; ')}`, replies };
  }
  return { ok: true, text, markdown, provenance, cached: reply.cached, repaired: reply.repaired };
}
