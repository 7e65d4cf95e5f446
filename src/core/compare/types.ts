// The comparison report of two runs. `compareJson` projects it onto design.md's --json contract.
import type { CalibrationKind, CalibrationReport, Figure, Label } from '../calibration/types';

export interface Flip {
  row: number;
  a: Label;
  b: Label;
}

/** The calibration figures compare reports for each side and their difference (calibrate --json names). */
export const FIGURES = [
  'accuracy',
  'balanced_accuracy',
  'balanced_f1',
  'cohen_kappa',
  'quadratic_weighted_kappa',
  'spearman',
  'kendall_tau',
] as const;
export type FigureName = (typeof FIGURES)[number];
export type Figures = Partial<Record<FigureName, Figure>>;

export interface HumanComparison {
  /** Paired rows with a human label and a verdict on both sides. */
  n: number;
  a: CalibrationReport;
  b: CalibrationReport;
  delta: Figures;
  /** Discordant counts: A right and B wrong (b), A wrong and B right (c). */
  mcnemar: { a_only_correct: number; b_only_correct: number; p: number };
  /** 95% interval of balanced_accuracy(B) − balanced_accuracy(A); null when undefined. */
  balanced_accuracy_ci: [number, number] | null;
  /** Rows where A's and B's human labels disagree (A's label is used). */
  label_conflicts: number;
}

export interface CompareReport {
  metric_a: string;
  metric_b: string;
  kind: CalibrationKind;
  /** Paired rows with a verdict on both sides. */
  n: number;
  agreement: Figure;
  cohen_kappa: Figure;
  flipped: number;
  flips: Flip[];
  /** B's mean score minus A's over the n rows (pointwise; null for pairwise). */
  mean_shift: Figure;
  /** A's verdict (rows) × B's verdict (columns), over `labels`. */
  transition: { labels: Label[]; matrix: number[][] };
  /** Paired rows without a verdict on a side (the row failed or has no verdict column). */
  no_verdict: { a: number; b: number };
  /** Distinct `m/template_hash` values per side, when the files carry them. */
  template_hashes: { a: string[]; b: string[] };
  human: HumanComparison | null;
}

export interface CompareJson {
  n: number;
  agreement: Figure;
  cohen_kappa: Figure;
  flipped: number;
  flips: Flip[];
  mean_shift: Figure;
  human: { a: Figures; b: Figures; delta: Figures; mcnemar_p: number; balanced_accuracy_ci: [number, number] | null } | null;
}

export type Direction = 'better' | 'worse' | 'not-distinguishable' | 'no-labels';

/** Whether B differs from A on one figure beyond what resampling noise explains (α = 0.05). */
export interface Significance {
  figure: FigureName;
  a: Figure;
  b: Figure;
  delta: Figure;
  /** accuracy: McNemar's exact test on paired correctness; other figures: the paired bootstrap. */
  test: 'mcnemar' | 'bootstrap';
  p?: number;
  ci?: [number, number] | null;
  direction: Direction;
}
