// Which figures to read for the task at hand (seed 003's metric-choice table), and when the
// sample is too small to trust.
import type { CalibrationKind, ClassFigures, Guidance, Label, PairwiseBias } from './types';

/** Below these, agreement figures swing too much from row to row to be trusted. */
export const MIN_ROWS = 30;
export const MIN_CLASS_ROWS = 5;

export type Task = 'binary' | 'ordinal' | 'pairwise' | 'nominal';

/** Pointwise labels within {0, 1} are pass/fail; other pointwise scales are ordinal; categorical labels are nominal. */
export function taskOf(kind: CalibrationKind, labels: readonly Label[]): Task {
  if (kind === 'pairwise') return 'pairwise';
  if (kind === 'categorical') return 'nominal';
  return labels.length > 0 && labels.every((l) => l === 0 || l === 1) ? 'binary' : 'ordinal';
}

/** JSON paths of the figures that fit each task. */
export const PRIMARY: Record<Task, string[]> = {
  binary: ['per_class.precision', 'per_class.recall', 'per_class.f1', 'cohen_kappa'],
  ordinal: ['spearman', 'kendall_tau', 'quadratic_weighted_kappa'],
  pairwise: ['accuracy', 'bias.position_consistency'],
  nominal: ['balanced_accuracy', 'cohen_kappa', 'per_class.f1'],
};

export function guidanceFor(
  kind: CalibrationKind,
  labels: readonly Label[],
  classes: readonly ClassFigures[],
  n: number,
  bias: PairwiseBias | undefined,
): Guidance {
  const warnings: string[] = [];
  if (n === 0) warnings.push('no row has both a human and a judge label, so there is nothing to compare');
  else if (n < MIN_ROWS) {
    warnings.push(`only ${n} labelled row${n === 1 ? '' : 's'}: below ${MIN_ROWS} the figures are too noisy to trust; label more rows`);
  }
  const used = classes.filter((c) => c.support > 0);
  if (used.length === 1 && used[0] !== undefined) {
    warnings.push(
      `humans used only one label (${JSON.stringify(used[0].label)}), so kappa and the rank correlations say nothing ` +
        '(they are null when the judge also used one label); add rows of the other classes',
    );
  }
  for (const c of classes) {
    if (c.support > 0 && c.support < MIN_CLASS_ROWS) {
      warnings.push(
        `humans used ${JSON.stringify(c.label)} in only ${c.support} row${c.support === 1 ? '' : 's'}: ` +
          `recall and F1 for that class rest on fewer than ${MIN_CLASS_ROWS}`,
      );
    }
  }
  if (bias) {
    const consistency = bias.position_consistency.n;
    if (consistency === 0) {
      warnings.push('no row has both passes (AB and BA), so position consistency is unknown; run with swap on');
    } else if (consistency < MIN_ROWS) {
      warnings.push(`position consistency rests on only ${consistency} row${consistency === 1 ? '' : 's'} with both passes`);
    }
  }
  return { primary: [...PRIMARY[taskOf(kind, labels)]], warnings };
}
