// The tiered run's part of the end-of-run report: how many rows the screen escalated, and what
// judging every row with the big model would have cost instead.
import { costUsd, type Prices } from '../reports/summary';
import type { TierStats } from './tiered';
import type { TokenUsage } from '../transport/types';

export interface TierPrices {
  screen?: Prices | undefined;
  judge?: Prices | undefined;
}

const share = (n: number, of: number) => (of > 0 ? n / of : null);
const usd = (p: Prices | undefined, u: TokenUsage) => costUsd(p, u.promptTokens, u.completionTokens);

/**
 * Cost with both tiers' prices: what the run spent, and what the big judge alone would have spent
 * (its own tokens on the rows it judged, the screen's tokens at the big judge's price elsewhere).
 */
export function tierCost(s: TierStats, prices: TierPrices): { actual: number; all_judge: number; saved: number; saved_share: number | null } | null {
  if (!prices.judge || !prices.screen) return null;
  const screen = usd(prices.screen, s.screen) ?? 0;
  const judge = usd(prices.judge, s.judge) ?? 0;
  const all = usd(prices.judge, s.allJudge) ?? 0;
  // Full precision in --json; the summary lines round for display.
  const actual = screen + judge;
  const saved = all - actual;
  return { actual, all_judge: all, saved, saved_share: all > 0 ? saved / all : null };
}

export function tierSummaryJson(s: TierStats, prices: TierPrices): Record<string, unknown> {
  const tokens = (u: TokenUsage) => ({ prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.totalTokens });
  return {
    screen_model: s.screenModel,
    judge_model: s.judgeModel,
    rows: s.rows,
    escalated: s.escalated,
    escalated_share: share(s.escalated, s.rows),
    by_reason: s.byReason,
    audited: s.audited,
    judge_calls_avoided: s.rows - s.escalated - s.audited,
    tokens: { screen: tokens(s.screen), judge: tokens(s.judge), all_judge_estimate: tokens(s.allJudge) },
    cost: tierCost(s, prices),
  };
}

export function tierSummaryLines(s: TierStats, prices: TierPrices): string[] {
  const pct = (n: number) => (s.rows > 0 ? `${Math.round((n / s.rows) * 1000) / 10}%` : '0%');
  const reasons = Object.entries(s.byReason).map(([r, n]) => `${n} ${r}`).join(', ');
  const lines = [
    `  tiers: ${s.screenModel} screened ${s.rows} row(s); ${s.escalated} (${pct(s.escalated)}) escalated to ${s.judgeModel}${reasons ? ` (${reasons})` : ''}` +
      (s.audited ? `; ${s.audited} more audited` : ''),
    `  tier tokens: screen ${s.screen.totalTokens}, judge ${s.judge.totalTokens}; the judge alone would have used about ${s.allJudge.totalTokens}`,
  ];
  const cost = tierCost(s, prices);
  if (cost) lines.push(`  tier cost: $${cost.actual.toFixed(4)} instead of about $${cost.all_judge.toFixed(4)} with ${s.judgeModel} on every row (saved $${cost.saved.toFixed(4)})`);
  else lines.push('  give --price (judge) and --screen-price to see the cost saved');
  return lines;
}
