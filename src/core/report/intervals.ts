// 95% intervals of a calibration's figures: a percentile bootstrap over its rows, with the seed,
// resample count and percentile rule compare uses, and each figure computed by the same function
// calibrate's figures come from (compare/figures.ts over calibration/confusion.ts).
import type { CalibrationReport, Figure, Label } from '../calibration/types';
import { figureFromMatrix } from '../compare/figures';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, mulberry32, percentile, type BootstrapOptions } from '../compare/stats';
import { FIGURES, type FigureName } from '../compare/types';
import type { FigureWithInterval } from './types';

export const INTERVAL_METHOD =
  `percentile bootstrap over the labelled rows: mulberry32(seed ${BOOTSTRAP_SEED}), ${BOOTSTRAP_RESAMPLES} resamples with replacement, ` +
  '2.5th and 97.5th percentiles (as compare draws them); a figure undefined in more than half the resamples has no interval';

const NAMES: Record<FigureName, string> = {
  accuracy: 'Accuracy',
  balanced_accuracy: 'Balanced accuracy',
  balanced_f1: 'Balanced F1',
  cohen_kappa: "Cohen's κ",
  quadratic_weighted_kappa: 'Quadratic-weighted κ',
  spearman: 'Spearman ρ',
  kendall_tau: 'Kendall τ-b',
};

/** The figures the report has (pointwise adds the ordinal ones), each with its interval. */
export function figureIntervals(report: CalibrationReport, opts: BootstrapOptions = {}): FigureWithInterval[] {
  const names = FIGURES.filter((f) => report[f] !== undefined);
  const samples = bootstrapSamples(report.labels, report.confusion_matrix, names, opts);
  return names.map((key) => {
    const value = report[key] as Figure;
    const sorted = samples.get(key) ?? [];
    const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
    const ok = value !== null && sorted.length * 2 >= resamples && sorted.length > 0;
    return { key, name: NAMES[key], value, low: ok ? percentile(sorted, 2.5) : null, high: ok ? percentile(sorted, 97.5) : null };
  });
}

/**
 * Resamples of the rows behind `matrix` (a row is one human × judge cell), every figure computed
 * on each resampled matrix: one draw of n indices per resample serves all figures.
 */
function bootstrapSamples(labels: readonly Label[], matrix: readonly (readonly number[])[], names: readonly FigureName[], opts: BootstrapOptions): Map<FigureName, number[]> {
  const k = labels.length;
  const cells: number[] = [];
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) for (let c = matrix[i]?.[j] ?? 0; c > 0; c--) cells.push(i * k + j);
  const n = cells.length;
  const out = new Map<FigureName, number[]>(names.map((f) => [f, []]));
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  if (n === 0) return out;
  const rows = Int32Array.from(cells);
  const rand = mulberry32(opts.seed ?? BOOTSTRAP_SEED);
  const flat = new Float64Array(k * k);
  for (let r = 0; r < resamples; r++) {
    flat.fill(0);
    for (let i = 0; i < n; i++) flat[rows[Math.floor(rand() * n)]!]!++;
    const m = Array.from({ length: k }, (_, i) => Array.from(flat.subarray(i * k, i * k + k)));
    for (const f of names) {
      const v = figureFromMatrix(f, labels, m);
      if (v !== null && Number.isFinite(v)) out.get(f)!.push(v);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}
