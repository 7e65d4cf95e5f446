// Maps whatever the openai SDK (or fetch underneath it) throws to a JudgeError kind, so the batch
// runner decides about retries from one small vocabulary instead of SDK classes. This is also where
// a server's words become ours: the message is scrubbed of the key values in use and of anything
// shaped like a credential, once, for every front end (results file, log, screen).
// The SDK's error classes only: importing the package index would load the whole client at activation.
import * as OpenAISDK from 'openai/core/error';
import { scrubSecrets } from '../../security/scrub';
import { redactUrl } from './endpoint';
import { ReplyTooLargeError } from './httpPost';
import { parseRetryAfter } from './rateLimitHeaders';
import { internalError, JudgeError } from './types';

/** Why our own per-request deadline aborted a call (distinguishes it from the user's Ctrl-C). */
export const TIMEOUT_REASON = 'judge-studio: request timed out';

export interface ClassifyContext {
  timeoutMs: number;
  /** True when our own deadline fired. */
  timedOut: boolean;
  /** True when the caller's signal (Ctrl-C, cancel) fired. */
  aborted: boolean;
  baseURL: string;
  model: string;
  apiKeyEnv?: string;
  /** The key and header values in use: masked wherever the server echoes them. */
  secrets?: readonly string[];
}

/** A server's words in an error message are kept up to this length (a 300 MB error body is not a message). */
export const MAX_ERROR_CHARS = 2_000;

export function toJudgeError(e: unknown, ctx: ClassifyContext): JudgeError {
  const err = classify(e, ctx);
  const scrubbed = boundedMessage(scrubSecrets(err.message, ctx.secrets));
  if (scrubbed !== err.message) err.message = scrubbed;
  return err;
}

function boundedMessage(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}… (${(text.length - MAX_ERROR_CHARS).toLocaleString('en-US')} more characters)` : text;
}

function classify(e: unknown, ctx: ClassifyContext): JudgeError {
  if (e instanceof JudgeError) return e;
  if (ctx.aborted) return new JudgeError('aborted', 'the request was cancelled', { cause: e });
  if (e instanceof ReplyTooLargeError) {
    return new JudgeError('too-large', `${e.message}, the most read of one reply (--max-reply-bytes); nothing of it was kept. Raise the limit if this judge really writes that much`, { cause: e, retryable: false });
  }
  if (ctx.timedOut || e instanceof OpenAISDK.APIConnectionTimeoutError) {
    return new JudgeError('timeout', `no complete reply within ${ctx.timeoutMs} ms (raise --timeout for slow models)`, { cause: e });
  }
  if (e instanceof OpenAISDK.APIUserAbortError) return new JudgeError('aborted', 'the request was cancelled', { cause: e });
  if (e instanceof OpenAISDK.APIConnectionError) {
    const cause = causeText(e);
    return new JudgeError('network', `cannot reach ${redactUrl(ctx.baseURL)}${cause ? ` (${cause})` : ''}`, { cause: e });
  }
  if (e instanceof OpenAISDK.APIError && typeof e.status === 'number') return httpError(e, e.status, ctx);
  if (e instanceof OpenAISDK.OpenAIError) return new JudgeError('config', e.message, { cause: e });
  // A connection dropped while the body was read surfaces as a bare fetch TypeError ("terminated").
  // Any other exception is a bug of ours: reported as internal, never retried as a network failure.
  if (!isTransportFailure(e)) return internalError(e);
  const message = e instanceof Error ? e.message : String(e);
  const cause = causeText(e);
  return new JudgeError('network', `the connection failed while reading the reply: ${message}${cause ? ` (${cause})` : ''}`, {
    cause: e,
  });
}

function httpError(e: OpenAISDK.APIError, status: number, ctx: ClassifyContext): JudgeError {
  const retryAfterMs = parseRetryAfter(e.headers ?? undefined);
  const detail = e.message.replace(/^\d{3}\s*/, '');
  const opts = { status, cause: e, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  if (status === 429) return new JudgeError('rate-limit', `rate limited (429): ${detail}`, opts);
  if (status >= 500 || status === 408 || status === 409) {
    return new JudgeError('http', `server error (${status}): ${detail}`, { ...opts, retryable: true });
  }
  const hint =
    status === 401 || status === 403
      ? `; check the API key${ctx.apiKeyEnv ? ` in $${ctx.apiKeyEnv}` : ''}`
      : status === 404
        ? `; check --base-url (OpenAI-compatible servers usually end in /v1) and that model "${ctx.model}" exists`
        : '';
  return new JudgeError('http', `request rejected (${status}): ${detail}${hint}`, { ...opts, retryable: false });
}

/** undici's errors for a broken connection: "terminated", "fetch failed", or a cause with a socket code. */
function isTransportFailure(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (e.name === 'AbortError' || /^(terminated|fetch failed|other side closed)$/i.test(e.message)) return true;
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 4; depth++, c = c.cause) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && /^(UND_ERR_|E[A-Z]+$)/.test(code)) return true;
  }
  return false;
}

function causeText(e: unknown): string {
  let c: unknown = e instanceof Error ? e.cause : undefined;
  const parts: string[] = [];
  for (let depth = 0; c instanceof Error && depth < 3; depth++) {
    const code = (c as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${code}: ${c.message}` : c.message);
    c = c.cause;
  }
  return parts.filter((p) => p && p !== 'fetch failed').join('; ');
}

/** A 4xx whose text says the server does not accept this `response_format`. */
export function rejectsResponseFormat(e: unknown): boolean {
  if (!(e instanceof OpenAISDK.APIError) || typeof e.status !== 'number') return false;
  if (e.status < 400 || e.status >= 500 || e.status === 429) return false;
  return /response_format|json_schema|json_object|structured output|guided_json/i.test(`${e.message} ${e.param ?? ''}`);
}

/** A 4xx saying `max_tokens` is not supported and `max_completion_tokens` is wanted (OpenAI reasoning models). */
export function wantsMaxCompletionTokens(e: unknown): boolean {
  return (
    e instanceof OpenAISDK.APIError &&
    e.status === 400 &&
    /max_tokens/.test(e.message) &&
    /max_completion_tokens/.test(e.message)
  );
}
