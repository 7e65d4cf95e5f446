// `judge-studio calibrate <file> --metric NAME [--json] [--min KEY=VALUE]…`: agreement of the judge
// with human labels, bias diagnostics, and a threshold gate for CI. `--labels FILE` joins a labels
// file (human review) by `_key`; its labels win over the file's own human column.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { calibrate, checkMinimums, formatReport, parseMinimums, type CalibrationNote } from '../../core/calibration';
import { describeFailure } from '../../core/calibration/thresholds';
import { PanelCollector } from '../../core/calibration/panel';
import { formatPanel, formatStability } from '../../core/calibration/panelFormat';
import { calibrateCriteria, findCriteria, formatCriteria, isCriteriaRecord, overallRecord, type CriteriaCalibration } from '../../core/calibration/criteria';
import { readForCalibration } from '../../core/calibration/read';
import { unscaledHint } from '../../core/calibration/scale';
import { isSkip, type DatasetItem, type DatasetRecord } from '../../core/dataset/types';
import { checkDatasetFile, formatOf } from '../../core/dataset';
import { joinLabels } from '../../core/labels/join';
import type { JoinStats } from '../../core/labels/join';
import type { LoadedLabels } from './labels';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, type CliIO, type Command } from '../io';

export const calibrateCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: {
      metric: { type: 'string' },
      json: { type: 'boolean', default: false },
      min: { type: 'string', multiple: true, default: [] },
      labels: { type: 'string' },
      template: { type: 'string' },
    },
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
  const minimums = parseMinimums(values.min);
  if (!minimums.ok) throw new UsageError(minimums.error);
  try {
    formatOf(file);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }

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
    all = await readForCalibration(full, { metric, ...(loaded ? { keys: { fields: loaded.fields } } : {}) }, { signal: io.signal });
  } catch (e) {
    if (io.signal?.aborted) {
      io.stderr('calibrate: interrupted before the end of the file; no report\n');
      return EXIT_USAGE;
    }
    // Reading errors name the absolute path; show the file as the user typed it.
    throw new UsageError((e as Error).message.split(full).join(file));
  }
  const open = () => all;
  // A multi-criterion judge: the overall is calibrated on its integer view, then each criterion.
  const criteria = looksLikeCriteria(all, metric) ? await findCriteria(all, metric) : [];
  let items = criteria.length > 0 ? mapRecords(all, (r) => overallRecord(r, metric)) : all;
  let labels: { loaded: LoadedLabels; stats: JoinStats } | undefined;
  if (loaded) {
    const joined = joinLabels(items, metric, loaded.human, loaded.fields);
    const list: DatasetItem[] = [];
    for await (const item of joined.items) list.push(item);
    items = list;
    labels = { loaded, stats: joined.stats };
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
  const outcome = await calibrate(items, metric, { ...(scale ? { scale } : {}), ...(passingLabels ? { passingLabels } : {}) });
  if (labels && labels.stats.without_key > 0 && labels.stats.joined === 0) {
    throw new UsageError(
      `${file}: its rows have no "_key" and the template is unknown, so labels cannot be joined; ` +
        `pass --template T (the template that judged the file) so the keys can be computed from its inputs`,
    );
  }
  // Humans may label the criteria and not the overall: then the criteria are reported alone.
  const overallMissing = !outcome.ok ? outcome.error : outcome.report.n === 0 ? `no row has both a human label and a judge verdict for "${metric}"` : undefined;
  if (overallMissing !== undefined && criteria.length > 0 && minimums.minimums.length === 0 && !labels) {
    return criteriaOnly(io, file, metric, overallMissing, await calibrateCriteria(open, metric, criteria), values.json);
  }
  if (!outcome.ok) throw new UsageError(`${file}: ${outcome.error}`);
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
  const gate = checkMinimums(outcome.report, minimums.minimums);
  if (!gate.ok) throw new UsageError(gate.error);
  const { report } = outcome;
  const panelFigures = await panel.figures(report.kind);
  const stability = panel.stability();
  if (values.json) {
    const json: Record<string, unknown> = gate.checks.length > 0 ? { ...report, thresholds: gate.checks } : { ...report };
    if (panelFigures) json.panel = panelFigures;
    if (stability) json.stability = stability;
    if (perCriterion) Object.assign(json, { criteria: perCriterion.criteria, criteria_summary: perCriterion.summary, most_disagreement: perCriterion.most_disagreement });
    if (labels) json.human_labels = { file: values.labels, annotators: labels.loaded.human.annotators, ...labels.stats, agreement: labels.loaded.agreement ?? null };
    io.stdout(JSON.stringify(json, null, 2) + '\n');
  } else {
    io.stdout(formatReport(report, gate.checks));
    if (panelFigures) io.stdout(`\n${formatPanel(panelFigures, report)}`);
    if (stability) io.stdout(`\n${formatStability(stability)}`);
    if (perCriterion) io.stdout(formatCriteria(perCriterion));
    if (labels && labelsCli && values.labels) io.stdout(labelsCli.formatHumanLabels(values.labels, labels.loaded, labels.stats));
  }
  const failed = gate.checks.filter((c) => !c.passed);
  for (const c of failed) io.stderr(`calibrate: threshold not met: ${describeFailure(c)}\n`);
  return failed.length > 0 ? EXIT_FINDINGS : EXIT_OK;
};

function printNotes(io: CliIO, file: string, notes: readonly CalibrationNote[], omitted: number): void {
  for (const n of notes) io.stderr(`${file}: row ${n.row} (line ${n.line}): ${n.message}\n`);
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
function criteriaOnly(io: CliIO, file: string, metric: string, why: string, result: Awaited<ReturnType<typeof calibrateCriteria>>, json: boolean | undefined): number {
  if (!result.ok) throw new UsageError(`${file}: ${result.error}`);
  const c = result.value;
  if (c.summary.every((s) => s.n === 0)) throw new UsageError(`${file}: ${why}, and no criterion has both a human label (${metric}/human_rating/<criterion>) and a judge score`);
  if (json) {
    io.stdout(`${JSON.stringify({ metric, overall: null, overall_error: why, criteria: c.criteria, criteria_summary: c.summary, most_disagreement: c.most_disagreement }, null, 2)}\n`);
  } else {
    io.stdout(`${metric}: the overall score is not calibrated (${why}).\n`);
    io.stdout(formatCriteria(c));
  }
  return EXIT_OK;
}
