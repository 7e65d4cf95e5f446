// Counters of one run, shared by the runner (which updates them), the progress line and the summary.
import type { TokenUsage } from '../transport/types';

export class RunStats {
  readonly startedAt: number;
  /** Rows to judge in this run (selection minus rows already in the results file), when known. */
  total: number | undefined;
  done = 0;
  ok = 0;
  failed = 0;
  /** Dataset records that could not be read (reported on stderr, never results rows). */
  skippedLines = 0;
  /** Unreadable records by reason code (e.g. `invalid-json`, `too-deep`). */
  skippedByReason: Record<string, number> = {};
  /** Failed rows by `error_kind`. */
  failedByKind: Record<string, number> = {};
  /** Rows found in the results file by --resume and not judged again. */
  alreadyDone = 0;
  /** Rows whose last results line was a failure, judged again by --resume. */
  retriedFailed = 0;
  /** --resume: lines at a row whose `_key` is another row's inputs (the dataset changed): not kept; the row is judged again. */
  setAside = 0;
  /** --resume: verdicts carried to the row number their inputs have now (rows inserted or moved), without a request. */
  moved = 0;
  /** --resume: kept verdicts written again with the human labels the dataset has now (no request). */
  relabeled = 0;
  /** While the endpoint is down and the run waits: when it began and when the next try is. */
  outage: { since: number; nextTryAt: number; lastError: string } | undefined;
  /** HTTP attempts, including retries and repair requests. */
  calls = 0;
  retries = 0;
  rateLimited = 0;
  repairs = 0;
  cacheHits = 0;
  /** Replies without a `usage` object (some local servers omit it). */
  usageMissing = 0;
  usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  /** Current concurrency limit (lower than requested while slowed down by 429s). */
  limit = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  addUsage(usage: TokenUsage | undefined): void {
    if (!usage) {
      this.usageMissing++;
      return;
    }
    this.usage.promptTokens += usage.promptTokens;
    this.usage.completionTokens += usage.completionTokens;
    this.usage.totalTokens += usage.totalTokens;
    if (usage.cachedTokens) this.usage.cachedTokens = (this.usage.cachedTokens ?? 0) + usage.cachedTokens;
  }

  /** Counts one written row: ok, or failed under its error kind (run and batch collect alike). */
  countRow(outcome: { status: 'ok' } | { status: 'failed'; kind: string }): void {
    this.done++;
    if (outcome.status === 'ok') this.ok++;
    else {
      this.failed++;
      this.failedByKind[outcome.kind] = (this.failedByKind[outcome.kind] ?? 0) + 1;
    }
  }

  /** Adds another counter's calls, usage and repairs (a batch row judged on its own counters, counted once written). */
  absorb(other: RunStats): void {
    this.calls += other.calls;
    this.retries += other.retries;
    this.rateLimited += other.rateLimited;
    this.repairs += other.repairs;
    this.cacheHits += other.cacheHits;
    this.usageMissing += other.usageMissing;
    this.usage.promptTokens += other.usage.promptTokens;
    this.usage.completionTokens += other.usage.completionTokens;
    this.usage.totalTokens += other.usage.totalTokens;
    if (other.usage.cachedTokens) this.usage.cachedTokens = (this.usage.cachedTokens ?? 0) + other.usage.cachedTokens;
  }

  get elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  /** One progress line: rows done/total, errors, rate and ETA. */
  progressLine(): string {
    const seconds = this.elapsedMs / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const parts = [`${this.done}/${this.total ?? '?'} rows`, `${this.failed} error${this.failed === 1 ? '' : 's'}`];
    parts.push(`${rate.toFixed(rate >= 10 ? 0 : 1)} rows/s`);
    if (this.total !== undefined && rate > 0 && this.done < this.total) parts.push(`ETA ${formatDuration((this.total - this.done) / rate)}`);
    if (this.retries > 0) parts.push(`${this.retries} retries`);
    if (this.cacheHits > 0) parts.push(`${this.cacheHits} cached`);
    return `judge-studio run: ${parts.join(' · ')}${this.slowedNote()}${this.outageNote()}`;
  }

  /** The endpoint keeps failing: how long the run has been paused and when it tries again. */
  outageNote(): string {
    const o = this.outage;
    if (!o) return '';
    const now = this.now();
    return ` · endpoint failing for ${formatDuration((now - o.since) / 1000)}, paused; next try in ${formatDuration(Math.max(0, o.nextTryAt - now) / 1000)}`;
  }

  private slowedNote(): string {
    return this.rateLimited > 0 ? ` · rate limited ${this.rateLimited}×, concurrency now ${this.limit}` : '';
  }
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
