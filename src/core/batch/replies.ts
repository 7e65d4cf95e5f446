// Reading a batch's output and error files: one reply or failure per custom_id. Lines come in any
// order; a request with no line in a finished batch failed by the batch's own fate (expired,
// cancelled, failed). What the provider returns is checked, not trusted: a line is read only when
// its custom_id carries this submission's nonce and a position this part sent (else it is reported
// and left out), the engine takes it only for the request whose hash it names, two different
// results for one request are an error for it, and every string in it is scrubbed and bounded.
import type { ErrorKind } from '../results/errorKinds';
import { toTokens, toUsage } from '../judge/transport/openaiClient';
import { errorKindOf, type TokenLogprob, type TokenUsage } from '../judge/transport/types';
import { parseBoundedJson } from '../security/jsonDepth';
import { scrubLabel, scrubReply, scrubSecrets } from '../security/scrub';
import type { BatchApi } from './api';
import { parseRequestId, positionOf, type BatchEntry, type RequestId } from './state';

export type BatchReply =
  | { ok: true; text: string; model: string; usage?: TokenUsage; tokens?: TokenLogprob[] | null }
  | { ok: false; kind: ErrorKind; error: string };

/** A provider's words in a failure are kept up to this length. */
const MAX_ERROR_CHARS = 2_000;

/** One line of an output or error file, as a reply or a failure, its strings scrubbed of `secrets` and of credential shapes. */
export function parseResultLine(text: string, secrets: readonly string[] = []): { id: string; reply: BatchReply } | undefined {
  let line: { custom_id?: unknown; response?: { status_code?: unknown; body?: unknown } | null; error?: { code?: unknown; message?: unknown } | null };
  try {
    line = parseBoundedJson(text) as typeof line;
  } catch {
    return undefined;
  }
  if (!line || typeof line !== 'object' || typeof line.custom_id !== 'string') return undefined;
  const id = line.custom_id;
  const failure = (kind: ErrorKind, error: string): { id: string; reply: BatchReply } => ({ id, reply: { ok: false, kind, error: scrubSecrets(error.slice(0, MAX_ERROR_CHARS), secrets) } });
  if (line.error && typeof line.error === 'object') {
    const code = typeof line.error.code === 'string' ? scrubLabel(line.error.code, secrets) : '';
    const message = typeof line.error.message === 'string' ? line.error.message : code || 'the provider reported an error';
    return failure(batchErrorKind(code), `batch request failed (${code || 'error'}): ${message}`);
  }
  const status = typeof line.response?.status_code === 'number' ? line.response.status_code : 0;
  const body = line.response?.body as Record<string, unknown> | undefined;
  if (status !== 200) {
    const err = body?.error as { message?: unknown } | undefined;
    const message = typeof err?.message === 'string' ? err.message : JSON.stringify(body ?? null);
    return failure(errorKindOf('http', status || undefined), `${status || 'no'} status from the batch: ${message}`);
  }
  const choice = (body?.choices as { message?: { content?: unknown; refusal?: unknown }; logprobs?: { content?: unknown } | null }[] | undefined)?.[0];
  const content = choice?.message?.content;
  const refusal = choice?.message?.refusal;
  const usage = toUsage(body?.usage);
  const reply = scrubReply(
    { text: typeof content === 'string' ? content : typeof refusal === 'string' ? refusal : '', model: typeof body?.model === 'string' ? body.model : '' },
    secrets,
  );
  return { id, reply: { ok: true, ...reply, ...(usage ? { usage } : {}), tokens: toTokens(choice?.logprobs?.content) } };
}

/** The head of a line too long to read: its custom_id when it starts the line as providers write it, else undefined. */
export function oversizeLineId(head: string): string | undefined {
  return /^\{\s*(?:"id"\s*:\s*"[^"\\]{0,200}"\s*,\s*)?"custom_id"\s*:\s*"([^"\\]{1,200})"/.exec(head)?.[1];
}

function batchErrorKind(code: string): ErrorKind {
  if (code === 'batch_expired') return 'timeout';
  if (code === 'batch_cancelled') return 'cancelled';
  if (code === 'rate_limit_exceeded' || code === 'token_limit_exceeded') return 'rate-limit';
  if (code === 'server_error') return 'server';
  return 'bad-request';
}

/** What a request without a line in a finished batch became. */
export function missingReply(b: BatchEntry): BatchReply {
  switch (b.status) {
    case 'expired':
      return { ok: false, kind: 'timeout', error: `batch ${b.id} expired before this request ran (24 h completion window)` };
    case 'cancelled':
      return { ok: false, kind: 'cancelled', error: `batch ${b.id} was cancelled before this request ran` };
    case 'failed':
      return { ok: false, kind: 'bad-request', error: `batch ${b.id} failed validation: ${(b.errors ?? ['no reason given']).join('; ')}` };
    default:
      return { ok: false, kind: 'server', error: `batch ${b.id} ${b.status ?? 'finished'} without a result for this request` };
  }
}

export interface PartReplies {
  /** Replies by full custom_id (position, nonce, request hash). */
  replies: Map<string, BatchReply>;
  /** The request hash each position's line names, to tell a request that changed from one never answered. */
  hashes: Map<string, string>;
  /** What a request without a line gets: the batch's own fate, or why its files could not be read. */
  missing: BatchReply;
  /** custom_ids in the files that this part never sent (left out). */
  unknown: string[];
  /** custom_ids with two different results (each made an error). */
  conflicts: string[];
}

/** The files of a finished batch, as the provider's own batch object names them (never a state file). */
export interface BatchFiles {
  outputFileId?: string;
  errorFileId?: string;
}

function sameReply(a: BatchReply, b: BatchReply): boolean {
  if (a.ok !== b.ok) return false;
  return a.ok && b.ok ? a.text === b.text && a.model === b.model : !a.ok && !b.ok && a.error === b.error && a.kind === b.kind;
}

export interface LoadOptions {
  /** Whether this part sent a request with this id (its nonce, rows, judge, samples and orders). */
  sent: (id: RequestId) => boolean;
  /** The longest line read (`--max-reply-bytes` plus room for the line's envelope). */
  maxLineBytes: number;
  signal?: AbortSignal;
}

/** Every line of a finished batch's output and error files, by custom_id, checked against what the part sent. */
export async function loadReplies(api: BatchApi, b: BatchEntry, files: BatchFiles, o: LoadOptions): Promise<PartReplies> {
  const out: PartReplies = { replies: new Map(), hashes: new Map(), missing: missingReply(b), unknown: [], conflicts: [] };
  const errors = new Map<string, BatchReply>();
  const secrets = api.secrets ?? [];
  for (const [fileId, into] of [[files.errorFileId, errors], [files.outputFileId, out.replies]] as const) {
    if (!fileId) continue;
    try {
      for await (const raw of api.lines(fileId, o.maxLineBytes, o.signal)) {
        const parsed = raw.oversize !== undefined ? oversizeLine(raw.head, raw.oversize, o.maxLineBytes) : raw.text.trim() === '' ? undefined : parseResultLine(raw.text, secrets);
        if (parsed) take(out, into, parsed, o.sent);
      }
    } catch (e) {
      if (o.signal?.aborted) throw e;
      // The batch is done but its file cannot be had: its rows fail, and the next collect tries again.
      const why = scrubSecrets(e instanceof Error ? e.message : String(e), secrets).slice(0, MAX_ERROR_CHARS);
      out.missing = { ok: false, kind: 'server', error: `the ${fileId === files.outputFileId ? 'output' : 'error'} file ${fileId} of batch ${b.id} could not be read (${why}); collect again later` };
    }
  }
  // A success in the output file wins over an error line for the same id (the provider retried it).
  for (const [id, reply] of errors) if (!out.replies.has(id)) out.replies.set(id, reply);
  for (const id of out.conflicts) {
    out.replies.set(id, { ok: false, kind: 'server', error: `batch ${b.id} returned two different results for request ${id}; neither is used` });
  }
  return out;
}

/** A line too long to read answers its request with a failure, when its custom_id can be seen. */
function oversizeLine(head: string, bytes: number, max: number): { id: string; reply: BatchReply } | undefined {
  const id = oversizeLineId(head);
  if (id === undefined) return undefined;
  return { id, reply: { ok: false, kind: 'reply-too-large', error: `the batch's line for this request is ${bytes.toLocaleString('en-US')} bytes, more than the ${max.toLocaleString('en-US')} read (--max-reply-bytes); it was not read` } };
}

function take(out: PartReplies, into: Map<string, BatchReply>, parsed: { id: string; reply: BatchReply }, sent: (id: RequestId) => boolean): void {
  const id = parseRequestId(parsed.id);
  if (!id || !sent(id)) {
    if (out.unknown.length < 1000) out.unknown.push(scrubLabel(parsed.id));
    return;
  }
  const before = into.get(parsed.id);
  if (before && !sameReply(before, parsed.reply)) {
    if (!out.conflicts.includes(parsed.id)) out.conflicts.push(parsed.id);
    return;
  }
  into.set(parsed.id, parsed.reply);
  out.hashes.set(`${positionOf(id)}${id.repair ? '.repair' : ''}`, id.hash);
}
