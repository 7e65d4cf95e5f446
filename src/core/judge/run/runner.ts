// The batch runner: streams dataset items, judges the selected rows with bounded concurrency and
// hands each finished row to `write` at once. Memory stays flat: only in-flight rows are held.
import { setMaxListeners } from 'node:events';
import type { DatasetItem, DatasetRow, DatasetSkip } from '../../dataset/types';
import { isSkip } from '../../dataset/types';
import type { JudgeCache } from '../engine/cache';
import type { EngineContext, JudgeSettings } from '../engine/pass';
import { AdaptiveLimiter } from '../transport/limiter';
import type { LimiterOptions } from '../transport/limiter';
import type { PreparedJudge } from '../engine/prepare';
import { DEFAULT_RETRY } from '../transport/retry';
import type { RetryPolicy } from '../transport/retry';
import type { OutageGate } from '../transport/outage';
import type { Panel } from '../panel/panel';
import { composeJudge, judgeLine, selfJudgingGuard, type Composition, type LineOutcome } from '../engine/compose';
import type { TierOptions, TierStats } from '../tiers/tiered';
import { judgeColumnsOf, resultLine } from '../engine/line';
import type { ResumeScan } from './scan';
import { RunStats } from './stats';
import type { JudgeClient } from '../transport/types';

/** The context every pass of the run shares: client, limiter, retries, cache, outage gate, counters. */
function engineContext(opts: RunnerOptions, stats: RunStats, limiter: AdaptiveLimiter, signal: AbortSignal): EngineContext {
  return {
    client: opts.client,
    limiter,
    policy: opts.retry ?? DEFAULT_RETRY,
    settings: opts.settings,
    stats,
    cacheScope: opts.cacheScope ?? opts.client.id,
    ...(opts.cache ? { cache: opts.cache } : {}),
    signal,
    ...(opts.outage ? { outage: opts.outage } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.keepRawReplies ? { keepRawReplies: true } : {}),
    notices: new Set<string>(),
    onAttempt: () => stats.calls++,
    onRetry: (event) => {
      stats.retries++;
      if (event.error.kind === 'rate-limit') stats.rateLimited++;
      stats.limit = limiter.limit;
    },
  };
}

/**
 * Whether a dataset item is judged: an unreadable record is counted and reported; on --resume a row
 * whose judgment stands is kept, one whose inputs were judged under another row number gets that
 * verdict carried over, and one whose human labels changed gets its verdict with the new labels
 * (both written here, no request).
 */
async function admit(item: DatasetItem, opts: RunnerOptions, stats: RunStats): Promise<DatasetRow | undefined> {
  if (isSkip(item)) {
    stats.skippedLines++;
    const reason = (item as { reason?: string }).reason ?? 'unreadable';
    stats.skippedByReason[reason] = (stats.skippedByReason[reason] ?? 0) + 1;
    if (opts.onSkip) opts.onSkip(item);
    else opts.log?.(item.error);
    return undefined;
  }
  const decision = opts.resume?.decide(item.row, item.record);
  if (decision?.action === 'keep') {
    stats.alreadyDone++;
    return undefined;
  }
  if (decision?.action === 'move' || decision?.action === 'relabel') {
    // The verdict stands; the line is the row's as the dataset has it now (its number, its labels).
    const old = await opts.resume!.read(decision.from);
    const line = resultLine(item, opts.judge, judgeColumnsOf(old, opts.judge.metric));
    opts.write(line, { status: 'ok', line });
    if (decision.action === 'move') stats.moved++;
    else stats.relabeled++;
    return undefined;
  }
  if (decision?.action === 'judge' && decision.setAside) stats.setAside++;
  return item;
}

/** Inclusive 1-based row range; either end may be open. */
export interface RowRange {
  from?: number;
  to?: number;
  /** `run --shard K/N`: only rows whose (row − 1) mod N = K − 1 (K is 1-based). */
  shard?: Shard;
}

export interface Shard {
  /** 1-based shard number, 1 ≤ index ≤ count. */
  index: number;
  count: number;
}

export interface RunnerOptions {
  judge: PreparedJudge;
  client: JudgeClient;
  settings: JudgeSettings;
  items: AsyncIterable<DatasetItem>;
  /**
   * Appends one finished row to the results (called once per row, in completion order). When it
   * throws, no further row is started and the error is rethrown once the rows in flight settle.
   */
  write: (line: Record<string, unknown>, outcome: WrittenOutcome) => void;
  /** Pauses the run as a whole while the endpoint is down. */
  outage?: OutageGate;
  samples?: number;
  concurrency?: number;
  retry?: RetryPolicy;
  cache?: JudgeCache;
  /** Distinguishes endpoints in cache keys; the base URL. */
  cacheScope?: string;
  rows?: RowRange;
  /** The results file being resumed: which rows it holds a judgment of, by `_key` (see scan.ts). */
  resume?: Pick<ResumeScan, 'decide' | 'read'>;
  signal?: AbortSignal;
  /** One-line notices for stderr (structured-output fallbacks, cache trouble). */
  log?: (message: string) => void;
  /** An unreadable dataset record (no results line is written for it); default: `log` its message. */
  onSkip?: (skip: DatasetSkip) => void;
  stats?: RunStats;
  limiter?: LimiterOptions;
  /** A panel of judges: every member judges every row (client, settings and cacheScope above are unused). */
  panel?: Panel;
  /** Tiered judging: a screen model first; the run's judge (one model or the panel) for the rows it escalates. */
  tiers?: { options: TierOptions; stats: TierStats };
  /** Keep failed replies whole in `raw_replies` (debugging a judge); else each is cut with a mark. */
  keepRawReplies?: boolean;
}

/** A row the runner wrote (a transport that defers rows has no place in a run). */
export type WrittenOutcome = Exclude<LineOutcome, { status: 'aborted' } | { status: 'deferred' }>;

export interface RunResult {
  stats: RunStats;
  interrupted: boolean;
}

export function inRange(row: number, range: RowRange | undefined): boolean {
  return (
    (range?.from === undefined || row >= range.from) &&
    (range?.to === undefined || row <= range.to) &&
    (range?.shard === undefined || (row - 1) % range.shard.count === range.shard.index - 1)
  );
}

export async function runJudge(opts: RunnerOptions): Promise<RunResult> {
  const samples = opts.samples ?? 1;
  const concurrency = opts.concurrency ?? 8;
  const stats = opts.stats ?? new RunStats();
  const limiter = new AdaptiveLimiter(concurrency, opts.limiter);
  // Every in-flight call listens for abort; a signal of our own avoids piling listeners on the caller's.
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = stop.signal;
  stats.limit = limiter.limit;
  const ctx = engineContext(opts, stats, limiter, signal);

  const composition: Composition = {
    judge: opts.judge,
    samples,
    ...(opts.panel ? { panel: opts.panel } : {}),
    ...(opts.tiers ? { tiers: opts.tiers } : {}),
  };
  const judgeOne = composeJudge(composition);
  const guard = selfJudgingGuard(composition, opts.settings.model, opts.log);
  // Enough rows in flight to keep every call slot busy, but no more: memory stays bounded.
  const callsPerRow = samples * opts.judge.strategy.orders.length * (opts.panel?.members.length ?? 1);
  const maxRows = Math.max(2, Math.ceil((2 * concurrency) / callsPerRow));
  const inflight = new Set<Promise<void>>();
  // Woken when a row finishes; racing every in-flight promise per row would attach a reaction to
  // each of them every time (O(rows in flight) work and memory per row started).
  let wake: (() => void) | undefined;
  const settled = () => new Promise<void>((resolve) => (wake = resolve));
  let fatalError: unknown;
  let readError: unknown;

  const start = (row: DatasetRow) => {
    const task = judgeLine(row, composition, judgeOne, ctx, guard)
      .then((outcome) => {
        if (outcome.status === 'aborted' || fatalError) return;
        if (outcome.status === 'deferred') throw new Error('a transport deferred a row in a run; only provider batches defer');
        opts.write(outcome.line, outcome);
        stats.countRow(outcome);
      })
      .catch((e: unknown) => {
        // judgeRow returns failures as values; reaching here means `write` failed (disk full) or a bug.
        fatalError ??= e;
        stop.abort(e);
      })
      .finally(() => {
        stats.limit = limiter.limit;
        inflight.delete(task);
        const w = wake;
        wake = undefined;
        w?.();
      });
    inflight.add(task);
  };

  try {
    for await (const item of opts.items) {
      if (signal.aborted || fatalError) break;
      if (opts.rows?.to !== undefined && item.row > opts.rows.to) break;
      if (!inRange(item.row, opts.rows)) continue;
      const row = await admit(item, opts, stats);
      if (!row) continue;
      while (inflight.size >= maxRows) await settled();
      if (signal.aborted || fatalError) break;
      start(row);
    }
  } catch (e) {
    if (!signal.aborted) readError = e;
  }
  await Promise.all(inflight);
  limiter.dispose();
  opts.signal?.removeEventListener('abort', onAbort);
  if (fatalError) throw fatalError;
  if (readError) throw readError;
  return { stats, interrupted: signal.aborted };
}
