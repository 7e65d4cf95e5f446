// Calibration figures from a confusion matrix, by name, as `calibrate` computes them; used for
// bootstrap resamples, where building whole calibration reports would be wasteful.
import {
  accuracy,
  balancedAccuracy,
  balancedF1,
  cohenKappa,
  compareLabels,
  kendallTauBFromTable,
  perClass,
  spearmanFromTable,
} from '../calibration/confusion';
import type { Figure, Label } from '../calibration/types';
import { mcnemarExact, pairedBootstrap, type BootstrapOptions, type Interval } from './stats';
import type { FigureName } from './types';

/**
 * One figure from a matrix over `labels` (rows human, columns judge). Labels neither side used are
 * dropped first, as scikit-learn's label set is the union of what appears: quadratic kappa depends on it.
 */
export function figureFromMatrix(name: FigureName, labels: readonly Label[], matrix: number[][]): Figure {
  const keep: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    let used = false;
    for (let j = 0; j < labels.length && !used; j++) used = (matrix[i]?.[j] ?? 0) > 0 || (matrix[j]?.[i] ?? 0) > 0;
    if (used) keep.push(i);
  }
  const l = keep.map((i) => labels[i]!);
  const m = keep.map((i) => keep.map((j) => matrix[i]?.[j] ?? 0));
  switch (name) {
    case 'accuracy':
      return accuracy(m);
    case 'balanced_accuracy':
      return balancedAccuracy(perClass(l, m));
    case 'balanced_f1':
      return balancedF1(perClass(l, m));
    case 'cohen_kappa':
      return cohenKappa(m);
    case 'quadratic_weighted_kappa':
      return cohenKappa(m, 'quadratic');
    case 'spearman':
      return spearmanFromTable(m);
    case 'kendall_tau':
      return kendallTauBFromTable(m);
  }
}

/** Paired labels as indices into one sorted label list, for fast resampling. */
export interface LabelledPairs {
  labels: Label[];
  human: Int32Array;
  a: Int32Array;
  b: Int32Array;
}

export function indexPairs(rows: readonly { human: Label; a: Label; b: Label }[]): LabelledPairs {
  const set = new Set<Label>();
  for (const r of rows) set.add(r.human).add(r.a).add(r.b);
  const labels = [...set].sort(compareLabels);
  const index = new Map(labels.map((l, i) => [l, i]));
  const at = (l: Label) => index.get(l)!;
  return {
    labels,
    human: Int32Array.from(rows, (r) => at(r.human)),
    a: Int32Array.from(rows, (r) => at(r.a)),
    b: Int32Array.from(rows, (r) => at(r.b)),
  };
}

/** The 95% interval of figure(B) − figure(A) over paired resamples of the rows. */
export function deltaInterval(pairs: LabelledPairs, name: FigureName, opts: BootstrapOptions = {}): Interval | null {
  const k = pairs.labels.length;
  const n = pairs.human.length;
  const flatA = new Float64Array(k * k);
  const flatB = new Float64Array(k * k);
  const toMatrix = (flat: Float64Array) => Array.from({ length: k }, (_, i) => Array.from(flat.subarray(i * k, i * k + k)));
  return pairedBootstrap(
    n,
    (indices) => {
      flatA.fill(0);
      flatB.fill(0);
      for (const i of indices) {
        const h = pairs.human[i]! * k;
        flatA[h + pairs.a[i]!]!++;
        flatB[h + pairs.b[i]!]!++;
      }
      const fa = figureFromMatrix(name, pairs.labels, toMatrix(flatA));
      const fb = figureFromMatrix(name, pairs.labels, toMatrix(flatB));
      return fa === null || fb === null ? null : fb - fa;
    },
    opts,
  );
}

/** McNemar on paired correctness: which rows only A got right, which only B. */
export function mcnemarOnPairs(pairs: LabelledPairs): { a_only_correct: number; b_only_correct: number; p: number } {
  let aOnly = 0;
  let bOnly = 0;
  for (let i = 0; i < pairs.human.length; i++) {
    const okA = pairs.a[i] === pairs.human[i];
    const okB = pairs.b[i] === pairs.human[i];
    if (okA && !okB) aOnly++;
    else if (okB && !okA) bOnly++;
  }
  return { a_only_correct: aOnly, b_only_correct: bOnly, p: mcnemarExact(aOnly, bOnly) };
}
