// Retries for one judge call: exponential backoff with jitter on 429, 5xx, timeouts and network
// errors, honouring the server's retry-after; everything else fails at once.
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
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

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
  for (let retry = 0; ; retry++) {
    await ctx.limiter.acquire(ctx.signal);
    let error: JudgeError;
    try {
      ctx.onAttempt?.();
      const response = await ctx.client.complete({ ...request, ...(ctx.signal ? { signal: ctx.signal } : {}) });
      ctx.limiter.onSuccess();
      return response;
    } catch (e) {
      // A transport that answers later (a provider batch) is not a failure to retry.
      if (e instanceof ReplyNotReady) throw e;
      // Clients map every transport failure to a JudgeError; anything else is a bug of ours.
      error = e instanceof JudgeError ? e : internalError(e);
      if (error.kind === 'rate-limit') ctx.limiter.onRateLimit(error.options.retryAfterMs);
    } finally {
      ctx.limiter.release();
    }
    if (error.kind === 'aborted' || ctx.signal?.aborted) throw new JudgeError('aborted', 'the request was cancelled');
    if (!error.retryable || retry >= ctx.policy.retries) {
      if (retry === 0 || !error.retryable) throw error;
      throw new JudgeError(error.kind, `${error.message} (gave up after ${retry + 1} attempts)`, error.options);
    }
    const delayMs = backoffDelay(ctx.policy, retry + 1, error.options.retryAfterMs);
    ctx.onRetry?.({ retry: retry + 1, delayMs, error });
    await sleep(delayMs, ctx.signal);
  }
}
