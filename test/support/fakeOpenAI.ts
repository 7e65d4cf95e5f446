// A local OpenAI-compatible server for tests, benchmarks and the VS Code e2e runs. It answers
// /chat/completions by rules the test sets and records every request it receives.
//   node out/test/support/fakeOpenAI.js [--port N] [--latency MS] [--rules module.js]
//                                       [--rate N [--rate-model bucket|window|fixed] [--no-rate-headers]] [--no-record]
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export interface RecordedRequest {
  /** 0-based arrival number among all requests. */
  index: number;
  method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined when absent or not JSON). */
  body: ChatBody | undefined;
  /** Every message's content, joined by blank lines (handy for prompt-derived replies). */
  prompt: string;
}

export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: Record<string, unknown>; strict?: boolean } };
  temperature?: number;
  max_tokens?: number;
  [key: string]: unknown;
}

export type FakeUsage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

export type FakeAction = (
  | {
      /** Assistant message content. */
      reply: string;
      model?: string;
      /** null: omit `usage` (as some local servers do); default: estimated from lengths. */
      usage?: FakeUsage | null;
      /** Extra message fields, e.g. `reasoning_content` as vLLM/DeepSeek send it. */
      message?: Record<string, unknown>;
      /**
       * When the request asks for logprobs: null sends none (as many local servers); `score` gives the
       * probabilities of the alternatives at the score's token (default: the written score, certain).
       */
      logprobs?: { score?: Record<string, number> } | null;
    }
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  /** Sends the status line and half a body, then destroys the socket. */
  | { drop: true }
  /**
   * A 200 chat completion whose content is `bytes` bytes of text, made as it is sent (chunked, no
   * content-length, with backpressure): a 300 MB reply without 300 MB in the test process.
   */
  | { hugeReply: number }
) & { /** Wait this long before answering (on top of the server latency). */ delayMs?: number };

/** Returns an action, or undefined to let the next rule (finally `autoReply`) answer. */
export type FakeRule = (request: RecordedRequest) => FakeAction | undefined;

export interface FakeServerOptions {
  rules?: FakeRule[];
  /** Added before every answer, for benchmarks. */
  latencyMs?: number;
  port?: number;
  /** A request rate limit on chat completions (see `RateLimit`). */
  rateLimit?: RateLimitOptions;
  /** false: count requests without keeping them (benchmarks with 100,000 rows). */
  record?: boolean;
}

export interface RateLimitOptions {
  /** Requests allowed per second. */
  perSecond: number;
  /**
   * `bucket` (default, OpenAI's model): a bucket of `perSecond` requests refilled continuously.
   * `window`: at most `perSecond` requests in any 1-second window (a log of arrivals), stricter.
   * `fixed`: at most `perSecond` requests per clock second (a counter reset every second).
   */
  model?: 'bucket' | 'window' | 'fixed';
  /**
   * Send `x-ratelimit-limit/remaining/reset-requests` on every reply (default true). What the reset
   * means follows the model, as servers differ: bucket, OpenAI's (until the bucket is full again);
   * window, until the oldest request in the window leaves it; fixed, until the clock second ends.
   */
  headers?: boolean;
  /** The `retry-after` of a 429, in seconds (default "1"). */
  retryAfter?: string;
}

/** A rate limit in front of /chat/completions; beyond it, 429 with `retry-after`. */
export class RateLimit {
  private tokens: number;
  private at = performance.now();
  /** Window model: arrival times of the requests let through in the last second. */
  private readonly log: number[] = [];
  /** Fixed model: the current clock second and the requests let through in it. */
  private second = -1;
  private inSecond = 0;
  /** Requests refused with 429, and let through. */
  refused = 0;
  passed = 0;
  /** When the first and the last request passed (ms, performance.now()). */
  firstPass: number | undefined;
  lastPass: number | undefined;

  constructor(readonly options: RateLimitOptions) {
    this.tokens = options.perSecond;
  }

  /** Takes a token for a request; returns the headers of the reply, and whether it passed. */
  take(): { ok: boolean; headers: Record<string, string> } {
    const { perSecond } = this.options;
    const now = performance.now();
    if (this.options.model === 'fixed') {
      const wall = Date.now();
      const second = Math.floor(wall / 1000);
      if (second !== this.second) [this.second, this.inSecond] = [second, 0];
      const ok = this.count(this.inSecond < perSecond, now);
      if (ok) this.inSecond++;
      return { ok, headers: this.headers(ok, perSecond - this.inSecond, (second + 1) * 1000 - wall) };
    }
    if (this.options.model === 'window') {
      while (this.log.length > 0 && (this.log[0] as number) <= now - 1000) this.log.shift();
      const ok = this.log.length < perSecond;
      if (ok) this.log.push(now);
      const oldest = this.log[0];
      return { ok: this.count(ok, now), headers: this.headers(ok, perSecond - this.log.length, oldest === undefined ? 0 : oldest + 1000 - now) };
    }
    this.tokens = Math.min(perSecond, this.tokens + ((now - this.at) * perSecond) / 1000);
    this.at = now;
    const ok = this.count(this.tokens >= 1, now);
    if (ok) this.tokens -= 1;
    return { ok, headers: this.headers(ok, Math.floor(this.tokens), ((perSecond - this.tokens) * 1000) / perSecond) };
  }

  private headers(ok: boolean, remaining: number, resetMs: number): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.options.headers !== false) {
      headers['x-ratelimit-limit-requests'] = String(this.options.perSecond);
      headers['x-ratelimit-remaining-requests'] = String(Math.max(0, remaining));
      headers['x-ratelimit-reset-requests'] = goDuration(resetMs);
    }
    if (!ok) headers['retry-after'] = this.options.retryAfter ?? '1';
    return headers;
  }

  private count(ok: boolean, now: number): boolean {
    if (ok) {
      this.passed++;
      this.firstPass ??= now;
      this.lastPass = now;
    } else this.refused++;
    return ok;
  }
}

/** Milliseconds as OpenAI writes `x-ratelimit-reset-requests`: `20ms`, `1.5s`, `6m0s`. */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number(s.toFixed(3))}s`;
  return `${Math.floor(s / 60)}m${Number((s % 60).toFixed(3))}s`;
}

export class FakeOpenAI {
  readonly requests: RecordedRequest[] = [];
  /** Requests received (also when they are not recorded). */
  received = 0;
  private readonly record: boolean;
  rules: FakeRule[];
  latencyMs: number;
  /** The rate limit, when one is set; its counters say how many requests it refused. */
  rateLimit: RateLimit | undefined;
  private readonly server: http.Server;

  private constructor(options: FakeServerOptions) {
    this.rules = options.rules ?? [];
    this.latencyMs = options.latencyMs ?? 0;
    this.rateLimit = options.rateLimit ? new RateLimit(options.rateLimit) : undefined;
    this.record = options.record ?? true;
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  static async start(options: FakeServerOptions = {}): Promise<FakeOpenAI> {
    const fake = new FakeOpenAI(options);
    await new Promise<void>((resolve, reject) => {
      fake.server.once('error', reject);
      fake.server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://127.0.0.1:PORT/v1`, what `--base-url` takes. */
  get baseURL(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Recorded chat-completion requests only. */
  get chats(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: ChatBody | undefined;
      try {
        body = text ? (JSON.parse(text) as ChatBody) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        index: this.received++,
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        prompt: (body?.messages ?? []).map((m) => String(m.content)).join('\n\n'),
      };
      if (this.record) this.requests.push(recorded);
      const limited = this.rateLimit && recorded.path.endsWith('/chat/completions') ? this.rateLimit.take() : undefined;
      const action: FakeAction = limited && !limited.ok ? status(429, 'Rate limit reached for requests', limited.headers) : this.route(recorded);
      const extra = limited?.ok ? limited.headers : undefined;
      const delay = this.latencyMs + (action.delayMs ?? 0);
      if (delay <= 0) return send(res, action, recorded, extra);
      const timer = setTimeout(() => send(res, action, recorded, extra), delay);
      res.on('close', () => clearTimeout(timer));
    });
  }

  private route(r: RecordedRequest): FakeAction {
    if (r.method === 'GET' && r.path.endsWith('/models')) {
      return { status: 200, json: { object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'fake' }] } };
    }
    if (r.method !== 'POST' || !r.path.endsWith('/chat/completions')) {
      return { status: 404, json: { error: { message: `no route ${r.method} ${r.path}`, type: 'invalid_request_error' } } };
    }
    if (!r.body) return { status: 400, json: { error: { message: 'body is not JSON', type: 'invalid_request_error' } } };
    for (const rule of this.rules) {
      const action = rule(r);
      if (action) return action;
    }
    return autoReply(r);
  }
}

function send(res: http.ServerResponse, action: FakeAction, r: RecordedRequest, extra?: Record<string, string>): void {
  if (res.destroyed) return;
  if ('drop' in action) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"id":"chatcmpl-fake","object":"chat.completion","choices":[{"index":0,');
    setImmediate(() => res.socket?.destroy());
    return;
  }
  if ('hugeReply' in action) return sendHuge(res, action.hugeReply, r);
  if ('status' in action) {
    const payload = action.text ?? (action.json !== undefined ? JSON.stringify(action.json) : '');
    res.writeHead(action.status, { 'content-type': action.text !== undefined ? 'text/plain' : 'application/json', ...extra, ...action.headers });
    res.end(payload);
    return;
  }
  const completion = completionBody(action, r, `chatcmpl-fake-${r.index}`);
  res.writeHead(200, { 'content-type': 'application/json', ...extra });
  res.end(JSON.stringify(completion));
}

/** Streams a completion with `bytes` bytes of content, 64 KiB at a time, as the client takes them. */
function sendHuge(res: http.ServerResponse, bytes: number, r: RecordedRequest): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let left = bytes;
  res.write(`{"id":"chatcmpl-huge-${r.index}","object":"chat.completion","model":"${r.body?.model ?? 'fake'}","choices":[{"index":0,"message":{"role":"assistant","content":"`);
  const pump = (): void => {
    while (left > 0) {
      if (res.destroyed) return;
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"},"finish_reason":"stop"}]}');
  };
  res.on('error', () => undefined);
  pump();
}

type ReplyAction = Extract<FakeAction, { reply: string }>;

/** The chat.completion body for a reply action, as both fake servers (chat and batch) send it. */
export function completionBody(action: ReplyAction, r: Pick<RecordedRequest, 'prompt' | 'body'>, id: string): Record<string, unknown> {
  const promptTokens = Math.ceil(r.prompt.length / 4);
  const completionTokens = Math.ceil(action.reply.length / 4);
  const completion: Record<string, unknown> = {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: action.model ?? r.body?.model ?? 'fake',
    choices: [
      { index: 0, message: { role: 'assistant', content: action.reply, ...action.message }, finish_reason: 'stop', logprobs: r.body?.logprobs === true ? fakeLogprobs(action) : null },
    ],
  };
  if (action.usage !== null) {
    completion.usage = action.usage ?? {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    };
  }
  return completion;
}

/** Tokens of a reply (runs of digits and of everything else), with alternatives at the score's digits. */
function fakeLogprobs(action: { reply: string; logprobs?: { score?: Record<string, number> } | null }): unknown {
  if (action.logprobs === null) return null;
  const scoreAt = /"score"\s*:\s*/.exec(action.reply);
  const at = scoreAt ? scoreAt.index + scoreAt[0].length : -1;
  let offset = 0;
  const content = (action.reply.match(/\d+|[^\d]+/g) ?? []).map((token) => {
    const start = offset;
    offset += token.length;
    const probs = start === at ? (action.logprobs?.score ?? { [token]: 1 }) : { [token]: 1 };
    const top = Object.entries(probs).map(([t, p]) => ({ token: t, logprob: Math.log(p), bytes: null }));
    return { token, logprob: Math.log(probs[token] ?? 1), bytes: null, top_logprobs: top };
  });
  return { content, refusal: null };
}

// ---- reply helpers for rules ----

/** A reply whose content is `value` as bare JSON (strings are sent as they are). */
export function reply(value: unknown, extra: Omit<Extract<FakeAction, { reply: string }>, 'reply'> = {}): FakeAction {
  return { reply: typeof value === 'string' ? value : JSON.stringify(value), ...extra };
}

/** The JSON inside a ```json fence after a sentence of prose. */
export function fenced(value: unknown): FakeAction {
  return { reply: `Here is my evaluation.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n` };
}

/** The JSON in the middle of prose, with no fence. */
export function prose(value: unknown): FakeAction {
  return { reply: `After weighing the response carefully, my verdict is ${JSON.stringify(value)} — I hope that helps.` };
}

export function status(code: number, message = `fake ${code}`, headers: Record<string, string> = {}): FakeAction {
  return { status: code, json: { error: { message, type: 'fake_error', code: null } }, headers };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The two responses of a pairwise prompt: the text under the last short label line naming
 * "Response A" up to the "Response B" label, and from there to the next heading.
 */
export function pairSlots(prompt: string): { a: string; b: string } | undefined {
  const lines = prompt.split('\n');
  // A delimiter tag such as <response_a> is not a label.
  const label = (l: string, side: 'a' | 'b') => l.trim().length <= 30 && !l.trim().startsWith('<') && new RegExp(`response[\\s_]*${side}\\b`, 'i').test(l);
  let ia = -1;
  let ib = -1;
  lines.forEach((l, i) => {
    if (label(l, 'a')) ia = i;
    else if (ia >= 0 && label(l, 'b')) ib = i;
  });
  if (ia < 0 || ib < ia) return undefined;
  const end = lines.findIndex((l, i) => i > ib && l.startsWith('#'));
  return { a: untag(lines.slice(ia + 1, ib).join('\n').trim()), b: untag(lines.slice(ib + 1, end < 0 ? undefined : end).join('\n').trim()) };
}

/** The text inside delimiter tags (`<response_a>…</response_a>`), as the judge is meant to read it. */
function untag(slot: string): string {
  const m = /^<([\w.-]+)>\n([\s\S]*)\n<\/\1>$/.exec(slot);
  return m ? (m[2] ?? '').trim() : slot;
}

/**
 * A valid judge reply for any request. Pairwise (`winner` in the schema or prompt): the longer
 * response wins with confidence 0.8, equal lengths tie, so verdicts survive the position swap.
 * Pointwise: a score in the scale read from the schema or the output instruction, chosen by a
 * hash of the prompt so equal prompts get equal scores.
 */
export function autoReply(r: RecordedRequest): FakeAction {
  const schema = r.body?.response_format?.json_schema?.schema as { properties?: Record<string, { minimum?: number; maximum?: number }> } | undefined;
  const props = schema?.properties;
  if (props?.winner || (!props && /"winner"/.test(r.prompt))) {
    const slots = pairSlots(r.prompt);
    const diff = slots ? slots.a.length - slots.b.length : 1;
    const winner = diff > 0 ? 'A' : diff < 0 ? 'B' : 'TIE';
    const justification = winner === 'TIE' ? 'Both responses are equally long.' : `Response ${winner} is longer.`;
    return reply({ justification, winner, confidence: winner === 'TIE' ? 0.5 : 0.8 });
  }
  const criteria = (props?.criteria as { properties?: Record<string, { properties?: { score?: { minimum?: number; maximum?: number } } }> } | undefined)?.properties;
  if (criteria) {
    // Multi-criterion pointwise: each criterion scored by a hash of the prompt and its name.
    const entries = Object.entries(criteria).map(([name, c]) => {
      const lo = c.properties?.score?.minimum ?? 1;
      const hi = c.properties?.score?.maximum ?? 5;
      const score = lo + (hash(`${name}\n${r.prompt}`) % (hi - lo + 1));
      return [name, { evidence: [`fake evidence for ${name}`], justification: `Scored ${score} by the fake judge.`, score, improvement: `Improve ${name}.` }];
    });
    return reply({ criteria: Object.fromEntries(entries), summary: 'Summarised by the fake judge.' });
  }
  let min = props?.score?.minimum;
  let max = props?.score?.maximum;
  if (min === undefined || max === undefined) {
    const m = /integer (?:from )?(-?\d+)(?: to |-)(-?\d+)/.exec(r.prompt);
    min = m ? Number(m[1]) : 1;
    max = m ? Number(m[2]) : 5;
  }
  const score = min + (hash(r.prompt) % (max - min + 1));
  return reply({ justification: `Scored ${score} by the fake judge.`, score });
}

// ---- standalone entry ----

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  let rules: FakeRule[] = [];
  const rulesFile = arg('--rules');
  if (rulesFile) {
    const mod = require(path.resolve(rulesFile)) as { rules?: FakeRule[]; default?: FakeRule | FakeRule[] };
    const found = mod.rules ?? mod.default;
    rules = Array.isArray(found) ? found : found ? [found] : [];
  }
  const rate = arg('--rate');
  const rateLimit: RateLimitOptions | undefined =
    rate !== undefined ? { perSecond: Number(rate), headers: !argv.includes('--no-rate-headers'), model: (arg('--rate-model') ?? 'bucket') as 'bucket' | 'window' | 'fixed' } : undefined;
  const fake = await FakeOpenAI.start({
    port: Number(arg('--port') ?? 0),
    latencyMs: Number(arg('--latency') ?? 0),
    rules,
    record: !argv.includes('--no-record'),
    ...(rateLimit ? { rateLimit } : {}),
  });
  process.stdout.write(`fake OpenAI listening on ${fake.baseURL}\n`);
  // `stats` on stdin prints the rate limit's counters (benchmarks read them).
  process.stdin.on('data', (d: Buffer) => {
    if (d.toString().trim() === 'stats') {
      const r = fake.rateLimit;
      process.stdout.write(`stats ${JSON.stringify({ requests: fake.received, refused: r?.refused ?? 0, passed: r?.passed ?? fake.received, spanMs: r && r.firstPass !== undefined && r.lastPass !== undefined ? r.lastPass - r.firstPass : null })}\n`);
    }
  });
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`fakeOpenAI: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  });
}
