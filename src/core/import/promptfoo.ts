// promptfoo configs: every `llm-rubric`, `not-llm-rubric`, `g-eval`, `model-graded-closedqa` and
// `not-model-graded-closedqa` assertion — inline, in `file://` test files, in assert-sets — becomes
// a free-form template holding the grading prompt promptfoo would send (the rubricPrompt in force
// for it, else promptfoo's default, see data/promptfooDefaults.ts), its grader provider's model,
// and the verdict read as promptfoo reads it: `pass` of `{reason, pass, score}` (and, with a
// `threshold`, only when `score >= threshold`), a 0-10 `score` (pass at `threshold` × 10, default
// 0.7), or a final Y/N; `not-` inverts. A g-eval with a list of criteria becomes one template per
// criterion (promptfoo grades each and passes on their mean). Every other assertion is refused with
// a reason or named as not model-graded: none disappears. Variables are filled as promptfoo 0.121.20
// fills them: a value from the test's vars only (a name the test lacks, `{{output}}` included, is
// empty text, with a warning), each grading prompt from what its matcher gives it (GIVEN below).
// Templates sharing a promptfoo `metric` get distinct names and keep it as `source.metric`.
import * as path from 'node:path';
import { PROMPTFOO_CLOSED_QA, PROMPTFOO_GEVAL_EVALUATE, PROMPTFOO_LLM_RUBRIC, PROMPTFOO_RELEASE, type ChatPromptText } from './data/promptfooDefaults';
import type { ReferencedFiles } from './files';
import { bodyLayout } from './layout';
import { parseNunjucks, type VariableMapping } from './nunjucks';
import { carriedModel } from './promptfooProvider';
import { asObject, collectAssertions, LENIENT, type AssertionSite } from './promptfooTests';
import { loadPromptfooYaml } from './promptfooYaml';
import type { FormatPiece } from './pyformat';
import type { ImportedTemplate, ImportProblem, ImportResult } from './types';
import { fileName, metricName, templateText, uniquely } from './write';

const TYPES = ['llm-rubric', 'g-eval', 'model-graded-closedqa'] as const;
type GraderType = (typeof TYPES)[number];
const GEVAL_MAX_SCORE = 10;
/** promptfoo's g-eval passes at this normalised score when the assertion sets no threshold. */
const GEVAL_DEFAULT_THRESHOLD = 0.7;

/** Model-graded assertions whose grading (several calls, embeddings, a fixed rubric) a template does not reproduce. */
const REFUSED: Record<string, string> = {
  factuality: 'it grades with promptfoo\'s factuality prompt and a category-to-score table, not a rubric',
  'model-graded-factuality': 'it grades with promptfoo\'s factuality prompt and a category-to-score table, not a rubric',
  'answer-relevance': 'it generates questions and compares embeddings, more than one judge call',
  'context-faithfulness': 'it extracts statements and checks each, more than one judge call',
  'context-recall': 'it checks each sentence of the context, more than one judge call',
  'context-relevance': 'it checks each sentence of the context, more than one judge call',
  'select-best': 'it compares several outputs of one test at once',
  'search-rubric': 'it lets the grader search the web',
  'agent-rubric': 'it grades an agent trace',
  'trajectory:goal-success': 'it grades an agent trajectory',
  'conversation-relevance': 'it grades a sliding window of a conversation',
};

interface Assertion {
  type?: unknown;
  value?: unknown;
  metric?: unknown;
  threshold?: unknown;
  transform?: unknown;
  weight?: unknown;
}

export interface PromptfooImportOptions {
  /** Reads the files the config names (`file://` tests, rubric files); without it they are reported. */
  files?: ReferencedFiles;
  /** The config's folder: relative references resolve from here. */
  dir?: string;
  /** The config's file name, as warnings show it (`promptfooconfig.yaml:12`). */
  name?: string;
}

/** promptfoo also loads configs that are code; an import reads data only. */
const SCRIPT_CONFIG = /\.(js|cjs|mjs|ts|cts|mts)$/i;

export async function importPromptfoo(text: string, opts: PromptfooImportOptions = {}): Promise<ImportResult> {
  const problems: ImportProblem[] = [];
  const configName = opts.name ?? 'the config';
  if (opts.name !== undefined && SCRIPT_CONFIG.test(opts.name)) {
    const js = /^[\w.-]+\.[cm]?js$/i.test(opts.name) ? ` (for this one: \`node -e "import('./${opts.name}').then((m) => console.log(JSON.stringify(m.default ?? m, null, 2)))" > promptfooconfig.json\`)` : '';
    const message = `JavaScript configs are not supported: an import reads data and never runs the config's code. Export the config to YAML or JSON${js} and import that file; functions in it (javascript assertions, transforms) have no JSON form and are not model-graded anyway`;
    return { templates: [], problems: [{ severity: 'error', where: 'file', message }] };
  }
  const loaded = loadPromptfooYaml(text);
  if (!loaded.ok) return { templates: [], problems: [{ severity: 'error', where: 'file', message: `not YAML (${loaded.error})` }] };
  for (const line of loaded.lenient) problems.push({ severity: 'warning', where: `line ${line}`, message: LENIENT });
  const config = asObject(loaded.value);
  if (!config) return { templates: [], problems: [{ severity: 'error', where: 'file', message: 'a promptfoo config is a YAML mapping (with `tests` and `defaultTest`)' }] };
  const dir = opts.dir ?? '.';
  const sites = await collectAssertions(config, dir, { files: opts.files, problems }, { file: configName, lineAt: loaded.lineAt });
  const made: ImportedTemplate[] = [];
  const others = new Map<string, string[]>();
  for (const site of sites) {
    const type = site.assertion.type;
    if (typeof type !== 'string' || type === '') {
      problems.push({ severity: 'error', where: site.where, message: 'the assertion has no `type`; skipped' });
      continue;
    }
    const base = type.replace(/^not-/, '');
    if (TYPES.includes(base as GraderType)) {
      const rubricPrompt = site.rubricPrompt ?? config.rubricPrompt;
      made.push(...(await fromAssertion({ ...site, rubricPrompt }, base as GraderType, type !== base, made.length + 1, opts.files, problems)));
    } else if (REFUSED[base]) {
      problems.push({ severity: 'error', where: site.where, message: `${type}: model-graded, but not imported: ${REFUSED[base]}` });
    } else others.set(type, [...(others.get(type) ?? []), site.where]);
  }
  for (const [type, wheres] of others) {
    const shown = wheres.slice(0, 4).join(', ') + (wheres.length > 4 ? ` and ${wheres.length - 4} more` : '');
    problems.push({ severity: 'warning', where: shown, message: `${type}: not a model-graded assertion (promptfoo checks it without a judge prompt), so no template` });
  }
  if (made.length === 0 && !problems.some((p) => p.severity === 'error')) {
    problems.push({ severity: 'error', where: 'file', message: 'no llm-rubric, g-eval or model-graded-closedqa assertions found' });
  }
  return { templates: uniquely(made), problems };
}

async function fromAssertion(site: AssertionSite, type: GraderType, inverse: boolean, n: number, files: ReferencedFiles | undefined, problems: ImportProblem[]): Promise<ImportedTemplate[]> {
  const a = site.assertion as Assertion;
  const full = `${inverse ? 'not-' : ''}${type}`;
  const where = site.where;
  const fail = (message: string): ImportedTemplate[] => {
    problems.push({ severity: 'error', where, message: `${full}: ${message}; skipped` });
    return [];
  };
  const warn = (message: string) => problems.push({ severity: 'warning', where, message: `${full}: ${message}` });
  if (inverse && type === 'g-eval') return fail(`promptfoo ${PROMPTFOO_RELEASE} passes not-g-eval when the score is below the threshold, which a template's pass_threshold cannot say (and older releases did not invert it); write the criterion the other way round as a g-eval`);
  const value = await assertionValue(a.value, site.dir, files);
  if (typeof value === 'object' && value !== null && 'error' in value) return fail(`value: ${String(value.error)}`);
  const values = type === 'g-eval' && Array.isArray(value) ? value : [value];
  if (!values.every((v): v is string => typeof v === 'string')) return fail('the assertion `value` (the rubric or criterion) is not text');
  if (type !== 'llm-rubric' && values.some((v) => v.trim() === '')) return fail('the assertion has no text `value` (the criterion)');
  const rubricPrompt = await fileRubricPrompt(site.rubricPrompt, site.dir, files);
  if (typeof rubricPrompt === 'object' && rubricPrompt !== null && 'error' in rubricPrompt) return fail(`rubricPrompt: ${String(rubricPrompt.error)}`);
  const custom = customPrompt(type, rubricPrompt, warn);
  const messages = custom !== undefined ? promptMessages(custom) : defaults(type);
  if (typeof messages === 'string') return fail(`rubricPrompt: ${messages}`);
  if (type === 'llm-rubric' && values[0] === '' && messages.some((m) => /\{\{-?\s*rubric\s*-?\}\}/.test(m.content))) {
    warn('no `value`, so promptfoo sends an empty rubric where the grading prompt says {{ rubric }}; so does this template');
  }
  for (const w of carryWarnings(a)) warn(w);
  const carried = carriedModel(site.provider);
  for (const w of carried.warnings) warn(w);
  const threshold = typeof a.threshold === 'number' && Number.isFinite(a.threshold) ? a.threshold : undefined;
  if (threshold !== undefined && type === 'llm-rubric' && !messages.some((m) => /score/i.test(m.content))) {
    warn(`threshold ${threshold} compares the reply's "score", which this grading prompt never asks for; promptfoo counts a missing score as 1 when pass is true, this template asks for the score once and then fails the row`);
  }
  if (threshold !== undefined && type === 'model-graded-closedqa') warn(`threshold ${threshold} is ignored, as promptfoo ignores it for model-graded-closedqa (the verdict is Y or N)`);
  if (values.length > 1) {
    const t = threshold || GEVAL_DEFAULT_THRESHOLD;
    warn(`a list of ${values.length} criteria: promptfoo grades each and passes when the mean of their scores ÷ ${GEVAL_MAX_SCORE} is at least ${t}; each criterion is a template of its own here, so average their m/score columns (÷ ${GEVAL_MAX_SCORE}) to get promptfoo's verdict`);
  }
  const out: ImportedTemplate[] = [];
  const seen: Seen = { valueEmpty: new Set(), valueRead: new Set(), promptEmpty: new Set() };
  const metric = typeof a.metric === 'string' && a.metric.trim() !== '' ? a.metric : undefined;
  for (const [k, v] of values.entries()) {
    const made = templateFor({ type, inverse, where, value: v, messages, custom: custom !== undefined, threshold, model: carried.model, item: values.length > 1 ? k + 1 : undefined, metric, n, vars: site.vars, seen });
    if (typeof made === 'string') return fail(made);
    out.push(made);
  }
  const at = `${site.file}${site.line !== undefined ? `:${site.line}` : ''}`;
  for (const name of ['output', 'prompt'].filter((x) => seen.valueRead.has(x) || seen.valueEmpty.has(x))) {
    const how = seen.valueEmpty.has(name) ? `this test has no var "${name}", so promptfoo sends empty text there, and so does this template` : `the template reads the dataset field "${name}", which must hold that var`;
    warn(`the value at ${at} says {{${name}}}: promptfoo ${PROMPTFOO_RELEASE} fills an assertion's value from the test's vars only, not with the ${name === 'output' ? 'response' : 'prompt'}; ${how}`);
  }
  for (const name of [...seen.valueEmpty].filter((x) => x !== 'output' && x !== 'prompt')) {
    warn(`the value at ${at} says {{${name}}}, which is not a var of this test, so promptfoo renders it as empty text (Nunjucks' rule for an undefined variable), and so does this template`);
  }
  for (const name of seen.promptEmpty) {
    warn(`the grading prompt says {{${name}}}, which promptfoo ${PROMPTFOO_RELEASE} does not give ${full}'s grading prompt${type === 'g-eval' ? ' (g-eval gets criteria, steps, maxScore, input and output only)' : ' and this test has no such var'}, so it is sent as empty text, here too`);
  }
  if (metric !== undefined && /\{\{|\{%/.test(metric)) warn(`metric ${JSON.stringify(metric)} is a Nunjucks template that promptfoo fills per test; it is kept as written in source.metric`);
  if (type === 'g-eval') warn('promptfoo writes the evaluation steps with a first model call; the template reads them from {{steps}}: write your steps there, or give a `steps` field in the dataset');
  return out;
}

interface TemplateInput {
  type: GraderType;
  inverse: boolean;
  where: string;
  value: string;
  messages: ChatPromptText[];
  custom: boolean;
  threshold: number | undefined;
  model: Record<string, unknown>;
  item: number | undefined;
  metric: string | undefined;
  n: number;
  /** The test's vars (undefined: not known here), the variables rendered empty as promptfoo renders them, and those read from the dataset. */
  vars: ReadonlySet<string> | undefined;
  seen: Seen;
}

/** Variables of one assertion: in its value, rendered empty or read from the dataset; in its grading prompt, rendered empty. */
interface Seen {
  valueEmpty: Set<string>;
  valueRead: Set<string>;
  promptEmpty: Set<string>;
}

function templateFor(t: TemplateInput): ImportedTemplate | string {
  const full = `${t.inverse ? 'not-' : ''}${t.type}`;
  // The promptfoo variables the prompt and the rubric read, and the dataset fields they become.
  const vars: Record<string, string> = {};
  const field = (name: string, as: string) => {
    const key = vars[name] !== undefined && vars[name] !== as ? `vars.${name}` : name;
    vars[key] = as;
    return { field: as };
  };
  // A test var: a dataset field of the same name; a name the test does not define renders empty in
  // promptfoo (Nunjucks without throwOnUndefined), so it is empty text here too.
  const testVar = (name: string, inValue = false) => {
    if (t.vars !== undefined && !t.vars.has(name)) {
      (inValue ? t.seen.valueEmpty : t.seen.promptEmpty).add(name);
      return { pieces: [] };
    }
    if (inValue) t.seen.valueRead.add(name);
    return field(name, name);
  };
  // The rubric/criterion is itself a Nunjucks template over the test's vars only (promptfoo's runAssertion).
  const literal = parseNunjucks(t.value, (name) => testVar(name, true));
  if (!literal.ok) return `value: ${literal.error}`;
  const given = GIVEN[t.type];
  const map: VariableMapping = (name) => {
    if (name === 'rubric' || name === 'criteria') return given.includes(name) ? { pieces: literal.pieces } : testVar(name);
    if (name === 'maxScore' && t.type === 'g-eval') return { pieces: [{ text: String(GEVAL_MAX_SCORE) }] };
    const fixed = given.includes(name) ? FIELDS[name] : undefined;
    if (fixed !== undefined) return field(name, fixed);
    if (t.type === 'g-eval' && name !== 'steps') {
      // g-eval's second call gets criteria, steps, maxScore, input and output, and no test vars.
      t.seen.promptEmpty.add(name);
      return { pieces: [] };
    }
    return name === 'steps' ? field(name, name) : testVar(name);
  };
  const parts: { role: 'system' | 'user'; pieces: FormatPiece[] }[] = [];
  for (const m of t.messages) {
    const parsed = parseNunjucks(m.content, map);
    if (!parsed.ok) return `rubricPrompt: ${parsed.error}`;
    parts.push({ role: m.role, pieces: parsed.pieces });
  }
  const layout = bodyLayout(parts);
  if (typeof layout === 'string') return layout;
  const base = t.metric ?? `${full}_${t.n}`;
  const name = metricName(t.item !== undefined ? `${base}_${t.item}` : base, 'rubric');
  const scoring = scoringOf(t);
  const fm: Record<string, unknown> = {
    name,
    kind: 'pointwise',
    description: `Imported from promptfoo (${full} at ${t.where}${t.item !== undefined ? `, criterion ${t.item}` : ''}${t.metric !== undefined ? `, metric ${t.metric}` : ''})${t.custom ? " with the config's rubricPrompt" : ` with promptfoo ${PROMPTFOO_RELEASE}'s default grading prompt`}${t.threshold !== undefined ? `; promptfoo threshold ${t.threshold}` : ''}`,
    ...scoring,
    freeform: true,
    ...(layout.system !== undefined ? { system: layout.system } : {}),
    inputs: layout.fields,
    ...(Object.keys(t.model).length > 0 ? { model: t.model } : {}),
    source: { format: 'promptfoo', name: t.where, ...(t.metric !== undefined ? { metric: t.metric } : {}), fields: vars },
  };
  return { file: fileName(name), name, text: templateText(fm, layout.body), source: t.where };
}

/** The scale and verdict promptfoo's reading of the reply amounts to. */
function scoringOf(t: TemplateInput): Record<string, unknown> {
  if (t.type === 'llm-rubric') {
    const values = t.inverse ? { true: 0, false: 1 } : { true: 1, false: 0 };
    // promptfoo: pass = reply.pass && reply.score >= threshold; not- inverts the result.
    const gate = t.threshold !== undefined ? { gate: { field: 'score', min: t.threshold, otherwise: t.inverse ? 1 : 0 } } : {};
    return { scale: [0, 1], verdict: { format: 'json', fields: { score: 'pass', justification: 'reason' }, values, ...gate } };
  }
  if (t.type === 'model-graded-closedqa') {
    return { scale: [0, 1], verdict: { format: 'regex', pattern: '(?<score>[YN])\\s*$', values: t.inverse ? { Y: 0, N: 1 } : { Y: 1, N: 0 } } };
  }
  // g-eval: any number from 0 to 10; promptfoo passes at score / 10 >= threshold (`threshold || 0.7`).
  const threshold = (t.threshold || GEVAL_DEFAULT_THRESHOLD) * GEVAL_MAX_SCORE;
  return { range: [0, GEVAL_MAX_SCORE], ...(t.item === undefined ? { pass_threshold: Math.round(threshold * 1e9) / 1e9 } : {}), verdict: { format: 'json', fields: { justification: 'reason' } } };
}

/** Assertion keys that change promptfoo's verdict and have no place in a template: said, not dropped. */
function carryWarnings(a: Assertion): string[] {
  const out: string[] = [];
  if (a.transform !== undefined) out.push('its `transform` rewrites the output before grading; the template judges the response as given, so put the transformed output in the dataset');
  if (a.weight !== undefined && a.weight !== 1) out.push(`weight ${JSON.stringify(a.weight)} only matters when promptfoo combines a test's assertions; a template judges one`);
  return out;
}

/** g-eval takes `rubricPrompt.evaluate` (and `.steps`); any other rubricPrompt is ignored by promptfoo, and here. */
function customPrompt(type: GraderType, rubricPrompt: unknown, warn: (m: string) => void): unknown {
  if (type !== 'g-eval') return rubricPrompt;
  if (rubricPrompt === undefined) return undefined;
  const obj = asObject(rubricPrompt);
  if (!obj) {
    warn('promptfoo\'s g-eval reads only rubricPrompt.evaluate (and .steps); the rubricPrompt in force is not one, so promptfoo\'s default is used, as promptfoo does');
    return undefined;
  }
  if (obj.steps !== undefined) warn('rubricPrompt.steps writes the evaluation steps, which the template reads from {{steps}} instead');
  return obj.evaluate;
}

/** An assertion `value`: inline, or a `file://` text (.txt, .md) or data (.json, .yaml) file. */
async function assertionValue(value: unknown, dir: string, files: ReferencedFiles | undefined): Promise<unknown> {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return Promise.all(value.map((v) => assertionValue(v, dir, files)));
  if (typeof value === 'object') return JSON.stringify(value); // promptfoo renders an object rubric as JSON
  if (typeof value !== 'string' || !value.startsWith('file://')) return value;
  const text = await referencedText(value, dir, files, /\.(txt|md|json|ya?ml)$/i);
  if (typeof text !== 'string') return text;
  if (/\.(txt|md)$/i.test(value)) return text;
  const data = loadPromptfooYaml(text);
  if (!data.ok) return { error: `${value} is not JSON or YAML (${data.error})` };
  return typeof data.value === 'string' ? data.value : JSON.stringify(data.value);
}

/** A `file://` rubricPrompt, read as promptfoo loads non-script files: raw text (then JSON or a plain prompt). */
async function fileRubricPrompt(rubricPrompt: unknown, dir: string, files: ReferencedFiles | undefined): Promise<unknown> {
  if (typeof rubricPrompt !== 'string' || !rubricPrompt.startsWith('file://')) return rubricPrompt;
  return referencedText(rubricPrompt, dir, files, /\.(txt|md|json)$/i);
}

async function referencedText(ref: string, dir: string, files: ReferencedFiles | undefined, kinds: RegExp): Promise<string | { error: string }> {
  if (!files) return { error: `${ref} is a file; import the config file itself so the files it names can be read` };
  if (!kinds.test(ref)) return { error: `${ref} is not a file an import can read (${path.extname(ref) || 'no extension'}; scripts are run by promptfoo, not read)` };
  const resolved = await files.resolve(ref, dir);
  if (!resolved.ok) return { error: resolved.error };
  if (resolved.files.length !== 1) return { error: `${ref} names ${resolved.files.length} files` };
  const read = await files.read(resolved.files[0]!);
  return read.ok ? read.text : { error: read.error };
}

/** The variables promptfoo's matcher gives each grading prompt besides the test's vars (g-eval: instead of them). */
const GIVEN: Record<GraderType, readonly string[]> = {
  'llm-rubric': ['output', 'rubric'],
  'model-graded-closedqa': ['input', 'completion', 'criteria'],
  'g-eval': ['criteria', 'steps', 'maxScore', 'input', 'output'],
};

/** The dataset field of a variable promptfoo fills itself: `output`/`completion` is the response graded, `input` the prompt. */
const FIELDS: Record<string, string> = { output: 'response', completion: 'response', input: 'prompt' };

function defaults(type: GraderType): ChatPromptText[] {
  if (type === 'llm-rubric') return PROMPTFOO_LLM_RUBRIC;
  if (type === 'model-graded-closedqa') return PROMPTFOO_CLOSED_QA;
  return [{ role: 'user', content: PROMPTFOO_GEVAL_EVALUATE }];
}

/** A `rubricPrompt`: a list of messages, a JSON string of one, or plain text (one user message). */
function promptMessages(v: unknown): ChatPromptText[] | string {
  let value = v;
  if (typeof v === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return [{ role: 'user', content: v }];
    }
    if (!Array.isArray(parsed)) return [{ role: 'user', content: v }];
    value = parsed;
  }
  if (!Array.isArray(value)) return 'expected a list of {role, content} messages or a string';
  const out: ChatPromptText[] = [];
  for (const m of value) {
    const msg = asObject(m);
    if (!msg || (msg.role !== 'system' && msg.role !== 'user') || typeof msg.content !== 'string') return 'each message needs role "system" or "user" and a text content';
    out.push({ role: msg.role, content: msg.content });
  }
  return out;
}
