// Spearman for pairs that are not a few discrete labels (response lengths): kept in typed arrays,
// so a million rows cost a few megabytes, and ranked by sorting in O(n log n).
import { correlation } from './confusion';
import type { Correlation } from './types';

/** An append-only list of numbers in a typed array that doubles as it fills. */
export class NumberColumn {
  private data = new Float64Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** Integers this far from 0 are counted as pairs; anything else sends the pairs to columns. */
const SMALL = 2 ** 20;
/** Distinct pairs counted before the pairs go to columns (the table would cost more than it saves). */
const MAX_PAIRS = 1 << 16;

/**
 * Pairs (x, y) for a Spearman correlation. Scores and lengths are small integers with few distinct
 * pairs, so they are counted (a million rows cost a small table, not two million numbers); past
 * MAX_PAIRS distinct pairs, or for any other number, they are kept in two typed columns.
 */
export class PairColumns {
  private counts: Map<number, number> | undefined = new Map();
  private readonly x = new NumberColumn();
  private readonly y = new NumberColumn();
  private n = 0;

  push(x: number, y: number): void {
    this.n++;
    const counts = this.counts;
    if (counts) {
      if (Number.isInteger(x) && Number.isInteger(y) && Math.abs(x) < SMALL && Math.abs(y) < SMALL) {
        const key = (x + SMALL) * 2 * SMALL + (y + SMALL);
        const c = counts.get(key);
        if (c !== undefined) return void counts.set(key, c + 1);
        if (counts.size < MAX_PAIRS) return void counts.set(key, 1);
      }
      this.spill();
    }
    this.x.push(x);
    this.y.push(y);
  }

  spearman(): Correlation {
    return { spearman: this.counts ? spearmanOfCounts(this.counts, this.n) : spearman(this.x.values(), this.y.values()), n: this.n };
  }

  /** From counted pairs to columns; Spearman does not depend on the order of the pairs. */
  private spill(): void {
    const counts = this.counts!;
    this.counts = undefined;
    for (const [key, c] of counts) {
      const x = Math.floor(key / (2 * SMALL)) - SMALL;
      const y = (key % (2 * SMALL)) - SMALL;
      for (let i = 0; i < c; i++) {
        this.x.push(x);
        this.y.push(y);
      }
    }
  }
}

/** scipy spearmanr from counted pairs: average ranks of the distinct values, weighted by their counts. */
function spearmanOfCounts(counts: Map<number, number>, n: number): number | null {
  if (n < 2) return null;
  const xs = new Map<number, number>();
  const ys = new Map<number, number>();
  for (const [key, c] of counts) {
    const x = Math.floor(key / (2 * SMALL)) - SMALL;
    const y = (key % (2 * SMALL)) - SMALL;
    xs.set(x, (xs.get(x) ?? 0) + c);
    ys.set(y, (ys.get(y) ?? 0) + c);
  }
  const mean = (n + 1) / 2;
  const centred = (margin: Map<number, number>): Map<number, number> => {
    const out = new Map<number, number>();
    let before = 0;
    for (const v of [...margin.keys()].sort((a, b) => a - b)) {
      const c = margin.get(v)!;
      out.set(v, before + (c + 1) / 2 - mean);
      before += c;
    }
    return out;
  };
  const rx = centred(xs);
  const ry = centred(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [key, c] of counts) {
    const dx = rx.get(Math.floor(key / (2 * SMALL)) - SMALL)!;
    const dy = ry.get((key % (2 * SMALL)) - SMALL)!;
    sxy += c * dx * dy;
    sxx += c * dx * dx;
    syy += c * dy * dy;
  }
  return correlation(sxy, sxx, syy);
}

/** Average ranks (1-based; tied values share the mean of their positions), as scipy's rankdata. */
export function averageRanks(values: Float64Array): Float64Array {
  return countedRanks(values) ?? sortedRanks(values);
}

/** Lengths and scores are integers in a narrow range: counting them is O(n + range), no sort. */
function countedRanks(values: Float64Array): Float64Array | undefined {
  const n = values.length;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i] ?? NaN;
    if (!Number.isInteger(v)) return undefined;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (n === 0) return new Float64Array(0);
  const span = max - min + 1;
  if (span > 4 * n + 1024) return undefined; // sparse values: sorting is cheaper
  const counts = new Uint32Array(span);
  for (let i = 0; i < n; i++) counts[(values[i] ?? 0) - min] = (counts[(values[i] ?? 0) - min] ?? 0) + 1;
  const rankOf = new Float64Array(span);
  let before = 0;
  for (let k = 0; k < span; k++) {
    const c = counts[k] ?? 0;
    rankOf[k] = before + (c + 1) / 2;
    before += c;
  }
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; i++) ranks[i] = rankOf[(values[i] ?? 0) - min] ?? 0;
  return ranks;
}

function sortedRanks(values: Float64Array): Float64Array {
  const sorted = values.slice().sort();
  const ranks = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    const first = lowerBound(sorted, v);
    const afterLast = upperBound(sorted, v, first);
    ranks[i] = (first + 1 + afterLast) / 2;
  }
  return ranks;
}

/** scipy spearmanr: Pearson on average ranks; null when either side is constant or there are fewer than 2 pairs. */
export function spearman(x: Float64Array, y: Float64Array): number | null {
  const n = x.length;
  if (n < 2 || y.length !== n) return null;
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const mean = (n + 1) / 2; // the mean of average ranks is always (n + 1) / 2
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (rx[i] ?? 0) - mean;
    const dy = (ry[i] ?? 0) - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return correlation(sxy, sxx, syy);
}

function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(sorted: Float64Array, v: number, from: number): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
