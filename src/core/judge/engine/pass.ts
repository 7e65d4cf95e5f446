// One judge pass done properly: cache lookup, the call (with retries), JSON extraction, zod
// validation, one repair request quoting what was wrong, and the strategy's optional follow-up.
// A failure is a value.
import type { z } from 'zod';
import { cacheKey } from './cache';
import type { CachedReply, JudgeCache } from './cache';
import { expectedScore } from './expected';
import { extractJson } from '../strategies/extract';
import { describeIssues } from '../strategies/replySchema';
import { callWithRetry, probeEndpoint } from '../transport/retry';
import type { CallContext } from '../transport/retry';
import type { RunStats } from '../run/stats';
import type { JudgeStrategy, PassOrder } from '../strategies/strategy';
import type { CheckOutcome } from '../strategies/types';
import type { ErrorKind } from '../../results/errorKinds';
import type { OutageGate } from '../transport/outage';
import type { ChatMessage, JudgeRequest, JudgeResponse } from '../transport/types';
import type { JudgeSettings } from './settings';
import { internalError, JudgeError } from '../transport/types';

export type { JudgeSettings } from './settings';

export interface EngineContext extends CallContext {
  settings: JudgeSettings;
  stats: RunStats;
  cache?: JudgeCache;
  /** Distinguishes endpoints in cache keys (the base URL). */
  cacheScope: string;
  log?: (message: string) => void;
  /** Set after the first failed cache write, so the warning is printed once. */
  cacheWriteFailed?: boolean;
  /** Pauses the whole run while the endpoint is down (see outage.ts). */
  outage?: OutageGate;
  /** Notices already given this run (shared by a panel's members), so each is said once. */
  notices?: Set<string>;
}

/** One call with its retries; while the run is in an outage, the call waits and tries again. */
async function callThroughOutage(request: JudgeRequest, ctx: EngineContext): Promise<JudgeResponse> {
  const call = {};
  for (;;) {
    // The endpoint's answer count when this call's last attempt began: an answer to anyone after
    // that means the endpoint works and this request is the problem.
    let mark = ctx.outage?.successes ?? 0;
    const gate = ctx.outage;
    const onAttempt = () => {
      ctx.onAttempt?.();
      if (gate) mark = gate.successes;
    };
    try {
      const response = await callWithRetry(request, { ...ctx, onAttempt });
      ctx.outage?.onSuccess();
      return response;
    } catch (e) {
      if (!(e instanceof JudgeError) || e.kind === 'aborted' || !ctx.outage) throw e;
      if (!(await ctx.outage.shouldRetry(e, mark, call, ctx.signal, () => probeEndpoint(ctx, request.model)))) throw e;
    }
  }
}

export type { CheckOutcome } from '../strategies/types';

/** Extracts and validates a reply; never coerces (a string "4" is not a score). */
export function checkReply<R>(text: string, schema: z.ZodType<R>): CheckOutcome<R> {
  const extracted = extractJson(text);
  if (!extracted.ok) return extracted;
  const result = schema.safeParse(extracted.value);
  if (!result.success) return { ok: false, error: describeIssues(result.error) };
  return { ok: true, value: result.data };
}

export function repairMessage(error: string, instruction: string): string {
  return [
    `Your previous reply could not be used: ${error}.`,
    'Reply again with only the JSON object, no other text.',
    '',
    instruction,
  ].join('\n');
}

/** The settings a strategy's requests use: a text verdict format asks for no structured output. */
export function strategySettings(settings: JudgeSettings, strategy: { parse?: unknown }): JudgeSettings {
  return strategy.parse && settings.structured !== 'none' ? { ...settings, structured: 'none' } : settings;
}

/** The request one pass sends (before any repair). */
export function buildRequest(messages: ChatMessage[], settings: JudgeSettings, jsonSchema: Record<string, unknown>): JudgeRequest {
  return {
    messages,
    model: settings.model,
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
    ...(settings.expectedScale ? { logprobs: true } : {}),
    ...(settings.structured !== 'none'
      ? { responseFormat: { mode: settings.structured, name: settings.schemaName, schema: jsonSchema } }
      : {}),
  };
}

/** The cache key of a request: everything that can change the answer, plus the sample index. */
export function requestKey(request: JudgeRequest, sample: number, scope: string): string {
  return cacheKey({
    baseURL: scope,
    model: request.model,
    messages: request.messages,
    sample,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    ...(request.responseFormat ? { responseFormat: request.responseFormat } : {}),
    ...(request.logprobs ? { logprobs: true } : {}),
  });
}

export type PassOutcome<R> =
  | { ok: true; reply: R; model: string; cached: boolean; repaired: boolean; superseded?: R; expected?: number | null }
  | { ok: false; kind: ErrorKind; error: string; rawReplies: string[] };

/** One pass: the cached answer, or a call plus at most one repair and one strategy follow-up. */
export async function judgeOnce<R extends Record<string, unknown>>(
  messages: ChatMessage[],
  sample: number,
  order: PassOrder,
  strategy: JudgeStrategy<R, unknown>,
  ctx: EngineContext,
): Promise<PassOutcome<R>> {
  const { stats, cache } = ctx;
  const { schema } = strategy;
  const check = (text: string): CheckOutcome<R> => (strategy.parse ? strategy.parse(text) : checkReply(text, schema));
  const request = buildRequest(messages, strategySettings(ctx.settings, strategy), strategy.jsonSchema);
  const key = cache ? requestKey(request, sample, ctx.cacheScope) : undefined;

  if (cache && key) {
    const hit = await cache.get(key);
    const checked = hit ? check(hit.text) : undefined;
    if (hit && checked?.ok) {
      stats.cacheHits++;
      const superseded = hit.superseded !== undefined ? check(hit.superseded) : undefined;
      return {
        ok: true,
        reply: checked.value,
        model: hit.model,
        cached: true,
        repaired: hit.repaired ?? false,
        ...(superseded?.ok ? { superseded: superseded.value } : {}),
        ...(ctx.settings.expectedScale ? { expected: hit.expected ?? null } : {}),
      };
    }
  }

  const raw: string[] = [];
  const ask = async (conversation: ChatMessage[]) => {
    const res = await callThroughOutage({ ...request, messages: conversation }, ctx);
    stats.addUsage(res.usage);
    raw.push(res.text);
    return res;
  };
  try {
    let answer = await ask(messages);
    let conversation = messages;
    let checked = check(answer.text);
    let repaired = false;
    if (!checked.ok) {
      stats.repairs++;
      const firstError = checked.error;
      conversation = [
        ...messages,
        { role: 'assistant', content: answer.text },
        { role: 'user', content: strategy.repair ? strategy.repair(firstError) : repairMessage(firstError, strategy.instruction) },
      ];
      answer = await ask(conversation);
      checked = check(answer.text);
      if (!checked.ok) {
        return {
          ok: false,
          kind: 'invalid-reply',
          error: `invalid reply (${firstError}); still invalid after one repair request (${checked.error})`,
          rawReplies: raw,
        };
      }
      repaired = true;
    }

    let reply = checked.value;
    let superseded: { value: R; text: string } | undefined;
    const followUp = strategy.followUp?.(reply, order);
    if (followUp) {
      const next = await ask([...conversation, { role: 'assistant', content: answer.text }, { role: 'user', content: followUp }]).catch(
        (e: unknown) => {
          if (e instanceof JudgeError && e.kind === 'aborted') throw e;
          return undefined; // a failed follow-up leaves the valid reply standing
        },
      );
      const rechecked = next ? check(next.text) : undefined;
      // An invalid answer to the follow-up leaves the first valid reply standing too.
      if (next && rechecked?.ok) {
        superseded = { value: reply, text: answer.text };
        reply = rechecked.value;
        answer = next;
      }
    }
    const expected = ctx.settings.expectedScale ? expectedOf(answer, ctx.settings.expectedScale, ctx) : undefined;
    await store(ctx, key, {
      text: answer.text,
      model: answer.model,
      ...(repaired ? { repaired } : {}),
      ...(superseded ? { superseded: superseded.text } : {}),
      ...(expected !== undefined ? { expected } : {}),
    });
    return {
      ok: true,
      reply,
      model: answer.model,
      cached: false,
      repaired,
      ...(superseded ? { superseded: superseded.value } : {}),
      ...(expected !== undefined ? { expected } : {}),
    };
  } catch (e) {
    const error = e instanceof JudgeError ? e : internalError(e);
    return { ok: false, kind: error.errorKind, error: error.message, rawReplies: raw };
  }
}

/** The expected score of an answer; an endpoint without logprobs is said once per run and gives null. */
function expectedOf(answer: JudgeResponse, scale: { min: number; max: number }, ctx: EngineContext): number | null {
  if (!answer.tokens) {
    const notice = `no-logprobs:${ctx.cacheScope}:${ctx.settings.model}`;
    ctx.notices ??= new Set();
    if (!ctx.notices.has(notice)) {
      ctx.notices.add(notice);
      ctx.log?.(`${ctx.settings.model} at this endpoint gives no token logprobs, so score_expected (model.scoring: expected) is recorded as null`);
    }
    return null;
  }
  return expectedScore(answer.tokens, scale);
}

async function store(ctx: EngineContext, key: string | undefined, value: CachedReply): Promise<void> {
  if (!ctx.cache || !key) return;
  try {
    await ctx.cache.put(key, value);
  } catch (e) {
    if (ctx.cacheWriteFailed) return;
    ctx.cacheWriteFailed = true;
    ctx.log?.(`could not write the judge cache (${e instanceof Error ? e.message : String(e)}); the run goes on without it`);
  }
}
