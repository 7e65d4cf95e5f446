// The labels file (human review): JSONL beside the dataset, appended, one line per label. A line
// never goes into a results file; calibrate and export join labels to rows by `_key`.

/** A pointwise label is a scale value; a pairwise one is A, B or TIE (in the file's own order). */
export type LabelValue = number | 'A' | 'B' | 'TIE';

export interface LabelLine {
  /** The row's key: first 16 hex of sha256 over the canonical JSON of its input fields. */
  _key: string;
  metric: string;
  /** The label, or null: a retraction (undo). The last line per (key, annotator) stands. */
  label: LabelValue | null;
  annotator: string;
  /** ISO 8601 time the label was given. */
  time: string;
  comment?: string;
  /** Pairwise: the order the reviewer saw the responses in ("BA": the file's B was shown first). */
  shown?: 'AB' | 'BA';
  /** The input fields `_key` was computed over, so a dataset without `_key` can be joined later. */
  fields?: string[];
  /** The 1-based line the label was read from (never written: messages point at it). */
  line?: number;
}

/** A line of the labels file that could not be read: reported and skipped, never fatal. */
export interface LabelSkip {
  line: number;
  error: string;
}

export interface LabelsRead {
  lines: LabelLine[];
  skipped: LabelSkip[];
}
