// The provider's Files and Batches APIs, through the openai SDK's `files` and `batches` resources
// (OpenAI and Azure OpenAI alike). A narrow seam so submit/collect never see the SDK's types.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type OpenAI from 'openai';
import { APIError } from 'openai/core/error';
import { toFile } from 'openai/core/uploads';
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
  /** Uploads a JSONL file with `purpose: "batch"`; returns the file id. */
  upload(file: string, signal?: AbortSignal): Promise<string>;
  create(fileId: string, endpoint: BatchEndpoint, metadata: Record<string, string>, signal?: AbortSignal): Promise<RemoteBatch>;
  retrieve(id: string, signal?: AbortSignal): Promise<RemoteBatch>;
  cancel(id: string, signal?: AbortSignal): Promise<RemoteBatch>;
  /** A file's content as text (output and error files are JSONL). */
  content(fileId: string, signal?: AbortSignal): Promise<string>;
}

function fromSdk(b: OpenAI.Batches.Batch): RemoteBatch {
  const errors = b.errors?.data?.map((e) => `${e.line !== undefined && e.line !== null ? `line ${e.line}: ` : ''}${e.message ?? e.code ?? 'error'}`);
  return {
    id: b.id,
    status: b.status,
    ...(typeof b.input_file_id === 'string' ? { inputFileId: b.input_file_id } : {}),
    ...(b.metadata && typeof b.metadata === 'object' ? { metadata: { ...(b.metadata as Record<string, string>) } } : {}),
    ...(b.request_counts ? { requestCounts: { total: b.request_counts.total, completed: b.request_counts.completed, failed: b.request_counts.failed } } : {}),
    ...(b.output_file_id ? { outputFileId: b.output_file_id } : {}),
    ...(b.error_file_id ? { errorFileId: b.error_file_id } : {}),
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export function sdkBatchApi(sdk: OpenAI): BatchApi {
  const opts = (signal?: AbortSignal) => (signal ? { signal } : {});
  return {
    async upload(file, signal) {
      // Streamed from disk: a part can be 200 MB.
      const upload = await toFile(fs.createReadStream(file), path.basename(file), { type: 'application/jsonl' });
      const created = await sdk.files.create({ file: upload, purpose: 'batch' }, opts(signal));
      return created.id;
    },
    async create(fileId, endpoint, metadata, signal) {
      // Azure names the endpoint without /v1; the SDK's type lists OpenAI's paths only.
      const body = { input_file_id: fileId, endpoint: endpoint as '/v1/chat/completions', completion_window: '24h' as const, metadata };
      return fromSdk(await sdk.batches.create(body, opts(signal)));
    },
    async retrieve(id, signal) {
      return fromSdk(await sdk.batches.retrieve(id, opts(signal)));
    },
    async cancel(id, signal) {
      return fromSdk(await sdk.batches.cancel(id, opts(signal)));
    },
    async content(fileId, signal) {
      const response = await sdk.files.content(fileId, opts(signal));
      return response.text();
    },
  };
}

/**
 * The HTTP status with which an endpoint said it has no Files or Batches API (Ollama, vLLM, LM
 * Studio and llama.cpp answer 404, 405 or 501), read from the SDK's error at this boundary.
 */
export function missingBatchApiStatus(e: unknown): number | undefined {
  return e instanceof APIError && (e.status === 404 || e.status === 405 || e.status === 501) ? e.status : undefined;
}
