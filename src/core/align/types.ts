// The align report: the JSON contract of `judge-studio align --json` (issue #24), also written to
// `<out-dir>/align-report.json` for the editor's view. Contract keys are never renamed; additions
// go beside them.
import type { Label } from '../calibration/types';

/** Agreement of one template with the human labels on one part of the split. */
export interface PartFigures {
  /** Rows with both a human label and a judge verdict. */
  n: number;
  /** Rows of the part whose judgment failed (or was never made): left out of every figure. */
  failed: number;
  accuracy: number | null;
  balanced_accuracy: number | null;
  cohen_kappa: number | null;
  /** Pointwise scales only. */
  quadratic_weighted_kappa?: number | null;
  /** When rows failed: how many of each error kind (`m/error_kind`; `unknown` when the line has none). */
  failed_by_kind?: Record<string, number>;
  /** When rows failed: the first failed row's error message, so a report can show why. */
  first_error?: string;
}

export type CandidateKind = 'examples' | 'rubric' | 'combined';

/** How far a candidate's runs got. */
export type CandidateStatus = 'done' | 'budget' | 'interrupted';

export interface CandidateReport {
  id: string;
  kind: CandidateKind;
  /** The candidate template, as given on the command line's terms (relative to the working folder). */
  file: string;
  /** `_key`s of the train rows shown as examples. */
  examples: string[];
  /** Examples whose justification the author model wrote (no reviewer comment), by `_key`. */
  drafted_justifications: string[];
  train: PartFigures | null;
  heldout: PartFigures | null;
  /** Held-out accuracy change against the current template on the rows both judged, with a paired bootstrap 95 % interval. */
  delta: { accuracy: number; ci: [number, number] | null; n: number } | null;
  mcnemar_p: number | null;
  /** Train accuracy change against the current template on the rows both judged. */
  train_gain: number | null;
  /** The train gain exceeds the held-out gain by more than the interval's half-width: the edit fits the rows it was made from. */
  overfit: boolean | null;
  calls: number;
  tokens: number;
  status: CandidateStatus;
  /** Held-out rows the candidate still gets wrong (or failed on), by `_key`: the review queue's rows. */
  heldout_wrong: string[];
  /** Why a figure is missing or what to know about the candidate. */
  notes: string[];
}

export interface RefusedCandidate {
  id: string;
  kind: CandidateKind;
  reason: string;
}

export interface NotRun {
  /** `baseline` or a candidate id. */
  id: string;
  part: 'train' | 'heldout';
  reason: string;
  /** Requests the part needed by the estimate (cached ones are free). */
  calls_needed: number | null;
}

export interface CallsAndTokens {
  calls: number;
  tokens: number;
}

export interface AlignReport {
  metric: string;
  kind: 'pointwise' | 'pairwise';
  template: string;
  template_hash: string;
  /** The judge: its model, or a panel's members. */
  model: string;
  split: { seed: number; train: number; heldout: number; share: number };
  baseline: { train: PartFigures | null; heldout: PartFigures | null } & CallsAndTokens;
  candidates: CandidateReport[];
  /** Candidates that were not built, and why (an author call failed, a drafted text quoted a held-out row, …). */
  refused: RefusedCandidate[];
  not_run: NotRun[];
  author: { model: string } & CallsAndTokens;
  budget: { limit: number; used: number } | null;
  total: CallsAndTokens;
  /** The candidate with the largest held-out gain whose interval lies above 0, or null. */
  best: string | null;
  /** Train rows where the current template disagreed with the human label. */
  train_disagreements: number;
  /** Rows of the data left out: no usable human label, a repeated key, unreadable. */
  skipped: { unlabelled: number; invalid_label: number; duplicate_key: number; unreadable: number };
  /** How the interval and the p value are computed. */
  method: string;
  /** The run stopped before the end (Ctrl-C, Cancel). */
  interrupted: boolean;
}

/** A row with a human label, identified by the `_key` the template computes. */
export interface LabelledRow {
  row: number;
  line: number;
  key: string;
  record: Record<string, unknown>;
  label: Label;
  /** A reviewer's comment from the labels file, for an example's justification. */
  comment?: string;
}

/** What one template answered on one row (after the run). */
export interface Verdict {
  label: Label | undefined;
  /** A failed row: its error kind and message. */
  errorKind?: string;
  error?: string;
  justification?: string;
  positionConsistent?: boolean;
  /** Criteria templates: the judge's score per criterion. */
  criteria?: Record<string, number>;
}
