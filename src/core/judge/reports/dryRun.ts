// --dry-run: render every selected row exactly as a run would, count the requests and estimate
// tokens before anything is spent. Requests already in the cache are counted as free.
import type { DatasetItem } from '../../dataset/types';
import { isSkip } from '../../dataset/types';
import type { JudgeCache } from '../engine/cache';
import { requestKey } from '../engine/pass';
import type { JudgeSettings } from '../engine/pass';
import { rowRequests } from '../engine/row';
import type { ResumeScan } from '../run/scan';
import type { PreparedJudge } from '../engine/prepare';
import type { RowRange } from '../run/runner';
import { inRange } from '../run/runner';
import type { ChatMessage } from '../transport/types';

/** A rough English-text ratio; real tokenizers differ by model, so this is an estimate. */
export const CHARS_PER_TOKEN = 4;
/** Completion tokens assumed per reply when the template sets no max_tokens. */
export const ASSUMED_REPLY_TOKENS = 200;

/** Prompt tokens of a chat request: characters / 4 plus the per-message framing OpenAI documents (~4 each, 3 to prime). */
export function estimatePromptTokens(messages: ChatMessage[]): number {
  return 3 + messages.reduce((sum, m) => sum + 4 + Math.ceil(m.content.length / CHARS_PER_TOKEN), 0);
}

export interface DryRunReport {
  rows: number;
  skippedLines: number;
  alreadyDone: number;
  /** Rows whose prompt could not be rendered (they would be recorded as row errors). */
  renderErrors: number;
  requests: number;
  cachedRequests: number;
  /** Estimated prompt tokens of the requests not in the cache. */
  promptTokens: number;
  /** Estimated completion tokens of the requests not in the cache. */
  completionTokens: number;
  /** True when completionTokens uses max_tokens (an upper bound) rather than an assumed reply size. */
  completionIsMax: boolean;
}

export interface DryRunOptions {
  judge: PreparedJudge;
  settings: JudgeSettings;
  items: AsyncIterable<DatasetItem>;
  samples?: number;
  rows?: RowRange;
  /** --resume: the rows the results file already holds, by `_key` (run/scan.ts). */
  resume?: Pick<ResumeScan, 'decide'>;
  cache?: JudgeCache;
  cacheScope: string;
  log?: (message: string) => void;
}

export async function dryRun(opts: DryRunOptions): Promise<DryRunReport> {
  const samples = opts.samples ?? 1;
  const perReply = opts.settings.maxTokens ?? ASSUMED_REPLY_TOKENS;
  const report: DryRunReport = {
    rows: 0,
    skippedLines: 0,
    alreadyDone: 0,
    renderErrors: 0,
    requests: 0,
    cachedRequests: 0,
    promptTokens: 0,
    completionTokens: 0,
    completionIsMax: opts.settings.maxTokens !== undefined,
  };
  for await (const item of opts.items) {
    if (opts.rows?.to !== undefined && item.row > opts.rows.to) break;
    if (!inRange(item.row, opts.rows)) continue;
    if (isSkip(item)) {
      report.skippedLines++;
      opts.log?.(item.error);
      continue;
    }
    if (opts.resume && opts.resume.decide(item.row, item.record).action !== 'judge') {
      report.alreadyDone++;
      continue;
    }
    report.rows++;
    // The very requests a run sends (engine/row.ts), so the count cannot drift from the run.
    const rendered = rowRequests(item, opts.judge, samples, opts.settings);
    if (!rendered.ok) {
      report.renderErrors++;
      opts.log?.(rendered.error);
      continue;
    }
    for (const { request, sample } of rendered.passes) {
      report.requests++;
      if (opts.cache && (await opts.cache.has(requestKey(request, sample, opts.cacheScope)))) {
        report.cachedRequests++;
        continue;
      }
      report.promptTokens += estimatePromptTokens(request.messages);
      report.completionTokens += perReply;
    }
  }
  return report;
}
