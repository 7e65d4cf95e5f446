// Asking an author model for one JSON object (a rubric, evaluation steps, a clarification, a
// justification): structured output, the engine's tolerant JSON extraction and zod check, one
// repair request quoting what was wrong, and a cache keyed by the exact request. Generate and
// align share it, so both treat an unusable reply the same way. Failures are values.
import type { z } from 'zod';
import type { JudgeCache } from '../judge/engine/cache';
import { buildRequest, checkReply, repairMessage, requestKey } from '../judge/engine/pass';
import type { ChatMessage, JudgeClient, JudgeErrorKind, StructuredOutputMode, TokenUsage } from '../judge/transport/types';
import { JudgeError } from '../judge/transport/types';

export interface AskDeps {
  client: JudgeClient;
  model: string;
  structured: StructuredOutputMode;
  cache?: JudgeCache;
  /** Distinguishes endpoints in cache keys (the base URL). */
  cacheScope: string;
  signal?: AbortSignal;
}

export interface AskSpec<T> {
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  jsonSchema: Record<string, unknown>;
  /** Name of the structured-output schema, e.g. `judge_studio_rubric`. */
  schemaName: string;
  /** What the repair request asks for, after quoting the error. */
  repairInstruction: string;
  /** Names the request in messages: "rubric", "clarification". */
  what: string;
  /** Cache keys of different kinds of request never meet (`#generate`, `#align`). */
  cacheTag: string;
}

export type AskOutcome<T> =
  | { ok: true; value: T; model: string; cached: boolean; repaired: boolean; replies: string[]; calls: number; usage: TokenUsage }
  | { ok: false; code: 'request-failed' | 'invalid-reply'; message: string; kind?: JudgeErrorKind; replies: string[]; calls: number; usage: TokenUsage };

export async function askJson<T>(spec: AskSpec<T>, deps: AskDeps): Promise<AskOutcome<T>> {
  const request = buildRequest(spec.messages, { model: deps.model, temperature: 0, structured: deps.structured, schemaName: spec.schemaName }, spec.jsonSchema);
  const key = deps.cache ? requestKey(request, 0, `${deps.cacheScope}${spec.cacheTag}`) : undefined;
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let calls = 0;

  const hit = key ? await deps.cache?.get(key) : undefined;
  const fromCache = hit ? checkReply(hit.text, spec.schema) : undefined;
  if (hit && fromCache?.ok) return { ok: true, value: fromCache.value, model: hit.model, cached: true, repaired: hit.repaired ?? false, replies: [], calls, usage };

  const replies: string[] = [];
  const ask = async (conversation: ChatMessage[]) => {
    calls++;
    const res = await deps.client.complete({ ...request, messages: conversation, ...(deps.signal && { signal: deps.signal }) });
    replies.push(res.text);
    if (res.usage) {
      usage.promptTokens += res.usage.promptTokens;
      usage.completionTokens += res.usage.completionTokens;
      usage.totalTokens += res.usage.totalTokens;
    }
    return res;
  };
  try {
    let answer = await ask(spec.messages);
    let checked = checkReply(answer.text, spec.schema);
    let repaired = false;
    if (!checked.ok) {
      const first = checked.error;
      answer = await ask([...spec.messages, { role: 'assistant', content: answer.text }, { role: 'user', content: repairMessage(first, spec.repairInstruction) }]);
      checked = checkReply(answer.text, spec.schema);
      if (!checked.ok) {
        return {
          ok: false,
          code: 'invalid-reply',
          message: `The model's ${spec.what} was not usable (${first}), nor after one repair request (${checked.error}). Try again, or another model.`,
          replies,
          calls,
          usage,
        };
      }
      repaired = true;
    }
    if (deps.cache && key) await deps.cache.put(key, { text: answer.text, model: answer.model, ...(repaired && { repaired }) }).catch(() => undefined);
    return { ok: true, value: checked.value, model: answer.model, cached: false, repaired, replies, calls, usage };
  } catch (e) {
    const error = e instanceof JudgeError ? e : new JudgeError('network', e instanceof Error ? e.message : String(e));
    return { ok: false, code: 'request-failed', kind: error.kind, message: `Asking ${deps.model} for a ${spec.what} failed: ${error.message}`, replies, calls, usage };
  }
}
