// The calibration report: design.md's contract keys plus additions (per_class, bias, guidance,
// rule_violations, skipped_by_reason). Contract keys are never renamed.
import type { VerdictKind } from '../results/verdict';

/** `categorical`: the judge answers one of a template's labels (`m/label` vs `m/human_label`), a nominal scale. */
export type CalibrationKind = VerdictKind;
export type Label = number | string;

/** A figure that may be undefined (all labels equal, zero variance) is null, never NaN. */
export type Figure = number | null;

export interface ClassFigures {
  label: Label;
  /** Of the rows the judge gave this label, the share humans gave it too; null when the judge never used it. */
  precision: Figure;
  /** Of the rows humans gave this label, the share the judge matched; null when humans never used it. */
  recall: Figure;
  /** F1 as scikit-learn computes it: 0 when precision and recall are both 0 or undefined. */
  f1: number;
  /** Rows humans gave this label. */
  support: number;
  /** Rows the judge gave this label. */
  predicted: number;
}

/** A rate over n cases; `rate` is null when n is 0. */
export interface Rate {
  rate: Figure;
  n: number;
}

/** A rank correlation over n pairs; null when either side is constant or n < 2. */
export interface Correlation {
  spearman: Figure;
  n: number;
}

export interface PairwiseBias {
  /** Rows with both passes (AB and BA) whose verdicts agree. */
  position_consistency: Rate;
  /** Decisive passes (winner A or B) that picked the response shown first. 0.5 is unbiased. */
  first_position: Rate;
  /** Decisive judge verdicts on rows whose responses differ in length that picked the longer one. */
  longer_wins: Rate;
  /** The same for human choices, to compare against. */
  human_longer_wins: Rate;
  /** Spearman between len(A) − len(B) and the judge's preference (A = 1, TIE = 0, B = −1). */
  length_preference: Correlation;
}

export interface PointwiseBias {
  /** Spearman between the judge's score and the length of `response`. */
  score_length: Correlation;
  /** The same for the human rating, to compare against. */
  human_rating_length: Correlation;
}

export interface RuleViolations {
  rows_with_violations: number;
  /** rows_with_violations / n; null when n is 0. */
  rate: Figure;
  /** Rows where the column holds a list (an empty list is a row without violations). */
  n: number;
  by_rule: Record<string, { rows: number; rate: Figure }>;
}

export type CategoricalBias = Record<string, never>;

/** A categorical calibration read as pass/fail through the template's `passing_labels`. */
export interface PassFailView {
  passing_labels: string[];
  n: number;
  /** `fail`, `pass`: the ones either side used. */
  labels: string[];
  confusion_matrix: number[][];
  accuracy: Figure;
  balanced_accuracy: Figure;
  balanced_f1: Figure;
  cohen_kappa: Figure;
  per_class: ClassFigures[];
}

export interface Guidance {
  primary: string[];
  warnings: string[];
}

export interface SkipReasons {
  /** Either label absent, null or empty. */
  missing_label: number;
  /** The judge label is missing because the row failed (`m/error` set). */
  judge_error: number;
  /** A label that cannot be read (a non-numeric rating, an unknown pairwise choice). */
  invalid_label: number;
  /** A malformed record the dataset reader could not parse. */
  unreadable: number;
}

export interface CalibrationReport {
  metric: string;
  kind: CalibrationKind;
  n: number;
  skipped: number;
  labels: Label[];
  confusion_matrix: number[][];
  accuracy: Figure;
  balanced_accuracy: Figure;
  balanced_f1: Figure;
  cohen_kappa: Figure;
  quadratic_weighted_kappa?: Figure;
  spearman?: Figure;
  kendall_tau?: Figure;
  per_class: ClassFigures[];
  skipped_by_reason: SkipReasons;
  /** Rows with a usable human label. */
  labelled: number;
  /**
   * Judged rows ÷ rows with a human label (n ÷ labelled): below 1 when the judge failed on (or
   * never reached) labelled rows, which every other figure leaves out. Null when nothing is labelled.
   */
  coverage: Figure;
  /** Labelled rows whose judgment failed, by `m/error_kind` (`unknown` for lines that predate it). */
  failed_by_kind: Record<string, number>;
  /** Categorical labels have no length or position figures: an empty object. */
  bias: PairwiseBias | PointwiseBias | CategoricalBias;
  rule_violations?: RuleViolations;
  /** Categorical, when the template has `passing_labels`: the same rows as pass/fail. */
  pass_fail?: PassFailView;
  guidance: Guidance;
}

/** Something worth telling the user on stderr that does not stop the calibration. */
export interface CalibrationNote {
  /** The dataset row (`_row` of a results line, else its place in the file). */
  row: number;
  /** The line in the file read, or in `file` when set. */
  line: number;
  message: string;
  /** The file the note is about when it is not the one calibrated: the labels file a human label came from. */
  file?: string;
}

/** One value of a `--by` column: the same figures over its rows, or why there are none. */
export type GroupReport = Omit<CalibrationReport, 'metric' | 'kind'> | { n: 0; error: string };

export type CalibrationOutcome =
  | { ok: true; report: CalibrationReport; notes: CalibrationNote[]; notesOmitted: number; /** `by`: the figures per value of that column */ by?: Record<string, GroupReport> }
  /** `file`: the labels file the error is in, when it is not the one calibrated. */
  | { ok: false; error: string; file?: string };
