// `judge-studio calibrate <file> --metric NAME [--json] [--min KEY=VALUE]… [--junit F] [--summary F]`:
// agreement of the judge with human labels, bias diagnostics, and a threshold gate for CI (with
// JUnit XML and a job summary). `--labels FILE` joins a labels file (human review) by `_key`; its
// labels win over the file's own human column.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { calibrate, checkMinimums, formatGroups, formatReport, parseMinimums, type CalibrationNote, type CalibrationReport, type Minimum, type ThresholdCheck } from '../../core/calibration';
import { calibrationErrorJUnit, calibrationErrorSummary, calibrationJUnit, calibrationSummary } from '../../core/calibration/ci';
import { describeFailure } from '../../core/calibration/thresholds';
import { PanelCollector } from '../../core/calibration/panel';
import { formatPanel, formatStability } from '../../core/calibration/panelFormat';
import { calibrateCriteria, findCriteria, formatCriteria, isCriteriaRecord, overallRecord, type CriteriaCalibration } from '../../core/calibration/criteria';
import { readForCalibration } from '../../core/calibration/read';
import { isSwapRule, reaggregate } from '../../core/calibration/swapRule';
import type { SwapRule } from '../../core/template/types';
import { unscaledHint } from '../../core/calibration/scale';
import { isSkip, type DatasetItem, type DatasetRecord } from '../../core/dataset/types';
import { checkDatasetFile, formatOf } from '../../core/dataset';
import { joinLabels } from '../../core/labels/join';
import type { JoinStats } from '../../core/labels/join';
import type { LoadedLabels } from './labels';
import { ciClock, ciTargets, writeCi } from '../ci';
import { CALIBRATE_OPTIONS } from '../options/checking';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, type CliIO, type Command } from '../io';

export const calibrateCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: CALIBRATE_OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) {
    throw new UsageError('name one dataset or results file, e.g. `judge-studio calibrate results.jsonl --metric fluency`');
  }
  const metric = values.metric?.trim();
  if (!metric) {
    throw new UsageError(
      '--metric NAME is required: calibrate compares NAME/human_rating with NAME/score (pointwise) ' +
        'or NAME/human_pairwise_choice with NAME/pairwise_choice (pairwise)',
    );
  }
  const swapRule = values['swap-rule'];
  if (swapRule !== undefined && !isSwapRule(swapRule)) {
    throw new UsageError(`--swap-rule must be "consistent" (the two orders must agree, else TIE) or "votes" (each order's verdict is one vote); got "${swapRule}"`);
  }
  const by = values.by?.trim();
  if (by === '') throw new UsageError('--by names a dataset column to split the figures by, e.g. --by category');
  const minimums = parseMinimums(values.min ?? []);
  if (!minimums.ok) throw new UsageError(minimums.error);
  try {
    formatOf(file);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const ci = ciTargets(io, values);
  const meta = () => ({ file, metric, ...ciClock(ci) });
  let outcome: Calibrated;
  try {
    outcome = await calibrateFile(io, file, metric, minimums.minimums, { ...values, swapRule, by });
  } catch (e) {
    // CI still gets a report that says why there are no figures, instead of a missing file.
    if (e instanceof UsageError) await writeCi(io, ci, { junit: () => calibrationErrorJUnit(e.message, meta()), summary: () => calibrationErrorSummary(e.message, meta()) });
    throw e;
  }
  const { report, checks, text } = outcome;
  if (!report && outcome.code === EXIT_USAGE) {
    await writeCi(io, ci, { junit: () => calibrationErrorJUnit(text, meta()), summary: () => calibrationErrorSummary(text, meta()) });
  } else {
    await writeCi(io, ci, { junit: () => calibrationJUnit(report, checks, meta(), text), summary: () => calibrationSummary(report, checks, meta(), text) });
  }
  return outcome.code;
};

interface Calibrated {
  code: number;
  /** Undefined when only the criteria could be calibrated (no overall labels). */
  report?: CalibrationReport;
  checks: ThresholdCheck[];
  /** The text report, also when --json printed JSON. */
  text: string;
}

interface CalibrateValues {
  json?: boolean | undefined;
  labels?: string | undefined;
  template?: string | undefined;
  /** --swap-rule, checked */
  swapRule?: SwapRule | undefined;
  /** --by, trimmed */
  by?: string | undefined;
}

async function calibrateFile(io: CliIO, file: string, metric: string, minimums: Minimum[], values: CalibrateValues): Promise<Calibrated> {
  const { swapRule, by } = values;
  const full = path.resolve(io.cwd, file);
  const check = await checkDatasetFile(full);
  if (!check.ok) throw new UsageError(check.message.split(full).join(file));
  // The labels decide which key fields the join needs, so they are read before the file.
  // Template parsing (yaml, Handlebars, zod) loads only when a labels file or a template needs it.
  const labelsCli = values.labels ? await import('./labels') : undefined;
  const loaded = labelsCli && values.labels ? await labelsCli.labelsFor(io, await labelsCli.readLabelsFile(io, values.labels), values.labels, metric, values.template) : undefined;
  // The metric's template (for its scale) is looked for while the file is read.
  const scales = await import('./calibrateScale');
  const search = scales.searchTemplates(io, metric, values.template);
  // One pass over the file: each line slimmed to what the figures need, the last line per `_row` standing.
  let all: Iterable<DatasetItem>;
  try {
    all = await readForCalibration(full, { metric, ...(loaded ? { keys: { fields: loaded.fields } } : {}), ...(by !== undefined ? { keep: [by] } : {}) }, { signal: io.signal });
  } catch (e) {
    if (io.signal?.aborted) {
      io.stderr('calibrate: interrupted before the end of the file; no report\n');
      return { code: EXIT_USAGE, checks: [], text: 'interrupted before the end of the file; no report' };
    }
    // Reading errors name the absolute path; show the file as the user typed it.
    throw new UsageError((e as Error).message.split(full).join(file));
  }
  const open = () => all;
  // A multi-criterion judge: the overall is calibrated on its integer view, then each criterion.
  const criteria = looksLikeCriteria(all, metric) ? await findCriteria(all, metric) : [];
  let items = criteria.length > 0 ? mapRecords(all, (r) => overallRecord(r, metric)) : all;
  // The stored passes re-aggregated under the rule asked for: no judge is called.
  if (swapRule !== undefined) items = mapRecords(items, (r) => reaggregate(r, metric, swapRule));
  let labels: { loaded: LoadedLabels; stats: JoinStats; lineOf: (record: object) => number | undefined } | undefined;
  if (loaded) {
    const joined = joinLabels(items, metric, loaded.human, loaded.fields);
    const list: DatasetItem[] = [];
    for await (const item of joined.items) list.push(item);
    items = list;
    labels = { loaded, stats: joined.stats, lineOf: joined.lineOf };
  }
  // Panels and samples: the judges' own verdicts and flip rates, collected on the same pass.
  const panel = new PanelCollector(metric);
  const source = items;
  items = {
    *[Symbol.iterator]() {
      for (const item of source) {
        if (!isSkip(item)) panel.add(item);
        yield item;
      }
    },
  };
  // With the template's scale known, a label outside it is refused, naming its row and line.
  const { scale, passingLabels } = await scales.labelScale(io, file, metric, values.template, all, search);
  // A label that came from --labels F is a problem of F, named at F's line.
  const outcome = await calibrate(items, metric, { ...(by !== undefined ? { by } : {}), ...(scale ? { scale } : {}), ...(passingLabels ? { passingLabels } : {}), ...(labels && values.labels ? { labels: { file: values.labels, lineOf: labels.lineOf } } : {}) });
  if (labels && labels.stats.without_key > 0 && labels.stats.joined === 0) {
    throw new UsageError(
      `${file}: its rows have no "_key" and the template is unknown, so labels cannot be joined; ` +
        `pass --template T (the template that judged the file) so the keys can be computed from its inputs`,
    );
  }
  // Humans may label the criteria and not the overall: then the criteria are reported alone.
  const overallMissing = !outcome.ok ? outcome.error : outcome.report.n === 0 ? `no row has both a human label and a judge verdict for "${metric}"` : undefined;
  if (overallMissing !== undefined && criteria.length > 0 && minimums.length === 0 && !labels) {
    return criteriaOnly(io, file, metric, overallMissing, await calibrateCriteria(open, metric, criteria), values.json);
  }
  if (!outcome.ok) throw new UsageError(`${outcome.file ?? file}: ${outcome.error}`);
  printNotes(io, file, outcome.notes, outcome.notesOmitted);
  const hint = scale ? undefined : unscaledHint(outcome.report);
  if (hint) io.stderr(`calibrate: ${file}: ${hint}\n`);
  if (outcome.report.n === 0) {
    const r = outcome.report;
    throw new UsageError(
      `${file}: no row has both a human label and a judge verdict for "${metric}" (${r.labelled} labelled, ${r.skipped} skipped), so there is nothing to calibrate` +
        (Object.keys(r.failed_by_kind).length ? `; the judge failed on ${Object.values(r.failed_by_kind).reduce((a, b) => a + b, 0)} labelled row(s)` : ''),
    );
  }

  let perCriterion: CriteriaCalibration | undefined;
  if (criteria.length > 0) {
    const result = await calibrateCriteria(open, metric, criteria);
    if (!result.ok) throw new UsageError(`${file}: ${result.error}`);
    perCriterion = result.value;
  }
  if (swapRule !== undefined && outcome.report.kind !== 'pairwise') throw new UsageError(`${file}: --swap-rule re-aggregates the two orders of pairwise verdicts; "${metric}" is ${outcome.report.kind}`);
  const gate = checkMinimums(outcome.report, minimums);
  if (!gate.ok) throw new UsageError(gate.error);
  const { report } = outcome;
  const panelFigures = await panel.figures(report.kind);
  const stability = panel.stability();
  const text = formatReport(report, gate.checks);
  if (values.json) {
    const json: Record<string, unknown> = gate.checks.length > 0 ? { ...report, thresholds: gate.checks } : { ...report };
    if (report.kind === 'pairwise') json.swap_rule = swapRule ?? 'recorded';
    if (outcome.by) json.by = outcome.by;
    if (panelFigures) json.panel = panelFigures;
    if (stability) json.stability = stability;
    if (perCriterion) Object.assign(json, { criteria: perCriterion.criteria, criteria_summary: perCriterion.summary, most_disagreement: perCriterion.most_disagreement });
    if (labels) json.human_labels = { file: values.labels, annotators: labels.loaded.human.annotators, ...labels.stats, agreement: labels.loaded.agreement ?? null };
    io.stdout(JSON.stringify(json, null, 2) + '\n');
  } else {
    if (swapRule !== undefined) io.stdout(`Swap rule: ${swapRule} (re-aggregated from the stored passes; no new calls)\n`);
    io.stdout(text);
    if (outcome.by && by !== undefined) io.stdout(`\n${formatGroups(by, outcome.by)}`);
    if (panelFigures) io.stdout(`\n${formatPanel(panelFigures, report)}`);
    if (stability) io.stdout(`\n${formatStability(stability)}`);
    if (perCriterion) io.stdout(formatCriteria(perCriterion));
    if (labels && labelsCli && values.labels) io.stdout(labelsCli.formatHumanLabels(values.labels, labels.loaded, labels.stats));
  }
  const failed = gate.checks.filter((c) => !c.passed);
  for (const c of failed) io.stderr(`calibrate: threshold not met: ${describeFailure(c)}\n`);
  return { code: failed.length > 0 ? EXIT_FINDINGS : EXIT_OK, report, checks: gate.checks, text };
}

function printNotes(io: CliIO, file: string, notes: readonly CalibrationNote[], omitted: number): void {
  for (const n of notes) io.stderr(n.file !== undefined ? `${n.file}:${n.line}: the label of row ${n.row}: ${n.message}\n` : `${file}: row ${n.row} (line ${n.line}): ${n.message}\n`);
  if (omitted > 0) io.stderr(`${file}: ${omitted} more row${omitted === 1 ? '' : 's'} skipped for the same kinds of reasons\n`);
}

/** The first readable row decides whether the file holds a multi-criterion judge's results. */
function looksLikeCriteria(items: Iterable<DatasetItem>, metric: string): boolean {
  for (const item of items) {
    if (isSkip(item)) continue;
    return isCriteriaRecord(item.record, metric) || Object.keys(item.record).some((k) => k.startsWith(`${metric}/human_rating/`));
  }
  return false;
}

/** The records of `items` through `f`, as an iterable that can be walked more than once. */
function mapRecords(items: Iterable<DatasetItem>, f: (r: DatasetRecord) => DatasetRecord): Iterable<DatasetItem> {
  return {
    *[Symbol.iterator]() {
      for (const item of items) yield isSkip(item) ? item : { ...item, record: f(item.record) };
    },
  };
}

/** The per-criterion report when the overall cannot be calibrated (no overall labels). */
function criteriaOnly(io: CliIO, file: string, metric: string, why: string, result: Awaited<ReturnType<typeof calibrateCriteria>>, json: boolean | undefined): Calibrated {
  if (!result.ok) throw new UsageError(`${file}: ${result.error}`);
  const c = result.value;
  if (c.summary.every((s) => s.n === 0)) throw new UsageError(`${file}: ${why}, and no criterion has both a human label (${metric}/human_rating/<criterion>) and a judge score`);
  const text = `${metric}: the overall score is not calibrated (${why}).\n${formatCriteria(c)}`;
  if (json) {
    io.stdout(`${JSON.stringify({ metric, overall: null, overall_error: why, criteria: c.criteria, criteria_summary: c.summary, most_disagreement: c.most_disagreement }, null, 2)}\n`);
  } else {
    io.stdout(text);
  }
  return { code: EXIT_OK, checks: [], text };
}
