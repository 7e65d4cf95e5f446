// What calibrate hands a CI system: each `--min` gate as a JUnit test case (value and minimum in
// the failure message), and a Markdown job summary with the failures first.
import { junitXml, type JUnitCase, type JUnitSuite } from '../ci/junit';
import { mdCell, mdCodeBlock, mdTable, mdText } from '../ci/markdown';
import { describeFailure, round, type ThresholdCheck } from './thresholds';
import type { CalibrationReport, Figure } from './types';

export interface CalibrationCi {
  file: string;
  metric: string;
  /** Seconds the command took, and when it started (JUnit timestamp). */
  time: number;
  timestamp: string;
}

const HEADLINE = ['accuracy', 'balanced_accuracy', 'balanced_f1', 'cohen_kappa', 'quadratic_weighted_kappa', 'spearman', 'kendall_tau'] as const;

function figure(v: Figure | undefined): string {
  return v === null || v === undefined ? 'n/a' : round(v);
}

function failedRows(report: CalibrationReport): string {
  const kinds = Object.entries(report.failed_by_kind);
  if (kinds.length === 0) return '';
  return `the judge failed on ${kinds.reduce((t, [, n]) => t + n, 0)} labelled row(s): ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`;
}

function gateCase(report: CalibrationReport, c: ThresholdCheck, meta: CalibrationCi): JUnitCase {
  const name = `${c.key} >= ${c.min}`;
  const classname = `calibrate.${meta.metric}`;
  if (c.passed) return { name, classname, systemOut: `${c.key} = ${figure(c.value)} (minimum ${c.min})` };
  const failed = c.key === 'coverage' ? failedRows(report) : '';
  const message = `${describeFailure(c)}${failed ? `; ${failed}` : ''}`;
  const detail = `${meta.file}: ${c.key} = ${c.value === null ? 'null' : round(c.value)}, minimum ${c.min}, over ${report.n} judged of ${report.labelled} labelled row(s)`;
  return { name, classname, failure: { message, type: 'threshold', detail } };
}

function properties(report: CalibrationReport | undefined, meta: CalibrationCi): Array<[string, string]> {
  const props: Array<[string, string]> = [['file', meta.file], ['metric', meta.metric]];
  if (!report) return props;
  props.push(['kind', report.kind], ['n', String(report.n)], ['labelled', String(report.labelled)], ['coverage', figure(report.coverage)]);
  for (const k of HEADLINE) if (report[k] !== undefined) props.push([k, figure(report[k])]);
  return props;
}

/**
 * The JUnit document: one case per gate; without gates, one passing case saying so, so the report
 * still shows. `report` is undefined when only the criteria were calibrated (no overall labels).
 */
export function calibrationJUnit(report: CalibrationReport | undefined, checks: readonly ThresholdCheck[], meta: CalibrationCi, text: string): string {
  const cases = report && checks.length > 0 ? checks.map((c) => gateCase(report, c, meta)) : [{ name: `${meta.metric}: no --min gate (report only)`, classname: `calibrate.${meta.metric}` }];
  const suite: JUnitSuite = { name: `calibrate ${meta.metric} (${meta.file})`, timestamp: meta.timestamp, time: meta.time, properties: properties(report, meta), cases, systemOut: text };
  return junitXml('judge-studio calibrate', [suite]);
}

/** A calibrate that stopped before its figures (no labelled row, unreadable input): one erroring case. */
export function calibrationErrorJUnit(message: string, meta: CalibrationCi): string {
  const suite: JUnitSuite = {
    name: `calibrate ${meta.metric} (${meta.file})`,
    timestamp: meta.timestamp,
    time: meta.time,
    properties: [['file', meta.file], ['metric', meta.metric]],
    cases: [{ name: `${meta.metric}: calibrate`, classname: `calibrate.${meta.metric}`, error: { message, type: 'calibrate' } }],
  };
  return junitXml('judge-studio calibrate', [suite]);
}

/** The job summary: the failed rows first, the verdict and the failed gates, then every gate and the figures. */
export function calibrationSummary(report: CalibrationReport | undefined, checks: readonly ThresholdCheck[], meta: CalibrationCi, text: string): string {
  const out: string[] = [`### Judge calibration: ${mdText(meta.metric)} (${mdText(meta.file)})`, ''];
  if (!report) return [...out, mdCodeBlock(text)].join('\n');
  const failedGates = checks.filter((c) => !c.passed);
  const failed = failedRows(report);
  if (failed) out.push(`**Failures:** ${mdText(failed)}, left out of the figures.`, '');
  const verdict = checks.length === 0 ? 'No `--min` gate: figures only.' : failedGates.length === 0 ? `✅ All ${checks.length} gates passed.` : `❌ ${failedGates.length} of ${checks.length} gates failed.`;
  out.push(`${verdict} ${report.n} judged of ${report.labelled} labelled row(s), ${report.kind}.`, '');
  for (const c of failedGates) out.push(`- ${mdText(describeFailure(c))}`);
  if (failedGates.length > 0) out.push('');
  if (checks.length > 0) {
    const rows = checks.map((c) => [mdCell(c.key), figure(c.value), String(c.min), c.passed ? '✅ pass' : '❌ fail']);
    out.push(mdTable(['Gate', 'Value', 'Minimum', 'Result'], rows));
  }
  const figures = HEADLINE.filter((k) => report[k] !== undefined).map((k) => [mdCell(k), figure(report[k])]);
  out.push(mdTable(['Figure', 'Value'], [['coverage', figure(report.coverage)], ...figures]));
  return out.join('\n') + '\n';
}

/** The summary of a calibrate that stopped before its figures. */
export function calibrationErrorSummary(message: string, meta: CalibrationCi): string {
  return `### Judge calibration: ${mdText(meta.metric)} (${mdText(meta.file)})\n\n❌ No figures: ${mdText(message)}\n\n`;
}
