// Reading a batch's output and error files: one reply or failure per custom_id. Lines come in any
// order; a request with no line in a finished batch failed by the batch's own fate (expired,
// cancelled, failed). What the provider returns is checked, not trusted: an id this part never
// sent is reported and left out, and two different results for one request are an error for it.
import type { ErrorKind } from '../results/errorKinds';
import { toTokens, toUsage } from '../judge/transport/openaiClient';
import { errorKindOf, type TokenLogprob, type TokenUsage } from '../judge/transport/types';
import type { BatchApi } from './api';
import { parseRequestId, type BatchEntry, type RequestId } from './state';

export type BatchReply =
  | { ok: true; text: string; model: string; usage?: TokenUsage; tokens?: TokenLogprob[] | null }
  | { ok: false; kind: ErrorKind; error: string };

/** One line of an output or error file, as a reply or a failure. */
export function parseResultLine(text: string): { id: string; reply: BatchReply } | undefined {
  let line: { custom_id?: unknown; response?: { status_code?: unknown; body?: unknown } | null; error?: { code?: unknown; message?: unknown } | null };
  try {
    line = JSON.parse(text) as typeof line;
  } catch {
    return undefined;
  }
  if (!line || typeof line !== 'object' || typeof line.custom_id !== 'string') return undefined;
  const id = line.custom_id;
  if (line.error && typeof line.error === 'object') {
    const code = typeof line.error.code === 'string' ? line.error.code : '';
    const message = typeof line.error.message === 'string' ? line.error.message : code || 'the provider reported an error';
    return { id, reply: { ok: false, kind: batchErrorKind(code), error: `batch request failed (${code || 'error'}): ${message}` } };
  }
  const status = typeof line.response?.status_code === 'number' ? line.response.status_code : 0;
  const body = line.response?.body as Record<string, unknown> | undefined;
  if (status !== 200) {
    const err = body?.error as { message?: unknown } | undefined;
    const message = typeof err?.message === 'string' ? err.message : JSON.stringify(body ?? null);
    return { id, reply: { ok: false, kind: errorKindOf('http', status || undefined), error: `${status || 'no'} status from the batch: ${message}` } };
  }
  const choice = (body?.choices as { message?: { content?: unknown; refusal?: unknown }; logprobs?: { content?: unknown } | null }[] | undefined)?.[0];
  const content = choice?.message?.content;
  const refusal = choice?.message?.refusal;
  const usage = toUsage(body?.usage);
  return {
    id,
    reply: {
      ok: true,
      text: typeof content === 'string' ? content : typeof refusal === 'string' ? refusal : '',
      model: typeof body?.model === 'string' ? body.model : '',
      ...(usage ? { usage } : {}),
      tokens: toTokens(choice?.logprobs?.content),
    },
  };
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
  replies: Map<string, BatchReply>;
  /** custom_ids in the files that this part never sent (left out). */
  unknown: string[];
  /** custom_ids with two different results (each made an error). */
  conflicts: string[];
}

function sameReply(a: BatchReply, b: BatchReply): boolean {
  if (a.ok !== b.ok) return false;
  return a.ok && b.ok ? a.text === b.text && a.model === b.model : !a.ok && !b.ok && a.error === b.error && a.kind === b.kind;
}

/** Every line of a finished batch's output and error files, by custom_id, checked against what the part sent. */
export async function loadReplies(api: BatchApi, b: BatchEntry, sent: (id: RequestId) => boolean, signal?: AbortSignal): Promise<PartReplies> {
  const out: PartReplies = { replies: new Map(), unknown: [], conflicts: [] };
  const errors = new Map<string, BatchReply>();
  for (const [fileId, into] of [[b.errorFileId, errors], [b.outputFileId, out.replies]] as const) {
    if (!fileId) continue;
    const text = await api.content(fileId, signal);
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      const parsed = parseResultLine(raw);
      if (!parsed) continue;
      const id = parseRequestId(parsed.id);
      if (!id || !sent(id)) {
        if (out.unknown.length < 1000) out.unknown.push(parsed.id);
        continue;
      }
      const before = into.get(parsed.id);
      if (before && !sameReply(before, parsed.reply)) {
        if (!out.conflicts.includes(parsed.id)) out.conflicts.push(parsed.id);
        continue;
      }
      into.set(parsed.id, parsed.reply);
    }
  }
  // A success in the output file wins over an error line for the same id (the provider retried it).
  for (const [id, reply] of errors) if (!out.replies.has(id)) out.replies.set(id, reply);
  for (const id of out.conflicts) {
    out.replies.set(id, { ok: false, kind: 'server', error: `batch ${b.id} returned two different results for request ${id}; neither is used` });
  }
  return out;
}
