// Small shared arithmetic of verdicts: rounding, swapping labels, and votes over samples. One copy,
// used by every strategy, so a tie rule cannot differ between pointwise, pairwise and HHH.
import type { Winner } from './winners';

/** Figures in results files carry six decimals. */
export const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A's and B's labels exchanged (a pass rendered in BA order, mapped back). */
export function swapWinner(winner: Winner): Winner {
  return winner === 'A' ? 'B' : winner === 'B' ? 'A' : 'TIE';
}

function counts<T>(values: readonly T[]): Map<T, number> {
  const c = new Map<T, number>();
  for (const v of values) c.set(v, (c.get(v) ?? 0) + 1);
  return c;
}

/**
 * Most frequent score. A tie between equally frequent scores goes to the one nearest the mean of
 * all samples, and when that still ties, to the one sampled first: no built-in lean to low or high.
 */
export function majorityScore(scores: readonly number[]): number {
  const c = counts(scores);
  const top = Math.max(...c.values());
  const tied = [...c.keys()].filter((s) => c.get(s) === top);
  if (tied.length === 1) return tied[0]!;
  const m = mean(scores);
  const best = Math.min(...tied.map((s) => Math.abs(s - m)));
  return tied.find((s) => Math.abs(s - m) === best)!; // Map keys keep first-sampled order
}

/** Most frequent winner; no single most frequent one means TIE. */
export function majorityWinner(winners: readonly Winner[]): Winner {
  const sorted = [...counts(winners).entries()].sort(([, a], [, b]) => b - a);
  if (sorted.length > 1 && sorted[0]![1] === sorted[1]![1]) return 'TIE';
  return sorted[0]![0];
}

/** Share of samples that gave the most common answer (a split vote counts its largest group). */
export function agreement<T>(values: readonly T[]): number {
  return round6(Math.max(...counts(values).values()) / values.length);
}

/** Share of samples whose answer differs from `verdict` (the run's `flip_rate`). */
export function flipRate<T>(values: readonly T[], verdict: T): number {
  return round6(values.filter((v) => v !== verdict).length / values.length);
}

/** `swap_rule: votes`: more votes for A or B wins; a TIE vote counts for neither; equal is TIE. */
export function voteWinner(votes: readonly Winner[]): Winner {
  let a = 0;
  let b = 0;
  for (const w of votes) {
    if (w === 'A') a++;
    else if (w === 'B') b++;
  }
  return a > b ? 'A' : b > a ? 'B' : 'TIE';
}
