// `judge-studio report <results.jsonl> [--compare B.jsonl] [--labels F] --html report.html`: one
// self-contained HTML page of a run. Every figure comes from the engines calibrate, compare and
// thresholds use (core/calibration, core/compare, core/judge/tiers); this file reads the files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { calibrate } from '../../core/calibration';
import { calibrateCriteria, findCriteria, isCriteriaRecord, overallRecord } from '../../core/calibration/criteria';
import { PanelCollector } from '../../core/calibration/panel';
import { compareRuns, pairResults, significance } from '../../core/compare';
import { snapshotPath } from '../../core/compare/snapshots';
import { checkDatasetFile, formatOf, readDataset } from '../../core/dataset';
import { isSkip, type DatasetItem, type DatasetRow } from '../../core/dataset/types';
import { sweepThresholds } from '../../core/judge/tiers/thresholdSweep';
import { joinLabels } from '../../core/labels/join';
import { keyOf } from '../../core/labels/queue';
import { latestPerRow } from '../../core/results';
import { renderReport } from '../../core/report/html';
import { reportData, type CompareInput } from '../../core/report/model';
import { metricsOf, rowReader } from '../../core/report/rows';
import type { ReportRow } from '../../core/report/types';
import { EXIT_OK, UsageError, type CliIO, type Command } from '../io';
import { REPORT_OPTIONS } from '../options/checking';
import { readManifest } from '../runManifest';

export const reportCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: REPORT_OPTIONS, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('name one results file, e.g. `judge-studio report results.jsonl --html report.html`');
  const out = v.html?.trim();
  if (!out) throw new UsageError('--html F is required: the HTML file the report is written to, e.g. --html report.html');
  for (const f of [file, ...(v.compare !== undefined ? [v.compare] : [])]) {
    try {
      formatOf(f);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const started = Date.now();
  const items = await readLatest(io, file);
  const records = items.filter((i): i is DatasetRow => !isSkip(i)).map((i) => i.record);
  const { metric, kind } = pickMetric(file, records, v.metric?.trim());

  // Labels (--labels F) join by `_key` as calibrate joins them; their comments are the human's justification.
  let joined: DatasetItem[] = items;
  const comments = new Map<string, string>();
  let fields: string[] | undefined;
  if (v.labels !== undefined) {
    const labelsCli = await import('./labels');
    const read = await labelsCli.readLabelsFile(io, v.labels);
    const loaded = await labelsCli.labelsFor(io, read, v.labels, metric, v.template);
    fields = loaded.fields;
    for (const l of read.lines) if (l.metric === metric && l.label !== null && l.comment) comments.set(l._key, l.comment);
    const join = joinLabels(items, metric, loaded.human, loaded.fields);
    joined = [];
    for await (const item of join.items) joined.push(item);
    if (join.stats.joined === 0) io.stderr(`report: ${v.labels}: no label joined a row of ${file} (${join.stats.unmatched} labelled key(s) not in the file${join.stats.without_key ? `, ${join.stats.without_key} row(s) without "_key": pass --template T` : ''})\n`);
  }

  // A multi-criterion judge is calibrated on its integer overall, as calibrate does.
  const criteriaNames = records.some((r) => isCriteriaRecord(r, metric)) ? await findCriteria(joined, metric) : [];
  const calItems = criteriaNames.length > 0 ? joined.map((i) => (isSkip(i) ? i : { ...i, record: overallRecord(i.record, metric) })) : joined;
  const panel = new PanelCollector(metric);
  for (const i of calItems) if (!isSkip(i)) panel.add(i);
  const outcome = await calibrate(calItems, metric);
  // The rows calibrate could not use are said as calibrate says them.
  if (outcome.ok) {
    for (const n of outcome.notes) io.stderr(n.file !== undefined ? `${n.file}:${n.line}: the label of row ${n.row}: ${n.message}\n` : `${file}: row ${n.row} (line ${n.line}): ${n.message}\n`);
    if (outcome.notesOmitted > 0) io.stderr(`${file}: ${outcome.notesOmitted} more row(s) skipped for the same kinds of reasons\n`);
  }
  const calibration = !outcome.ok
    ? { error: outcome.error }
    : outcome.report.n === 0
      ? { error: `no row has both a human label (${metric}/${humanColumnName(kind)}) and a judge verdict, so there are no agreement figures; pass --labels F (a labels file of the review) or judge a dataset with human labels` }
      : outcome.report;
  const criteria = criteriaNames.length > 0 ? await calibrateCriteria(() => joined, metric, criteriaNames) : undefined;

  const reader = rowReader(metric, kind);
  const rows: ReportRow[] = joined.filter((i): i is DatasetRow => !isSkip(i)).map((i) => {
    const key = comments.size > 0 ? keyOf(i.record, fields) : undefined;
    return reader.read(i.record, i.row, key !== undefined ? comments.get(key) : undefined);
  });

  const sweep = records.some((r) => Object.hasOwn(r, `${metric}/tiers`)) ? sweepThresholds(records, metric) : undefined;
  const manifest = sweep && !('error' in sweep) ? await readManifest(path.resolve(io.cwd, file), file).catch(() => undefined) : undefined;
  const escalate = manifest?.flags['escalate'];

  const html = renderReport(
    reportData({
      file,
      metric,
      kind,
      rows,
      calibration,
      ...(v.labels !== undefined ? { labelsFile: v.labels } : {}),
      panel: await panel.figures(kind),
      criteria: criteria?.ok ? criteria.value : undefined,
      sweep: sweep && !('error' in sweep) ? sweep : undefined,
      escalation: typeof escalate === 'string' ? escalate : undefined,
      compare: v.compare !== undefined ? await compareWith(io, file, v.compare, metric) : undefined,
    }),
  );
  await writeHtml(io, out, html);
  io.stderr(`report: wrote ${out} (${rows.length} rows, ${(html.length / 1e6).toFixed(1)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return EXIT_OK;
};

function humanColumnName(kind: string): string {
  return kind === 'pairwise' ? 'human_pairwise_choice' : kind === 'categorical' ? 'human_label' : 'human_rating';
}

/** The file's rows, the last line per `_row` standing; unreadable lines reported as the other commands do. */
async function readLatest(io: CliIO, file: string): Promise<DatasetItem[]> {
  const full = path.resolve(io.cwd, file);
  const check = await checkDatasetFile(full);
  if (!check.ok) throw new UsageError(check.message.split(full).join(file));
  const items: DatasetItem[] = [];
  let skipped = 0;
  try {
    for await (const item of latestPerRow(() => readDataset(full, io.signal ? { signal: io.signal } : {}))) {
      if (isSkip(item)) {
        if (skipped++ < 10) io.stderr(`${file}:${item.line}: ${item.error}\n`);
      }
      items.push(item);
    }
  } catch (e) {
    throw new UsageError((e as Error).message.split(full).join(file));
  }
  if (skipped > 10) io.stderr(`${file}: ${skipped - 10} more unreadable line(s) skipped\n`);
  if (items.length === skipped) throw new UsageError(`${file}: no readable results line${skipped ? ` (${skipped} unreadable)` : ' (the file is empty)'}; name a results file written by judge-studio run`);
  return items;
}

function pickMetric(file: string, records: Iterable<Record<string, unknown>>, asked: string | undefined) {
  const found = metricsOf(records);
  if (asked) {
    const m = found.find((f) => f.metric === asked);
    if (!m) throw new UsageError(`${file}: no verdict column of metric "${asked}"${found.length ? `; the file has ${found.map((f) => f.metric).join(', ')}` : ''}`);
    return m;
  }
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new UsageError(`${file}: no judge verdict column ("<metric>/score", "<metric>/pairwise_choice" or "<metric>/label"); is it a results file of judge-studio run?`);
  throw new UsageError(`${file} has verdicts of ${found.length} metrics (${found.map((f) => f.metric).join(', ')}); pick one with --metric NAME`);
}

/** compare's pairing and figures for --compare B; a problem is shown on the page and said on stderr. */
async function compareWith(io: CliIO, fileA: string, fileB: string, metric: string): Promise<CompareInput | { error: string }> {
  const fullA = path.resolve(io.cwd, fileA);
  const fullB = path.resolve(io.cwd, fileB);
  const check = await checkDatasetFile(fullB);
  if (!check.ok) throw new UsageError(check.message.split(fullB).join(fileB));
  let paired;
  try {
    paired = await pairResults(() => readDataset(fullA), () => readDataset(fullB));
  } catch (e) {
    throw new UsageError((e as Error).message.split(fullA).join(fileA).split(fullB).join(fileB));
  }
  // Rows of different datasets are refused, as compare refuses them.
  if (!paired.ok) throw new UsageError(paired.error);
  if (paired.pairs.length === 0) throw new UsageError(`${fileA} and ${fileB} share no "_row"; compare two runs of the same dataset`);
  const outcome = await compareRuns(paired.pairs, { metricA: metric });
  if (!outcome.ok) {
    io.stderr(`report: --compare ${fileB}: ${outcome.error}\n`);
    return { error: outcome.error };
  }
  const sig = significance(outcome.report, outcome.labelled, 'balanced_accuracy');
  const templates = new Map<string, string>();
  for (const hash of [...outcome.report.template_hashes.a, ...outcome.report.template_hashes.b]) {
    try {
      templates.set(hash, await fs.readFile(snapshotPath(io.cwd, hash), 'utf8'));
    } catch {
      // No snapshot of that version here: the page says so.
    }
  }
  return { fileB, report: outcome.report, sig, templates };
}

async function writeHtml(io: CliIO, file: string, html: string): Promise<void> {
  const full = path.resolve(io.cwd, file);
  try {
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, html, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot write the report ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
