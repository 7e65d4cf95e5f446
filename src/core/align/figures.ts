// Figures for one template on one part (the calibration's definitions: accuracy, balanced
// accuracy, Cohen's kappa, quadratic-weighted kappa for scales) and the paired comparison of a
// candidate with the current template on the same rows: the accuracy change with a paired
// bootstrap 95 % interval (compare's seeded bootstrap) and McNemar's exact p.
import { accuracy, balancedAccuracy, cohenKappa, ConfusionCounter, perClass } from '../calibration/confusion';
import type { Label } from '../calibration/types';
import { mcnemarExact, pairedBootstrap, BOOTSTRAP_METHOD } from '../compare/stats';
import type { LabelledRow, PartFigures, Verdict } from './types';

export const ALIGN_METHOD =
  `held-out accuracy change of each candidate against the current template on the held-out rows both judged; ${BOOTSTRAP_METHOD}; ` +
  "McNemar's exact test on the rows exactly one of the two got right; overfit when the train gain exceeds the held-out gain by more than the interval's half-width";

export function partFigures(kind: 'pointwise' | 'pairwise', rows: readonly LabelledRow[], verdicts: ReadonlyMap<string, Verdict>): PartFigures {
  const counter = new ConfusionCounter<Label>();
  let failed = 0;
  const byKind: Record<string, number> = {};
  let firstError: string | undefined;
  for (const r of rows) {
    const verdict = verdicts.get(r.key);
    const judge = verdict?.label;
    if (judge === undefined) {
      failed++;
      const kind = verdict?.errorKind ?? (verdict ? 'unreadable' : 'not-judged');
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      firstError ??= verdict?.error;
    } else counter.add(r.label, judge);
  }
  const { labels, matrix } = counter.matrix();
  return {
    n: counter.total,
    failed,
    ...(failed > 0 ? { failed_by_kind: byKind, ...(firstError !== undefined ? { first_error: firstError } : {}) } : {}),
    accuracy: accuracy(matrix),
    balanced_accuracy: balancedAccuracy(perClass(labels, matrix)),
    cohen_kappa: cohenKappa(matrix),
    ...(kind === 'pointwise' ? { quadratic_weighted_kappa: cohenKappa(matrix, 'quadratic') } : {}),
  };
}

export interface Paired {
  /** Rows both templates judged. */
  n: number;
  /** Candidate accuracy minus current accuracy on those rows; null when there are none. */
  delta: number | null;
  ci: [number, number] | null;
  mcnemarP: number | null;
}

/** The candidate against the current template on the rows both judged (the pairing the bootstrap keeps). */
export function comparePaired(rows: readonly LabelledRow[], base: ReadonlyMap<string, Verdict>, cand: ReadonlyMap<string, Verdict>, withInterval: boolean): Paired {
  const b: number[] = [];
  const c: number[] = [];
  for (const r of rows) {
    const x = base.get(r.key)?.label;
    const y = cand.get(r.key)?.label;
    if (x === undefined || y === undefined) continue;
    b.push(x === r.label ? 1 : 0);
    c.push(y === r.label ? 1 : 0);
  }
  const n = b.length;
  if (n === 0) return { n, delta: null, ci: null, mcnemarP: null };
  let onlyBase = 0;
  let onlyCand = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += c[i]! - b[i]!;
    if (b[i]! > c[i]!) onlyBase++;
    if (c[i]! > b[i]!) onlyCand++;
  }
  const ci = withInterval
    ? pairedBootstrap(n, (idx) => {
        let s = 0;
        for (let k = 0; k < idx.length; k++) s += c[idx[k]!]! - b[idx[k]!]!;
        return s / idx.length;
      })
    : null;
  return { n, delta: sum / n, ci: ci ? [ci.low, ci.high] : null, mcnemarP: mcnemarExact(onlyBase, onlyCand) };
}

/** The train gain exceeds the held-out gain by more than the interval's half-width. */
export function isOverfit(trainGain: number | null, heldout: Paired): boolean | null {
  if (trainGain === null || heldout.delta === null || heldout.ci === null) return null;
  const half = (heldout.ci[1] - heldout.ci[0]) / 2;
  return trainGain - heldout.delta > half;
}

/** The candidate with the largest held-out gain whose interval lies above 0 (ties: the first listed). */
export function bestOf(candidates: readonly { id: string; delta: { accuracy: number; ci: [number, number] | null } | null; status: string }[]): string | null {
  let best: { id: string; gain: number } | undefined;
  for (const c of candidates) {
    if (c.status !== 'done' || !c.delta?.ci || !(c.delta.ci[0] > 0)) continue;
    if (!best || c.delta.accuracy > best.gain) best = { id: c.id, gain: c.delta.accuracy };
  }
  return best?.id ?? null;
}
