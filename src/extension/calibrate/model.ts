// The calibration view's content as pure functions: which metrics a file can be calibrated on,
// and the core report turned into what the webview shows. No `vscode` here; unit-tested in node.
import type { CalibrationKind, CalibrationNote, CalibrationReport, ClassFigures, Correlation, Figure, Label, PairwiseBias, PassFailView, PointwiseBias, Rate } from '../../core/calibration';
import { taskOf, type Task } from '../../core/calibration/guidance';
import type { DatasetRow } from '../../core/dataset';
import type { PanelFigures } from '../../core/calibration/panel';
import { VERDICT_COLUMNS, VERDICT_KINDS } from '../../core/results/verdict';
import type { BiasRow, CalibrationView, GroupRow, Headline, HeatRow, PanelFiguresView, PassFailViewData, SweepView, ViewOptions } from '../../protocol/calibrate';

/** A metric with label columns in the file. */
export interface MetricColumns {
  metric: string;
  kind: CalibrationKind;
  /** Both the human and the judge column exist somewhere in the file. */
  complete: boolean;
  /** Rows holding a value in both columns (a quick count for the picker, before any parsing). */
  labelled: number;
}

// Core's verdict columns: each kind's human and judge column, as suffixes of `<metric>`.
const SUFFIXES: [string, CalibrationKind, 'human' | 'judge'][] = VERDICT_KINDS.flatMap((kind): [string, CalibrationKind, 'human' | 'judge'][] => [
  [`/${VERDICT_COLUMNS[kind].human}`, kind, 'human'],
  [`/${VERDICT_COLUMNS[kind].judge}`, kind, 'judge'],
]);

/**
 * Metrics named by a human and a judge column of one kind (`<m>/human_rating` + `<m>/score`,
 * `<m>/human_pairwise_choice` + `<m>/pairwise_choice`, `<m>/human_label` + `<m>/label`).
 * Complete ones (both columns) come first, then by name.
 */
export function detectMetrics(rows: readonly DatasetRow[]): MetricColumns[] {
  const found = new Map<string, MetricColumns & { human: string; judge: string; sides: Set<string> }>();
  for (const { record } of rows) {
    for (const key of Object.keys(record)) {
      for (const [suffix, kind, side] of SUFFIXES) {
        if (!key.endsWith(suffix) || key.length === suffix.length) continue;
        const metric = key.slice(0, -suffix.length);
        const id = `${kind}\u0000${metric}`;
        let entry = found.get(id);
        if (!entry) {
          const names = VERDICT_COLUMNS[kind];
          entry = { metric, kind, complete: false, labelled: 0, human: `${metric}/${names.human}`, judge: `${metric}/${names.judge}`, sides: new Set() };
          found.set(id, entry);
        }
        entry.sides.add(side);
      }
    }
  }
  for (const entry of found.values()) {
    entry.complete = entry.sides.size === 2;
    if (!entry.complete) continue;
    for (const { record } of rows) if (present(record[entry.human]) && present(record[entry.judge])) entry.labelled++;
  }
  return [...found.values()]
    .map(({ metric, kind, complete, labelled }) => ({ metric, kind, complete, labelled }))
    .sort((a, b) => Number(b.complete) - Number(a.complete) || (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0));
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** The metrics worth offering: complete ones; when there are none, the partial ones, so calibrate explains what is missing. */
export function metricChoices(found: readonly MetricColumns[]): MetricColumns[] {
  const complete = found.filter((m) => m.complete);
  return complete.length > 0 ? complete : [...found];
}

export function noMetricMessage(display: string): string {
  return (
    `${display} has no label columns to calibrate: expected "<metric>/human_rating" and "<metric>/score" (pointwise), ` +
    '"<metric>/human_pairwise_choice" and "<metric>/pairwise_choice" (pairwise) or "<metric>/human_label" and "<metric>/label" (categorical). ' +
    'Run the template on a dataset with human labels ' +
    '(judge-studio run … --out results.jsonl) and calibrate the results file.'
  );
}

export interface ViewInput {
  file: string;
  display: string;
  report: CalibrationReport;
  notes: readonly CalibrationNote[];
  notesOmitted: number;
  runView: boolean;
  panel?: PanelFigures | undefined;
  /** The view's swap rule and `by` column, and what the file offers. */
  options?: ViewOptions | undefined;
  /** With `options.by`: the figures per value. */
  groups?: GroupRow[] | undefined;
  /** A tiered run's threshold sweep. */
  sweep?: SweepView | { error: string } | undefined;
}

const ADVICE: Record<Task, string> = {
  binary:
    "Pass/fail labels: read precision, recall and F1 per class, and Cohen's κ. Accuracy flatters a judge when one class dominates.",
  ordinal:
    'An ordinal scale: read Spearman ρ, Kendall τ-b and quadratic-weighted κ. They credit near misses, which accuracy and plain κ do not.',
  pairwise:
    'Pairwise preference: read agreement (accuracy) and position consistency. A judge that changes its verdict when A and B swap is guessing.',
  nominal:
    "Categorical labels (a nominal scale): read balanced accuracy, Cohen's κ and F1 per label. No label is nearer another, so there is no partial credit.",
};

export function buildView(input: ViewInput): CalibrationView {
  const { report } = input;
  const task = taskOf(report.kind, report.labels);
  return {
    file: input.file,
    display: input.display,
    metric: report.metric,
    kind: report.kind,
    n: report.n,
    skipped: report.skipped,
    skippedText: skippedText(report),
    labels: report.labels,
    rows: heatRows(report),
    columnTotals: report.per_class.map((c) => c.predicted),
    headline: headline(report),
    classes: classRows(report.per_class),
    bias: biasRows(report),
    rules: ruleRows(report),
    guidance: { task, advice: ADVICE[task], primary: [...report.guidance.primary], warnings: [...report.guidance.warnings] },
    notes: input.notes.map(({ row, line, message }) => ({ row, line, message })),
    notesOmitted: input.notesOmitted,
    runView: input.runView,
    panel: input.panel ? panelFiguresView(input.panel) : null,
    passFail: report.pass_fail ? passFailView(report.pass_fail) : null,
    ...(input.options ? { options: input.options } : {}),
    ...(input.groups ? { groups: input.groups } : {}),
    ...(input.sweep ? { sweep: input.sweep } : {}),
  };
}

function classRows(classes: readonly ClassFigures[]): CalibrationView['classes'] {
  return classes.map(({ label, precision, recall, f1, support, predicted }) => ({ label, precision, recall, f1, support, predicted }));
}

/** The pass/fail reading of a categorical calibration, with the same figures `calibrate` prints under "As pass/fail". */
export function passFailView(p: PassFailView): PassFailViewData {
  return {
    passingLabels: [...p.passing_labels],
    n: p.n,
    labels: [...p.labels],
    rows: matrixRows(p.labels, p.confusion_matrix),
    columnTotals: p.per_class.map((c) => c.predicted),
    headline: FIGURES.map(([key, name, help]) => ({ key: `pass_fail.${key}`, name, value: p[key], primary: false, help })),
    classes: classRows(p.per_class),
  };
}

const FIGURES: [keyof Pick<PassFailView, 'accuracy' | 'balanced_accuracy' | 'balanced_f1' | 'cohen_kappa'>, string, string][] = [
  ['accuracy', 'Accuracy', 'Share of rows where judge and humans agree on pass or fail.'],
  ['balanced_accuracy', 'Balanced accuracy', 'Mean recall of pass and fail: a dominant outcome cannot inflate it.'],
  ['balanced_f1', 'Balanced F1', 'F1 of pass and fail, weighted by how often humans gave each.'],
  ['cohen_kappa', "Cohen's κ", 'Agreement on pass/fail beyond chance: 0 is chance level, 1 is perfect agreement.'],
];

/** The panel figures as the calibration view draws them. */
export function panelFiguresView(p: PanelFigures): PanelFiguresView {
  return {
    judges: p.judges,
    alpha: Object.entries(p.krippendorff_alpha).map(([level, value]) => ({ level, value: value ?? null })),
    alphaUnits: p.alpha_units,
    fleiss: p.fleiss_kappa,
    fleissN: p.fleiss_n,
    kappa: p.cohen_kappa,
    perJudge: p.per_judge.map((j) => ({ judge: j.judge, n: j.n, accuracy: j.accuracy, kappa: j.cohen_kappa })),
    errorCorrelation: p.error_correlation,
    effectiveJudges: p.effective_judges,
  };
}

/** The matrix with each cell's share of its human row: how the judge labels what humans called X. */
export function heatRows(report: CalibrationReport): HeatRow[] {
  return matrixRows(report.labels, report.confusion_matrix);
}

function matrixRows(labels: readonly Label[], matrix: readonly (readonly number[])[]): HeatRow[] {
  return labels.map((human, i) => {
    const counts = matrix[i] ?? [];
    const total = counts.reduce((s, c) => s + c, 0);
    return {
      human,
      total,
      cells: labels.map((judge, j) => {
        const count = counts[j] ?? 0;
        return { human, judge, count, share: total === 0 ? null : count / total };
      }),
    };
  });
}

function headline(report: CalibrationReport): Headline[] {
  const primary = new Set(report.guidance.primary);
  const pairwise = report.kind === 'pairwise';
  const entries: [string, string, Figure | undefined, string][] = [
    ['accuracy', pairwise ? 'Agreement (accuracy)' : 'Accuracy', report.accuracy, "Share of rows where the judge's label equals the human label."],
    ['balanced_accuracy', 'Balanced accuracy', report.balanced_accuracy, 'Mean recall over the labels humans used: a dominant label cannot inflate it.'],
    ['balanced_f1', 'Balanced F1', report.balanced_f1, 'F1 per label, weighted by how often humans used the label.'],
    ['cohen_kappa', "Cohen's κ", report.cohen_kappa, 'Agreement beyond chance: 0 is chance level, 1 is perfect agreement.'],
    ['quadratic_weighted_kappa', 'Quadratic-weighted κ', report.quadratic_weighted_kappa, 'κ where a disagreement costs the square of its distance on the scale: near misses cost little.'],
    ['spearman', 'Spearman ρ', report.spearman, 'Rank correlation of judge scores with human ratings (tied ranks averaged).'],
    ['kendall_tau', 'Kendall τ-b', report.kendall_tau, 'Concordant minus discordant pairs of rows, corrected for ties.'],
  ];
  if (pairwise) {
    const consistency = (report.bias as PairwiseBias).position_consistency;
    entries.push(['bias.position_consistency', 'Position consistency', consistency.rate, `Rows judged in both orders (AB and BA) whose winners agree; ${consistency.n} rows had both passes.`]);
  }
  return entries
    .filter((e): e is [string, string, Figure, string] => e[2] !== undefined)
    .map(([key, name, value, help]) => ({ key, name, value, primary: primary.has(key), help }));
}

function biasRows(report: CalibrationReport): BiasRow[] {
  const rows: BiasRow[] = [];
  const rate = (key: string, name: string, r: Rate, unit: string, help: string): void => void rows.push({ key, name, value: r.rate, n: r.n, unit, format: 'rate', help });
  const corr = (key: string, name: string, c: Correlation, help: string): void => void rows.push({ key, name, value: c.spearman, n: c.n, unit: 'rows', format: 'correlation', help });
  if (report.kind === 'pairwise') {
    const b = report.bias as PairwiseBias;
    rate('position_consistency', 'Position consistency', b.position_consistency, 'rows', 'Rows with both passes (AB and BA) whose winners agree. Low values mean the order of the responses decides.');
    rate('first_position', 'First position wins', b.first_position, 'decisive passes', 'Decisive passes that picked the response shown first. 50% is unbiased.');
    rate('longer_wins', 'Judge picks the longer response', b.longer_wins, 'rows', 'Decisive verdicts on rows whose responses differ in length. Compare with the human rate below.');
    rate('human_longer_wins', 'Humans pick the longer response', b.human_longer_wins, 'rows', 'The same share for the human choices: the baseline for the judge.');
    corr('length_preference', 'Preference vs length difference (ρ)', b.length_preference, "Spearman between len(A) − len(B) and the judge's preference (A = 1, TIE = 0, B = −1). Above 0: longer wins.");
  } else if (report.kind === 'pointwise') {
    const b = report.bias as PointwiseBias;
    corr('score_length', 'Judge score vs response length (ρ)', b.score_length, 'Spearman between the judge score and the length of the response. Compare with the human value below.');
    corr('human_rating_length', 'Human rating vs response length (ρ)', b.human_rating_length, 'The same for the human rating: the baseline for the judge.');
  }
  return rows;
}

function ruleRows(report: CalibrationReport): CalibrationView['rules'] {
  const v = report.rule_violations;
  if (!v) return [];
  return [{ rule: 'any rule', rows: v.rows_with_violations, rate: v.rate }, ...Object.entries(v.by_rule).map(([rule, r]) => ({ rule, rows: r.rows, rate: r.rate }))];
}

export function skippedText(report: CalibrationReport): string {
  const s = report.skipped_by_reason;
  const parts = (
    [
      [s.missing_label, 'missing a label'],
      [s.judge_error, 'where the judge failed'],
      [s.invalid_label, 'with a label that cannot be read'],
      [s.unreadable, 'malformed'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`);
  return `${report.skipped} skipped${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}
