// POST over node:http(s) with keep-alive agents: the chat-completions transport. For the same
// requests, fetch (undici's WHATWG layer: Request and Response objects, web streams, an
// AbortController per request) costs about four times the CPU of a plain http.request, which
// made the whole run CPU-bound at high concurrency. Per call there is one timer and no abort
// listener: one listener per caller signal aborts every call of that signal. Redirects are not
// followed (a 3xx is returned as it is). Failures are the openai SDK's error classes, as its own fetch-based path raises them.
import * as http from 'node:http';
import * as https from 'node:https';
import * as zlib from 'node:zlib';
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from 'openai/core/error';
import type { ChunkedBody } from '../../jsonWrite';

/** A reply body longer than the cap (`--max-reply-bytes`): the connection is closed as soon as it passes it. */
export class ReplyTooLargeError extends Error {
  override readonly name = 'ReplyTooLargeError';
  constructor(
    readonly limit: number,
    /** The length the server declared, when it declared one. */
    readonly declared?: number,
  ) {
    super(`the reply is longer than ${limit.toLocaleString('en-US')} bytes${declared !== undefined ? ` (it announced ${declared.toLocaleString('en-US')})` : ''}`);
  }
}

export interface HttpReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, decoded from its content-encoding. */
  text: string;
}

interface Call {
  req: http.ClientRequest;
  signal: AbortSignal | undefined;
  reject: (e: Error) => void;
}

export class HttpPoster {
  private readonly httpAgent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, scheduling: 'lifo' });
  private readonly calls = new Set<Call>();
  private readonly watched = new WeakSet<AbortSignal>();

  /**
   * Posts `body` (text, or bytes made chunk by chunk); rejects with the SDK's timeout, abort or
   * connection error, or ReplyTooLargeError once the decoded reply passes `maxBytes`.
   */
  post(url: URL, headers: Record<string, string>, body: string | ChunkedBody, timeoutMs: number, signal?: AbortSignal, maxBytes = Infinity): Promise<HttpReply> {
    if (signal?.aborted) return Promise.reject(new APIUserAbortError());
    if (signal && !this.watched.has(signal)) this.watch(signal);
    const secure = url.protocol === 'https:';
    return new Promise<HttpReply>((resolve, reject) => {
      const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : undefined;
      const req = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'content-length': String(payload ? payload.length : (body as ChunkedBody).length) },
      });
      let settled = false;
      const call: Call = { req, signal, reject: (e) => finish(e) };
      const finish = (e: Error | undefined, reply?: HttpReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.calls.delete(call);
        if (e) {
          req.destroy();
          reject(e);
        } else resolve(reply as HttpReply);
      };
      const timer = setTimeout(() => finish(new APIConnectionTimeoutError()), timeoutMs);
      this.calls.add(call);
      req.on('error', (e) => finish(signal?.aborted ? new APIUserAbortError() : new APIConnectionError({ cause: e })));
      req.on('response', (res) => readReply(res, maxBytes, finish));
      if (payload) req.end(payload);
      else sendChunks(req, (body as ChunkedBody).chunks());
    });
  }

  /** One listener per caller signal: its abort ends every call it started. */
  private watch(signal: AbortSignal): void {
    this.watched.add(signal);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of this.calls) if (call.signal === signal) call.reject(new APIUserAbortError());
      },
      { once: true },
    );
  }
}

/**
 * The reply body, read as it streams and decoded, never more than `maxBytes` of it: past the cap
 * (or when the declared length is already past it) the connection is dropped and the call fails,
 * so a 2 GB reply costs what the cap costs.
 */
function readReply(res: http.IncomingMessage, maxBytes: number, finish: (e: Error | undefined, reply?: HttpReply) => void): void {
  const status = res.statusCode ?? 0;
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes && !res.headers['content-encoding']) return finish(new ReplyTooLargeError(maxBytes, declared));
  const chunks: Buffer[] = [];
  let bytes = 0;
  const stream = decoded(res);
  stream.on('data', (c: Buffer) => {
    bytes += c.length;
    if (bytes > maxBytes) {
      chunks.length = 0;
      return finish(new ReplyTooLargeError(maxBytes));
    }
    chunks.push(c);
  });
  stream.on('error', (e) => finish(new APIConnectionError({ cause: e })));
  res.on('aborted', () => finish(new APIConnectionError({ cause: new Error('terminated: the connection closed before the reply ended') })));
  stream.on('end', () => finish(undefined, { status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
}

/** Writes the chunks as the socket takes them (waiting for 'drain'), then ends the request. */
function sendChunks(req: http.ClientRequest, chunks: Iterable<Uint8Array>): void {
  const it = chunks[Symbol.iterator]();
  const pump = (): void => {
    for (;;) {
      if (req.destroyed) return;
      const next = it.next();
      if (next.done) return void req.end();
      if (!req.write(next.value)) return void req.once('drain', pump);
    }
  };
  pump();
}

function decoded(res: http.IncomingMessage): NodeJS.ReadableStream {
  switch (String(res.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return res.pipe(zlib.createGunzip());
    case 'deflate':
      return res.pipe(zlib.createInflate());
    case 'br':
      return res.pipe(zlib.createBrotliDecompress());
    default:
      return res;
  }
}

/** A reply's headers as the `{ get }` that header readers take. */
export function headerReader(headers: http.IncomingHttpHeaders): { get(name: string): string | null } {
  return {
    get(name) {
      const v = headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  };
}

/** The same headers as a fetch `Headers`, which the SDK's APIError keeps. */
export function toHeaders(headers: http.IncomingHttpHeaders): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) h.append(k, x);
  }
  return h;
}
