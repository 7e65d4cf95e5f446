// The tables of the commands that read files and judge nothing: validate, render, calibrate,
// compare, report, thresholds, labels and merge.
import { FIGURES } from '../../core/compare/types';
import { CI_OPTIONS } from './shared';
import type { CommandSpec, FlagTable } from './flags';

const JSON_OUT = { type: 'boolean', help: 'print the report as JSON on stdout' } as const;

export const VALIDATE_OPTIONS = {
  json: { type: 'boolean', default: false, help: 'print [{file, line, column, endLine, endColumn, severity, code, message}] (1-based lines and columns)' },
  'warnings-as-errors': { type: 'boolean', default: false, help: 'exit 1 on warnings too, not only on errors' },
} as const satisfies FlagTable;

export const VALIDATE: CommandSpec = {
  name: 'validate',
  usage: ['validate <files…> [--json] [--warnings-as-errors]'],
  summary: 'check templates and print their diagnostics (file:line:col severity code message)',
  description:
    'Parses and checks each template: front matter, required sections and placeholders, rubric and examples. Each problem is printed with its position and a stable code (docs/reference/diagnostics.md); the summary follows them on its own last line.',
  options: VALIDATE_OPTIONS,
  notes: 'Exit codes: 0 no errors, 1 errors (with --warnings-as-errors, warnings too), 2 bad usage or an unreadable file.',
};

export const RENDER_OPTIONS = {
  data: { type: 'string', arg: 'FILE', help: 'the dataset (.jsonl, .json or .csv); required' },
  row: { type: 'string', arg: 'N', default: '1', help: 'the 1-based row to render (default 1)' },
  swap: { type: 'boolean', default: false, help: 'pairwise templates: render the second pass, with A and B swapped' },
  json: { type: 'boolean', default: false, help: 'print {messages: [{role, content}]}' },
} as const satisfies FlagTable;

export const RENDER: CommandSpec = {
  name: 'render',
  usage: ['render <template> --data <file> [--row N] [--swap] [--json]'],
  summary: 'print the exact messages the judge gets for one dataset row',
  description:
    'Renders the template with one row of the dataset and prints the system and user messages exactly as they are sent, the output format instruction included. A field the template uses that the row lacks is an error naming the field and the row.',
  options: RENDER_OPTIONS,
  notes: 'Exit codes: 0 rendered, 1 the template has errors or the row cannot be read, 2 bad usage or input.',
};

export const CALIBRATE_OPTIONS = {
  metric: { type: 'string', arg: 'NAME', help: 'the metric: NAME/human_rating against NAME/score (pointwise) or NAME/human_pairwise_choice against NAME/pairwise_choice (pairwise); required' },
  json: { type: 'boolean', default: false, help: 'print the report as JSON (the contract in docs/calibration.md)' },
  min: { type: 'string', arg: 'KEY=VALUE', multiple: true, help: 'exit 1 when figure KEY is below VALUE, e.g. cohen_kappa=0.6 (repeatable); any gate also requires coverage, see docs/calibration.md' },
  labels: { type: 'string', arg: 'FILE', help: "a labels file (human review) joined by _key; its labels win over the file's human column" },
  template: { type: 'string', arg: 'T', help: "the template that judged the file: labels outside its scale are reported" },
  'swap-rule': { type: 'string', arg: 'consistent|votes', help: 'pairwise: re-aggregate the stored passes under this two-order rule (no new calls)' },
  by: { type: 'string', arg: 'COLUMN', help: 'also compute every figure per value of a dataset column, e.g. --by category' },
  ...CI_OPTIONS,
} as const satisfies FlagTable;

export const CALIBRATE: CommandSpec = {
  name: 'calibrate',
  usage: ['calibrate <file> --metric NAME [--json] [--min KEY=VALUE …] [--labels FILE] [--template T]', '    [--swap-rule consistent|votes] [--by COLUMN] [--junit F] [--summary F]'],
  summary: 'agreement of the judge with human labels, and a gate for CI',
  description:
    "Reads a results file (or a dataset with both columns) and reports how the judge agrees with the human labels: confusion matrix, accuracy, balanced accuracy, balanced F1, Cohen's kappa and, for pointwise, quadratic weighted kappa, Spearman and Kendall's tau. Rows missing either label are skipped and counted; the last line per _row stands.",
  options: CALIBRATE_OPTIONS,
  notes: 'Exit codes: 0 every --min gate passed, 1 a gate failed, 2 bad usage or input (also when no row has both labels).',
};

export const COMPARE_OPTIONS = {
  metric: { type: 'string', arg: 'NAME', help: 'the metric in A (and in B unless --metric-b); required' },
  'metric-b': { type: 'string', arg: 'NAME', help: "the metric's name in B, when the template was renamed" },
  json: { type: 'boolean', default: false, help: 'print {n, agreement, cohen_kappa, flipped, flips, mean_shift, human: {a, b, delta, mcnemar_p, balanced_accuracy_ci}}' },
  'fail-if-worse': { type: 'string', arg: 'FIGURE', help: `exit 1 when B is significantly worse than A on FIGURE (one of ${FIGURES.join(', ')})` },
  seed: { type: 'string', arg: 'N', help: 'bootstrap seed (default 20240229)' },
  resamples: { type: 'string', arg: 'N', help: 'bootstrap resamples (default 2000)' },
  ...CI_OPTIONS,
} as const satisfies FlagTable;

export const COMPARE: CommandSpec = {
  name: 'compare',
  usage: ['compare <A.jsonl> <B.jsonl> --metric NAME [--metric-b NAME] [--json] [--fail-if-worse FIGURE]', '    [--junit F] [--summary F]'],
  summary: 'did results B get better, worse, or only different than results A',
  description:
    "Pairs the rows of two results files of the same dataset and reports how often the verdicts agree, which rows flipped, the mean shift and, where rows have human labels, each side's agreement with them with McNemar's p and a bootstrap interval of the difference.",
  options: COMPARE_OPTIONS,
  notes: 'Rows are paired by "_row" (the last line per row stands). When a pair\'s inputs differ, compare\nrefuses (exit 2) and names the rows. With --junit, only the --fail-if-worse figure can fail.\nExit codes: 0 not worse, 1 worse on --fail-if-worse, 2 bad usage or input.',
};

export const THRESHOLDS_OPTIONS = {
  metric: { type: 'string', arg: 'NAME', help: 'the metric of the tiered run; required' },
  by: { type: 'string', arg: 'confidence|band', help: "sweep confidence<t (t = 0, 0.05, …, 1) or score bands band=a-b (default: confidence when the screen's verdicts carry one, else band)" },
  json: { type: 'boolean', default: false, help: JSON_OUT.help },
} as const satisfies FlagTable;

export const THRESHOLDS: CommandSpec = {
  name: 'thresholds',
  usage: ['thresholds <results> --metric NAME [--by confidence|band] [--json]'],
  summary: "sweep a tiered run's escalation threshold (run --screen-model --audit P)",
  description:
    "Sweeps the escalation threshold over a tiered run's results: for each threshold, the share of rows it would escalate, the agreement with the big judge (estimated from the escalated rows and the audited ones, which stand for the rows not audited) and, where humans labelled rows, the agreement with the humans. Without --audit only lowering the threshold can be measured; the report says so.",
  options: THRESHOLDS_OPTIONS,
  notes: 'Exit codes: 0 swept, 2 bad usage or input.',
};

export const LABELS_OPTIONS = {
  labels: { type: 'string', arg: 'FILE', help: 'the labels file (human review) to export; required' },
  data: { type: 'string', arg: 'D', help: 'the dataset the labels belong to; required' },
  out: { type: 'string', arg: 'D2', help: 'the copy written, with the labels in its columns (never the dataset itself); required' },
  metric: { type: 'string', arg: 'M', help: 'only the labels of metric M (default: every metric in the file)' },
  template: { type: 'string', arg: 'T', help: 'the template whose inputs give the keys of rows that have no "_key"' },
} as const satisfies FlagTable;

export const LABELS: CommandSpec = {
  name: 'labels',
  usage: ['labels export --labels FILE --data D --out D2 [--metric M] [--template T]'],
  summary: "human labels (majority per row) into Vertex AI's columns of a dataset copy",
  description:
    "Joins a labels file to a dataset by _key and writes a copy of the dataset with each row's majority label in the Vertex AI columns (m/human_rating, m/human_pairwise_choice), so any tool that reads them can use the review.",
  positionals: [['export', 'the one subcommand']],
  options: LABELS_OPTIONS,
  notes: 'Exit codes: 0 written, 2 bad usage or input.',
};

export const MERGE_OPTIONS = {
  out: { type: 'string', arg: 'FILE', help: 'the merged results file; required' },
  overwrite: { type: 'boolean', help: 'replace an existing --out' },
  json: { type: 'boolean', help: 'print what was merged as JSON' },
} as const satisfies FlagTable;

export const MERGE: CommandSpec = {
  name: 'merge',
  usage: ['merge <results.jsonl…> --out <merged.jsonl> [--overwrite] [--json]'],
  summary: 'join the results files of one run (the shards of run --shard K/N)',
  description:
    'Joins results files of one run (e.g. the shards of run --shard K/N) into one file ordered by "_row". Where a row has several lines, the last one stands (later files win over earlier ones). Files of different metrics or template versions ("<metric>/template_hash") are refused. Shards are checked by the run manifest beside each (<file>.run.json, which run --shard writes): shards of different datasets, or a set missing one K of N, are refused, naming them. An existing --out is never replaced without --overwrite. Lines that are not JSON are reported and left out (exit 1).',
  options: MERGE_OPTIONS,
};

export const REPORT_OPTIONS = {
  html: { type: 'string', arg: 'F', help: 'the HTML file to write (its folder made when missing); required' },
  compare: { type: 'string', arg: 'B', help: "another results file of the same dataset: compare's verdict, the flipped rows and the template diff (from .judge-studio/templates/)" },
  labels: { type: 'string', arg: 'FILE', help: "a labels file (human review) joined by _key, as calibrate --labels; its comments are shown as the human's justification" },
  template: { type: 'string', arg: 'T', help: 'the template whose inputs give the keys of rows that have no "_key" (with --labels)' },
  metric: { type: 'string', arg: 'NAME', help: 'the metric to report (default: the one metric the file has verdicts of)' },
} as const satisfies FlagTable;

export const REPORT: CommandSpec = {
  name: 'report',
  usage: ['report <results.jsonl> --html F [--compare B.jsonl] [--labels FILE] [--template T] [--metric NAME]'],
  summary: 'one self-contained HTML page of a run: figures, heat map, failures, rows',
  description:
    "Writes one HTML file that opens offline in any browser: the agreement figures with their 95% bootstrap intervals (the same figures as calibrate), the confusion matrix as a heat map, failed rows by error kind, panel and criteria figures, a tiered run's threshold sweep as a curve and, with --compare, compare's verdict, the flipped rows and the template diff. The rows are listed 100 to a page with a search box. The page fetches nothing and runs only its own script (a Content-Security-Policy with default-src 'none'); text from the files is shown as text.",
  options: REPORT_OPTIONS,
  notes: 'Exit codes: 0 written, 2 bad usage or input (an unreadable file, no verdict column, rows of different datasets).',
};
