// The human-readable report: the confusion matrix as one aligned table with per-class figures,
// then agreement, bias, rule violations, guidance and the threshold checks.
import { errorKindAction } from '../results/errorKinds';
import { round, type ThresholdCheck } from './thresholds';
import { taskOf, type Task } from './guidance';
import type { CalibrationReport, Correlation, Figure, GroupReport, PairwiseBias, PassFailView, PointwiseBias, Rate, RuleViolations } from './types';

const TASK_NAMES: Record<Task, string> = {
  binary: 'binary (pass/fail) labels: read precision, recall and F1 per class (table above) and Cohen\'s kappa',
  ordinal: 'an ordinal scale: read Spearman rho, Kendall tau-b and quadratic-weighted kappa',
  pairwise: 'pairwise preference: read accuracy (agreement rate) and position consistency',
  nominal: 'categorical labels (a nominal scale): read balanced accuracy, Cohen\'s kappa and F1 per label',
};

export function formatReport(report: CalibrationReport, checks: readonly ThresholdCheck[] = []): string {
  const out: string[] = [];
  out.push(`Calibration of "${report.metric}" (${report.kind}): ${report.n} labelled row${report.n === 1 ? '' : 's'}, ${skippedText(report)}`);
  out.push(coverageLine(report));
  // The failures come first, with what to do about each kind.
  for (const [kind] of Object.entries(report.failed_by_kind).sort(([, a], [, b]) => b - a)) out.push(`  ${kind}: ${errorKindAction(kind)}`);
  out.push('');
  out.push('Confusion matrix (rows: human labels, columns: judge labels)');
  out.push(...matrixTable(report));
  out.push('');
  out.push('Agreement');
  const figures: [string, Figure | undefined][] = [
    ['accuracy', report.accuracy],
    ['balanced accuracy', report.balanced_accuracy],
    ['balanced F1', report.balanced_f1],
    ["Cohen's kappa", report.cohen_kappa],
    ['quadratic-weighted kappa', report.quadratic_weighted_kappa],
    ['Spearman rho', report.spearman],
    ['Kendall tau-b', report.kendall_tau],
  ];
  for (const [name, value] of figures) if (value !== undefined) out.push(`  ${name.padEnd(25)}${figure(value)}`);
  if (report.pass_fail) out.push('', ...passFailLines(report.pass_fail));
  if (report.kind !== 'categorical') {
    out.push('');
    out.push('Bias (n = how many rows or passes each figure rests on)');
    out.push(...biasLines(report));
  }
  if (report.rule_violations) {
    out.push('');
    out.push(...ruleLines(report.rule_violations));
  }
  out.push('');
  out.push('Guidance');
  out.push(`  For ${TASK_NAMES[taskOf(report.kind, report.labels)]}.`);
  for (const w of report.guidance.warnings) out.push(`  warning: ${w}`);
  if (checks.length > 0) {
    out.push('');
    out.push('Thresholds');
    for (const c of checks) {
      const value = c.value === null ? 'null (undefined)' : round(c.value);
      out.push(`  ${c.passed ? 'pass' : 'FAIL'}  ${c.key} = ${value}, minimum ${c.min}`);
    }
  }
  return out.join('\n') + '\n';
}

/** `--by COLUMN`: one line per value with its main figures (the JSON has every figure). */
export function formatGroups(column: string, by: Readonly<Record<string, GroupReport>>): string {
  const rows = Object.entries(by).map(([value, g]) =>
    'error' in g
      ? [value, '0', '-', '-', '-', '-', g.error]
      : [value, String(g.n), short(g.accuracy), short(g.balanced_accuracy), short(g.cohen_kappa), g.coverage === null ? '-' : g.coverage.toFixed(3), ''],
  );
  const head = [column, 'n', 'accuracy', 'bal. acc.', 'kappa', 'coverage', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`.trimEnd();
  return [`By ${column}`, line(head), ...rows.map(line)].join('\n') + '\n';
}

function coverageLine(report: CalibrationReport): string {
  const failed = Object.entries(report.failed_by_kind).sort(([, a], [, b]) => b - a).map(([k, n]) => `${n} ${k}`);
  const value = report.coverage === null ? 'null (no row has a human label)' : round(report.coverage);
  const warn = report.coverage !== null && report.coverage < 1 ? '; the figures below leave the rest out' : '';
  return `Coverage ${value}: ${report.n} of ${report.labelled} human-labelled row(s) judged${failed.length ? ` (failed: ${failed.join(', ')})` : ''}${warn}`;
}

function skippedText(report: CalibrationReport): string {
  const s = report.skipped_by_reason;
  const parts = [
    [s.missing_label, 'missing a label'],
    [s.judge_error, 'where the judge failed'],
    [s.invalid_label, 'with an unreadable label'],
    [s.unreadable, 'malformed'],
  ]
    .filter(([count]) => count !== 0)
    .map(([count, what]) => `${count} ${what}`);
  return `${report.skipped} skipped${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

function matrixTable(report: Pick<CalibrationReport, 'labels' | 'confusion_matrix' | 'per_class' | 'n'>): string[] {
  const labels = report.labels.map(String);
  if (labels.length === 0) return ['  (empty: no row has both labels)'];
  const corner = 'human \\ judge';
  const first = Math.max(corner.length, 'judge total'.length, ...labels.map((l) => l.length));
  const cellWidth = Math.max(5, ...labels.map((l) => l.length), ...report.confusion_matrix.flat().map((c) => String(c).length));
  const cells = (values: string[]): string => values.map((v) => v.padStart(cellWidth)).join(' ');
  const stats = (values: string[]): string =>
    values.map((v, i) => v.padStart(i === 3 ? Math.max(7, String(report.n).length) : 9)).join(' ');
  const lines = [`  ${corner.padEnd(first)} ${cells(labels)} | ${stats(['precision', 'recall', 'F1', 'support'])}`];
  report.confusion_matrix.forEach((row, i) => {
    const c = report.per_class[i];
    const s = c ? [short(c.precision), short(c.recall), short(c.f1), String(c.support)] : ['', '', '', ''];
    lines.push(`  ${(labels[i] ?? '').padEnd(first)} ${cells(row.map(String))} | ${stats(s)}`);
  });
  const predicted = report.per_class.map((c) => String(c.predicted));
  lines.push(`  ${'judge total'.padEnd(first)} ${cells(predicted)} | ${stats(['', '', '', String(report.n)])}`);
  return lines;
}

function biasLines(report: CalibrationReport): string[] {
  const rows: [string, Figure, number, string][] = [];
  const rate = (name: string, r: Rate, unit = 'rows'): void => void rows.push([name, r.rate, r.n, unit]);
  const corr = (name: string, c: Correlation): void => void rows.push([name, c.spearman, c.n, 'rows']);
  if (report.kind === 'pairwise') {
    const b = report.bias as PairwiseBias;
    rate('position consistency', b.position_consistency);
    rate('first position wins (0.5 = unbiased)', b.first_position, 'decisive passes');
    rate('judge picks the longer response', b.longer_wins);
    rate('humans pick the longer response', b.human_longer_wins);
    corr('preference vs length difference (rho, >0: longer wins)', b.length_preference);
  } else {
    const b = report.bias as PointwiseBias;
    corr('judge score vs response length (rho)', b.score_length);
    corr('human rating vs response length (rho)', b.human_rating_length);
  }
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return rows.map(([name, value, n, unit]) =>
    n === 0 ? `  ${name.padEnd(width)}${'n/a'.padStart(7)}   no ${unit} with the needed data` : `  ${name.padEnd(width)}${(value === null ? 'n/a' : value.toFixed(3)).padStart(7)}   n=${n} ${unit}`,
  );
}

function passFailLines(v: PassFailView): string[] {
  const lines = [`As pass/fail (passing labels: ${v.passing_labels.map((l) => JSON.stringify(l)).join(', ')}; ${v.n} row${v.n === 1 ? '' : 's'})`];
  lines.push(...matrixTable({ labels: v.labels, confusion_matrix: v.confusion_matrix, per_class: v.per_class, n: v.n }));
  const figures: [string, Figure][] = [
    ['accuracy', v.accuracy],
    ['balanced accuracy', v.balanced_accuracy],
    ['balanced F1', v.balanced_f1],
    ["Cohen's kappa", v.cohen_kappa],
  ];
  for (const [name, value] of figures) lines.push(`  ${name.padEnd(25)}${figure(value)}`);
  return lines;
}

function ruleLines(v: RuleViolations): string[] {
  const lines = [`Rule violations (${v.n} row${v.n === 1 ? '' : 's'} checked)`];
  const entries: [string, number, Figure][] = [['any rule', v.rows_with_violations, v.rate]];
  for (const [rule, { rows, rate }] of Object.entries(v.by_rule)) entries.push([rule, rows, rate]);
  const width = Math.max(...entries.map(([name]) => name.length)) + 2;
  for (const [name, rows, rate] of entries) {
    lines.push(`  ${name.padEnd(width)}${String(rows).padStart(7)} rows  ${rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`}`);
  }
  return lines;
}

function figure(value: Figure): string {
  return value === null ? '   n/a (undefined: labels are constant or missing)' : value.toFixed(3).padStart(6);
}

function short(value: Figure): string {
  return value === null ? '-' : value.toFixed(3);
}
