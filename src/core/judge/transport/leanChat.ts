// The chat-completions call without the SDK's per-request machinery (option merging, async header
// building, debug-log formatting, a second AbortController, response wrappers), which cost as much
// CPU per call as everything else in a run. Behaviour stays the SDK's: the URL and headers are the
// ones the SDK builds (asked once per model, so Azure's deployment paths come out the same), and
// failures are the SDK's own error classes, built the way it builds them, so errors.ts maps them.
// Redirects are not followed: with fetch's default `redirect: 'follow'` undici keeps a copy (a tee)
// of every request body in case it must be sent again, and a chat endpoint that redirects would
// carry the key and the prompt to wherever it points; a 3xx is an error that names the target.
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

  /** What `sdk.chat.completions.create(body)` resolves to (the parsed body: JSON, text, or null), with the reply's headers. */
  async create(body: Record<string, unknown>, signal: AbortSignal, callerSignal?: AbortSignal): Promise<{ body: unknown; headers: Headers }> {
    const model = String(body.model);
    const { url, headers } = this.ready.get(model) ?? (await this.route(model));
    if (callerSignal?.aborted) throw new APIUserAbortError();
    let response: Response;
    try {
      response = await this.fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'manual' });
    } catch (e) {
      if (callerSignal?.aborted) throw new APIUserAbortError();
      const err = e instanceof Error ? e : new Error(String(e));
      const isTimeout = err.name === 'AbortError' || /timed? ?out/i.test(String(err) + ('cause' in err ? String(err.cause) : ''));
      if (isTimeout) throw new APIConnectionTimeoutError();
      throw new APIConnectionError({ cause: err });
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      const to = response.headers.get('location');
      const message = `the endpoint redirects${to ? ` to ${to}` : ''}; redirects are not followed (they would carry the key and the data elsewhere): pass the final URL as the base URL`;
      throw APIError.generate(response.status, { error: { message } }, undefined, response.headers);
    }
    if (!response.ok) {
      const errText = await response.text().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
      const errJSON = safeJSON(errText);
      throw APIError.generate(response.status, errJSON, errJSON ? undefined : errText, response.headers);
    }
    const replyHeaders = response.headers;
    if (response.status === 204) return { body: null, headers: replyHeaders };
    const mediaType = replyHeaders.get('content-type')?.split(';')[0]?.trim();
    if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
      if (replyHeaders.get('content-length') === '0') return { body: undefined, headers: replyHeaders };
      return { body: await response.json(), headers: replyHeaders };
    }
    return { body: await response.text(), headers: replyHeaders };
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

function safeJSON(text: string): Object | undefined {
  try {
    return JSON.parse(text) as Object;
  } catch {
    return undefined;
  }
}
