// `judge-studio labels export --labels FILE --data D --out D2 [--metric M] [--template T]`: the
// human labels (majority per row) in Vertex AI's columns, in a copy of a dataset. Also the label
// loading `calibrate --labels` shares: the labels file, its key fields, inter-annotator agreement.
import { readTemplateText } from '../template';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatOf } from '../../core/dataset';
import {
  annotatorAgreement,
  exportLabels,
  humanLabels,
  labelledMetrics,
  readLabels,
  templatesForMetric,
  type AnnotatorAgreement,
  type HumanLabels,
  type LabelsRead,
} from '../../core/labels';
import { keyFields } from '../../core/results';
import { parseTemplate } from '../../core/template';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliIO, type Command } from '../io';
import { LABELS_OPTIONS } from '../options/checking';

export const labelsCommand: Command = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub !== 'export') throw new UsageError('the one labels subcommand is `export`: judge-studio labels export --labels FILE --data D --out D2 [--metric M] [--template T]');
  const { values, positionals } = parseArgs({
    args: rest,
    options: LABELS_OPTIONS,
    allowPositionals: false,
    strict: true,
  });
  void positionals;
  if (!values.labels || !values.data || !values.out) throw new UsageError('--labels FILE, --data D and --out D2 are all required');
  for (const f of [values.data, values.out]) {
    try {
      formatOf(f);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const data = path.resolve(io.cwd, values.data);
  const out = path.resolve(io.cwd, values.out);
  if (data === out) throw new UsageError('--out must name a new file: export writes a copy and never changes the dataset');
  const read = await readLabelsFile(io, values.labels);
  const metrics = values.metric ? [values.metric] : labelledMetrics(read.lines);
  if (metrics.length === 0) throw new UsageError(`${values.labels} holds no labels${values.metric ? ` for metric "${values.metric}"` : ''}`);
  const loaded = [];
  let fields: string[] | undefined;
  for (const metric of metrics) {
    const l = await labelsFor(io, read, values.labels, metric, values.template);
    fields ??= l.fields;
    loaded.push({ metric, human: l.human });
  }
  let stats;
  try {
    stats = await exportLabels(data, out, loaded, fields);
  } catch (e) {
    throw new UsageError((e as Error).message.split(data).join(values.data));
  }
  if (stats.without_key > 0 && fields === undefined) {
    io.stderr(`labels export: ${stats.without_key} row(s) of ${values.data} have no "_key" and the template is unknown; pass --template T so their keys can be computed\n`);
  }
  io.stderr(
    `labels export: ${values.out}: ${stats.rows} row(s), ${stats.labelled} with a human label (${metrics.join(', ')})` +
      (stats.skipped ? `, ${stats.skipped} malformed record(s) left out` : '') +
      '\n',
  );
  return stats.without_key > 0 && stats.labelled === 0 ? EXIT_USAGE : EXIT_OK;
};

/** A labels file named on the command line (`--labels F`): one that does not exist is an error, never "no labels". */
export async function readLabelsFile(io: CliIO, file: string): Promise<LabelsRead> {
  let read: LabelsRead;
  const full = path.resolve(io.cwd, file);
  const found = await stat(full).then((s) => (s.isFile() ? 'file' : 'not-a-file'), (e: NodeJS.ErrnoException) => e.code ?? 'unreadable');
  if (found !== 'file') throw new UsageError(`--labels ${file}: ${found === 'ENOENT' ? 'no such file' : found === 'not-a-file' ? 'not a file' : `cannot read it (${found})`}; name the labels file (JSONL, one label a line) written by the review or by import-data --labels`);
  try {
    read = await readLabels(full);
  } catch (e) {
    throw new UsageError((e as Error).message.split(path.resolve(io.cwd, file)).join(file));
  }
  for (const s of read.skipped.slice(0, 10)) io.stderr(`${file}:${s.line}: ${s.error}; the line is skipped\n`);
  if (read.skipped.length > 10) io.stderr(`${file}: ${read.skipped.length - 10} more unreadable line(s) skipped\n`);
  return read;
}

export interface LoadedLabels {
  human: HumanLabels;
  agreement: AnnotatorAgreement | undefined;
  /** Key fields for rows without `_key`: from --template, the label lines, or the one template named after the metric. */
  fields: string[] | undefined;
  /** Where the fields came from, for messages. */
  fieldsFrom: string | undefined;
}

export async function labelsFor(io: CliIO, read: LabelsRead, file: string, metric: string, template: string | undefined): Promise<LoadedLabels> {
  const human = humanLabels(read.lines, metric);
  let fields: string[] | undefined;
  let fieldsFrom: string | undefined;
  if (template) {
    const text = await readTemplateText(io, template);
    fields = keyFields(parseTemplate(text));
    fieldsFrom = template;
  } else if (human.fields) {
    fields = human.fields;
    fieldsFrom = file;
  } else {
    const found = await templatesForMetric(io.cwd, metric);
    if (found.length === 1 && found[0]) {
      fields = keyFields(found[0].template);
      fieldsFrom = path.relative(io.cwd, found[0].file);
    }
  }
  return { human, agreement: annotatorAgreement(read.lines, metric), fields, fieldsFrom };
}

/** The human-label lines of the text report. */
export function formatHumanLabels(file: string, l: LoadedLabels, stats: { joined: number; overridden: number; unmatched: number; tied: number; without_key: number }): string {
  const out = ['', `Human labels from ${file}`];
  out.push(`  ${stats.joined} row(s) took their label from the file${stats.overridden ? ` (${stats.overridden} replacing a different label in the row)` : ''}`);
  out.push(`  annotators: ${l.human.annotators.join(', ') || 'none'}; the human label is their majority`);
  if (stats.tied) out.push(`  ${stats.tied} row(s) left out: their annotators tied`);
  if (stats.unmatched) out.push(`  ${stats.unmatched} labelled row(s) are not in this file`);
  if (stats.without_key) out.push(`  ${stats.without_key} row(s) have no "_key" and no key fields are known (pass --template T)`);
  const a = l.agreement;
  if (a) {
    const f = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : v.toFixed(3));
    out.push(`  inter-annotator agreement over ${a.units} row(s) labelled by two or more:`);
    if (a.annotators.length === 2) out.push(`    Cohen's kappa            ${f(a.cohen_kappa)}   (n=${a.kappa_n})`);
    out.push(`    Krippendorff's alpha     ${f(a.krippendorff_alpha.nominal)} nominal` + (a.krippendorff_alpha.ordinal !== undefined ? `, ${f(a.krippendorff_alpha.ordinal)} ordinal, ${f(a.krippendorff_alpha.interval)} interval` : ''));
  }
  return out.join('\n') + '\n';
}
