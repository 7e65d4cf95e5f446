// Significance for paired comparisons: McNemar's exact test, a seeded PRNG and a paired
// percentile bootstrap. Plain numbers in, plain numbers out; test/reference/compare_reference.py
// recomputes every figure here from its definition.
import { mulberry32 } from '../random';

/** The seed and size of every bootstrap Judge Studio draws, so an interval is reproducible. */
export const BOOTSTRAP_SEED = 20240229;
export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_METHOD =
  'paired percentile bootstrap: mulberry32(seed 20240229), 2000 resamples of the rows with replacement ' +
  '(index = floor(u·n)), 2.5th and 97.5th percentiles with linear interpolation (numpy default)';

export { mulberry32 } from '../random';

/**
 * McNemar's exact test as statsmodels' `mcnemar(table, exact=True)`: a two-sided binomial test on
 * the discordant counts, p = min(1, 2·P(X ≤ min(b, c))) with X ~ Binomial(b + c, 1/2).
 * b: A right and B wrong; c: A wrong and B right. No discordant pair gives p = 1.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  const k = Math.min(b, c);
  return Math.min(1, 2 * binomialCdfHalf(k, n));
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so large n does not underflow. */
export function binomialCdfHalf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  const logHalfN = -n * Math.LN2;
  let logC = 0; // log C(n, 0)
  let max = logC + logHalfN;
  const terms: number[] = [max];
  for (let i = 1; i <= k; i++) {
    logC += Math.log(n - i + 1) - Math.log(i);
    const t = logC + logHalfN;
    terms.push(t);
    if (t > max) max = t;
  }
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - max);
  return Math.min(1, Math.exp(max + Math.log(sum)));
}

/** numpy.percentile(values, q) with the default linear interpolation; `sorted` ascending. */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = ((sorted.length - 1) * q) / 100;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const x = sorted[lo]!;
  const y = sorted[hi]!;
  return x + (y - x) * (pos - lo);
}

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
}

export interface Interval {
  low: number;
  high: number;
  /** Resamples where the statistic was defined (a resample with one human class has no kappa). */
  valid: number;
}

/**
 * A paired percentile bootstrap: draws n row indices with replacement per resample (the same rows
 * for A and B, which keeps the pairing) and collects `stat(indices)`. Null results are dropped;
 * when fewer than half the resamples give a value, there is no interval.
 */
export function pairedBootstrap(n: number, stat: (indices: Uint32Array) => number | null, opts: BootstrapOptions = {}): Interval | null {
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  if (n === 0 || resamples <= 0) return null;
  const rand = mulberry32(opts.seed ?? BOOTSTRAP_SEED);
  const indices = new Uint32Array(n);
  const values: number[] = [];
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) indices[i] = Math.floor(rand() * n);
    const v = stat(indices);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length * 2 < resamples) return null;
  values.sort((x, y) => x - y);
  return { low: percentile(values, 2.5)!, high: percentile(values, 97.5)!, valid: values.length };
}

/** Mean of a list, or null when it is empty. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
