// `batch collect`: refreshes each batch's status (checking it is the batch this state created),
// downloads the output and error files of the finished ones, as the provider's batch object names
// them (never as the state does), and judges every settled row through the engine exactly as `run`
// would, with the batch as its transport: the same parser, the same repair, the same result
// builder, plus `m/batch_id`. Rows already in the results file (with the row's own `_key`) are
// left alone, so collect can run again and again.
import { readDataset } from '../dataset';
import type { DatasetItem, DatasetRow } from '../dataset/types';
import { isSkip } from '../dataset/types';
import { composeJudge, judgeLine, selfJudgingGuard, type Composition, type LineOutcome } from '../judge/engine/compose';
import type { EngineContext } from '../judge/engine/pass';
import type { PreparedJudge } from '../judge/engine/prepare';
import type { JudgeSettings } from '../judge/engine/settings';
import type { Panel } from '../judge/panel/panel';
import { inRange } from '../judge/run/runner';
import { withResultsLock } from '../judge/run/lock';
import { scanResults, type ResumeScan } from '../judge/run/scan';
import { RunStats } from '../judge/run/stats';
import { ResultsWriter } from '../judge/run/writer';
import { AdaptiveLimiter } from '../judge/transport/limiter';
import { DEFAULT_RETRY, type RetryPolicy } from '../judge/transport/retry';
import { DEFAULT_MAX_REPLY_BYTES } from '../judge/transport/leanChat';
import type { JudgeClient } from '../judge/transport/types';
import type { BatchApi, RemoteBatch } from './api';
import { loadReplies, type BatchFiles, type PartReplies } from './replies';
import { isTerminal, positionOf, stateNonce, writeState, type BatchEntry, type BatchState, type RequestId } from './state';
import { stateJudges } from './submit';
import { BatchReplyClient, RepairBook, type RepairMode } from './transport';
import { checkRemote } from './verify';

export type { RepairMode } from './transport';

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
  /** The longest reply read from a batch's files (`--max-reply-bytes`); default 8 MiB. */
  maxReplyBytes?: number;
}

export interface CollectReport {
  stats: RunStats;
  /** Rows not written yet: their batch (or repair) is still running, or submit has not reached them. */
  pending: number;
  /** Invalid replies waiting for `batch submit --repairs`. */
  repairsQueued: number;
  /** Rows already in the results file before this collect. */
  alreadyWritten: number;
  /** custom_ids the provider returned that this state never sent (left out). */
  unknownIds: string[];
  /** custom_ids with two different results (their rows failed). */
  conflictingIds: string[];
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

/**
 * Asks the provider for each unfinished batch's status, checks it is this state's batch, and records
 * it; returns the provider's batch objects by part, whose file ids are the only ones collect reads.
 */
export async function refreshStatus(api: BatchApi, state: BatchState, stateFile: string, signal?: AbortSignal): Promise<Map<number, RemoteBatch>> {
  const remotes = new Map<number, RemoteBatch>();
  for (const b of state.batches) {
    if (!b.id || (isTerminal(b) && b.collected)) continue;
    remotes.set(b.part, await checkedRemote(api, state, b, stateFile, signal));
  }
  await writeState(stateFile, state);
  return remotes;
}

/** One part's batch as the provider has it, checked against the state and recorded in it (its file ids are not: they are asked for each time). */
async function checkedRemote(api: BatchApi, state: BatchState, b: BatchEntry, stateFile: string, signal?: AbortSignal): Promise<RemoteBatch> {
  const remote = await api.retrieve(b.id!, signal);
  checkRemote(state, b, remote, stateFile);
  b.status = remote.status;
  if (remote.requestCounts) b.requestCounts = remote.requestCounts;
  if (remote.errors) b.errors = remote.errors;
  delete b.outputFileId;
  delete b.errorFileId;
  return remote;
}

/** What a collect needs while it walks the dataset. */
interface Walk {
  o: CollectOptions;
  stats: RunStats;
  book: RepairBook;
  clients: BatchReplyClient[];
  composition: Composition;
  judgeFn: ReturnType<typeof composeJudge>;
  ctx: Omit<EngineContext, 'stats'>;
  guard: ReturnType<typeof selfJudgingGuard>;
  loaded: Map<number, PartReplies>;
  pendingByPart: Map<number, number>;
  report: CollectReport;
  nonce: string;
  /** The provider's batch objects, by part: asked for once per collect. */
  remotes: Map<number, RemoteBatch>;
}

/** One writer per results file: collect holds `--out`'s lock while it reads and appends (run/lock.ts). */
export async function collectBatches(o: CollectOptions): Promise<CollectReport> {
  return withResultsLock(o.outFile, () => collectLocked(o), { command: 'judge-studio batch collect' });
}

async function collectLocked(o: CollectOptions): Promise<CollectReport> {
  const stats = o.stats ?? new RunStats();
  const nonce = stateNonce(o.state, o.stateFile);
  const remotes = await refreshStatus(o.api, o.state, o.stateFile, o.signal);
  const scan = await existingResults(o);
  const book = new RepairBook(o.repair, o.state.repairs, o.client);
  const report: CollectReport = { stats, pending: 0, repairsQueued: 0, alreadyWritten: 0, unknownIds: [], conflictingIds: [] };
  const walk = prepareWalk(o, stats, book, report, nonce, remotes);
  await loadRepairs(walk);
  const writer = new ResultsWriter(o.outFile, false);
  try {
    const items = o.items ? o.items() : readDataset(o.dataFile, o.signal ? { signal: o.signal } : {});
    for await (const item of items) {
      if (o.signal?.aborted) break;
      if (o.state.selection.to !== undefined && item.row > o.state.selection.to) break;
      if (!inRange(item.row, o.state.selection) || isSkip(item)) continue;
      if (scan.keeps(item.row, item.record)) {
        report.alreadyWritten++;
        continue;
      }
      const outcome = await collectRow(walk, item);
      if (outcome.status === 'ok' || outcome.status === 'failed') write(writer, stats, outcome);
    }
  } finally {
    writer.close();
    walk.ctx.limiter.dispose();
    for (const b of o.state.batches) if (b.kind === 'main' && isTerminal(b) && !walk.pendingByPart.has(b.part)) b.collected = true;
    await writeState(o.stateFile, o.state);
  }
  report.repairsQueued = book.waiting;
  stats.repairs += book.sentNow;
  for (const [what, ids] of [['never sent', report.unknownIds], ['given two different results', report.conflictingIds]] as const) {
    if (ids.length > 0) o.log?.(`${ids.length} result(s) in the batch output for requests ${what} (first: ${ids.slice(0, 3).join(', ')}); ${what === 'never sent' ? 'they were left out' : 'those rows failed'}`);
  }
  return report;
}

/** The results file as it is: refused when it holds another metric or template version. */
async function existingResults(o: CollectOptions): Promise<ResumeScan> {
  const scan = await scanResults(o.outFile, { metric: o.state.metric, keyFields: o.judge.keyFields });
  scan.warnings.forEach((w) => o.log?.(w));
  if (scan.foreign > 0 && scan.lines === scan.foreign) {
    throw new CollectError('results-foreign', `${o.outFile} holds results of another metric than "${o.state.metric}"; choose another --out`);
  }
  const otherHashes = [...scan.hashes.keys()].filter((h) => h !== o.state.template.hash);
  if (otherHashes.length > 0) {
    throw new CollectError('results-template-changed', `${o.outFile} holds results of template version ${otherHashes.join(', ')}, not ${o.state.template.hash}; choose another --out`);
  }
  return scan;
}

/** Repair replies by the position of the request they repair; repairs still running hold their row. */
async function loadRepairs(w: Walk): Promise<void> {
  const { o, book } = w;
  for (const b of o.state.batches.filter((x) => x.kind === 'repair')) {
    const ids = new Set(o.state.repairs.filter((r) => r.part === b.part).map((r) => r.id));
    if (!isTerminal(b)) {
      ids.forEach((id) => book.running.add(id));
      continue;
    }
    const loaded = await partReplies(w, b, (id) => id.repair && ids.has(positionOf(id)));
    for (const id of ids) book.settled.set(id, loaded);
  }
}

/** A finished part's lines from the files its provider batch names now, checked against what the part sent. */
async function partReplies(w: Walk, b: BatchEntry, sent: (id: RequestId) => boolean): Promise<PartReplies> {
  const { o } = w;
  const remote = w.remotes.get(b.part) ?? (await checkedRemote(o.api, o.state, b, o.stateFile, o.signal));
  w.remotes.set(b.part, remote);
  const files: BatchFiles = { ...(remote.outputFileId ? { outputFileId: remote.outputFileId } : {}), ...(remote.errorFileId ? { errorFileId: remote.errorFileId } : {}) };
  // A line is a reply plus its envelope (ids, usage, logprobs): room for both.
  const maxLineBytes = 2 * (o.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES) + 64 * 1024;
  const loaded = await loadReplies(o.api, b, files, { sent: (id) => id.nonce === w.nonce && sent(id), maxLineBytes, ...(o.signal ? { signal: o.signal } : {}) });
  w.report.unknownIds.push(...loaded.unknown);
  w.report.conflictingIds.push(...loaded.conflicts);
  return loaded;
}

function prepareWalk(o: CollectOptions, stats: RunStats, book: RepairBook, report: CollectReport, nonce: string, remotes: Map<number, RemoteBatch>): Walk {
  const judges = stateJudges(o.state);
  const clients = judges.map((j) => new BatchReplyClient(book, { maxTokensKey: o.state.maxTokensKey, nonce }, j.judge));
  const settings = o.state.settings as JudgeSettings;
  const panel: Panel | undefined = o.state.panel
    ? {
        members: o.state.panel.members.map((m, i) => ({ label: m.label, client: clients[i]!, settings: judges[i]!.settings, cacheScope: 'batch' })),
        ...(o.state.panel.quorum !== undefined ? { quorum: o.state.panel.quorum } : {}),
      }
    : undefined;
  const composition: Composition = { judge: o.judge, samples: o.state.samples, ...(panel ? { panel } : {}) };
  return {
    o,
    stats,
    book,
    clients,
    composition,
    judgeFn: composeJudge(composition),
    // No judge cache: a batch's answers are what the provider returned for it. Sync repairs get the
    // usual retries; the batch's own answers fail at once (they never change by asking again).
    ctx: {
      client: clients[0]!,
      settings,
      cacheScope: 'batch',
      limiter: new AdaptiveLimiter(8),
      policy: o.retry ?? DEFAULT_RETRY,
      notices: new Set(),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.log ? { log: o.log } : {}),
    },
    guard: selfJudgingGuard(composition, settings.model, o.log),
    loaded: new Map(),
    pendingByPart: new Map(),
    report,
    nonce,
    remotes,
  };
}

/** The main part of judge `judge` (undefined: the only judge) that holds `row`'s requests. */
function partOf(state: BatchState, row: number, judge: number | undefined): BatchEntry | undefined {
  return state.batches.find((b) => b.kind === 'main' && b.judge === judge && b.rows[0] <= row && row <= b.rows[1]);
}

/** One row: pending while any of its parts runs, else judged by the engine from the batch's answers. */
async function collectRow(w: Walk, row: DatasetRow): Promise<LineOutcome> {
  const judges = stateJudges(w.o.state);
  const parts = judges.map((j) => partOf(w.o.state, row.row, j.judge));
  const waiting = parts.filter((p) => !p || !isTerminal(p));
  if (waiting.length > 0) return pending(w, waiting);
  for (let i = 0; i < parts.length; i++) w.clients[i]!.at(await repliesOf(w, parts[i]!));
  const rowStats = new RunStats();
  const ids = [...new Set(parts.map((p) => p!.id!))];
  const outcome = await judgeLine(row, w.composition, w.judgeFn, { ...w.ctx, stats: rowStats }, w.guard, { batch_id: ids.length === 1 ? ids[0] : ids });
  if (outcome.status === 'deferred') return pending(w, parts);
  if (outcome.status !== 'aborted') w.stats.absorb(rowStats);
  return outcome;
}

function pending(w: Walk, parts: (BatchEntry | undefined)[]): LineOutcome {
  w.report.pending++;
  for (const p of parts) if (p) w.pendingByPart.set(p.part, (w.pendingByPart.get(p.part) ?? 0) + 1);
  return { status: 'deferred' };
}

/** A finished part's replies, downloaded once per collect (parts cover rows in order). */
async function repliesOf(w: Walk, b: BatchEntry): Promise<PartReplies> {
  let replies = w.loaded.get(b.part);
  if (!replies) {
    const { state } = w.o;
    const orders = w.o.judge.strategy.orders;
    replies = await partReplies(
      w,
      b,
      (id) => !id.repair && id.judge === b.judge && b.rows[0] <= id.row && id.row <= b.rows[1] && id.sample < state.samples && orders.includes(id.order),
    );
    // Parts before this one (of the same judge) are done with: rows arrive in order.
    for (const [part] of w.loaded) if (w.o.state.batches.find((x) => x.part === part)?.judge === b.judge) w.loaded.delete(part);
    w.loaded.set(b.part, replies);
  }
  return replies;
}

function write(writer: ResultsWriter, stats: RunStats, outcome: Extract<LineOutcome, { line: unknown }>): void {
  writer.write(outcome.line);
  stats.countRow(outcome);
}

/** One line of `batch status` for a part. */
export function describeBatch(b: BatchEntry): string {
  const c = b.requestCounts;
  const counts = c ? ` ${c.completed}/${c.total} done${c.failed ? `, ${c.failed} failed` : ''}` : '';
  return `part ${b.part} (${b.kind}${b.judge !== undefined ? `, judge ${b.judge}` : ''}, rows ${b.rows[0]}–${b.rows[1]}, ${b.requests} request(s)) ${b.id ?? '(not created)'}: ${b.status ?? 'not submitted'}${counts}`;
}
