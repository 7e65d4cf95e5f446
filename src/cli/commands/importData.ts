// `judge-studio import-data FORMAT FILE --out D.jsonl [--labels L.jsonl] (--template T | --metric M)`:
// a public meta-evaluation set (LLMBar, JudgeBench, PandaLM, MT-Bench human judgments, a
// multi-annotator pointwise set) as a dataset with the human preference in Vertex AI's columns, and
// every annotator's label in a labels file for `calibrate --labels`.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_FORMATS, KIND, LLMBAR_SETS, type DataFormat } from '../../core/import/data/benchmarks';
import { importData, type Aggregate } from '../../core/import/data/importData';
import { serializeLabel } from '../../core/labels';
import { keyFields, usedFieldsOf } from './importDataTemplate';
import { EXIT_FINDINGS, EXIT_OK, UsageError, type Command } from '../io';
import { IMPORT_DATA_OPTIONS } from '../options/importing';

const METRIC = /^[a-z][a-z0-9_]*$/;
const AGGREGATES: readonly Aggregate[] = ['majority', 'mean', 'median'];

export const importDataCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: IMPORT_DATA_OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [format, file, ...rest] = positionals;
  if (!format || !DATA_FORMATS.includes(format as DataFormat)) throw new UsageError(`import-data: name a format (${DATA_FORMATS.join(', ')}), e.g. \`judge-studio import-data llmbar dataset.json --out llmbar.jsonl --template vanilla.judge\``);
  if (!file || rest.length > 0) throw new UsageError('import-data: name exactly one benchmark file');
  if (!values.out) throw new UsageError('import-data: --out D.jsonl is required (the dataset written)');
  const fmt = format as DataFormat;
  if (fmt === 'multi-annotator' && !values.dimension) throw new UsageError('import-data multi-annotator: --dimension D is required (which rating of each annotation, e.g. coherence)');
  const aggregate = (values.aggregate ?? 'majority') as Aggregate;
  if (!AGGREGATES.includes(aggregate)) throw new UsageError(`--aggregate is one of ${AGGREGATES.join(', ')}`);
  let metric = values.metric;
  let fields: string[] | undefined;
  let reads: string[] = [];
  if (values.template) {
    const t = await keyFields(io, values.template);
    if (t.kind !== KIND[fmt]) throw new UsageError(`${values.template} is a ${t.kind} template; ${fmt} rows are judged by a ${KIND[fmt]} one`);
    if (metric && metric !== t.metric) throw new UsageError(`--metric ${metric} differs from the template's name "${t.metric}"; the results columns are named after the template`);
    metric = t.metric;
    fields = t.keyFields;
    reads = t.reads;
  }
  if (!metric) throw new UsageError('import-data: --template T (the template that will judge the rows) or --metric M is required: the human labels go in M/human_pairwise_choice or M/human_rating');
  if (!METRIC.test(metric)) throw new UsageError(`--metric "${metric}" is not a metric name (lower case letters, digits and _)`);

  let text: string;
  try {
    text = await readFile(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // LLMBar's files carry no set name; the folder they sit in is the set (an explicit --set wins).
  const folder = path.basename(path.dirname(path.resolve(io.cwd, file)));
  const set = values.set ?? (fmt === 'llmbar' && LLMBAR_SETS.includes(folder) ? folder : undefined);
  const result = importData(fmt, text, {
    metric,
    ...(fields ? { keyFields: fields } : {}),
    aggregate,
    sourceName: path.basename(file),
    time: new Date().toISOString(),
    ...(values.dimension ? { dimension: values.dimension } : {}),
    ...(values['prompt-field'] ? { promptField: values['prompt-field'] } : {}),
    ...(values['response-field'] ? { responseField: values['response-field'] } : {}),
    ...(set !== undefined ? { set } : {}),
  });
  refuseUnreadable(file, result);
  const missing = usedFieldsOf(reads, result.rows);
  if (missing.length > 0) result.problems.push({ severity: 'warning', where: 'template', message: `${values.template} reads ${missing.map((f) => `"${f}"`).join(', ')}, which the ${fmt} rows do not have; adapt the template to the fields ${Object.keys(result.rows[0] ?? {}).join(', ')}` });
  if (!values.template) result.problems.push({ severity: 'warning', where: 'keys', message: `labels are keyed on ${result.keyFields.join(', ')}; a template with other inputs gives rows other keys (pass --template T to key on its inputs)` });

  await write(io.cwd, values.out, result.rows.map((r) => JSON.stringify(r)), values.force);
  if (values.labels) await write(io.cwd, values.labels, result.labels.map(serializeLabel), values.force);
  const summary = {
    out: values.out,
    rows: result.rows.length,
    labels: values.labels ? { file: values.labels, lines: result.labels.length } : null,
    metric,
    kind: result.kind,
    annotators: result.annotators,
    unlabelled: result.unlabelled,
    repeated_inputs: result.repeated,
    key_fields: result.keyFields,
    problems: result.problems,
  };
  if (values.json) io.stdout(JSON.stringify(summary, null, 2) + '\n');
  for (const p of result.problems) io.stderr(`${file}: ${p.where}: ${p.severity}: ${p.message}\n`);
  io.stderr(
    `import-data: ${values.out}: ${result.rows.length} row(s) with "${metric}/${result.kind === 'pairwise' ? 'human_pairwise_choice' : 'human_rating'}"` +
      (result.unlabelled ? ` (${result.unlabelled} without one: their annotators tied)` : '') +
      `; ${result.annotators.length} annotator(s)${values.labels ? `, ${result.labels.length} label(s) in ${values.labels}` : ''}\n`,
  );
  return result.problems.some((p) => p.severity === 'error') || result.rows.length === 0 ? EXIT_FINDINGS : EXIT_OK;
};

/** A file that cannot be read as a whole (cut off mid-array, not JSON) is unreadable input: exit 2, nothing written. */
function refuseUnreadable(file: string, result: { rows: readonly unknown[]; problems: readonly { severity: string; where: string; message: string }[] }): void {
  const unreadable = result.rows.length === 0 ? result.problems.find((p) => p.severity === 'error' && p.where === 'file') : undefined;
  if (unreadable) throw new UsageError(`import-data: ${file}: ${unreadable.message}; nothing was written`);
}

async function write(cwd: string, file: string, lines: string[], force: boolean): Promise<void> {
  try {
    await writeFile(path.resolve(cwd, file), lines.length ? lines.join('\n') + '\n' : '', { flag: force ? 'w' : 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'EEXIST' ? `${file} exists; pass --force to overwrite it` : `${file}: cannot write it (${code ?? (e as Error).message})`);
  }
}
