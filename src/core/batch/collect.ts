// `batch collect`: refreshes each batch's status, downloads the output and error files of the
// finished ones, validates every reply with the template's schema, and appends one results line
// per row whose requests are all settled — the same columns `run` writes, plus `m/batch_id`. Rows
// already in the results file are left alone, so collect can run again and again.
import { readDataset } from '../dataset';
import type { DatasetItem, DatasetRow } from '../dataset/types';
import { isSkip } from '../dataset/types';
import { buildRequest, checkReply, type JudgeSettings } from '../judge/engine/pass';
import { AdaptiveLimiter } from '../judge/transport/limiter';
import type { PreparedJudge } from '../judge/engine/prepare';
import { scanResults } from '../judge/run/scan';
import { ResultsWriter } from '../judge/run/writer';
import { callWithRetry, DEFAULT_RETRY, type RetryPolicy } from '../judge/transport/retry';
import type { RowOutcome } from '../judge/engine/row';
import { inRange } from '../judge/run/runner';
import { RunStats } from '../judge/run/stats';
import { internalError, JudgeError, type JudgeClient, type TokenUsage } from '../judge/transport/types';
import type { BatchApi } from './api';
import { assembleRow, renderFailureLine, type PassJob, type PassResult } from './assemble';
import { loadReplies, missingReply, type BatchReply } from './replies';
import { isTerminal, requestId, writeState, type BatchEntry, type BatchState } from './state';
import { repairConversation } from './submit';

/** What to do with an invalid reply: queue a repair batch, repair now through the client, or fail the row. */
export type RepairMode = 'batch' | 'sync' | 'none';

export interface CollectOptions {
  api: BatchApi;
  judge: PreparedJudge;
  state: BatchState;
  stateFile: string;
  dataFile: string;
  outFile: string;
  repair: RepairMode;
  /** For `repair: 'sync'`. */
  client?: JudgeClient;
  retry?: RetryPolicy;
  items?: () => AsyncIterable<DatasetItem>;
  stats?: RunStats;
  log?: (message: string) => void;
  signal?: AbortSignal;
}

export interface CollectReport {
  stats: RunStats;
  /** Rows not written yet: their batch (or repair) is still running, or submit has not reached them. */
  pending: number;
  /** Invalid replies waiting for `batch submit --repairs`. */
  repairsQueued: number;
  /** Rows already in the results file before this collect. */
  alreadyWritten: number;
}

export class CollectError extends Error {
  override readonly name = 'CollectError';
  constructor(
    readonly code: 'results-foreign' | 'results-template-changed',
    message: string,
  ) {
    super(message);
  }
}

/** Asks the provider for each unfinished batch's status and records it in the state. */
export async function refreshStatus(api: BatchApi, state: BatchState, stateFile: string, signal?: AbortSignal): Promise<void> {
  for (const b of state.batches) {
    if (!b.id || isTerminal(b)) continue;
    const remote = await api.retrieve(b.id, signal);
    b.status = remote.status;
    if (remote.requestCounts) b.requestCounts = remote.requestCounts;
    if (remote.outputFileId) b.outputFileId = remote.outputFileId;
    if (remote.errorFileId) b.errorFileId = remote.errorFileId;
    if (remote.errors) b.errors = remote.errors;
  }
  await writeState(stateFile, state);
}

export async function collectBatches(o: CollectOptions): Promise<CollectReport> {
  const { api, judge, state } = o;
  const stats = o.stats ?? new RunStats();
  const settings = state.settings as JudgeSettings;
  await refreshStatus(api, state, o.stateFile, o.signal);

  const scan = await scanResults(o.outFile, { metric: state.metric });
  scan.warnings.forEach((w) => o.log?.(w));
  if (scan.foreign > 0 && scan.lines === scan.foreign) {
    throw new CollectError('results-foreign', `${o.outFile} holds results of another metric than "${state.metric}"; choose another --out`);
  }
  const otherHashes = [...scan.hashes.keys()].filter((h) => h !== state.template.hash);
  if (otherHashes.length > 0) {
    throw new CollectError('results-template-changed', `${o.outFile} holds results of template version ${otherHashes.join(', ')}, not ${state.template.hash}; choose another --out`);
  }
  const written = new Set([...scan.done, ...scan.failed]);

  // Repair replies by the custom_id of the request they repair; repairs still running hold their row.
  const repairReplies = new Map<string, BatchReply>();
  const repairsRunning = new Set<string>();
  for (const b of state.batches.filter((x) => x.kind === 'repair')) {
    const ids = state.repairs.filter((r) => r.part === b.part).map((r) => r.id);
    if (!isTerminal(b)) {
      ids.forEach((id) => repairsRunning.add(id));
      continue;
    }
    const replies = await loadReplies(api, b, o.signal);
    for (const id of ids) repairReplies.set(id, replies.get(`${id}.repair`) ?? missingReply(b));
  }

  const mains = state.batches.filter((b) => b.kind === 'main').sort((a, b) => a.rows[0] - b.rows[0]);
  const renderFailures = new Map(state.renderFailures.map((f) => [f.row, f.error]));
  const queued = new Set(state.repairs.map((r) => r.id));
  const pendingByPart = new Map<number, number>();
  let current: { part: number; replies: Map<string, BatchReply> } | undefined;
  const limiter = o.repair === 'sync' ? new AdaptiveLimiter(1) : undefined;
  const writer = new ResultsWriter(o.outFile, false);
  let pending = 0;
  let alreadyWritten = 0;

  // Usage of the row being assembled, counted once its line is written (a pending row is seen again).
  let rowUsage: (TokenUsage | undefined)[] = [];
  const write = (outcome: Exclude<RowOutcome, { status: 'aborted' }>) => {
    writer.write(outcome.line);
    rowUsage.forEach((u) => stats.addUsage(u));
    rowUsage = [];
    stats.done++;
    if (outcome.status === 'ok') stats.ok++;
    else {
      stats.failed++;
      stats.failedByKind[outcome.kind] = (stats.failedByKind[outcome.kind] ?? 0) + 1;
    }
  };

  /** One request's pass: its reply validated, repaired when it must be; undefined while it waits. */
  const pass = async (row: DatasetRow, id: string, reply: BatchReply, order: 'AB' | 'BA'): Promise<PassResult | undefined> => {
    if (!reply.ok) return { ok: false, kind: reply.kind, error: reply.error, rawReplies: [] };
    rowUsage.push(reply.usage);
    const first = checkReply(reply.text, judge.strategy.schema);
    if (first.ok) return { ok: true, reply: first.value, model: reply.model || settings.model };
    let repaired = repairReplies.get(id);
    if (!repaired && repairsRunning.has(id)) return undefined;
    if (!repaired && o.repair === 'sync' && o.client) {
      repaired = await repairNow(row, order, reply.text, first.error);
      unqueue(id);
    }
    if (!repaired) {
      if (o.repair === 'none') {
        unqueue(id);
        return { ok: false, kind: 'invalid-reply', error: `invalid reply (${first.error}); no repair request was sent (--no-repair)`, rawReplies: [reply.text] };
      }
      if (!queued.has(id)) {
        state.repairs.push({ id, text: reply.text, error: first.error });
        queued.add(id);
      }
      return undefined;
    }
    if (!repaired.ok) return { ok: false, kind: repaired.kind, error: repaired.error, rawReplies: [reply.text] };
    rowUsage.push(repaired.usage);
    const second = checkReply(repaired.text, judge.strategy.schema);
    if (second.ok) return { ok: true, reply: second.value, model: repaired.model || settings.model };
    return {
      ok: false,
      kind: 'invalid-reply',
      error: `invalid reply (${first.error}); still invalid after one repair request (${second.error})`,
      rawReplies: [reply.text, repaired.text],
    };
  };

  const repairNow = async (row: DatasetRow, order: 'AB' | 'BA', text: string, error: string): Promise<BatchReply> => {
    const rendered = judge.render(row.record, order, row.row);
    if (!rendered.ok) return { ok: false, kind: 'render', error: rendered.error };
    const request = buildRequest(repairConversation(rendered.prompt.messages, { text, error }, judge), settings, judge.strategy.jsonSchema);
    stats.repairs++;
    try {
      const res = await callWithRetry(request, {
        client: o.client!,
        limiter: limiter!,
        policy: o.retry ?? DEFAULT_RETRY,
        ...(o.signal ? { signal: o.signal } : {}),
        onAttempt: () => stats.calls++,
      });
      return { ok: true, text: res.text, model: res.model, ...(res.usage ? { usage: res.usage } : {}) };
    } catch (e) {
      const err = e instanceof JudgeError ? e : internalError(e);
      if (err.kind === 'aborted') throw err;
      return { ok: false, kind: err.errorKind, error: err.message };
    }
  };
  /** A queued repair that was settled another way (synchronously, or failed with --no-repair). */
  const unqueue = (id: string) => {
    if (!queued.delete(id)) return;
    state.repairs = state.repairs.filter((r) => r.id !== id || r.part !== undefined);
  };

  try {
    const items = o.items ? o.items() : readDataset(o.dataFile, o.signal ? { signal: o.signal } : {});
    for await (const item of items) {
      if (o.signal?.aborted) break;
      if (state.selection.to !== undefined && item.row > state.selection.to) break;
      if (!inRange(item.row, state.selection) || isSkip(item)) continue;
      if (written.has(item.row)) {
        alreadyWritten++;
        continue;
      }
      const renderError = renderFailures.get(item.row);
      if (renderError !== undefined) {
        write(renderFailureLine(item, judge, renderError, settings.model));
        continue;
      }
      const b = mains.find((m) => m.rows[0] <= item.row && item.row <= m.rows[1]);
      if (!b || !isTerminal(b)) {
        pending++;
        if (b) pendingByPart.set(b.part, (pendingByPart.get(b.part) ?? 0) + 1);
        continue;
      }
      if (current?.part !== b.part) current = { part: b.part, replies: await loadReplies(api, b, o.signal) };
      const jobs: PassJob[] = [];
      rowUsage = [];
      let waiting = false;
      for (let sample = 0; sample < state.samples; sample++) {
        for (const order of judge.strategy.orders) {
          const id = requestId(item.row, sample, order);
          const result = await pass(item, id, current.replies.get(id) ?? missingReply(b), order);
          if (result === undefined) waiting = true;
          else jobs.push({ sample, order, result });
        }
      }
      if (waiting) {
        pending++;
        pendingByPart.set(b.part, (pendingByPart.get(b.part) ?? 0) + 1);
        continue;
      }
      write(assembleRow(item, judge, state.samples, jobs, settings.model, { batch_id: b.id }));
    }
  } finally {
    writer.close();
    limiter?.dispose();
    for (const b of mains) if (isTerminal(b) && !pendingByPart.has(b.part)) b.collected = true;
    await writeState(o.stateFile, state);
  }
  const repairsQueued = state.repairs.filter((r) => r.part === undefined).length;
  return { stats, pending, repairsQueued, alreadyWritten };
}

/** One line of `batch status` for a part. */
export function describeBatch(b: BatchEntry): string {
  const c = b.requestCounts;
  const counts = c ? ` ${c.completed}/${c.total} done${c.failed ? `, ${c.failed} failed` : ''}` : '';
  return `part ${b.part} (${b.kind}, rows ${b.rows[0]}–${b.rows[1]}, ${b.requests} request(s)) ${b.id ?? '(not created)'}: ${b.status ?? 'not submitted'}${counts}`;
}
