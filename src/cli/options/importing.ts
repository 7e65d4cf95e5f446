// The tables of `import` (judge prompts of other tools as templates) and `import-data` (public
// benchmarks with human preferences as datasets).
import { DATA_FORMATS, LLMBAR_SETS } from '../../core/import/data/benchmarks';
import { IMPORT_FORMATS } from '../../core/import/types';
import type { CommandSpec, FlagTable } from './flags';

export const IMPORT_OPTIONS = {
  out: { type: 'string', arg: 'DIR', help: 'the folder the templates are written to; required' },
  force: { type: 'boolean', default: false, help: 'overwrite templates that already exist in --out' },
  json: { type: 'boolean', default: false, help: 'print {templates, problems} as JSON' },
  allow: { type: 'string', arg: 'DIR', multiple: true, help: "a folder a promptfoo config's file:// references may be read from, besides its own (repeatable)" },
} as const satisfies FlagTable;

export const IMPORT: CommandSpec = {
  name: 'import',
  usage: [`import ${IMPORT_FORMATS.join('|')} <file> --out DIR [--force] [--json] [--allow DIR]…`],
  summary: 'judge prompts of FastChat, promptfoo, Vertex AI or OpenAI Evals as templates',
  description:
    'Writes one template per judge prompt found in the file and validates each. Nothing is written outside --out or through a link in it, and a problem with any template writes none of them; an existing file is left alone unless --force.',
  positionals: IMPORT_FORMATS.map((f) => [f, `read <file> as ${f}'s judge prompts (docs/import.md)`] as const),
  options: IMPORT_OPTIONS,
  notes: 'Exit codes: 0 every prompt imported, 1 a prompt was not imported, a template has errors or was skipped, 2 bad usage or input.',
};

export const IMPORT_DATA_OPTIONS = {
  out: { type: 'string', arg: 'D.jsonl', help: 'the dataset written; required' },
  template: { type: 'string', arg: 'T', help: "the template that will judge the rows: its name is the metric, its kind must fit the set, and _key is computed over its inputs" },
  metric: { type: 'string', arg: 'M', help: 'instead of --template, the metric name only; keys are computed over the fields the set writes' },
  labels: { type: 'string', arg: 'L.jsonl', help: "also write every annotator's vote as a labels file, for calibrate --labels" },
  dimension: { type: 'string', arg: 'D', help: 'multi-annotator: which rating of each annotation to import, e.g. coherence (required there)' },
  'prompt-field': { type: 'string', arg: 'F', help: "multi-annotator: the record's field that holds the prompt (default prompt)" },
  'response-field': { type: 'string', arg: 'F', help: "multi-annotator: the record's field that holds the judged response (default response)" },
  aggregate: { type: 'string', arg: 'majority|mean|median', help: "how several annotators become the row's label (default majority, which leaves a tie unlabelled; mean and median are for numeric ratings)" },
  set: { type: 'string', arg: 'NAME', help: `adds a "set" column, for calibrate --by set (llmbar: default the file's folder when it is one of ${LLMBAR_SETS.join(', ')})` },
  force: { type: 'boolean', default: false, help: 'overwrite --out and --labels when they exist' },
  json: { type: 'boolean', default: false, help: 'print what was written as JSON' },
} as const satisfies FlagTable;

export const IMPORT_DATA: CommandSpec = {
  name: 'import-data',
  usage: [`import-data ${DATA_FORMATS.join('|')} <file> --out D.jsonl`, '    (--template T | --metric M) [--labels L.jsonl] [--dimension D] [--aggregate majority|mean|median]', '    [--prompt-field F] [--response-field F] [--set NAME] [--force] [--json]'],
  summary: 'benchmarks with human preferences (LLMBar, JudgeBench, MT-Bench…) as datasets',
  description:
    "Reads a public meta-evaluation set and writes a dataset with the human preference in Vertex AI's columns (M/human_pairwise_choice or M/human_rating), ready for run and calibrate. A record that is not in the format is reported with its line or item number and skipped.",
  positionals: DATA_FORMATS.map((f) => [f, `read <file> in ${f}'s format (docs/benchmarks.md)`] as const),
  options: IMPORT_DATA_OPTIONS,
  notes: 'Exit codes: 0 every record imported, 1 some records were skipped, 2 bad usage or input.',
};
