// The chat-completions call without the SDK's per-request machinery (option merging, async header
// building, debug-log formatting, a second AbortController, response wrappers), which cost as much
// CPU per call as everything else in a run. Behaviour stays the SDK's: the URL and headers are the
// ones the SDK builds (asked once per model, so Azure's deployment paths come out the same), and
// failures are the SDK's own error classes, built the way it builds them, so errors.ts maps them.
// The request goes over node:http(s) (httpPost.ts); an injected fetch (tests, other runtimes) is
// used as given, with `redirect: 'error'` and `window: null` so undici does not clone, and so tee,
// every request body in case a redirect must replay it (undici#4058). Redirects are never
// followed: one would carry the key and the prompt to wherever it points. A body with a huge text
// in it (a 50 MB field) is sent in chunks made as they go, with its content-length, so neither a
// second copy of the text nor of its bytes is made.
import { holdsLargeText, jsonBody, jsonStream } from '../../jsonWrite';
import type OpenAI from 'openai';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai/core/error';
import { headerReader, HttpPoster, ReplyTooLargeError, toHeaders, type HttpReply } from './httpPost';
import { parseBoundedJson } from '../../security/jsonDepth';
import { JudgeError } from './types';

/** The longest reply body read by default (`--max-reply-bytes`): a judge's verdict is a few KB; 8 MiB leaves room for long reasoning. */
export const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024;

interface Route {
  url: URL;
  headers: Record<string, string>;
}

/** What undici needs to skip the per-request clone (not in the DOM RequestInit type). */
type LeanInit = RequestInit & { window: null };

export interface LeanReply {
  /** The parsed body: JSON, text, or null (what `sdk.chat.completions.create` resolves to). */
  body: unknown;
  headers: { get(name: string): string | null };
}

export class LeanChat {
  private readonly routes = new Map<string, Promise<Route>>();
  /** Routes already built, used without an await. */
  private readonly ready = new Map<string, Route>();
  private readonly poster: HttpPoster | undefined;

  /** `fetch`: send with it instead of node:http (the error bodies it returns are taken as they are). `maxBytes`: the longest reply body read. */
  constructor(
    private readonly sdk: OpenAI,
    private readonly fetch?: typeof globalThis.fetch,
    private readonly maxBytes = DEFAULT_MAX_REPLY_BYTES,
  ) {
    this.poster = fetch ? undefined : new HttpPoster();
  }

  async create(body: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<LeanReply> {
    const model = String(body.model);
    const { url, headers } = this.ready.get(model) ?? (await this.route(model));
    if (signal?.aborted) throw new APIUserAbortError();
    const large = holdsLargeText(body);
    if (this.poster) return parse(await this.poster.post(url, headers, large ? jsonBody(body) : JSON.stringify(body), timeoutMs, signal, this.maxBytes), url);
    return this.viaFetch(url, headers, body, large, timeoutMs, signal);
  }

  private async viaFetch(url: URL, headers: Record<string, string>, body: Record<string, unknown>, large: boolean, timeoutMs: number, signal?: AbortSignal): Promise<LeanReply> {
    const deadline = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      const init: LeanInit = { method: 'POST', ...requestBody(headers, body, large), signal: deadline, redirect: 'error', window: null };
      response = await (this.fetch as typeof globalThis.fetch)(url, init);
    } catch (e) {
      if (signal?.aborted) throw new APIUserAbortError();
      const err = e instanceof Error ? e : new Error(String(e));
      if (/redirect/i.test(String(err.cause))) throw redirected(url, undefined);
      if (deadline.aborted || /timed? ?out/i.test(String(err) + ('cause' in err ? String(err.cause) : ''))) throw new APIConnectionTimeoutError();
      throw new APIConnectionError({ cause: err });
    }
    const replyText = await cappedText(response, this.maxBytes);
    const replyHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (replyHeaders[name] = value));
    return parse({ status: response.status, headers: replyHeaders, text: replyText }, url);
  }

  /** The SDK's URL and headers for a chat completion with this model (Azure puts the deployment in the path). */
  private route(model: string): Promise<Route> {
    let route = this.routes.get(model);
    if (!route) {
      route = this.sdk.buildRequest({ method: 'post', path: '/chat/completions', body: { model } }).then(({ req, url }) => {
        const headers: Record<string, string> = {};
        new Headers(req.headers as HeadersInit).forEach((value, name) => (headers[name] = value));
        const built = { url: new URL(url), headers };
        this.ready.set(model, built);
        return built;
      });
      // A failure (a bad base URL) is not cached: the next call asks again and fails the same way.
      route.catch(() => this.routes.delete(model));
      this.routes.set(model, route);
    }
    return route;
  }
}

/** A reply as the SDK reads it: an APIError for a status that is not ok, else the body by its media type. */
function parse(reply: HttpReply, url: URL): LeanReply {
  const headers = headerReader(reply.headers);
  if (reply.status >= 300 && reply.status < 400) throw redirected(url, reply.status);
  if (reply.status < 200 || reply.status >= 300) {
    const text = normalizedErrorBody(reply.text);
    const json = safeJSON(text);
    throw APIError.generate(reply.status, json, json ? undefined : text || undefined, toHeaders(reply.headers));
  }
  if (reply.status === 204) return { body: null, headers };
  const mediaType = headers.get('content-type')?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    if (reply.text === '') return { body: undefined, headers };
    try {
      return { body: parseBoundedJson(reply.text), headers };
    } catch (e) {
      throw new JudgeError('http', `the endpoint answered ${reply.status} with a body that cannot be read (${(e as Error).message.slice(0, 200)})`, { status: reply.status, retryable: false, errorKind: 'invalid-reply' });
    }
  }
  return { body: reply.text, headers };
}

/** A fetch Response's text, read as it streams and refused past `maxBytes` (as httpPost does). */
async function cappedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes && !response.headers.get('content-encoding')) {
    await response.body?.cancel().catch(() => undefined);
    throw new ReplyTooLargeError(maxBytes, declared);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ReplyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function redirected(url: URL, status: number | undefined): OpenAIError {
  return new OpenAIError(
    `${url.origin}${url.pathname} answered with a redirect${status ? ` (${status})` : ''}; redirects are not followed (they would carry the key and the data elsewhere): pass the final URL as the base URL`,
  );
}

/**
 * An error body in OpenAI's `{error: {message}}` shape, so the SDK's error message carries the
 * server's words: vLLM `{object: "error", message}`, Ollama/LM Studio `{error: "text"}`, FastAPI
 * `{detail}`, or plain text. '' when there are no words.
 */
export function normalizedErrorBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(text);
  } catch {
    const message = text.trim();
    return message ? JSON.stringify({ error: { message } }) : '';
  }
  if (!parsed || typeof parsed !== 'object') return JSON.stringify({ error: { message: text } });
  const p = parsed as Record<string, unknown>;
  if (p.error && typeof p.error === 'object') return text;
  const m = typeof p.error === 'string' ? p.error : (p.message ?? p.detail);
  return JSON.stringify({ error: { message: typeof m === 'string' ? m : m !== undefined ? JSON.stringify(m) : text } });
}

/** The fetch body: JSON text, or with a huge text in it a stream of its bytes made chunk by chunk, with its content-length. */
function requestBody(headers: Record<string, string>, body: Record<string, unknown>, large: boolean): { headers: Record<string, string>; body: BodyInit; duplex?: 'half' } {
  if (!large) return { headers, body: JSON.stringify(body) };
  const { stream, length } = jsonStream(body);
  return { headers: { ...headers, 'content-length': String(length) }, body: stream, duplex: 'half' };
}

function safeJSON(text: string): Object | undefined {
  try {
    return parseBoundedJson(text) as Object;
  } catch {
    return undefined;
  }
}
