// The one run pipeline behind `judge-studio run` and the editor's "Run Judge on Dataset": lock the
// results file, check it (new, resumed or replaced), count the rows, judge them through the runner,
// append the lines (buffered, fsync off the event loop), pause through outages, and say how the run
// ended. Front ends add progress and cancellation through hooks; none of them opens, scans or
// writes results files itself.
import { promises as fs } from 'node:fs';
import { LIMITS, readDataset } from '../../dataset';
import { countingShape } from '../../dataset/scan';
import type { DatasetItem, DatasetSkip } from '../../dataset/types';
import { isSkip } from '../../dataset/types';
import type { JudgeCache } from '../engine/cache';
import type { Panel } from '../panel/panel';
import type { JudgeSettings } from '../engine/pass';
import type { LimiterOptions } from '../transport/limiter';
import { OutageGate, type OutageOptions, type OutageState } from '../transport/outage';
import type { PreparedJudge } from '../engine/prepare';
import { acquireResultsLock, ResultsLockedError, type ResultsLock } from './lock';
import { scanResults, type ResumeScan } from './scan';
import { ResultsWriter, type WriterOptions } from './writer';
import type { RetryPolicy } from '../transport/retry';
import { inRange, runJudge, type RowRange, type RunnerOptions, type WrittenOutcome } from './runner';
import { RunStats } from './stats';
import type { TierOptions, TierStats } from '../tiers/tiered';
import type { JudgeClient } from '../transport/types';

export type ResultsMode = 'new' | 'resume' | 'overwrite';

export interface PipelineOptions {
  judge: PreparedJudge;
  client: JudgeClient;
  settings: JudgeSettings;
  dataFile: string;
  outFile: string;
  /** `new` refuses a results file that already holds lines; `resume` keeps its judged rows; `overwrite` starts it again. */
  mode: ResultsMode;
  /** Resume a file written by another template version (its old lines stay, new ones carry the new hash). */
  allowTemplateChange?: boolean;
  rows?: RowRange;
  samples?: number;
  concurrency?: number;
  retry?: RetryPolicy;
  cache?: JudgeCache;
  cacheScope?: string;
  limiter?: LimiterOptions;
  outage?: OutageOptions;
  /** The endpoint as shown to the user (no secrets), named when it is never reached. */
  endpointURL?: string;
  writer?: WriterOptions;
  /** Recorded in the results file's lock, so a second writer is told who holds it (e.g. the command line). */
  lockCommand?: string;
  /** The results file is locked and checked, nothing judged yet (the CLI writes its run manifest here). */
  beforeJudging?: () => Promise<void>;
  signal?: AbortSignal;
  /** Notices (fallbacks, cache trouble, resume warnings, outage start and end). */
  log?: (message: string) => void;
  onSkip?: (skip: DatasetSkip) => void;
  /** A row was written. */
  onLine?: (line: Record<string, unknown>, outcome: WrittenOutcome) => void;
  /** Counted before judging starts (the total is in `stats.total`). */
  onStart?: (stats: RunStats, scan: ResumeScan | undefined) => void;
  /** The endpoint went down (a state) or came back (undefined). */
  onOutage?: (state: OutageState | undefined) => void;
  stats?: RunStats;
  /** A panel of judges (each member with its own client, settings and cache scope). */
  panel?: Panel;
  /** Tiered judging: a screen model first, the run's model for the rows it escalates (tiers/tiered.ts). */
  tiers?: { options: TierOptions; stats: TierStats };
  /** Keep failed replies whole in `raw_replies` (`--keep-raw-replies`). */
  keepRawReplies?: boolean;
  /** Injectable for tests; default streams the dataset file. */
  items?: (signal: AbortSignal) => AsyncIterable<DatasetItem>;
}

/** How the run ended: every selected row written, or why not. */
export type StopReason = 'done' | 'cancelled' | 'outage' | 'unreachable' | 'write-failed';

export interface PipelineResult {
  stats: RunStats;
  stop: StopReason;
  /** Anything but `done`: the results file holds what finished, and --resume continues it. */
  interrupted: boolean;
  /** The write error when `stop` is `write-failed`. */
  writeError?: string;
  /** Lines this run put in the results file (after a failed write, fewer than the rows judged). */
  written: number;
  /** Why nothing was judged when no selected record could be read (the front end exits 2). */
  nothingRead?: string;
}

export type PipelineErrorCode = 'results-exist' | 'results-locked' | 'resume-foreign' | 'resume-template-changed' | 'dataset-unreadable';

/** The run cannot start; nothing was written. */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
  constructor(
    readonly code: PipelineErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export async function runPipeline(opts: PipelineOptions): Promise<PipelineResult> {
  const lock = await lockResults(opts.outFile, opts.lockCommand);
  try {
    return await judgeLocked(opts);
  } finally {
    await lock.release();
  }
}

/** The results file's lock, or the PipelineError a front end shows (CLI: exit 2). */
async function lockResults(file: string, command: string | undefined): Promise<ResultsLock> {
  try {
    return await acquireResultsLock(file, command !== undefined ? { command } : {});
  } catch (e) {
    if (e instanceof ResultsLockedError) throw new PipelineError('results-locked', e.message);
    throw e;
  }
}

async function judgeLocked(opts: PipelineOptions): Promise<PipelineResult> {
  const { outFile } = opts;
  const stats = opts.stats ?? new RunStats();
  const scan = opts.mode === 'resume' ? await checkResume(opts) : undefined;
  if (opts.mode === 'new') {
    const size = await fs.stat(outFile).then((s) => s.size, () => 0);
    if (size > 0) throw new PipelineError('results-exist', `${outFile} already holds results; resume it, start it again, or choose another results file`);
  }
  scan?.warnings.forEach((w) => opts.log?.(w));
  await opts.beforeJudging?.();

  const stop = new AbortController();
  let reason: StopReason = 'done';
  const onAbort = () => {
    if (reason === 'done') reason = 'cancelled';
    stop.abort(opts.signal?.reason);
  };
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // Counting reads each line without parsing it (countingShape): a row with a huge field costs no parsed copy.
  const open = (signal: AbortSignal, count = false) =>
    opts.items ? opts.items(signal) : readDataset(opts.dataFile, { signal, ...(count ? { shape: countingShape(LIMITS.depth) } : {}) });

  try {
    // A resumed run decides each row by its inputs' _key, so it counts parsed rows.
    stats.total = await countRows(open(stop.signal, scan === undefined), opts.rows, scan);
    opts.onStart?.(stats, scan);
    const gate = outageGate(opts, stats, (why) => {
      reason = why;
      stop.abort();
    });
    const writer = new ResultsWriter(outFile, opts.mode !== 'resume', { buffered: true, ...opts.writer });
    let writeError: string | undefined;
    try {
      await runJudge(runnerOptions(opts, {
        items: open(stop.signal),
        write: (line, outcome) => {
          writer.write(line);
          if (scan?.failed.has(line._row as number)) stats.retriedFailed++;
          opts.onLine?.(line, outcome);
        },
        stats,
        outage: gate,
        signal: stop.signal,
        ...(scan ? { resume: scan } : {}),
      }));
    } catch (e) {
      if (writer.failure && e === writer.failure) {
        reason = 'write-failed';
        writeError = writer.failure.message;
      } else if (!stop.signal.aborted) throw e;
    } finally {
      gate.dispose();
      stats.outage = undefined;
      if (gate.ownFailures > 0) opts.log?.(`${gate.ownFailures} failed call(s) were the rows' own: the endpoint answered a probe request meanwhile, so they were recorded as those rows' errors (--resume judges them again)`);
      try {
        await writer.end();
      } catch (e) {
        // A buffered write or the last fsync failed: the file ends with whole lines, and says so.
        if (!writeError) {
          reason = 'write-failed';
          writeError = (e as Error).message;
        }
      }
    }
    resumeNotices(stats).forEach((n) => opts.log?.(n));
    const nothingRead = nothingReadReason(stats, reason);
    return {
      stats,
      stop: reason,
      interrupted: reason !== 'done',
      written: writer.written,
      ...(writeError ? { writeError } : {}),
      ...(nothingRead ? { nothingRead } : {}),
    };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** The runner's options from the pipeline's: what the run judges with, plus what the pipeline owns. */
function runnerOptions(opts: PipelineOptions, own: Pick<RunnerOptions, 'items' | 'write' | 'stats' | 'outage' | 'signal' | 'resume'>): RunnerOptions {
  return {
    judge: opts.judge,
    client: opts.client,
    settings: opts.settings,
    ...own,
    ...(opts.samples !== undefined ? { samples: opts.samples } : {}),
    ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.cache ? { cache: opts.cache } : {}),
    ...(opts.cacheScope !== undefined ? { cacheScope: opts.cacheScope } : {}),
    ...(opts.limiter ? { limiter: opts.limiter } : {}),
    ...(opts.rows ? { rows: opts.rows } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.onSkip ? { onSkip: opts.onSkip } : {}),
    ...(opts.panel ? { panel: opts.panel } : {}),
    ...(opts.tiers ? { tiers: opts.tiers } : {}),
    ...(opts.keepRawReplies ? { keepRawReplies: true } : {}),
  };
}

/** The run's outage gate: its notices go to the log and the `onOutage` hook; `exceeded` stops the run. */
function outageGate(opts: PipelineOptions, stats: RunStats, exceeded: (why: 'outage' | 'unreachable') => void): OutageGate {
  return new OutageGate(opts.outage, {
    onChange: (state) => {
      if (state && !stats.outage) opts.log?.(`the endpoint keeps failing (${state.lastError}) and answers nobody, not even a probe request; the run is paused and tries again with backoff`);
      if (!state && stats.outage) opts.log?.(`the endpoint answers again after ${Math.round((Date.now() - stats.outage.since) / 1000)} s; the run goes on`);
      stats.outage = state;
      opts.onOutage?.(state);
    },
    onExceeded: (state) => {
      opts.log?.(`the endpoint has answered nobody for ${Math.round((Date.now() - state.since) / 1000)} s, the longest allowed (--max-outage); stopping (last error: ${state.lastError})`);
      exceeded('outage');
    },
    onUnreachable: (error) => {
      opts.log?.(unreachableMessage(opts.endpointURL, error.message));
      // After the failed row is written as its error: the stop aborts the calls still in flight.
      setImmediate(() => exceeded('unreachable'));
    },
  });
}

/** Why a run that never reached its endpoint stopped, and what to check. */
export function unreachableMessage(url: string | undefined, error: string): string {
  const where = url ? `the judge at ${url}` : 'the judge endpoint';
  return `${where} was never reached: no request of this run got an answer (${error}); stopping. Check the base URL (--base-url, or Configure Endpoint in the editor) and that the server is running`;
}

/** Refuses to resume a file of another metric or template version, unless told otherwise. */
async function checkResume(opts: PipelineOptions): Promise<ResumeScan> {
  const { judge, outFile } = opts;
  const scan = await scanResults(outFile, { metric: judge.metric, keyFields: judge.keyFields });
  if (scan.foreign > 0 && scan.lines === scan.foreign) {
    throw new PipelineError(
      'resume-foreign',
      `${outFile} holds results of ${scan.foreignMetric ? `metric "${scan.foreignMetric}"` : 'another metric'}, not "${judge.metric}"; choose another results file`,
    );
  }
  const others = [...scan.hashes.keys()].filter((h) => h !== judge.templateHash);
  if (!opts.allowTemplateChange && (others.length > 0 || scan.unhashed > 0)) {
    const what = others.length > 0 ? `template version ${others.join(', ')}` : `a version of Judge Studio that did not record the template version (${scan.unhashed} line(s))`;
    throw new PipelineError(
      'resume-template-changed',
      `${outFile} was written by ${what}; this template is version ${judge.templateHash}. Mixing versions would mix two judges in one file: ` +
        'choose another results file, or resume anyway (CLI: --allow-template-change)',
    );
  }
  return scan;
}

function nothingReadReason(stats: RunStats, reason: StopReason): string | undefined {
  if (reason !== 'done' || stats.done > 0 || stats.alreadyDone > 0 || stats.moved > 0 || stats.relabeled > 0) return undefined;
  if (stats.skippedLines > 0) {
    const reasons = Object.entries(stats.skippedByReason).map(([r, n]) => `${n} ${r}`).join(', ');
    return `none of the selected records could be read (${stats.skippedLines} skipped: ${reasons}); nothing was judged`;
  }
  return 'the dataset has no rows in the selected range; nothing was judged';
}

/** Rows this run will judge, for the progress total (a streaming pass; memory stays flat). */
export async function countRows(items: AsyncIterable<DatasetItem>, rows: RowRange | undefined, resume: Pick<ResumeScan, 'decide'> | undefined): Promise<number> {
  let n = 0;
  try {
    for await (const item of items) {
      if (rows?.to !== undefined && item.row > rows.to) break;
      if (inRange(item.row, rows) && !isSkip(item) && (resume === undefined || resume.decide(item.row, item.record).action === 'judge')) n++;
    }
  } catch (e) {
    throw new PipelineError('dataset-unreadable', e instanceof Error ? e.message : String(e));
  }
  return n;
}

/** What resume did with lines that no longer match their row, for the front end to say. */
export function resumeNotices(stats: RunStats): string[] {
  const notes: string[] = [];
  if (stats.setAside > 0) {
    notes.push(
      `${stats.setAside} line(s) set aside: their _key is not the inputs of the dataset row at their _row (the dataset changed since they were judged), so those rows were judged again`,
    );
  }
  if (stats.moved > 0) notes.push(`${stats.moved} verdict(s) carried to the row number their inputs have now (rows were inserted or moved), without a request`);
  if (stats.relabeled > 0) {
    notes.push(
      `${stats.relabeled} row(s) have human labels that changed in the dataset since they were judged: their verdicts were written again with the dataset's labels (no request), so calibrate uses the new ones`,
    );
  }
  return notes;
}

/**
 * The line a front end prints after an interrupted run: how to finish it. `command` continues the
 * same run (same endpoint, model and flags), e.g. `judge-studio run --resume --out R`.
 */
export function resumeHint(result: PipelineResult, command: string): string | undefined {
  if (!result.interrupted) return undefined;
  const why =
    result.stop === 'write-failed'
      ? `writing stopped (${result.writeError}); free space or fix the file's permissions, then`
      : result.stop === 'outage'
        ? 'the endpoint stayed down; when it is back,'
        : result.stop === 'unreachable'
          ? 'the endpoint was never reached; once the base URL is right and the server runs,'
        : 'to finish,';
  return `${result.written} row(s) written; ${why} run ${command} to judge the rest`;
}
