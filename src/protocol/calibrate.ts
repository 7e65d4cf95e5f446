// Messages between the calibration view (webview) and the extension host. Both sides validate
// what they receive with these schemas; nothing else crosses the boundary.
// zod/mini, as in the preview: the same checks at a fraction of the webview bundle.
import * as z from 'zod/mini';
import { count, position } from './common';

/** A figure that is undefined (all labels equal, nothing to compare) is null. */
const figure = z.nullable(z.number());
/** A calibration label: a rating (number) or a pairwise choice (A, B, TIE). */
export const labelSchema = z.union([z.number(), z.string()]);
export type ViewLabel = z.infer<typeof labelSchema>;

export const heatCellSchema = z.object({
  human: labelSchema,
  judge: labelSchema,
  count,
  /** count / rows humans gave this label (the row-normalised share); null when that row is empty. */
  share: z.nullable(z.number().check(z.gte(0), z.lte(1))),
});
export type HeatCell = z.infer<typeof heatCellSchema>;

export const heatRowSchema = z.object({ human: labelSchema, total: count, cells: z.array(heatCellSchema) });
export type HeatRow = z.infer<typeof heatRowSchema>;

/** A headline figure; `primary` when it is one the guidance names for this task. */
export const headlineSchema = z.object({ key: z.string(), name: z.string(), value: figure, primary: z.boolean(), help: z.string() });
export type Headline = z.infer<typeof headlineSchema>;

export const classRowSchema = z.object({ label: labelSchema, precision: figure, recall: figure, f1: z.number(), support: count, predicted: count });
export type ClassRow = z.infer<typeof classRowSchema>;

/** A bias diagnostic and how many rows (or passes) it rests on. */
export const biasRowSchema = z.object({
  key: z.string(),
  name: z.string(),
  value: figure,
  n: count,
  unit: z.string(),
  /** `rate` values are shares (shown as %); `correlation` values are Spearman's rho. */
  format: z.enum(['rate', 'correlation']),
  help: z.string(),
});
export type BiasRow = z.infer<typeof biasRowSchema>;

export const guidanceViewSchema = z.object({
  task: z.enum(['binary', 'ordinal', 'pairwise', 'nominal']),
  /** One sentence naming the figures that fit the task. */
  advice: z.string(),
  /** Headline keys (and `per_class` for binary) to highlight. */
  primary: z.array(z.string()),
  /** Sample-size and coverage warnings: the figures should not be trusted as they are. */
  warnings: z.array(z.string()),
});
export type GuidanceView = z.infer<typeof guidanceViewSchema>;

export const noteSchema = z.object({ row: position, line: position, message: z.string() });

/** A row the judge failed on (`m/error`): skipped by the figures, listed so it can be opened. */
export const failedRowSchema = z.object({
  /** Position in this file (the key to open it). */
  row: position,
  /** The input dataset's row (`_row`), else the position in this file. */
  datasetRow: position,
  line: position,
  /** The engine's error kind (`m/error_kind`), when written. */
  errorKind: z.nullable(z.string()),
  message: z.string(),
});
export type FailedRow = z.infer<typeof failedRowSchema>;

/** A panel's agreement figures (issue #12): judge × judge kappa as a heat map, each judge vs the humans. */
export const panelFiguresSchema = z.object({
  judges: z.array(z.string()),
  alpha: z.array(z.object({ level: z.string(), value: figure })),
  alphaUnits: count,
  fleiss: figure,
  fleissN: count,
  /** `kappa[i][j]`: Cohen's kappa of judges i and j over the rows both answered. */
  kappa: z.array(z.array(figure)),
  perJudge: z.array(z.object({ judge: z.string(), n: count, accuracy: figure, kappa: figure })),
  errorCorrelation: figure,
  effectiveJudges: figure,
});
export type PanelFiguresView = z.infer<typeof panelFiguresSchema>;

/** A multi-criterion judge: the overall and each criterion, to switch between. */
export const criteriaSwitchSchema = z.object({
  base: z.string(),
  current: z.string(),
  options: z.array(z.object({ metric: z.string(), label: z.string(), mean_abs_diff: figure, mean_diff: figure })),
  /** The criterion where judge and humans disagree most (largest mean |judge − human|). */
  most: z.nullable(z.string()),
});
export type CriteriaSwitch = z.infer<typeof criteriaSwitchSchema>;

/** A categorical calibration read as pass/fail through the template's `passing_labels` (calibrate's "As pass/fail"). */
export const passFailViewSchema = z.object({
  passingLabels: z.array(z.string()),
  n: count,
  /** `fail`, `pass`: the ones either side used. */
  labels: z.array(labelSchema),
  rows: z.array(heatRowSchema),
  columnTotals: z.array(count),
  headline: z.array(headlineSchema),
  classes: z.array(classRowSchema),
});
export type PassFailViewData = z.infer<typeof passFailViewSchema>;

/** How the two orders of a pairwise verdict are combined: as the run stored them, or re-aggregated from its passes. */
export const swapChoiceSchema = z.enum(['recorded', 'consistent', 'votes']);
export type SwapChoice = z.infer<typeof swapChoiceSchema>;

/** The view's own choices (calibrate's `--swap-rule` and `--by`) and what the file offers. */
export const viewOptionsSchema = z.object({
  /** The swap rule shown; null when the file has no pairwise passes to re-aggregate. */
  swapRule: z.nullable(swapChoiceSchema),
  /** Dataset columns with a few values (2 to 200) to split the figures by. */
  byColumns: z.array(z.string()),
  by: z.nullable(z.string()),
});
export type ViewOptions = z.infer<typeof viewOptionsSchema>;

/** One value of the `by` column: calibrate's figures over its rows, or why there are none. */
export const groupRowSchema = z.object({
  value: z.string(),
  n: count,
  accuracy: figure,
  balanced_accuracy: figure,
  cohen_kappa: figure,
  coverage: figure,
  failed: count,
  error: z.nullable(z.string()),
});
export type GroupRow = z.infer<typeof groupRowSchema>;

/** A tiered run's escalation threshold sweep (`judge-studio thresholds`): each rule's share escalated and agreements. */
export const sweepViewSchema = z.object({
  by: z.enum(['confidence', 'band']),
  rows: count,
  both: count,
  audited: count,
  audit_percent: z.number().check(z.gte(0), z.lte(100)),
  points: z.array(
    z.object({
      rule: z.string(),
      escalation_rate: z.number().check(z.gte(0), z.lte(1)),
      agreement_judge: z.nullable(z.number().check(z.gte(0), z.lte(1))),
      agreement_human: z.nullable(z.number().check(z.gte(0), z.lte(1))),
      human_n: count,
    }),
  ),
});
export type SweepView = z.infer<typeof sweepViewSchema>;

export const calibrationViewSchema = z.object({
  /** Absolute path of the results/dataset file. */
  file: z.string(),
  /** The file as shown: relative to the workspace when inside it. */
  display: z.string(),
  metric: z.string(),
  kind: z.enum(['pointwise', 'pairwise', 'categorical']),
  /** Rows with both labels. */
  n: count,
  skipped: count,
  /** e.g. "3 skipped: 2 missing a label, 1 where the judge failed". */
  skippedText: z.string(),
  labels: z.array(labelSchema),
  rows: z.array(heatRowSchema),
  /** Rows the judge gave each label, in `labels` order. */
  columnTotals: z.array(count),
  headline: z.array(headlineSchema),
  classes: z.array(classRowSchema),
  bias: z.array(biasRowSchema),
  rules: z.array(z.object({ rule: z.string(), rows: count, rate: figure })),
  guidance: guidanceViewSchema,
  notes: z.array(noteSchema),
  notesOmitted: count,
  /** Rows where the judge failed, in file order (at most a few hundred), and how many in all. */
  failed: z.optional(z.array(failedRowSchema)),
  failedTotal: z.optional(count),
  /** True when `judgeStudio.showResultRow` is there to open a row in the run view. */
  runView: z.boolean(),
  /** A panel's results: agreement between its judges. */
  panel: z.optional(z.nullable(panelFiguresSchema)),
  criteria: z.optional(criteriaSwitchSchema),
  /** Categorical with passing labels: the same rows as pass/fail. */
  passFail: z.optional(z.nullable(passFailViewSchema)),
  options: z.optional(viewOptionsSchema),
  /** With `options.by`: the figures per value of that column. */
  groups: z.optional(z.array(groupRowSchema)),
  /** A tiered run (`m/tiers`): the threshold sweep, or why it cannot be drawn. */
  sweep: z.optional(z.union([sweepViewSchema, z.object({ error: z.string() })])),
});
export type CalibrationView = z.infer<typeof calibrationViewSchema>;

/** One row of a confusion cell, in file order. Text fields are already shortened. */
export const cellRowSchema = z.object({
  /** Position in this file (the key to open it). */
  row: position,
  /** The input dataset's row (`_row`, written by a run), else the position in this file: the number shown. */
  datasetRow: position,
  line: position,
  prompt: z.string(),
  human: labelSchema,
  judge: labelSchema,
  justification: z.string(),
});
export type CellRow = z.infer<typeof cellRowSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('report'), view: calibrationViewSchema }),
  z.object({
    type: z.literal('error'),
    file: z.string(),
    metric: z.string(),
    /** What is wrong and what to do. */
    message: z.string(),
  }),
  z.object({
    type: z.literal('cellRows'),
    human: labelSchema,
    judge: labelSchema,
    /** All rows in the cell; `rows` holds the first of them (a cell may have thousands). */
    total: count,
    rows: z.array(cellRowSchema),
  }),
  /** A short message shown under the row list, e.g. that a row opened in the file instead of the run view. */
  z.object({ type: z.literal('notice'), text: z.string() }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('selectCell'), human: labelSchema, judge: labelSchema }),
  z.object({ type: z.literal('openRow'), row: position }),
  z.object({ type: z.literal('reload') }),
  /** Show another criterion (or the overall) of a multi-criterion judge. */
  z.object({ type: z.literal('switchMetric'), metric: z.string() }),
  /** Align Judge with Labels on this file and metric (issue #24). */
  z.object({ type: z.literal('align') }),
  /** Re-aggregate the two orders under a swap rule, and split the figures by a column (null: none). */
  z.object({ type: z.literal('setOptions'), swapRule: swapChoiceSchema, by: z.nullable(z.string()) }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** What the webview persists (vscode.setState) so the serializer can restore the panel. */
export const calibrationStateSchema = z.object({ file: z.string(), metric: z.string() });
export type CalibrationState = z.infer<typeof calibrationStateSchema>;

/** The page's `data-initial` attribute: the state plus the first message, so nothing flashes. */
export const initialDataSchema = z.object({ state: calibrationStateSchema, message: z.nullable(hostMessageSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
