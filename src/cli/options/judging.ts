// The tables of the commands that call a judge: run, batch, probe, align and generate.
import { MIN_LABELLED } from '../../core/align/split';
import { STRICTNESS } from '../../core/generate/prompt';
import { DEFAULT_THRESHOLD, PROBE_IDS, PROBES } from '../../core/probe/perturb';
import type { CommandSpec, FlagTable } from './flags';
import {
  CACHE_DIR, CONCURRENCY, ENDPOINT_OPTIONS, JUDGE, JUDGE_CALL_OPTIONS, MAX_REPLY_BYTES, MIN_JUDGES, MODEL, NO_CACHE, PANEL_ENDPOINT_OPTIONS, PRICE, REASK, RETRIES, ROWS, SHARD,
  STRUCTURED, TIER_OPTIONS, TIMEOUT,
} from './shared';

export const RUN_OPTIONS = {
  data: { type: 'string', arg: 'FILE', help: 'the dataset (.jsonl, .json or .csv); required unless --resume finds it in the run manifest' },
  rows: ROWS,
  shard: SHARD,
  model: MODEL,
  ...ENDPOINT_OPTIONS,
  structured: STRUCTURED,
  concurrency: CONCURRENCY,
  timeout: TIMEOUT,
  retries: RETRIES,
  samples: { type: 'string', arg: 'N', help: 'judge each row N times; majority verdict, agreement as confidence' },
  judge: JUDGE,
  ...PANEL_ENDPOINT_OPTIONS,
  'min-judges': MIN_JUDGES,
  'reask-on-violation': REASK,
  out: { type: 'string', arg: 'FILE', help: 'results JSONL (default <metric>.results.jsonl); an existing file is never replaced silently: use --resume or --overwrite' },
  resume: {
    type: 'boolean',
    help: "keep the rows already judged in --out; judge the rest and the failed ones again (the last line per row stands). Template, --data and the run's flags come from <out>.run.json when not given; the endpoint flags must be given again (the interruption hint prints them) and match. Refuses a file of another metric or template version, and a file another run is writing",
  },
  'allow-template-change': { type: 'boolean', help: 'with --resume: continue a file written by another version of the template' },
  overwrite: { type: 'boolean', help: 'start an existing --out file again (its rows are lost)' },
  'max-outage': {
    type: 'string',
    arg: 'DURATION',
    help: 'how long the run waits, paused, while the endpoint answers nobody (429, 5xx, timeouts, network; a probe request included) before it stops as interrupted (default 10m; 90s, 1h)',
  },
  'allow-skipped': { type: 'boolean', help: 'exit 0 even when some dataset records could not be read' },
  'no-cache': NO_CACHE,
  'cache-dir': CACHE_DIR,
  'max-reply-bytes': MAX_REPLY_BYTES,
  'keep-raw-replies': { type: 'boolean', help: 'keep failed replies whole in "<metric>/raw_replies" (debugging a judge); by default each is cut at 8,000 characters, with a mark' },
  price: PRICE,
  'dry-run': { type: 'boolean', help: 'render every row, print the request count and a token estimate, call nothing' },
  json: { type: 'boolean', help: 'print the final summary as JSON on stdout' },
  ...TIER_OPTIONS,
} as const satisfies FlagTable;

export const RUN: CommandSpec = {
  name: 'run',
  usage: ['run <template> --data <file> [options]', 'run --resume --out <results> --base-url URL [options]   (continue a run)'],
  summary: 'judge a dataset into a results file (resume, samples, panels, tiers, shards)',
  description:
    'Judges every selected row of the dataset against an OpenAI-compatible endpoint, appending one results line per row as it finishes; progress and the summary go to stderr. Pairwise templates are judged in both orders. A first Ctrl-C stops after the requests in flight and keeps what was judged.',
  options: RUN_OPTIONS,
  notes: `Each results line is the input row plus "_row" (its 1-based row number), "_key" (the row's identity)
and "<metric>/…" columns, with "<metric>/template_hash"; a failed row has "<metric>/error" and
"<metric>/error_kind" (docs/reference/error-kinds.md). Reply fields beyond the schema go under "<metric>/extra".
A panel adds "<metric>/judges" (every judge's verdict, confidence, consistency and error kind) and
"<metric>/panel_agreement"; its verdict needs a strict majority of the whole panel (pairwise: else TIE;
pass/fail: else error_kind no-majority); scores take the median (mean in "<metric>/score_mean").
A template with dimensions (e.g. HHH) also gets "<metric>/rule_violations": a reply that breaks a
consistency rule is not a parse failure, so its verdict stands and the row counts as judged.
Unreadable dataset records are reported on stderr and skipped; they get no results line.
A row whose request keeps failing while the endpoint answers others is that row's error; a 429 while
others are answered waits its turn (priority over fresh calls) without using up the retries.
Beside the results: <out>.run.json (how the run was started; never a key or a header value) and,
while the run writes, <out>.lock (a second writer exits 2 naming the holder).
Exit codes: 0 all rows judged, 1 some rows failed, some records were unreadable (see --allow-skipped)
or the run was interrupted, 2 bad usage or input (also when no selected record could be read, or
when another run is writing --out).`,
};

export const BATCH_OPTIONS = {
  state: { type: 'string', arg: 'S.json', help: 'the state file that joins submit, status, collect and cancel; required' },
  data: { type: 'string', arg: 'D', help: 'submit: the dataset (.jsonl, .json or .csv)' },
  rows: { ...ROWS, help: `submit: ${ROWS.help}` },
  shard: { ...SHARD, help: `submit: ${SHARD.help}` },
  samples: { type: 'string', arg: 'N', help: 'submit: judge each row N times (majority verdict)' },
  model: { ...MODEL, help: "submit: the model, with --azure-api-version the deployment (default: the template's model.name)" },
  structured: STRUCTURED,
  ...ENDPOINT_OPTIONS,
  'max-completion-tokens': { type: 'boolean', help: 'submit: send max_completion_tokens instead of max_tokens (o-series models)' },
  'reask-on-violation': { type: 'boolean', help: 'refused: a batch has no follow-ups (use run for it)' },
  judge: { ...JUDGE, help: "submit: a panel member, judged at this one endpoint, one part per judge (repeatable; replaces the template's model.judges)" },
  'min-judges': MIN_JUDGES,
  repairs: { type: 'boolean', help: 'submit --repairs: send the repair requests for the invalid replies collect found' },
  out: { type: 'string', arg: 'R.jsonl', help: 'collect: the results file (default <metric>.results.jsonl)' },
  'repair-sync': { type: 'boolean', help: 'collect: repair invalid replies now, with direct requests' },
  'no-repair': { type: 'boolean', help: 'collect: an invalid reply fails its row (no repair)' },
  price: { ...PRICE, help: `collect: ${PRICE.help}` },
  timeout: { ...TIMEOUT, help: 'per-request deadline of the provider calls in milliseconds (default 300000)' },
  'max-reply-bytes': { ...MAX_REPLY_BYTES, help: `collect: ${MAX_REPLY_BYTES.help}` },
  json: { type: 'boolean', help: 'status, collect: print the result as JSON' },
} as const satisfies FlagTable;

export const BATCH: CommandSpec = {
  name: 'batch',
  usage: ['batch <submit|status|collect|cancel> --state S.json [options]'],
  summary: "a run through the provider's Batch API (OpenAI, Azure OpenAI): about half the price",
  description:
    "Sends every request of a run (each sample and swap order) as provider batches, finished within 24 h, and collects the replies into the same results lines as run writes (plus \"<metric>/batch_id\"). The state file holds the batch and file ids, the template, the dataset's sha256 and the settings; keep it.",
  positionals: [
    ['submit <template>', 'render every request and send them as provider batches (≤ 50,000 requests and 200 MB per part); run it again on the same state to finish a submit that was interrupted'],
    ['status', "each batch's status and request counts"],
    ['collect', 'download finished batches and append one results line per settled row; run it again to add rows of batches that finished since. Invalid replies wait for submit --repairs, or are repaired now (--repair-sync), or fail (--no-repair)'],
    ['cancel', 'cancel unfinished batches; collect keeps what they finished'],
  ],
  options: BATCH_OPTIONS,
  notes: `status, collect and cancel take the same --base-url and --api-key-env as submit (or the same
defaults) and refuse a state that names another endpoint or key variable.
Exit codes: 0 done (collect: every row written, none failed), 1 rows failed or still pending, 2 bad usage.`,
};

export const PROBE_OPTIONS = {
  data: { type: 'string', arg: 'FILE', help: 'the dataset whose rows are probed; required' },
  probes: { type: 'string', arg: 'LIST', help: `comma-separated, default all that apply: ${PROBE_IDS.join(', ')} (length is pairwise only)` },
  threshold: { type: 'string', arg: 'T', help: `a probe that changes more than this share of verdicts is reported as a bias the judge is susceptible to (default ${DEFAULT_THRESHOLD})` },
  out: { type: 'string', arg: 'DIR', help: 'where the probe dataset, results and report go (default probe-<metric>/)' },
  rows: { ...ROWS, help: 'only these source rows (A-B, 1-based)' },
  ...JUDGE_CALL_OPTIONS,
  json: { type: 'boolean', help: 'print the report as JSON' },
} as const satisfies FlagTable;

export const PROBE: CommandSpec = {
  name: 'probe',
  usage: ['probe <template> --data <file> [--probes LIST] [--threshold T] [--out DIR] [options]'],
  summary: 'how far verdicts shift under verbosity, authority, injection and other perturbations',
  description:
    'Judges each row next to deterministic perturbations of its response (each adds fixed text to the judged response: "response", or response B in pairwise) and reports the biases that moved verdicts.',
  positionals: PROBE_IDS.map((id) => [id, PROBES[id].description] as const),
  positionalsHeading: 'Probes (the values of --probes)',
  options: PROBE_OPTIONS,
  notes: 'Exit codes: 0 no probe above the threshold, 1 the judge is susceptible to a probe or rows failed,\n2 bad usage or input.',
};

export const ALIGN_OPTIONS = {
  data: { type: 'string', arg: 'FILE', help: 'a results file or a dataset with human labels; required' },
  metric: { type: 'string', arg: 'M', help: "the metric whose labels to align with (default: the template's name)" },
  labels: { type: 'string', arg: 'FILE', help: "a labels file (human review) joined by _key; its labels win over the data's" },
  split: { type: 'string', arg: 'S', help: "share of each label's rows held out (default 0.5)" },
  seed: { type: 'string', arg: 'S', help: 'the split and the example picks are reproducible from it (default 1)' },
  'max-examples': { type: 'string', arg: 'K', help: 'rows shown as examples in the largest examples candidate (default 4; pairwise rows are shown in both orders)' },
  candidates: { type: 'string', arg: 'N', help: 'how many candidates: examples, rubric, examples+rubric, then fewer examples (default 3)' },
  'author-model': { type: 'string', arg: 'M2', help: "model that drafts justifications and rubric clarifications (default: the judge's model)" },
  budget: { type: 'string', arg: 'CALLS', help: 'stop before more than CALLS requests are sent; what was not judged is reported' },
  'out-dir': { type: 'string', arg: 'DIR', help: 'where candidates, results and align-report.json go (default <template>.align/ beside the template)' },
  ...JUDGE_CALL_OPTIONS,
  judge: JUDGE,
  ...PANEL_ENDPOINT_OPTIONS,
  'min-judges': MIN_JUDGES,
  json: { type: 'boolean', help: 'print the report as JSON (the contract in docs/align.md)' },
} as const satisfies FlagTable;

export const ALIGN: CommandSpec = {
  name: 'align',
  usage: ['align <template> --data <results or dataset> --metric M [options]'],
  summary: 'template edits from the disagreements with human labels, tested on held-out rows',
  description:
    'Splits the rows with a human label into train and held-out parts (stratified by the label), judges the current template on both, drafts candidate templates from the train rows it gets wrong, and judges each candidate on the held-out rows. Candidates are written to --out-dir, never over the template; the report names the best one, if any beats the current template with significance.',
  options: ALIGN_OPTIONS,
  notes: `At least ${MIN_LABELLED} labelled rows are needed, and 2 rows of every label in each part.
Exit codes: 0 a candidate beats the current template on held-out rows (its interval is above 0),
1 none does (or the run stopped), 2 bad usage or input.`,
};

export const GENERATE_OPTIONS = {
  domain: { type: 'string', arg: 'D', help: 'the field the judged responses come from, e.g. "customer support"' },
  strictness: { type: 'string', arg: 'S', help: `${STRICTNESS.join(', ')} (default balanced)` },
  write: { type: 'boolean', help: 'replace the template file (default: print the new template on stdout)' },
  ...ENDPOINT_OPTIONS,
  model: MODEL,
  structured: { ...STRUCTURED, help: 'json_schema (default), json_object or none' },
  timeout: { ...TIMEOUT, help: 'request deadline in milliseconds (default 120000)' },
  'no-cache': { ...NO_CACHE, help: 'do not answer equal requests from the cache (nor write it)' },
  'cache-dir': CACHE_DIR,
} as const satisfies FlagTable;

export const GENERATE: CommandSpec = {
  name: 'generate',
  usage: ['generate rubric|steps <template> [options]'],
  summary: 'a rubric or evaluation steps written by the judge model from the template\'s criteria',
  description:
    "Asks the judge endpoint for a rubric or evaluation steps written from the template's # Criteria section, and prints the new template (the rest of it kept); --write replaces the file. What produced the text is recorded in the front matter under `generated`.",
  positionals: [
    ['rubric', "one level per score of the template's scale, with what sets it apart from its neighbours, edge cases and scoring guidelines"],
    ['steps', '3 to 6 evaluation steps (G-Eval style), ending with reasoning first'],
  ],
  options: GENERATE_OPTIONS,
  notes: 'Exit codes: 0 generated, 1 the model failed or gave an unusable answer, 2 bad usage or input.',
};
