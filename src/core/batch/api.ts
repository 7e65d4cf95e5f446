// The provider's Files and Batches APIs, through the openai SDK's `files` and `batches` resources
// (OpenAI and Azure OpenAI alike). A narrow seam so submit/collect never see the SDK's types. What
// the provider says is scrubbed here, once: ids, statuses and errors of its batch objects, and
// the messages of its failures (the output files' lines are scrubbed as they are read, replies.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type OpenAI from 'openai';
import { APIError, OpenAIError } from 'openai/core/error';
import { toFile } from 'openai/core/uploads';
import { createSdk, type OpenAIClientOptions } from '../judge/transport/openaiClient';
import { scrubLabel, scrubSecrets } from '../security/scrub';
import type { BatchEndpoint } from './state';

export interface RemoteBatch {
  id: string;
  status: string;
  /** The input file the provider says this batch runs (collect checks it against the state). */
  inputFileId?: string;
  metadata?: Record<string, string>;
  requestCounts?: { total: number; completed: number; failed: number };
  outputFileId?: string;
  errorFileId?: string;
  errors?: string[];
}

export interface BatchApi {
  /** The key and header values this API sends: masked in every string the provider returns. */
  readonly secrets?: readonly string[];
  /** Uploads a JSONL file with `purpose: "batch"`; returns the file id. */
  upload(file: string, signal?: AbortSignal): Promise<string>;
  create(fileId: string, endpoint: BatchEndpoint, metadata: Record<string, string>, signal?: AbortSignal): Promise<RemoteBatch>;
  retrieve(id: string, signal?: AbortSignal): Promise<RemoteBatch>;
  cancel(id: string, signal?: AbortSignal): Promise<RemoteBatch>;
  /** A file's lines (output and error files are JSONL), read as they stream; a line past `maxLineBytes` comes as its start and its length. */
  lines(fileId: string, maxLineBytes: number, signal?: AbortSignal): AsyncIterable<FileLine>;
}

/** One line of a provider's file: its text, or for a line too long to read, its first bytes and its length. */
export type FileLine = { text: string; oversize?: undefined } | { head: string; oversize: number };

/** Of a line longer than the cap, this much is kept: enough for its custom_id, which providers write first. */
const OVERSIZE_HEAD = 4096;

/** A batch object as the provider sent it, its strings scrubbed and bounded, its counts numbers. */
function fromSdk(b: OpenAI.Batches.Batch, secrets: readonly string[]): RemoteBatch {
  // Only strings are taken: String() of a value 100,000 arrays deep would overflow the stack.
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  const label = (v: unknown) => scrubLabel(text(v), secrets);
  const errors = Array.isArray(b.errors?.data)
    ? b.errors.data.slice(0, 100).map((e) => scrubSecrets(`${typeof e.line === 'number' ? `line ${e.line}: ` : ''}${(text(e.message) || text(e.code) || 'error').slice(0, 1000)}`, secrets))
    : undefined;
  const counts = b.request_counts;
  const metadata =
    b.metadata && typeof b.metadata === 'object'
      ? Object.fromEntries(Object.entries(b.metadata).flatMap(([k, v]) => (typeof v === 'string' ? [[label(k), label(v)]] : [])).slice(0, 16))
      : undefined;
  return {
    id: label(b.id),
    status: label(b.status),
    ...(typeof b.input_file_id === 'string' ? { inputFileId: label(b.input_file_id) } : {}),
    ...(metadata ? { metadata } : {}),
    ...(counts && [counts.total, counts.completed, counts.failed].every(Number.isFinite) ? { requestCounts: { total: counts.total, completed: counts.completed, failed: counts.failed } } : {}),
    ...(typeof b.output_file_id === 'string' && b.output_file_id ? { outputFileId: label(b.output_file_id) } : {}),
    ...(typeof b.error_file_id === 'string' && b.error_file_id ? { errorFileId: label(b.error_file_id) } : {}),
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

/** The batch API of an endpoint, for the CLI and the editor alike: the SDK with its own retries, and the secrets it sends. */
export function batchApiFor(options: OpenAIClientOptions): BatchApi {
  // Management calls are few and idempotent to read: the SDK's own retries are welcome here.
  const secrets = [...(options.apiKey !== undefined ? [options.apiKey] : []), ...Object.values(options.headers ?? {})];
  return sdkBatchApi(createSdk(options, 2), secrets);
}

export function sdkBatchApi(sdk: OpenAI, secrets: readonly string[] = []): BatchApi {
  const opts = (signal?: AbortSignal) => (signal ? { signal } : {});
  const api: BatchApi = {
    secrets,
    async upload(file, signal) {
      // Streamed from disk: a part can be 200 MB.
      const upload = await toFile(fs.createReadStream(file), path.basename(file), { type: 'application/jsonl' });
      const created = await sdk.files.create({ file: upload, purpose: 'batch' }, opts(signal));
      return created.id;
    },
    async create(fileId, endpoint, metadata, signal) {
      // Azure names the endpoint without /v1; the SDK's type lists OpenAI's paths only.
      const body = { input_file_id: fileId, endpoint: endpoint as '/v1/chat/completions', completion_window: '24h' as const, metadata };
      return fromSdk(await sdk.batches.create(body, opts(signal)), secrets);
    },
    async retrieve(id, signal) {
      return fromSdk(await sdk.batches.retrieve(id, opts(signal)), secrets);
    },
    async cancel(id, signal) {
      return fromSdk(await sdk.batches.cancel(id, opts(signal)), secrets);
    },
    async *lines(fileId, maxLineBytes, signal) {
      const response = await sdk.files.content(fileId, opts(signal));
      if (!response.body) return;
      yield* splitLines(response.body, maxLineBytes);
    },
  };
  return scrubbedFailures(api, secrets);
}

/** The lines of a byte stream, each at most `max` bytes read whole; a longer one keeps its head and its length. */
export async function* splitLines(body: ReadableStream<Uint8Array>, max: number): AsyncIterable<FileLine> {
  const reader = body.getReader();
  let parts: Buffer[] = [];
  let bytes = 0;
  let skipping = false;
  const end = (): FileLine => {
    const line = Buffer.concat(parts);
    const out: FileLine = skipping ? { head: line.toString('utf8'), oversize: bytes } : { text: line.toString('utf8') };
    parts = [];
    bytes = 0;
    skipping = false;
    return out;
  };
  const add = (piece: Uint8Array) => {
    bytes += piece.length;
    if (skipping) return;
    parts.push(Buffer.from(piece));
    if (bytes > max) {
      skipping = true;
      parts = [Buffer.from(Buffer.concat(parts).subarray(0, OVERSIZE_HEAD))];
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let start = 0;
      for (let nl = value.indexOf(10, start); nl >= 0; nl = value.indexOf(10, start)) {
        add(value.subarray(start, nl));
        yield end();
        start = nl + 1;
      }
      if (start < value.length) add(value.subarray(start));
    }
    if (bytes > 0 || parts.length > 0) yield end();
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The same API whose failures carry no secret the server echoed in their message. */
function scrubbedFailures(api: BatchApi, secrets: readonly string[]): BatchApi {
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      if (e instanceof Error) e.message = scrubSecrets(e.message, secrets);
      throw e;
    }
  };
  return {
    secrets,
    upload: (file, signal) => guard(() => api.upload(file, signal)),
    create: (fileId, endpoint, metadata, signal) => guard(() => api.create(fileId, endpoint, metadata, signal)),
    retrieve: (id, signal) => guard(() => api.retrieve(id, signal)),
    cancel: (id, signal) => guard(() => api.cancel(id, signal)),
    lines: (fileId, max, signal) => guardLines(api.lines(fileId, max, signal), secrets),
  };
}

async function* guardLines(lines: AsyncIterable<FileLine>, secrets: readonly string[]): AsyncIterable<FileLine> {
  try {
    yield* lines;
  } catch (e) {
    if (e instanceof Error) e.message = scrubSecrets(e.message, secrets);
    throw e;
  }
}

/**
 * The HTTP status with which an endpoint said it has no Files or Batches API (Ollama, vLLM, LM
 * Studio and llama.cpp answer 404, 405 or 501), read from the SDK's error at this boundary.
 */
export function missingBatchApiStatus(e: unknown): number | undefined {
  return e instanceof APIError && (e.status === 404 || e.status === 405 || e.status === 501) ? e.status : undefined;
}

/** The message of a failure the provider's API raised (an HTTP error, no connection), or undefined for anything else. */
export function providerFailure(e: unknown): string | undefined {
  if (!(e instanceof OpenAIError)) return undefined;
  return e.message.slice(0, 2_000);
}
