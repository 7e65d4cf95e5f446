// The judge-client seam: the engine only talks to this interface, so the OpenAI SDK client,
// the VS Code Language Model API client and test fakes are interchangeable.
import type { ErrorKind } from '../../results/errorKinds';

export type Role = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: Role;
  content: string;
}

export type StructuredOutputMode = 'json_schema' | 'json_object' | 'none';

export interface JudgeRequest {
  messages: ChatMessage[];
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** Structured output: the JSON schema of the reply (from the zod reply schema) and its name. */
  responseFormat?: { mode: StructuredOutputMode; name: string; schema: Record<string, unknown> };
  /** Ask for token logprobs (`logprobs: true, top_logprobs: 20`), for `scoring: expected`. */
  logprobs?: boolean;
  signal?: AbortSignal;
  /** Which pass of which row this request is (never sent): a transport that answers from a file, like a provider batch, finds the reply by it. */
  tag?: RequestTag;
}

/** A request's place in the engine's path: row, sample and order, and which step of the pass it is. */
export interface RequestTag {
  row: number;
  sample: number;
  order: 'AB' | 'BA';
  /** `judge`: the pass's first request; `repair`: the one repair request; `follow-up`: a strategy's follow-up. */
  step: 'judge' | 'repair' | 'follow-up';
  /** For a repair: the reply that could not be used, and why (the repair request quotes both). */
  previous?: string;
  error?: string;
}

/**
 * Thrown by a transport that cannot answer yet (a provider batch still running, a repair queued for
 * the next batch): the row is neither judged nor failed, and the same row is judged again later.
 */
export class ReplyNotReady extends Error {
  override readonly name = 'ReplyNotReady';
  constructor(readonly tag: RequestTag | undefined) {
    super('the reply is not available yet');
  }
}

/** One reply token with the endpoint's most likely alternatives at its position. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Prompt tokens served from the provider's prompt cache (`prompt_tokens_details.cached_tokens`), when reported. */
  cachedTokens?: number;
}

export interface JudgeResponse {
  /** The assistant message text exactly as received. */
  text: string;
  /** The model the endpoint says answered (falls back to the requested one). */
  model: string;
  usage?: TokenUsage;
  /** When logprobs were asked for: the reply's tokens, or null when the endpoint gave none. */
  tokens?: TokenLogprob[] | null;
  /** The reply's request-rate headers, for the limiter. */
  rateLimit?: RateLimitInfo;
}

/** `x-ratelimit-limit-requests`, `-remaining-requests` and `-reset-requests` (in ms) of a reply. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  resetMs?: number;
}

/**
 * Failure kinds a client reports; `retryable` drives the batch runner's backoff. `internal` is a bug
 * in our own code: it is reported as such and never retried as if the network had failed.
 */
export type JudgeErrorKind = 'http' | 'network' | 'timeout' | 'rate-limit' | 'aborted' | 'config' | 'too-large' | 'internal';

export class JudgeError extends Error {
  constructor(
    readonly kind: JudgeErrorKind,
    message: string,
    /** `errorKind`: the results kind when a transport knows it outright (a provider batch's line). */
    readonly options: { status?: number; retryAfterMs?: number; retryable?: boolean; cause?: unknown; errorKind?: ErrorKind; rateLimit?: RateLimitInfo } = {},
  ) {
    super(message);
    this.name = 'JudgeError';
  }

  get retryable(): boolean {
    return this.options.retryable ?? (this.kind === 'network' || this.kind === 'timeout' || this.kind === 'rate-limit');
  }

  /** The results file's `error_kind` for this failure (see core/results/errorKinds.ts). */
  get errorKind(): ErrorKind {
    return this.options.errorKind ?? errorKindOf(this.kind, this.options.status);
  }
}

/** A client's failure kind (plus the HTTP status, when there was one) as a results `error_kind`. */
export function errorKindOf(kind: JudgeErrorKind, status?: number): ErrorKind {
  switch (kind) {
    case 'rate-limit':
      return 'rate-limit';
    case 'timeout':
      return 'timeout';
    case 'network':
      return 'network';
    case 'aborted':
      return 'cancelled';
    case 'internal':
      return 'internal';
    case 'too-large':
      return 'reply-too-large';
    case 'config':
      return status === 401 || status === 403 ? 'auth' : 'bad-request';
    case 'http':
      if (status === 429) return 'rate-limit';
      if (status === 401 || status === 403) return 'auth';
      if (status !== undefined && (status >= 500 || status === 408 || status === 409)) return 'server';
      return 'bad-request';
  }
}

/** Wraps something that is not a JudgeError: a bug of ours, never a network failure to retry. */
export function internalError(e: unknown): JudgeError {
  const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new JudgeError('internal', `internal error in Judge Studio (${detail}); please report it with the log`, { cause: e, retryable: false });
}

export interface JudgeClient {
  /** A label for logs and results, e.g. `openai:http://127.0.0.1:8080/v1`. */
  readonly id: string;
  complete(request: JudgeRequest): Promise<JudgeResponse>;
}
