// One judge pass done properly: cache lookup, the call (through whichever transport the context
// holds: the endpoint with retries, or a provider batch's replies), the template's own verdict
// parser, one repair request in that format, and the strategy's optional follow-up. A failure is
// a value; only a transport that cannot answer yet (ReplyNotReady) and cancellation escape.
import type { z } from 'zod';
import { canonicalJson } from '../../results/keys';
import type { ErrorKind } from '../../results/errorKinds';
import type { RunStats } from '../run/stats';
import { pickJsonVerdict } from '../strategies/extract';
import { describeIssues } from '../strategies/replySchema';
import type { JudgeStrategy, PassOrder } from '../strategies/strategy';
import type { CheckOutcome } from '../strategies/types';
import type { OutageGate } from '../transport/outage';
import { callWithRetry, probeEndpoint, type CallContext } from '../transport/retry';
import type { ChatMessage, JudgeClient, JudgeRequest, JudgeResponse, RequestTag } from '../transport/types';
import { internalError, JudgeError, ReplyNotReady } from '../transport/types';
import { cacheKey, type CachedReply, type JudgeCache } from './cache';
import { expectedScore } from './expected';
import type { JudgeSettings } from './settings';

export type { JudgeSettings } from './settings';
export type { CheckOutcome } from '../strategies/types';

export interface EngineContext extends CallContext {
  settings: JudgeSettings;
  stats: RunStats;
  cache?: JudgeCache;
  /** Distinguishes endpoints in cache keys (the base URL). */
  cacheScope: string;
  log?: (message: string) => void;
  /** Set after the first failed cache write, so the warning is printed once. */
  cacheWriteFailed?: boolean;
  /** Pauses the whole run while the endpoint is down (see transport/outage.ts). */
  outage?: OutageGate;
  /** Notices already given this run (shared by a panel's members), so each is said once. */
  notices?: Set<string>;
  /**
   * The other endpoints of the run (a panel's other members). While one of them answers a probe,
   * a call that keeps failing is its own endpoint's failure, not an outage of the run.
   */
  peers?: readonly { client: JudgeClient; model: string }[];
  /** Keep the whole text of failed replies in `raw_replies` (a debug option); else each is cut at RAW_REPLY_CHARS. */
  keepRawReplies?: boolean;
}

/** One request of a row, ready to send: which sample and order it is, and what it says. */
export interface PassRequest {
  sample: number;
  order: PassOrder;
  request: JudgeRequest;
}

export type PassOutcome<R> =
  | { ok: true; reply: R; model: string; cached: boolean; repaired: boolean; superseded?: R; expected?: number | null }
  | { ok: false; kind: ErrorKind; error: string; rawReplies: string[]; /** the run was cancelled (not a batch's own cancellation) */ aborted?: boolean };

/** The settings a strategy's requests use: a text verdict format asks for no structured output (a structured `json` verdict does). */
export function strategySettings(settings: JudgeSettings, strategy: { parse?: unknown; structuredParse?: boolean }): JudgeSettings {
  return strategy.parse && !strategy.structuredParse && settings.structured !== 'none' ? { ...settings, structured: 'none' } : settings;
}

/** The request one pass sends (before any repair). */
export function buildRequest(messages: ChatMessage[], settings: JudgeSettings, jsonSchema: Record<string, unknown>, tag?: RequestTag): JudgeRequest {
  return {
    messages,
    model: settings.model,
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
    ...(settings.expectedScale ? { logprobs: true } : {}),
    ...(settings.structured !== 'none'
      ? { responseFormat: { mode: settings.structured, name: settings.schemaName, schema: jsonSchema } }
      : {}),
    ...(tag ? { tag } : {}),
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

/** What a verdict says, for telling two JSON verdicts in one reply apart (texts aside). */
export function defaultVerdictKey(reply: Record<string, unknown>): string {
  const { justification: _j, summary: _s, ...rest } = reply;
  return canonicalJson(rest);
}

/**
 * The one reader of a reply for a strategy: its text verdict format when it has one, else JSON
 * (from the reply, a fence or prose) validated by its schema. Never coerces (a string "4" is not
 * a score); a repeated key or two disagreeing JSON verdicts make the reply invalid.
 */
export function readReply<R extends Record<string, unknown>>(strategy: Pick<JudgeStrategy<R, unknown>, 'schema' | 'parse' | 'verdictKey'>, text: string): CheckOutcome<R> {
  if (strategy.parse) return strategy.parse(text);
  return pickJsonVerdict(
    text,
    (value) => {
      const result = strategy.schema.safeParse(value);
      return result.success ? { ok: true, value: result.data } : { ok: false, error: describeIssues(result.error) };
    },
    strategy.verdictKey ?? defaultVerdictKey,
  );
}

/** A JSON reply checked against a schema alone (generate's drafts; judge replies go through readReply). */
export function checkReply<R>(text: string, schema: z.ZodType<R>): CheckOutcome<R> {
  return readReply({ schema: schema as unknown as z.ZodType<Record<string, unknown>> }, text) as CheckOutcome<R>;
}

/** The JSON repair request's text (strategies with a text verdict format have their own). */
export function repairMessage(error: string, instruction: string): string {
  return [`Your previous reply could not be used: ${error}.`, 'Reply again with only the JSON object, no other text.', '', instruction].join('\n');
}

/** The conversation of the one repair request: the prompt, the unusable reply, and why, in the strategy's format. */
export function repairConversation(prompt: ChatMessage[], previous: string, error: string, strategy: Pick<JudgeStrategy, 'repair' | 'instruction'>): ChatMessage[] {
  const ask = strategy.repair ? strategy.repair(error) : repairMessage(error, strategy.instruction);
  return [...prompt, { role: 'assistant', content: previous }, { role: 'user', content: ask }];
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
      if (!(await ctx.outage.shouldRetry(e, mark, call, ctx.signal, () => probeRun(ctx, request.model)))) throw e;
    }
  }
}

/** Whether the run's endpoints answer at all: this call's endpoint, else any of its peers'. */
async function probeRun(ctx: EngineContext, model: string): Promise<boolean> {
  if (await probeEndpoint(ctx, model)) return true;
  for (const peer of ctx.peers ?? []) if (await probeEndpoint({ ...ctx, client: peer.client }, peer.model)) return true;
  return false;
}

/** One pass: the cached answer, or a call plus at most one repair and one strategy follow-up. */
export async function judgeOnce<R extends Record<string, unknown>>(pass: PassRequest, strategy: JudgeStrategy<R, unknown>, ctx: EngineContext): Promise<PassOutcome<R>> {
  const { request, sample } = pass;
  const check = (text: string): CheckOutcome<R> => readReply(strategy, text);
  const key = ctx.cache ? requestKey(request, sample, ctx.cacheScope) : undefined;
  const hit = key ? await cached(ctx, key, check) : undefined;
  if (hit) return hit;

  const raw: string[] = [];
  const ask = async (messages: ChatMessage[], tag: Partial<RequestTag>) => {
    const res = await callThroughOutage({ ...request, messages, ...(request.tag ? { tag: { ...request.tag, ...tag } } : {}) }, ctx);
    ctx.stats.addUsage(res.usage);
    raw.push(res.text);
    return res;
  };
  try {
    let answer = await ask(request.messages, {});
    let conversation = request.messages;
    let checked = check(answer.text);
    let repaired = false;
    if (!checked.ok) {
      ctx.stats.repairs++;
      const firstError = checked.error;
      conversation = repairConversation(request.messages, answer.text, firstError, strategy);
      answer = await ask(conversation, { step: 'repair', previous: answer.text, error: firstError });
      checked = check(answer.text);
      if (!checked.ok) {
        return { ok: false, kind: checked.kind ?? 'invalid-reply', error: `invalid reply (${firstError}); still invalid after one repair request (${checked.error})`, rawReplies: raw };
      }
      repaired = true;
    }
    const followed = await followUp(strategy, pass.order, checked.value, answer, conversation, ask, check);
    const expected = ctx.settings.expectedScale ? expectedOf(followed.answer, ctx.settings.expectedScale, ctx) : undefined;
    await store(ctx, key, {
      text: followed.answer.text,
      model: followed.answer.model,
      ...(repaired ? { repaired } : {}),
      ...(followed.superseded ? { superseded: followed.superseded.text } : {}),
      ...(expected !== undefined ? { expected } : {}),
    });
    return {
      ok: true,
      reply: followed.reply,
      model: followed.answer.model,
      cached: false,
      repaired,
      ...(followed.superseded ? { superseded: followed.superseded.value } : {}),
      ...(expected !== undefined ? { expected } : {}),
    };
  } catch (e) {
    if (e instanceof ReplyNotReady) throw e;
    const error = e instanceof JudgeError ? e : internalError(e);
    return { ok: false, kind: error.errorKind, error: error.message, rawReplies: raw, ...(error.kind === 'aborted' ? { aborted: true } : {}) };
  }
}

/** A valid cached answer as a pass outcome; an entry that no longer validates is ignored. */
async function cached<R>(ctx: EngineContext, key: string, check: (text: string) => CheckOutcome<R>): Promise<PassOutcome<R> | undefined> {
  const hit = await ctx.cache!.get(key);
  const checked = hit ? check(hit.text) : undefined;
  if (!hit || !checked?.ok) return undefined;
  ctx.stats.cacheHits++;
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

/** The strategy's follow-up, when it asks one: a valid answer replaces the reply (kept as superseded). */
async function followUp<R>(
  strategy: JudgeStrategy<R & Record<string, unknown>, unknown>,
  order: PassOrder,
  reply: R,
  answer: JudgeResponse,
  conversation: ChatMessage[],
  ask: (messages: ChatMessage[], tag: Partial<RequestTag>) => Promise<JudgeResponse>,
  check: (text: string) => CheckOutcome<R>,
): Promise<{ reply: R; answer: JudgeResponse; superseded?: { value: R; text: string } }> {
  const question = strategy.followUp?.(reply as R & Record<string, unknown>, order);
  if (!question) return { reply, answer };
  const next = await ask([...conversation, { role: 'assistant', content: answer.text }, { role: 'user', content: question }], { step: 'follow-up' }).catch((e: unknown) => {
    if ((e instanceof JudgeError && e.kind === 'aborted') || e instanceof ReplyNotReady) throw e;
    return undefined; // a failed follow-up leaves the valid reply standing
  });
  const rechecked = next ? check(next.text) : undefined;
  // An invalid answer to the follow-up leaves the first valid reply standing too.
  if (!next || !rechecked?.ok) return { reply, answer };
  return { reply: rechecked.value, answer: next, superseded: { value: reply, text: answer.text } };
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
