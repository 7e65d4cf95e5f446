// Retries for one judge call: exponential backoff with jitter on 429, 5xx, timeouts and network
// errors, honouring the server's retry-after; everything else fails at once. A retried call goes
// back to the limiter ahead of fresh calls. A 429 while the endpoint answers other calls is the
// rate limit at work, not a failure: it does not use up the call's retries (up to
// `rateLimitWaits` of them), so honouring a rate limit never fails a row.
import type { AdaptiveLimiter } from './limiter';
import type { JudgeClient, JudgeRequest, JudgeResponse } from './types';
import { internalError, JudgeError, ReplyNotReady } from './types';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Injectable for tests; defaults to Math.random. */
  random?: () => number;
  /** 429s answered while others got answers that do not count as retries (default 50). */
  rateLimitWaits?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 500, maxDelayMs: 30_000 };
const RATE_LIMIT_WAITS = 50;

export interface RetryEvent {
  /** 1-based number of the retry about to happen. */
  retry: number;
  delayMs: number;
  error: JudgeError;
}

/** Delay before retry number `retry` (1-based): the server's retry-after when given, else "equal jitter" backoff. */
export function backoffDelay(policy: RetryPolicy, retry: number, retryAfterMs?: number): number {
  const random = policy.random ?? Math.random;
  if (retryAfterMs !== undefined) return Math.round(retryAfterMs + random() * Math.min(1_000, retryAfterMs * 0.1));
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Resolves after `ms`, or rejects with an `aborted` JudgeError as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new JudgeError('aborted', 'the request was cancelled'));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new JudgeError('aborted', 'the request was cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface CallContext {
  client: JudgeClient;
  limiter: AdaptiveLimiter;
  policy: RetryPolicy;
  signal?: AbortSignal;
  onRetry?: (event: RetryEvent) => void;
  /** Counts every HTTP attempt (for the summary). */
  onAttempt?: () => void;
}

/** One judge call through the limiter, retried per policy. Throws the last JudgeError, with the attempt count. */
export async function callWithRetry(request: JudgeRequest, ctx: CallContext): Promise<JudgeResponse> {
  const { limiter, policy } = ctx;
  const sent = ctx.signal ? { ...request, signal: ctx.signal } : request;
  let retries = 0;
  let waits = 0;
  // Answers to other calls since this call's previous try began (its wait included).
  let answered = limiter.answered;
  for (let attempt = 1; ; attempt++) {
    const ticket = await limiter.acquire(ctx.signal, attempt > 1);
    let error: JudgeError;
    try {
      ctx.onAttempt?.();
      const response = await ctx.client.complete(sent);
      limiter.onSuccess(response.rateLimit, ticket);
      return response;
    } catch (e) {
      // A transport that answers later (a provider batch) is not a failure to retry.
      if (e instanceof ReplyNotReady) throw e;
      // Clients map every transport failure to a JudgeError; anything else is a bug of ours.
      error = e instanceof JudgeError ? e : internalError(e);
      if (error.kind === 'rate-limit') limiter.onRateLimit(error.options.retryAfterMs, error.options.rateLimit, ticket, attempt === 1);
    } finally {
      limiter.release(ticket);
    }
    if (error.kind === 'aborted' || ctx.signal?.aborted) throw new JudgeError('aborted', 'the request was cancelled');
    // Rate limited while others were answered: wait for the turn the limiter gives, retries untouched.
    const wait = error.kind === 'rate-limit' && limiter.answered > answered && waits < (policy.rateLimitWaits ?? RATE_LIMIT_WAITS);
    answered = limiter.answered;
    if (wait) waits++;
    else retries++;
    if (!error.retryable || retries > policy.retries) {
      if (attempt === 1 || !error.retryable) throw error;
      throw new JudgeError(error.kind, `${error.message} (gave up after ${attempt} attempts)`, error.options);
    }
    const delayMs = backoffDelay(policy, wait ? 1 : retries, error.options.retryAfterMs);
    ctx.onRetry?.({ retry: attempt, delayMs, error });
    await sleep(delayMs, ctx.signal);
  }
}

/** A tiny request that tells whether the endpoint answers at all (any reply, or an error it will repeat). */
export async function probeEndpoint(ctx: CallContext, model: string): Promise<boolean> {
  const request: JudgeRequest = { model, messages: [{ role: 'user', content: 'Reply with the word OK.' }], maxTokens: 16, ...(ctx.signal ? { signal: ctx.signal } : {}) };
  const ticket = await ctx.limiter.acquire(ctx.signal, true);
  try {
    ctx.onAttempt?.();
    const response = await ctx.client.complete(request);
    ctx.limiter.onSuccess(response.rateLimit, ticket);
    return true;
  } catch (e) {
    const error = e instanceof JudgeError ? e : internalError(e);
    if (error.kind === 'aborted' || ctx.signal?.aborted) throw new JudgeError('aborted', 'the request was cancelled');
    if (error.kind === 'rate-limit') ctx.limiter.onRateLimit(error.options.retryAfterMs, error.options.rateLimit, ticket);
    return !error.retryable;
  } finally {
    ctx.limiter.release(ticket);
  }
}
