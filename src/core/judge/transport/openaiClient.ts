// The OpenAI-compatible judge client (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio, llama.cpp):
// one chat completion per call, no SDK retries (the batch runner owns retries and slow-down),
// and a whole-call deadline because the SDK's own timeout stops once headers arrive.
import OpenAI, { AzureOpenAI } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { LeanChat, normalizedErrorBody } from './leanChat';
import { parseRateLimit } from './rateLimitHeaders';
import { rejectsResponseFormat, toJudgeError, wantsMaxCompletionTokens } from './errors';
import { redactUrl } from './endpoint';
import { scrubReply, scrubSecrets } from '../../security/scrub';
import type { JudgeClient, JudgeRequest, JudgeResponse, StructuredOutputMode, TokenLogprob, TokenUsage } from './types';
import { JudgeError } from './types';

export interface OpenAIClientOptions {
  baseURL: string;
  /** Undefined for local servers that need no key: then no Authorization header is sent at all. */
  apiKey?: string;
  /** Name of the environment variable the key came from, for error hints. */
  apiKeyEnv?: string;
  organization?: string;
  headers?: Record<string, string>;
  /** Azure OpenAI: the `api-version` query value; the key goes in the `api-key` header. */
  azureApiVersion?: string;
  /** Whole-call deadline in ms (connect + reply body). */
  timeoutMs: number;
  /** The longest reply body read (`--max-reply-bytes`); past it the call fails as `reply-too-large`. Default 8 MiB. */
  maxReplyBytes?: number;
  log?: (message: string) => void;
  /** Injectable transport, e.g. for tests; defaults to global fetch. */
  fetch?: typeof fetch;
}

const MODES: StructuredOutputMode[] = ['json_schema', 'json_object', 'none'];

export class OpenAICompatibleClient implements JudgeClient {
  readonly id: string;
  private readonly sdk: OpenAI;
  /** The strongest structured-output mode this endpoint accepted; lowered once per rejection. */
  private ceiling: StructuredOutputMode = 'json_schema';
  private useMaxCompletionTokens = false;
  /** Chat completions are posted directly (see leanChat.ts): the SDK's per-call cost is half a run's CPU. */
  private readonly chat: LeanChat;
  /** The key and header values this client sends: masked in every message it passes on. */
  private readonly secrets: string[];
  private readonly log: (message: string) => void;

  constructor(private readonly options: OpenAIClientOptions) {
    this.secrets = [...(options.apiKey !== undefined ? [options.apiKey] : []), ...Object.values(options.headers ?? {})];
    this.log = (m) => options.log?.(scrubSecrets(m, this.secrets));
    this.sdk = createSdk(options);
    this.chat = new LeanChat(this.sdk, options.fetch, options.maxReplyBytes);
    this.id = `${options.azureApiVersion !== undefined ? 'azure' : 'openai'}:${redactUrl(options.baseURL)}`;
  }

  /** The structured-output mode that will actually be sent for a requested mode. */
  effectiveMode(requested: StructuredOutputMode): StructuredOutputMode {
    return MODES[Math.max(MODES.indexOf(requested), MODES.indexOf(this.ceiling))] as StructuredOutputMode;
  }

  async complete(request: JudgeRequest): Promise<JudgeResponse> {
    for (;;) {
      const mode = this.effectiveMode(request.responseFormat?.mode ?? 'none');
      const maxTokensKey: MaxTokensKey = this.useMaxCompletionTokens ? 'max_completion_tokens' : 'max_tokens';
      try {
        return await this.send(request, mode, maxTokensKey);
      } catch (e) {
        const cause = e instanceof JudgeError ? e.options.cause : e;
        if (mode !== 'none' && rejectsResponseFormat(cause)) {
          this.lower(mode, cause);
          continue;
        }
        if (maxTokensKey === 'max_tokens' && request.maxTokens !== undefined && wantsMaxCompletionTokens(cause)) {
          this.useMaxCompletionTokens = true;
          this.log('the endpoint wants max_completion_tokens instead of max_tokens; switching for this run');
          continue;
        }
        throw e;
      }
    }
  }

  private lower(rejected: StructuredOutputMode, e: unknown): void {
    const next = MODES[MODES.indexOf(rejected) + 1] as StructuredOutputMode;
    if (MODES.indexOf(next) <= MODES.indexOf(this.ceiling)) return; // another call already lowered it
    this.ceiling = next;
    const why = e instanceof Error ? e.message : String(e);
    this.log(
      `the endpoint rejected response_format ${rejected} (${why}); using ${next === 'none' ? 'no response_format' : next} for the rest of this run`,
    );
  }

  private async send(request: JudgeRequest, mode: StructuredOutputMode, maxTokensKey: MaxTokensKey): Promise<JudgeResponse> {
    const body = chatBody(request, mode, maxTokensKey);

    try {
      if (request.signal?.aborted) throw new JudgeError('aborted', 'the request was cancelled');
      const reply = await this.chat.create(body, this.options.timeoutMs, request.signal);
      const completion = (reply.body ?? {}) as ChatCompletion;
      const rateLimit = parseRateLimit(reply.headers);
      const choice = completion.choices?.[0];
      const message = choice?.message as { content?: unknown; refusal?: unknown } | undefined;
      const raw = typeof message?.content === 'string' ? message.content : typeof message?.refusal === 'string' ? message.refusal : '';
      const usage = toUsage(completion.usage);
      // A reply that echoes the key (in its text or its model name) must not carry it into a results file or the cache.
      return scrubReply(
        {
          ...(request.logprobs ? { tokens: toTokens(choice?.logprobs?.content) } : {}),
          text: raw,
          model: typeof completion.model === 'string' && completion.model !== '' ? completion.model : request.model,
          ...(usage ? { usage } : {}),
          ...(rateLimit ? { rateLimit } : {}),
        },
        this.secrets,
      );
    } catch (e) {
      throw withRateLimit(e, {
        timeoutMs: this.options.timeoutMs,
        timedOut: false, // the transport raises the SDK's APIConnectionTimeoutError
        aborted: request.signal?.aborted ?? false,
        baseURL: this.options.baseURL,
        model: request.model,
        ...(this.options.apiKeyEnv ? { apiKeyEnv: this.options.apiKeyEnv } : {}),
        secrets: this.secrets,
      });
    }
  }
}

/** The JudgeError for a failure, carrying a 429's rate-limit headers for the limiter. */
function withRateLimit(e: unknown, ctx: Parameters<typeof toJudgeError>[1]): JudgeError {
  const error = toJudgeError(e, ctx);
  if (error.kind !== 'rate-limit' || error.options.rateLimit) return error;
  const rateLimit = parseRateLimit((error.options.cause as { headers?: Headers } | undefined)?.headers);
  return rateLimit ? new JudgeError(error.kind, error.message, { ...error.options, rateLimit }) : error;
}

/** The SDK's logprobs content as our tokens; null when the endpoint sent none. */
export function toTokens(content: unknown): TokenLogprob[] | null {
  if (!Array.isArray(content) || content.length === 0) return null;
  return content.flatMap((t: unknown) => {
    const { token, logprob, top_logprobs: top } = (t ?? {}) as { token?: unknown; logprob?: unknown; top_logprobs?: unknown };
    if (typeof token !== 'string' || typeof logprob !== 'number') return [];
    const alts = Array.isArray(top)
      ? top.flatMap((a: unknown) => {
          const x = (a ?? {}) as { token?: unknown; logprob?: unknown };
          return typeof x.token === 'string' && typeof x.logprob === 'number' ? [{ token: x.token, logprob: x.logprob }] : [];
        })
      : [];
    return [{ token, logprob, top: alts }];
  });
}

/**
 * The SDK client for an endpoint: no SDK retries (callers own retries), no Authorization header
 * without a key, Azure's api-key header and api-version for Azure. `maxRetries` is for management
 * calls (files, batches) that may use the SDK's own retries.
 */
export function createSdk(options: OpenAIClientOptions, maxRetries = 0): OpenAI {
  const common = {
    maxRetries,
    timeout: options.timeoutMs + 5_000,
    organization: options.organization ?? null,
    project: null,
    logLevel: 'off' as const,
    fetch: normalizingFetch(options.fetch ?? globalThis.fetch),
    defaultHeaders: {
      ...(options.apiKey === undefined ? { Authorization: null } : {}),
      ...options.headers,
    },
  };
  if (options.azureApiVersion !== undefined) {
    if (options.apiKey === undefined) {
      throw new JudgeError('config', 'Azure OpenAI needs an API key: set the variable named by --api-key-env');
    }
    // A URL that already names /openai (or a deployment) is the base URL; a bare resource URL is the endpoint.
    const isBase = /\/openai(\/|$)/.test(new URL(options.baseURL).pathname);
    return new AzureOpenAI({
      ...common,
      apiKey: options.apiKey,
      apiVersion: options.azureApiVersion,
      ...(isBase ? { baseURL: options.baseURL } : { endpoint: options.baseURL, baseURL: null }),
    });
  }
  // The SDK insists on a key string; with no key we strip the header instead of sending a fake one.
  return new OpenAI({ ...common, apiKey: options.apiKey ?? 'no-key', baseURL: options.baseURL });
}

export type MaxTokensKey = 'max_tokens' | 'max_completion_tokens';

/**
 * The chat-completions body for a request, as `run` sends it and as a Batch API line carries it:
 * the structured-output `mode` actually used and the name of the token-limit field.
 */
export function chatBody(request: JudgeRequest, mode: StructuredOutputMode, maxTokensKey: MaxTokensKey = 'max_tokens'): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, messages: request.messages };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body[maxTokensKey] = request.maxTokens;
  if (request.logprobs) {
    body.logprobs = true;
    body.top_logprobs = 20;
  }
  if (mode === 'json_schema' && request.responseFormat) {
    const { name, schema } = request.responseFormat;
    body.response_format = { type: 'json_schema', json_schema: { name, schema, strict: true } };
  } else if (mode === 'json_object') {
    body.response_format = { type: 'json_object' };
  }
  return body;
}

export function toUsage(u: unknown): TokenUsage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const { prompt_tokens: p, completion_tokens: c, total_tokens: t, prompt_tokens_details: d } = u as Record<string, unknown>;
  if (typeof p !== 'number' && typeof c !== 'number') return undefined;
  const promptTokens = typeof p === 'number' ? p : 0;
  const completionTokens = typeof c === 'number' ? c : 0;
  // Prompt caching (OpenAI, Azure, vLLM with prefix caching): the share of the prompt read from cache.
  const cached = d && typeof d === 'object' ? (d as { cached_tokens?: unknown }).cached_tokens : undefined;
  return {
    promptTokens,
    completionTokens,
    totalTokens: typeof t === 'number' ? t : promptTokens + completionTokens,
    ...(typeof cached === 'number' && cached > 0 ? { cachedTokens: cached } : {}),
  };
}

/**
 * Rewrites non-OpenAI error bodies into OpenAI's `{error: {message}}` so the SDK's error message
 * carries the server's words: vLLM `{object: "error", message}`, Ollama/LM Studio `{error: "text"}`,
 * FastAPI `{detail}`, or plain text.
 */
export function normalizingFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok) return response;
    return rebuild(response, normalizedErrorBody(await response.text().catch(() => '')));
  };
}

function rebuild(response: Response, body: string): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  if (body !== '') headers.set('content-type', 'application/json');
  return new Response(body === '' ? null : body, { status: response.status, statusText: response.statusText, headers });
}
