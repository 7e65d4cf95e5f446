// The chat-completions call without the SDK's per-request machinery (option merging, async header
// building, debug-log formatting, a second AbortController, response wrappers), which cost as much
// CPU per call as everything else in a run. Behaviour stays the SDK's: the URL and headers are the
// ones the SDK builds (asked once per model, so Azure's deployment paths come out the same), and
// failures are the SDK's own error classes, built the way it builds them, so errors.ts maps them.
import { holdsLargeText, jsonStream } from '../../jsonWrite';
import type OpenAI from 'openai';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

interface Route {
  url: string;
  headers: Headers;
}

export class LeanChat {
  private readonly routes = new Map<string, Promise<Route>>();
  /** Routes already built, used without an await. */
  private readonly ready = new Map<string, Route>();

  constructor(
    private readonly sdk: OpenAI,
    private readonly fetch: typeof globalThis.fetch,
  ) {}

  /** What `sdk.chat.completions.create(body)` resolves to: the parsed body (JSON, text, or null). */
  async create(body: Record<string, unknown>, signal: AbortSignal, callerSignal?: AbortSignal): Promise<unknown> {
    const model = String(body.model);
    const { url, headers } = this.ready.get(model) ?? (await this.route(model));
    if (callerSignal?.aborted) throw new APIUserAbortError();
    let response: Response;
    try {
      response = await this.fetch(url, { method: 'POST', ...requestBody(headers, body), signal });
    } catch (e) {
      if (callerSignal?.aborted) throw new APIUserAbortError();
      const err = e instanceof Error ? e : new Error(String(e));
      const isTimeout = err.name === 'AbortError' || /timed? ?out/i.test(String(err) + ('cause' in err ? String(err.cause) : ''));
      if (isTimeout) throw new APIConnectionTimeoutError();
      throw new APIConnectionError({ cause: err });
    }
    if (!response.ok) {
      const errText = await response.text().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
      const errJSON = safeJSON(errText);
      throw APIError.generate(response.status, errJSON, errJSON ? undefined : errText, response.headers);
    }
    if (response.status === 204) return null;
    const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim();
    if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
      if (response.headers.get('content-length') === '0') return undefined;
      return response.json();
    }
    return response.text();
  }

  /** The SDK's URL and headers for a chat completion with this model (Azure puts the deployment in the path). */
  private route(model: string): Promise<Route> {
    let route = this.routes.get(model);
    if (!route) {
      route = this.sdk.buildRequest({ method: 'post', path: '/chat/completions', body: { model } }).then(({ req, url }) => {
        const built = { url, headers: new Headers(req.headers as HeadersInit) };
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

/**
 * The body as JSON text; with a huge text in it (a 50 MB field), as a stream of bytes made piece
 * by piece with its content-length, so neither a second copy of the text nor of its bytes is made.
 */
function requestBody(headers: Headers, body: Record<string, unknown>): { headers: Headers; body: BodyInit; duplex?: 'half'; redirect?: RequestRedirect } {
  if (!holdsLargeText(body)) return { headers, body: JSON.stringify(body) };
  const { stream, length } = jsonStream(body);
  const sized = new Headers(headers);
  sized.set('content-length', String(length));
  return { headers: sized, body: stream, duplex: 'half', redirect: 'error' };
}

function safeJSON(text: string): Object | undefined {
  try {
    return JSON.parse(text) as Object;
  } catch {
    return undefined;
  }
}
