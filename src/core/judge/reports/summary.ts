// The end-of-run report, as lines for a terminal and as the `--json` object, for the CLI and the
// run panel alike. Cost is printed only when prices are given: no price table is built in.
import type { DryRunReport } from './dryRun';
import { formatDuration } from '../run/stats';
import type { RunStats } from '../run/stats';

/** USD per million prompt and completion tokens. */
export interface Prices {
  input: number;
  output: number;
  /** USD per million prompt tokens read from the provider's prompt cache; without it they cost `input`. */
  cached?: number;
}

export interface ReportMeta {
  model: string;
  baseURL: string;
  prices?: Prices | undefined;
}

export interface RunMeta extends ReportMeta {
  metric: string;
  out: string;
  interrupted: boolean;
  /** How the run ended (see pipeline.ts). */
  stop?: 'done' | 'cancelled' | 'outage' | 'unreachable' | 'write-failed';
  cacheDir: string | null;
}

export function costUsd(prices: Prices | undefined, promptTokens: number, completionTokens: number, cachedTokens = 0): number | null {
  if (!prices) return null;
  const cached = prices.cached !== undefined ? Math.min(cachedTokens, promptTokens) : 0;
  const input = (promptTokens - cached) * prices.input + cached * (prices.cached ?? prices.input);
  return (input + completionTokens * prices.output) / 1e6;
}

/** `3 rate-limit, 1 invalid-reply`, largest first. */
function byCount(counts: Record<string, number>): string {
  return Object.entries(counts).sort(([, a], [, b]) => b - a).map(([k, n]) => `${n} ${k}`).join(', ');
}

const unfinished = (s: RunStats) => Math.max(0, (s.total ?? s.done) - s.done);

export function summaryLines(s: RunStats, m: RunMeta): string[] {
  const usd = costUsd(m.prices, s.usage.promptTokens, s.usage.completionTokens, s.usage.cachedTokens);
  const cached = s.usage.cachedTokens ? ` (${s.usage.cachedTokens} prompt tokens from the provider's prompt cache)` : '';
  const noUsage = s.usageMissing ? ` (${s.usageMissing} repl${s.usageMissing === 1 ? 'y' : 'ies'} carried no usage)` : '';
  const lines = [
    `${s.done} row(s) judged (${s.ok} ok, ${s.failed} failed) in ${formatDuration(s.elapsedMs / 1000)} → ${m.out}`,
    `  requests: ${s.calls} sent, ${s.cacheHits} answered from the cache, ${s.retries} retried, ${s.repairs} repair request(s)`,
    `  tokens: ${s.usage.promptTokens} prompt + ${s.usage.completionTokens} completion = ${s.usage.totalTokens}${cached}${noUsage}`,
  ];
  if (usd !== null) lines.push(`  cost: $${usd.toFixed(4)}`);
  if (s.skippedLines) lines.push(`  ${s.skippedLines} unreadable dataset record(s) skipped (no results line; see above): ${byCount(s.skippedByReason)}`);
  if (s.alreadyDone) lines.push(`  ${s.alreadyDone} row(s) were already in ${m.out} and kept`);
  if (s.retriedFailed) lines.push(`  ${s.retriedFailed} row(s) that had failed before were judged again`);
  if (s.failed) lines.push(`  failed rows by kind: ${byCount(s.failedByKind)}; they carry "${m.metric}/error" and "${m.metric}/error_kind" in ${m.out}`);
  if (m.interrupted) lines.push(`  interrupted${m.stop && m.stop !== 'cancelled' ? ` (${m.stop})` : ''}: ${unfinished(s)} row(s) not judged; run again with --resume to finish`);
  return lines;
}

export function summaryJson(s: RunStats, m: RunMeta): Record<string, unknown> {
  return {
    metric: m.metric,
    model: m.model,
    base_url: m.baseURL,
    out: m.out,
    interrupted: m.interrupted,
    rows: {
      total: s.total ?? null,
      judged: s.done,
      ok: s.ok,
      failed: s.failed,
      unfinished: unfinished(s),
      skipped_lines: s.skippedLines,
      skipped_by_reason: s.skippedByReason,
      already_done: s.alreadyDone,
      retried_failed: s.retriedFailed,
      failed_by_kind: s.failedByKind,
    },
    stop: m.stop ?? (m.interrupted ? 'cancelled' : 'done'),
    requests: { sent: s.calls, cache_hits: s.cacheHits, retries: s.retries, rate_limited: s.rateLimited, repairs: s.repairs },
    usage: {
      prompt_tokens: s.usage.promptTokens,
      completion_tokens: s.usage.completionTokens,
      total_tokens: s.usage.totalTokens,
      // Only when the endpoint reports prompt caching: absent means unknown, not zero.
      ...(s.usage.cachedTokens !== undefined ? { cached_prompt_tokens: s.usage.cachedTokens } : {}),
      replies_without_usage: s.usageMissing,
    },
    cost_usd: costUsd(m.prices, s.usage.promptTokens, s.usage.completionTokens, s.usage.cachedTokens),
    elapsed_ms: s.elapsedMs,
    cache_dir: m.cacheDir,
  };
}

export function dryRunLines(r: DryRunReport, m: ReportMeta): string[] {
  const usd = costUsd(m.prices, r.promptTokens, r.completionTokens);
  const completion = r.completionIsMax ? `at most ${r.completionTokens} completion (max_tokens)` : `~${r.completionTokens} completion (200 per reply assumed)`;
  const lines = [
    `dry run: ${r.rows} row(s) → ${r.requests} request(s) to ${m.model} at ${m.baseURL}, ${r.cachedRequests} already cached`,
    `  estimated tokens for the ${r.requests - r.cachedRequests} uncached request(s): ~${r.promptTokens} prompt (4 characters per token) + ${completion}`,
  ];
  if (usd !== null) lines.push(`  estimated cost: $${usd.toFixed(4)}`);
  if (r.renderErrors) lines.push(`  ${r.renderErrors} row(s) cannot be rendered and would be recorded as errors (see above)`);
  if (r.skippedLines) lines.push(`  ${r.skippedLines} unreadable dataset record(s) skipped`);
  if (r.alreadyDone) lines.push(`  ${r.alreadyDone} row(s) already in the results file (--resume)`);
  return lines;
}

export function dryRunJson(r: DryRunReport, m: ReportMeta): Record<string, unknown> {
  return {
    dry_run: true,
    model: m.model,
    base_url: m.baseURL,
    rows: r.rows,
    requests: r.requests,
    cached_requests: r.cachedRequests,
    estimated: { prompt_tokens: r.promptTokens, completion_tokens: r.completionTokens, completion_is_max: r.completionIsMax },
    cost_usd: costUsd(m.prices, r.promptTokens, r.completionTokens),
    render_errors: r.renderErrors,
    skipped_lines: r.skippedLines,
    already_done: r.alreadyDone,
  };
}
