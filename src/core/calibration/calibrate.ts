// Streams a dataset once and builds the calibration report. Only counts, label pairs and response
// lengths are kept, so memory does not grow with the text of the rows.
import { isSkip, type DatasetItem, type DatasetRecord, type DatasetRow } from '../dataset';
import { PairwiseBiasCounter, PointwiseBiasCounter, RuleViolationCounter } from './bias';
import {
  accuracy,
  balancedAccuracy,
  balancedF1,
  cohenKappa,
  ConfusionCounter,
  kendallTauBFromTable,
  perClass,
  spearmanFromTable,
} from './confusion';
import { guidanceFor } from './guidance';
import { CHOICE_SPELLINGS, columnsFor, InvalidLabel, isBlank, isLabel, MISSING, parseCategory, parseChoice, parseRating, type Choice, type Columns, type ParsedLabel } from './labels';
import { rowOf } from '../results/latest';
import { VERDICT_COLUMN_NAMES, VERDICT_KINDS } from '../results/verdict';
import { kindMismatch, outsideScale, type LabelScale } from './scale';
import type { CalibrationKind, CalibrationNote, CalibrationOutcome, CalibrationReport, GroupReport, Label, PassFailView, SkipReasons } from './types';

export interface CalibrateOptions {
  /** Notes (unreadable rows, labels that are not labels) kept for stderr; the rest are only counted. */
  maxNotes?: number;
  /** Categorical: the template's `passing_labels`, for the pass/fail view of the same rows. */
  passingLabels?: readonly string[];
  /** The labels the template allows: a label outside them is an error naming its row, not a class. */
  scale?: LabelScale;
  /** Human labels joined from a labels file (`--labels F`): a problem with one is named at F's line. */
  labels?: { file: string; lineOf: (record: object) => number | undefined };
  /** Also every figure per value of this column (`calibrate --by category`). */
  by?: string;
}

/** More values than this in a `--by` column is not a grouping; the calibration stops. */
export const MAX_GROUPS = 200;
/** The group of a row whose `--by` column is absent, null or blank. */
export const NO_GROUP = '(none)';

type Items = AsyncIterable<DatasetItem> | Iterable<DatasetItem>;

export async function calibrate(items: Items, metric: string, opts: CalibrateOptions = {}): Promise<CalibrationOutcome> {
  const run = new Calibration(metric, opts.maxNotes ?? 20, opts.scale, opts.passingLabels, opts.labels);
  const groups = opts.by !== undefined ? new Groups(opts.by, () => new Calibration(metric, 0, opts.scale, opts.passingLabels, opts.labels)) : undefined;
  const step = (item: DatasetItem): Failure | undefined => {
    if (isSkip(item)) return run.unreadable(item.row, item.line, item.error);
    return run.row(item) ?? groups?.row(item);
  };
  const finish = (): CalibrationOutcome => {
    const outcome = run.finish();
    if (!outcome.ok || !groups) return outcome;
    if (!groups.seen) return { ok: false, error: `no row has a column "${opts.by}" to group by (--by names a dataset column, e.g. category)` };
    return { ...outcome, by: groups.finish() };
  };
  if (Symbol.iterator in items) {
    // Rows already in memory (a file read in one pass): no await per row.
    for (const item of items) {
      const failure = step(item);
      if (failure !== undefined) return { ok: false, ...failure };
    }
    return finish();
  }
  for await (const item of items) {
    const failure = step(item);
    if (failure !== undefined) return { ok: false, ...failure };
  }
  return finish();
}

/** One calibration per value of the `--by` column, fed the same rows. */
class Groups {
  private readonly runs = new Map<string, Calibration>();
  /** Whether any row has the column at all. */
  seen = false;

  constructor(
    private readonly column: string,
    private readonly make: () => Calibration,
  ) {}

  row(item: DatasetRow): Failure | undefined {
    const cell = item.record[this.column];
    if (cell !== undefined) this.seen = true;
    const value = groupOf(cell);
    let run = this.runs.get(value);
    if (run === undefined) {
      if (this.runs.size >= MAX_GROUPS) return { error: `the column "${this.column}" has more than ${MAX_GROUPS} values; --by groups rows by a column with a few values (a category, a subset)` };
      run = this.make();
      this.runs.set(value, run);
    }
    return run.row(item);
  }

  finish(): Record<string, GroupReport> {
    const by: Record<string, GroupReport> = {};
    for (const value of [...this.runs.keys()].sort()) {
      const outcome = this.runs.get(value)!.finish();
      let group: GroupReport;
      if (outcome.ok) {
        const { metric: _m, kind: _k, ...figures } = outcome.report;
        group = figures;
      } else group = { n: 0, error: outcome.error };
      Object.defineProperty(by, value, { value: group, enumerable: true, writable: true, configurable: true });
    }
    return by;
  }
}

/** A cell as a group name: text as it is, other scalars as JSON, nothing as NO_GROUP. */
function groupOf(value: unknown): string {
  if (isBlank(value)) return NO_GROUP;
  return typeof value === 'string' ? value : JSON.stringify(value) ?? NO_GROUP;
}

/** Why the file cannot be calibrated, and the labels file it is in when it is not the file calibrated. */
type Failure = { error: string; file?: string };

/** Where a row is: its dataset row (`_row` of a results line), and its line in the file or in the labels file its human label came from. */
interface Place {
  row: number;
  line: number;
  file?: string;
}

const SUFFIXES = VERDICT_COLUMN_NAMES.map((name) => `/${name}`);
const KINDS: readonly CalibrationKind[] = VERDICT_KINDS;

class Calibration {
  private kind: CalibrationKind | undefined;
  private columns: Columns | undefined;
  private seenHuman = false;
  private seenJudge = false;
  private readonly skips: SkipReasons = { missing_label: 0, judge_error: 0, invalid_label: 0, unreadable: 0 };
  private readonly notes: CalibrationNote[] = [];
  private notesOmitted = 0;
  private readonly pointwise = new ConfusionCounter<number>();
  private readonly pairwise = new ConfusionCounter<Choice>();
  private readonly categorical = new ConfusionCounter<string>();
  private readonly passFail = new ConfusionCounter<string>();
  private readonly pointwiseBias = new PointwiseBiasCounter();
  private readonly pairwiseBias: PairwiseBiasCounter;
  private readonly rules: RuleViolationCounter;
  /** Metrics that do have label columns, named when the requested one has none. */
  private readonly otherMetrics = new Set<string>();
  private labelled = 0;
  private readonly failedByKind: Record<string, number> = {};
  // Column names made once: a key built per row costs more than the lookup.
  private readonly errorColumn: string;
  private readonly errorKindColumn: string;

  constructor(
    private readonly metric: string,
    private readonly maxNotes: number,
    private readonly scale: LabelScale | undefined,
    private readonly passingLabels?: readonly string[],
    private readonly labels?: CalibrateOptions['labels'],
  ) {
    this.pairwiseBias = new PairwiseBiasCounter(metric);
    this.rules = new RuleViolationCounter(`${metric}/rule_violations`);
    this.errorColumn = `${metric}/error`;
    this.errorKindColumn = `${metric}/error_kind`;
  }

  unreadable(row: number, line: number, error: string): undefined {
    this.skips.unreadable++;
    this.note({ row, line }, error.replace(/^line \d+: /, ''));
    return undefined;
  }

  /** Where a row's problem is: the row by its `_row`, at its line, or at the labels file's line its human label came from. */
  private place(item: DatasetRow, human: boolean): Place {
    const row = rowOf(item.record) ?? item.row;
    const line = human ? this.labels?.lineOf(item.record) : undefined;
    return line !== undefined ? { row, line, file: this.labels!.file } : { row, line: item.line };
  }

  /** Returns an error when the file cannot be calibrated at all. */
  row(item: DatasetRow): Failure | undefined {
    const { record } = item;
    if (this.kind === undefined) {
      const error = this.detectKind(item);
      if (error !== undefined) return { error };
      if (this.kind !== undefined && this.scale) {
        const mismatch = kindMismatch(this.scale, this.kind);
        if (mismatch !== undefined) return { error: mismatch };
      }
    }
    const columns = this.columns;
    if (columns === undefined) {
      this.skips.missing_label++;
      return undefined;
    }
    if (!this.seenHuman && Object.hasOwn(record, columns.human)) this.seenHuman = true;
    if (!this.seenJudge && Object.hasOwn(record, columns.judge)) this.seenJudge = true;
    this.rules.add(record);
    if (this.kind === 'categorical') {
      const human = parseCategory(record[columns.human]);
      const judge = parseCategory(record[columns.judge]);
      const outside = this.outside(item, columns, human, judge);
      if (outside !== undefined) return outside;
      this.countCoverage(record, isLabel(human));
      if (isLabel(human) && isLabel(judge)) {
        this.categorical.add(human, judge);
        const passing = this.passingLabels;
        if (passing) this.passFail.add(passing.includes(human) ? 'pass' : 'fail', passing.includes(judge) ? 'pass' : 'fail');
      } else this.skip(item, human, judge);
    } else if (this.kind === 'pointwise') {
      const human = parseRating(record[columns.human]);
      const judge = parseRating(record[columns.judge]);
      const outside = this.outside(item, columns, human, judge);
      if (outside !== undefined) return outside;
      this.countCoverage(record, isLabel(human));
      this.pointwiseBias.add(record, valueOf(judge), valueOf(human));
      if (isLabel(human) && isLabel(judge)) this.pointwise.add(human, judge);
      else this.skip(item, human, judge);
    } else {
      const human = parseChoice(record[columns.human]);
      const judge = parseChoice(record[columns.judge]);
      const outside = this.outside(item, columns, human, judge);
      if (outside !== undefined) return outside;
      this.countCoverage(record, isLabel(human));
      this.pairwiseBias.add(record, valueOf(judge), valueOf(human));
      if (isLabel(human) && isLabel(judge)) this.pairwise.add(human, judge);
      else this.skip(item, human, judge);
    }
    return undefined;
  }

  /** With the template's scale known, a label outside it stops the calibration, naming its row (and the labels file's line it came from). */
  private outside<T>(item: DatasetRow, columns: Columns, human: ParsedLabel<T>, judge: ParsedLabel<T>): Failure | undefined {
    const scale = this.scale;
    if (!scale) return undefined;
    const humanProblem = outsideScale(scale, columns.human, item.record[columns.human], human);
    const problem = humanProblem ?? outsideScale(scale, columns.judge, item.record[columns.judge], judge);
    if (problem === undefined) return undefined;
    const at = this.place(item, humanProblem !== undefined);
    return at.file !== undefined ? { file: at.file, error: `line ${at.line} (the label of row ${at.row}): ${problem}` } : { error: `row ${at.row} (line ${at.line}): ${problem}` };
  }

  /** A labelled row counts toward coverage; a failed one is counted by its error kind. */
  private countCoverage(record: DatasetRecord, labelled: boolean): void {
    if (!labelled) return;
    this.labelled++;
    if (isBlank(record[this.errorColumn])) return;
    const kind = record[this.errorKindColumn];
    const key = typeof kind === 'string' && /^[a-z-]{1,40}$/.test(kind) ? kind : 'unknown';
    this.failedByKind[key] = (this.failedByKind[key] ?? 0) + 1;
  }

  finish(): CalibrationOutcome {
    const { kind, columns } = this;
    if (kind === undefined || columns === undefined) return { ok: false, error: this.noColumns() };
    if (!this.seenHuman) {
      return {
        ok: false,
        error:
          `no column "${columns.human}" with human labels (found "${columns.judge}"); ` +
          `add the human ${kind === 'pointwise' ? 'ratings' : kind === 'categorical' ? 'labels' : 'choices'} in that column to calibrate metric "${this.metric}"`,
      };
    }
    if (!this.seenJudge) {
      return {
        ok: false,
        error:
          `no column "${columns.judge}" with the judge's verdicts (found "${columns.human}"); ` +
          `run the template on this file first (judge-studio run … --out results.jsonl) and calibrate the results`,
      };
    }
    return { ok: true, report: this.report(kind), notes: this.notes, notesOmitted: this.notesOmitted };
  }

  private report(kind: CalibrationKind): CalibrationReport {
    const counter: ConfusionCounter<Label> = kind === 'pointwise' ? this.pointwise : kind === 'pairwise' ? this.pairwise : this.categorical;
    const { labels, matrix } = counter.matrix();
    const classes = perClass(labels, matrix);
    const n = counter.total;
    const s = this.skips;
    const pairwiseBias = kind === 'pairwise' ? this.pairwiseBias.result() : undefined;
    const report: CalibrationReport = {
      metric: this.metric,
      kind,
      n,
      skipped: s.missing_label + s.judge_error + s.invalid_label + s.unreadable,
      labels: labels as Label[],
      confusion_matrix: matrix,
      accuracy: accuracy(matrix),
      balanced_accuracy: balancedAccuracy(classes),
      balanced_f1: balancedF1(classes),
      cohen_kappa: cohenKappa(matrix),
      ...(kind === 'pointwise'
        ? {
            quadratic_weighted_kappa: cohenKappa(matrix, 'quadratic'),
            spearman: spearmanFromTable(matrix),
            kendall_tau: kendallTauBFromTable(matrix),
          }
        : {}),
      per_class: classes,
      skipped_by_reason: { ...s },
      labelled: this.labelled,
      coverage: this.labelled > 0 ? n / this.labelled : null,
      failed_by_kind: { ...this.failedByKind },
      bias: pairwiseBias ?? (kind === 'categorical' ? {} : this.pointwiseBias.result()),
      guidance: guidanceFor(kind, labels, classes, n, pairwiseBias),
      ...(kind === 'categorical' && this.passingLabels ? { pass_fail: this.passFailView(this.passingLabels) } : {}),
    };
    const rules = this.rules.result();
    if (rules) report.rule_violations = rules;
    return report;
  }

  /** The categorical figures of the same rows read as pass/fail through the passing labels. */
  private passFailView(passing: readonly string[]): PassFailView {
    const { labels, matrix } = this.passFail.matrix();
    const classes = perClass(labels, matrix);
    return {
      passing_labels: [...passing],
      n: this.passFail.total,
      labels,
      confusion_matrix: matrix,
      accuracy: accuracy(matrix),
      balanced_accuracy: balancedAccuracy(classes),
      balanced_f1: balancedF1(classes),
      cohen_kappa: cohenKappa(matrix),
      per_class: classes,
    };
  }

  /** Decides the kind from the first row that has any of the metric's columns. */
  private detectKind(item: DatasetRow): string | undefined {
    const { record } = item;
    const found = KINDS.map((kind) => ({ kind, columns: columnsFor(this.metric, kind) })).filter(
      ({ columns }) => Object.hasOwn(record, columns.human) || Object.hasOwn(record, columns.judge),
    );
    if (found.length > 1) {
      const which = found.map(({ kind, columns }) => `${kind} ("${columns.human}", "${columns.judge}")`).join(' and ');
      return `row ${rowOf(record) ?? item.row} (line ${item.line}) has ${which} columns for metric "${this.metric}"; keep one kind per metric name`;
    }
    const only = found[0];
    if (only) {
      this.kind = only.kind;
      this.columns = only.columns;
    } else {
      this.collectOtherMetrics(record);
    }
    return undefined;
  }

  private collectOtherMetrics(record: DatasetRecord): void {
    if (this.otherMetrics.size >= 10) return;
    for (const key of Object.keys(record)) {
      const suffix = SUFFIXES.find((s) => key.endsWith(s) && key.length > s.length);
      if (suffix) this.otherMetrics.add(key.slice(0, -suffix.length));
    }
  }

  private noColumns(): string {
    const m = this.metric;
    const others = [...this.otherMetrics].sort();
    const hint = others.length === 0 ? '' : `; the file has label columns for metric${others.length === 1 ? '' : 's'} ${others.map((o) => `"${o}"`).join(', ')}`;
    return (
      `no label columns for metric "${m}": expected "${m}/human_rating" and "${m}/score" (pointwise), ` +
      `"${m}/human_pairwise_choice" and "${m}/pairwise_choice" (pairwise) or "${m}/human_label" and "${m}/label" (categorical)${hint}`
    );
  }

  /** Counts a row without two usable labels, and notes labels that cannot be read. */
  private skip<T>(item: DatasetRow, human: ParsedLabel<T>, judge: ParsedLabel<T>): void {
    const columns = this.columns;
    if (columns === undefined) return;
    const expected = this.kind === 'pointwise' ? 'a number' : this.kind === 'categorical' ? 'a label (text)' : `one of ${CHOICE_SPELLINGS}`;
    let invalid = false;
    for (const [column, label] of [[columns.human, human], [columns.judge, judge]] as const) {
      if (!(label instanceof InvalidLabel)) continue;
      invalid = true;
      this.note(this.place(item, column === columns.human), `"${column}" is ${label.shown}, not ${expected}; the row is skipped`);
    }
    if (invalid) this.skips.invalid_label++;
    else if (judge === MISSING && !isBlank(item.record[this.errorColumn])) this.skips.judge_error++;
    else this.skips.missing_label++;
  }

  private note(at: Place, message: string): void {
    if (this.notes.length < this.maxNotes) this.notes.push({ row: at.row, line: at.line, message, ...(at.file !== undefined ? { file: at.file } : {}) });
    else this.notesOmitted++;
  }
}

function valueOf<T>(label: ParsedLabel<T>): T | undefined {
  return isLabel(label) ? label : undefined;
}
