// The data a report page is drawn from: built in node (model.ts), embedded in the page as JSON and
// read by the page's script (page.ts). Every string in it came from a results file and is hostile.
import type { CalibrationKind, Figure, Label } from '../calibration/types';
import type { PanelFigures } from '../calibration/panel';
import type { SweepReport } from '../judge/tiers/thresholdSweep';

/** One figure of the calibration with its 95% bootstrap interval (null when undefined). */
export interface FigureWithInterval {
  key: string;
  name: string;
  value: Figure;
  low: number | null;
  high: number | null;
}

/** One results row as the page lists it. Short keys: a 100,000-row page embeds this 100,000 times. */
export interface ReportRow {
  /** `_row` */
  r: number;
  /** The judge's verdict, or null when the row failed. */
  j: Label | null;
  /** The human label, or null. */
  h: Label | null;
  /** The judge's justification. */
  x: string;
  /** The human's comment (labels file), when there is one. */
  c?: string;
  /** The error message and its kind, for failed rows. */
  e?: string;
  k?: string;
  /** Inputs, one `field: value` line each, cut to a readable length. */
  t: string;
  /** With --compare: B's verdict, when it differs from A's (a flipped row). */
  b?: Label | null;
}

export interface ConfusionView {
  labels: Label[];
  /** Rows: human labels; columns: judge labels (design.md). */
  matrix: number[][];
}

export interface CompareView {
  fileB: string;
  n: number;
  agreement: Figure;
  cohenKappa: Figure;
  flipped: number;
  meanShift: Figure;
  /** The significance verdict on balanced accuracy, as `compare` prints it. */
  verdict: string;
  figures: { key: string; name: string; a: Figure; b: Figure; delta: Figure }[];
  ci: [number, number] | null;
  mcnemarP: number | null;
  hashes: { a: string[]; b: string[] };
  /** The template diff of A's and B's template snapshots, or why there is none. */
  diff: { lines: DiffLine[] } | { missing: string };
}

export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

export interface ReportData {
  file: string;
  metric: string;
  kind: CalibrationKind;
  generated: string;
  /** Rows in the file (the last line per `_row`). */
  total: number;
  /** Rows with a verdict and a human label, as calibrate counts them; 0 without labels. */
  n: number;
  labelled: number;
  coverage: Figure;
  labelsFile?: string;
  /** Why there are no figures (no human labels), when there are none. */
  noFigures?: string;
  figures: FigureWithInterval[];
  intervalMethod: string;
  confusion: ConfusionView | null;
  /** Verdicts given, per label (also without human labels). */
  verdicts: { label: Label; count: number }[];
  failures: { kind: string; count: number }[];
  panel: PanelFigures | null;
  criteria: { name: string; n: number; accuracy: Figure; cohenKappa: Figure; qwk: Figure }[] | null;
  sweep: (SweepReport & { chosen: string | null }) | null;
  compare: CompareView | { error: string } | null;
  rows: ReportRow[];
}
