// A local OpenAI Files + Batches API for tests, speaking the real wire format: multipart uploads,
// batches moving validating → in_progress → completed one retrieve at a time, output and error
// files whose lines come out of order, expiry, cancellation, and the chat endpoint itself (for
// synchronous repairs). Replies come from the same rules as FakeOpenAI, so a batch and a run agree.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { autoReply, completionBody, type ChatBody, type FakeAction, type FakeRule, type RecordedRequest } from './fakeOpenAI';

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: Buffer;
}

/** How one batch behaves, chosen per batch by `fate` (default: completes). */
export type BatchFate =
  /** Every request runs. */
  | 'complete'
  /** Only the first `ran` requests run; the rest land in the error file as batch_expired. */
  | { expire: number };

interface StoredBatch {
  json: Record<string, unknown> & { id: string; status: string };
  lines: { custom_id: string; body: ChatBody }[];
  fate: BatchFate;
  /** The headers of the request that created the batch (the rules see them, as a server that echoes them would). */
  headers: http.IncomingHttpHeaders;
  /** Requests run before a cancel took effect. */
  cancelAfter?: number;
}

export class FakeBatchServer {
  readonly files = new Map<string, StoredFile>();
  readonly batches = new Map<string, StoredBatch>();
  /** Chat bodies of every request the batches ran or the chat endpoint answered, in order. */
  readonly ran: { custom_id?: string; body: ChatBody }[] = [];
  /** Every HTTP request: method and path. */
  readonly log: string[] = [];
  rules: FakeRule[] = [];
  /** The fate of the next batch created (then reset to 'complete'). */
  nextFate: BatchFate = 'complete';
  /** Retrieves a batch stays in_progress before it completes. */
  progressSteps = 1;
  /** Rewrites a finished batch's output lines before they are stored (a provider misbehaving). */
  tamperOutput: ((lines: string[]) => string[]) | undefined;
  /** File ids whose content answers 404 (a provider that lost or expired a file). */
  readonly unavailable = new Set<string>();
  private seq = 0;
  private readonly server: http.Server;

  private constructor() {
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  static async start(): Promise<FakeBatchServer> {
    const fake = new FakeBatchServer();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', () => resolve()));
    return fake;
  }

  get baseURL(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private id(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks);
      this.log.push(`${req.method} ${url.pathname}${url.search}`);
      // Azure puts the same resources under /openai/… (api-version in the query): one route table for both.
      const p = url.pathname.replace(/^.*?\/(files|batches|chat\/completions)(?=\/|$)/, '/v1/$1');
      try {
        this.route(req, p, body, res);
      } catch (e) {
        json(res, 500, { error: { message: String(e), type: 'server_error' } });
      }
    });
  }

  private route(req: http.IncomingMessage, p: string, body: Buffer, res: http.ServerResponse): void {
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && p === '/v1/files') return this.upload(req, body, res);
    if (req.method === 'GET' && (m = /^\/v1\/files\/([^/]+)\/content$/.exec(p))) {
      const f = this.files.get(m[1]!);
      if (!f || this.unavailable.has(f.id)) return json(res, 404, { error: { message: 'No such File object', type: 'invalid_request_error' } });
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void res.end(f.bytes);
    }
    if (req.method === 'POST' && p === '/v1/batches') return this.create(JSON.parse(body.toString('utf8')) as Record<string, unknown>, req.headers, res);
    if (req.method === 'GET' && (m = /^\/v1\/batches\/([^/]+)$/.exec(p))) {
      const b = this.batches.get(m[1]!);
      if (!b) return json(res, 404, { error: { message: 'No such batch', type: 'invalid_request_error' } });
      this.advance(b);
      return json(res, 200, b.json);
    }
    if (req.method === 'POST' && (m = /^\/v1\/batches\/([^/]+)\/cancel$/.exec(p))) {
      const b = this.batches.get(m[1]!);
      if (!b) return json(res, 404, { error: { message: 'No such batch', type: 'invalid_request_error' } });
      if (b.json.status === 'validating' || b.json.status === 'in_progress') {
        b.json.status = 'cancelling';
        b.cancelAfter = Math.floor(b.lines.length / 2);
      }
      return json(res, 200, b.json);
    }
    if (req.method === 'POST' && p === '/v1/chat/completions') {
      const chat = JSON.parse(body.toString('utf8')) as ChatBody;
      this.ran.push({ body: chat });
      const { status, payload } = this.answer(chat, this.ran.length, req.headers);
      return json(res, status, payload);
    }
    json(res, 404, { error: { message: `no route ${req.method} ${p}`, type: 'invalid_request_error' } });
  }

  /** multipart/form-data with a `purpose` field and a `file` part. */
  private upload(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(req.headers['content-type'] ?? '');
    if (!boundary) return json(res, 400, { error: { message: 'expected multipart/form-data', type: 'invalid_request_error' } });
    const parts = splitMultipart(body, boundary[1] ?? boundary[2]!);
    const purpose = parts.find((x) => x.name === 'purpose')?.data.toString('utf8');
    const file = parts.find((x) => x.name === 'file');
    if (!file || purpose !== 'batch') return json(res, 400, { error: { message: `need a file and purpose=batch, got ${purpose}`, type: 'invalid_request_error' } });
    const stored: StoredFile = { id: this.id('file'), filename: file.filename ?? 'upload', purpose, bytes: file.data };
    this.files.set(stored.id, stored);
    json(res, 200, { id: stored.id, object: 'file', bytes: stored.bytes.length, created_at: now(), filename: stored.filename, purpose, status: 'processed' });
  }

  private create(params: Record<string, unknown>, headers: http.IncomingHttpHeaders, res: http.ServerResponse): void {
    const file = this.files.get(String(params.input_file_id));
    if (!file) return json(res, 400, { error: { message: 'input_file_id not found', type: 'invalid_request_error' } });
    if (params.completion_window !== '24h') return json(res, 400, { error: { message: 'completion_window must be 24h', type: 'invalid_request_error' } });
    const id = this.id('batch');
    const errors: { code: string; line: number; message: string }[] = [];
    const lines: StoredBatch['lines'] = [];
    const seen = new Set<string>();
    file.bytes
      .toString('utf8')
      .split('\n')
      .forEach((text, i) => {
        if (text.trim() === '') return;
        const l = JSON.parse(text) as { custom_id?: string; method?: string; url?: string; body?: ChatBody };
        if (typeof l.custom_id !== 'string' || seen.has(l.custom_id)) errors.push({ code: 'duplicate_custom_id', line: i + 1, message: 'custom_id missing or repeated' });
        else if (l.method !== 'POST' || l.url !== params.endpoint) errors.push({ code: 'invalid_url', line: i + 1, message: `url ${l.url} does not match ${String(params.endpoint)}` });
        else lines.push({ custom_id: l.custom_id, body: l.body! });
        if (typeof l.custom_id === 'string') seen.add(l.custom_id);
      });
    const json_: StoredBatch['json'] = {
      id,
      object: 'batch',
      endpoint: params.endpoint,
      errors: errors.length ? { object: 'list', data: errors } : null,
      input_file_id: file.id,
      completion_window: '24h',
      status: 'validating',
      output_file_id: null,
      error_file_id: null,
      created_at: now(),
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata: params.metadata ?? null,
    };
    this.batches.set(id, { json: json_, lines, fate: this.nextFate, headers });
    this.nextFate = 'complete';
    json(res, 200, json_);
  }

  /** One status step per retrieve: validating → in_progress (× progressSteps) → a terminal status. */
  private advance(b: StoredBatch): void {
    const j = b.json;
    if (j.status === 'validating') {
      if (j.errors) j.status = 'failed';
      else {
        j.status = 'in_progress';
        (j as Record<string, unknown>).steps = 0;
        j.request_counts = { total: b.lines.length, completed: 0, failed: 0 };
      }
      return;
    }
    if (j.status === 'in_progress') {
      const steps = ((j as Record<string, unknown>).steps as number) + 1;
      (j as Record<string, unknown>).steps = steps;
      if (steps < this.progressSteps) return;
      delete (j as Record<string, unknown>).steps;
      const ran = typeof b.fate === 'object' ? b.fate.expire : b.lines.length;
      this.finish(b, ran, typeof b.fate === 'object' ? 'expired' : 'completed');
      return;
    }
    if (j.status === 'cancelling') this.finish(b, b.cancelAfter ?? 0, 'cancelled');
  }

  private finish(b: StoredBatch, ran: number, status: string): void {
    const out: string[] = [];
    const err: string[] = [];
    b.lines.forEach((l, i) => {
      const reqId = `batch_req_${b.json.id}_${i}`;
      if (i >= ran) {
        // Cancelled requests leave no line at all; expired ones are listed in the error file.
        if (status === 'expired') {
          err.push(JSON.stringify({ id: reqId, custom_id: l.custom_id, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }));
        }
        return;
      }
      this.ran.push({ custom_id: l.custom_id, body: l.body });
      const { status: code, payload } = this.answer(l.body, this.ran.length, b.headers);
      const line = JSON.stringify({ id: reqId, custom_id: l.custom_id, response: { status_code: code, request_id: `req_${i}`, body: payload }, error: null });
      (code === 200 ? out : err).push(line);
    });
    // The provider does not keep input order: reversed, then the even lines first.
    const shuffle = (xs: string[]) => {
      const r = [...xs].reverse();
      return [...r.filter((_, i) => i % 2 === 0), ...r.filter((_, i) => i % 2 === 1)];
    };
    const j = b.json;
    const output = this.tamperOutput ? this.tamperOutput(shuffle(out)) : shuffle(out);
    if (output.length) j.output_file_id = this.store(`${j.id}_output.jsonl`, output);
    if (err.length) j.error_file_id = this.store(`${j.id}_error.jsonl`, shuffle(err));
    j.status = status;
    j.request_counts = { total: b.lines.length, completed: out.length, failed: err.length };
    (j as Record<string, unknown>)[`${status}_at`] = now();
  }

  private store(filename: string, lines: string[]): string {
    const id = this.id('file');
    this.files.set(id, { id, filename, purpose: 'batch_output', bytes: Buffer.from(lines.map((l) => `${l}\n`).join('')) });
    return id;
  }

  /** A chat completion (or error) for a body, by the rules and then FakeOpenAI's autoReply. */
  private answer(body: ChatBody, index: number, headers: http.IncomingHttpHeaders): { status: number; payload: unknown } {
    const prompt = (body.messages ?? []).map((m) => String(m.content)).join('\n\n');
    const recorded: RecordedRequest = { index, method: 'POST', path: '/v1/chat/completions', query: {}, headers, body, prompt };
    let action: FakeAction | undefined;
    for (const rule of this.rules) if ((action = rule(recorded))) break;
    action ??= autoReply(recorded);
    if ('status' in action) return { status: action.status, payload: action.json ?? { error: { message: action.text ?? 'error' } } };
    if ('drop' in action) return { status: 500, payload: { error: { message: 'dropped', type: 'server_error' } } };
    if ('hugeReply' in action) action = { reply: 'x'.repeat(action.hugeReply) };
    const payload = completionBody(action, recorded, `chatcmpl-batch-${index}`);
    // Batch usage reports prompt-cache hits, as OpenAI's does.
    const usage = payload.usage as { prompt_tokens: number } | undefined;
    if (usage && action.usage === undefined) Object.assign(usage, { prompt_tokens_details: { cached_tokens: Math.floor(usage.prompt_tokens / 2) } });
    return { status: 200, payload };
  }
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function json(res: http.ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

function splitMultipart(body: Buffer, boundary: string): { name: string; filename?: string; data: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { name: string; filename?: string; data: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after the delimiter and before the next
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const name = /name="([^"]*)"/.exec(headers)?.[1];
    const filename = /filename="([^"]*)"/.exec(headers)?.[1];
    if (name !== undefined) parts.push({ name, ...(filename !== undefined ? { filename } : {}), data: part.subarray(headerEnd + 4) });
    start = next;
  }
  return parts;
}
