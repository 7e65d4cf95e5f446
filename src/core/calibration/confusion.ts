// The confusion matrix, counted while streaming, and every agreement figure derived from it.
// Labels are few discrete values, so rank correlations come from the contingency table in O(k²),
// exactly as scipy computes them from the raw pairs (average ranks for ties, Kendall tau-b).
import type { ClassFigures, Figure, Label } from './types';

// Pair keys pack two label indices into one number; 2^21 labels per side is far beyond any scale.
const STRIDE = 2 ** 21;

/** Counts (human, judge) label pairs without keeping the rows. */
export class ConfusionCounter<T extends Label> {
  private readonly index = new Map<T, number>();
  private readonly seen: T[] = [];
  private readonly counts = new Map<number, number>();
  total = 0;

  add(human: T, judge: T): void {
    const key = this.indexOf(human) * STRIDE + this.indexOf(judge);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  /** Labels sorted (numbers numerically, strings lexically) and the matrix in that order: rows human, columns judge. */
  matrix(): { labels: T[]; matrix: number[][] } {
    const labels = [...this.seen].sort(compareLabels);
    const position = new Map<number, number>(labels.map((label, i) => [this.index.get(label) ?? -1, i]));
    const matrix = labels.map(() => labels.map(() => 0));
    for (const [key, count] of this.counts) {
      const h = position.get(Math.floor(key / STRIDE));
      const j = position.get(key % STRIDE);
      const row = h === undefined ? undefined : matrix[h];
      if (row === undefined || j === undefined) throw new Error('confusion counter: unknown label index');
      row[j] = count;
    }
    return { labels, matrix };
  }

  private indexOf(label: T): number {
    let i = this.index.get(label);
    if (i === undefined) {
      i = this.seen.length;
      if (i >= STRIDE) throw new Error(`more than ${STRIDE} distinct labels; the labels do not look like ratings`);
      this.index.set(label, i);
      this.seen.push(label);
    }
    return i;
  }
}

export function compareLabels(a: Label, b: Label): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

interface Margins {
  rows: number[];
  cols: number[];
  total: number;
}

function margins(m: number[][]): Margins {
  const rows = m.map((r) => r.reduce((s, c) => s + c, 0));
  const cols = m.map((_, j) => m.reduce((s, r) => s + at(r, j), 0));
  return { rows, cols, total: rows.reduce((s, c) => s + c, 0) };
}

function at(values: readonly number[], i: number): number {
  return values[i] ?? 0;
}

function cell(m: number[][], i: number, j: number): number {
  return m[i]?.[j] ?? 0;
}

export function accuracy(m: number[][]): Figure {
  const { total } = margins(m);
  return total === 0 ? null : m.reduce((s, _, i) => s + cell(m, i, i), 0) / total;
}

/** scikit-learn's per-class report: zero division gives 0 for F1, and null (not 0) for precision/recall here. */
export function perClass(labels: readonly Label[], m: number[][]): ClassFigures[] {
  const { rows, cols } = margins(m);
  return labels.map((label, i) => {
    const tp = cell(m, i, i);
    const support = at(rows, i);
    const predicted = at(cols, i);
    const denominator = support + predicted; // 2tp + fp + fn
    return {
      label,
      precision: predicted === 0 ? null : tp / predicted,
      recall: support === 0 ? null : tp / support,
      f1: denominator === 0 ? 0 : (2 * tp) / denominator,
      support,
      predicted,
    };
  });
}

/** Mean recall over the classes humans used (sklearn balanced_accuracy_score). */
export function balancedAccuracy(classes: readonly ClassFigures[]): Figure {
  const recalls = classes.flatMap((c) => (c.recall === null ? [] : [c.recall]));
  return recalls.length === 0 ? null : recalls.reduce((s, r) => s + r, 0) / recalls.length;
}

/** F1 per class weighted by the human count of the class (sklearn f1_score average='weighted'). */
export function balancedF1(classes: readonly ClassFigures[]): Figure {
  const total = classes.reduce((s, c) => s + c.support, 0);
  return total === 0 ? null : classes.reduce((s, c) => s + c.support * c.f1, 0) / total;
}

/** sklearn cohen_kappa_score; weights 'quadratic' use label positions (i − j)², not label values. */
export function cohenKappa(m: number[][], weights: 'none' | 'quadratic' = 'none'): Figure {
  const { rows, cols, total } = margins(m);
  if (total === 0) return null;
  const w = weights === 'none' ? (i: number, j: number) => (i === j ? 0 : 1) : (i: number, j: number) => (i - j) ** 2;
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < m.length; i++) {
    for (let j = 0; j < m.length; j++) {
      const weight = w(i, j);
      observed += weight * cell(m, i, j);
      expected += (weight * at(cols, i) * at(rows, j)) / total;
    }
  }
  return expected === 0 ? null : 1 - observed / expected;
}

/** Average rank of each label given how many rows carry it (labels in ascending order). */
function averageRanks(counts: readonly number[]): number[] {
  let before = 0;
  return counts.map((c) => {
    const rank = before + (c + 1) / 2;
    before += c;
    return rank;
  });
}

/** scipy spearmanr (Pearson on average ranks) from the table; the labels must be numbers in ascending order. */
export function spearmanFromTable(m: number[][]): Figure {
  const { rows, cols, total } = margins(m);
  if (total < 2) return null;
  const mean = (total + 1) / 2;
  const rh = averageRanks(rows).map((r) => r - mean);
  const rj = averageRanks(cols).map((r) => r - mean);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < m.length; i++) {
    sxx += at(rows, i) * at(rh, i) ** 2;
    syy += at(cols, i) * at(rj, i) ** 2;
    for (let j = 0; j < m.length; j++) sxy += cell(m, i, j) * at(rh, i) * at(rj, j);
  }
  return correlation(sxy, sxx, syy);
}

/** Pearson from centred sums; null when either side is constant. Clamped against rounding just past ±1. */
export function correlation(sxy: number, sxx: number, syy: number): Figure {
  if (sxx <= 0 || syy <= 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** scipy kendalltau (tau-b) from the table: concordant minus discordant pairs over the tie-corrected pair counts. */
export function kendallTauBFromTable(m: number[][]): Figure {
  const k = m.length;
  const { rows, cols, total } = margins(m);
  // below[i][j]: rows i' ≥ i with columns j' ≥ j; left[i][j]: rows i' ≥ i with columns j' < j.
  const below = Array.from({ length: k + 1 }, () => new Array<number>(k + 1).fill(0));
  const left = Array.from({ length: k + 1 }, () => new Array<number>(k + 1).fill(0));
  for (let i = k - 1; i >= 0; i--) {
    const b = below[i] ?? [];
    const l = left[i] ?? [];
    const bNext = below[i + 1] ?? [];
    const lNext = left[i + 1] ?? [];
    let rowFromJ = 0;
    for (let j = k - 1; j >= 0; j--) {
      rowFromJ += cell(m, i, j);
      b[j] = rowFromJ + at(bNext, j);
    }
    let rowBeforeJ = 0;
    for (let j = 0; j <= k; j++) {
      l[j] = rowBeforeJ + at(lNext, j);
      rowBeforeJ += cell(m, i, j);
    }
  }
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = cell(m, i, j);
      if (c === 0) continue;
      concordant += c * cell(below, i + 1, j + 1);
      discordant += c * cell(left, i + 1, j);
    }
  }
  const pairs = (total * (total - 1)) / 2;
  const tiedHuman = rows.reduce((s, r) => s + (r * (r - 1)) / 2, 0);
  const tiedJudge = cols.reduce((s, c) => s + (c * (c - 1)) / 2, 0);
  if (pairs - tiedHuman <= 0 || pairs - tiedJudge <= 0) return null;
  const tau = (concordant - discordant) / Math.sqrt(pairs - tiedHuman) / Math.sqrt(pairs - tiedJudge);
  return Math.max(-1, Math.min(1, tau));
}
