// OpenAI Evals graders (an exported eval definition's `testing_criteria`, a list of evals, or a bare
// grader object; shapes from openai-node's graders/grader-models.ts and evals/evals.ts). Every
// `label_model` and `score_model` grader becomes a free-form template whose messages render to the
// grader's `input` verbatim, with `{{item.x}}` → `{{x}}` and `{{sample.output_text}}` → `{{response}}`
// (the mapping is kept in front matter under `source.fields`). Labels become a categorical verdict
// with `passing_labels`; `range` and `pass_threshold` a continuous score with a pass view. The
// verdict is OpenAI's documented model-grader reply, `{"steps": [{description, conclusion}], "result"}`,
// asked for as structured output and read by the json verdict's field mapping (`result`, `steps`).
// Graders that use no model (string_check, text_similarity, python, multi, …) are listed as not
// imported, with the reason.
import { bodyLayout, type PromptPart } from './layout';
import type { FormatPiece } from './pyformat';
import type { ImportedTemplate, ImportProblem, ImportResult } from './types';
import { fileName, metricName, templateText, uniquely } from './write';

type Obj = Record<string, unknown>;

const NOT_MODEL: Record<string, string> = {
  string_check: 'it compares strings (eq, ne, like, ilike) without a model',
  text_similarity: 'it scores text similarity (fuzzy match, BLEU, ROUGE, cosine, …) without a model',
  python: 'it runs a Python script, not a judge prompt',
  multi: 'it combines other graders with a formula (calculate_output); import its model graders on their own',
  endpoint: 'it calls your own HTTP endpoint, not a judge prompt',
};

const PATH = /^(item|sample)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)$/;
const RESERVED = new Set(['this', 'true', 'false', 'null', 'undefined', 'else', 'if', 'unless', 'each', 'with', 'lookup', 'log']);

export function importOpenAIEvals(text: string): ImportResult {
  const problems: ImportProblem[] = [];
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return fail(`not JSON (${(e as Error).message}); export the eval with the Evals API (GET /v1/evals/{id}) or paste a grader object`);
  }
  const graders = gradersOf(data, problems);
  if (graders.length === 0) {
    if (!problems.some((p) => p.severity === 'error')) problems.push({ severity: 'error', where: 'file', message: 'no graders found: expected an eval with `testing_criteria`, a list of evals, or a grader object with `type`' });
    return { templates: [], problems };
  }
  const made: ImportedTemplate[] = [];
  for (const g of graders) {
    const t = fromGrader(g, problems);
    if (t) made.push(t);
  }
  if (made.length > 0) {
    problems.push({
      severity: 'warning',
      where: 'file',
      message:
        'the imported templates send the prompts unchanged and ask for OpenAI\'s model-grader reply ({"steps": [{"description", "conclusion"}], "result"}) as structured output, ' +
        'as OpenAI runs them; run them with --structured json_schema (the default) on an endpoint that supports it',
    });
  }
  return { templates: uniquely(made), problems };

  function fail(message: string): ImportResult {
    return { templates: [], problems: [{ severity: 'error', where: 'file', message }] };
  }
}

interface Located {
  grader: Obj;
  where: string;
  evalName?: string;
}

function asObject(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** Graders with where they sit in the file: an eval, a page of evals (`data`), a list, or one grader. */
function gradersOf(data: unknown, problems: ImportProblem[]): Located[] {
  const out: Located[] = [];
  const fromEval = (e: Obj, where: string) => {
    const criteria = e.testing_criteria;
    if (!Array.isArray(criteria)) {
      problems.push({ severity: 'error', where, message: '`testing_criteria` is not a list of graders; skipped' });
      return;
    }
    criteria.forEach((g, i) => {
      const grader = asObject(g);
      if (grader) out.push({ grader, where: `${where}testing_criteria[${i}]`, ...(typeof e.name === 'string' ? { evalName: e.name } : {}) });
      else problems.push({ severity: 'error', where: `${where}testing_criteria[${i}]`, message: 'not a grader object; skipped' });
    });
  };
  const visit = (v: unknown, where: string) => {
    const o = asObject(v);
    if (!o) {
      problems.push({ severity: 'error', where: where || 'file', message: 'not an eval or grader object; skipped' });
      return;
    }
    if ('testing_criteria' in o) fromEval(o, where);
    else if (Array.isArray(o.data)) o.data.forEach((e, i) => visit(e, `${where}data[${i}].`));
    else if (typeof o.type === 'string') out.push({ grader: o, where: where ? where.replace(/\.$/, '') : 'grader' });
    else problems.push({ severity: 'error', where: where || 'file', message: 'neither an eval (`testing_criteria`) nor a grader (`type`); skipped' });
  };
  if (Array.isArray(data)) data.forEach((v, i) => visit(v, `[${i}].`));
  else visit(data, '');
  return out;
}

function fromGrader({ grader: g, where, evalName }: Located, problems: ImportProblem[]): ImportedTemplate | undefined {
  const label = typeof g.name === 'string' && g.name !== '' ? `"${g.name}" (${String(g.type)})` : String(g.type);
  const fail = (message: string, severity: 'error' | 'warning' = 'error') => {
    problems.push({ severity, where, message: `${label}: ${message}; not imported` });
    return undefined;
  };
  const type = g.type;
  if (type !== 'label_model' && type !== 'score_model') {
    const why = typeof type === 'string' ? NOT_MODEL[type] : undefined;
    return fail(why ? `not a model grader: ${why}` : `unknown grader type ${JSON.stringify(type)}; only label_model and score_model graders use a judge prompt`, why ? 'warning' : 'error');
  }
  if (typeof g.name !== 'string' || g.name.trim() === '') return fail('the grader has no `name`');
  if (typeof g.model !== 'string' || g.model.trim() === '') return fail('the grader names no `model`');
  const messages = messagesOf(g.input, where, problems);
  if (typeof messages === 'string') return fail(messages);
  const mapped = mapFields(messages);
  if (typeof mapped === 'string') return fail(mapped);
  const layout = bodyLayout(mapped.parts, 'system');
  if (typeof layout === 'string') return fail(layout);
  const verdict = type === 'label_model' ? labelVerdict(g) : scoreVerdict(g);
  if (typeof verdict === 'string') return fail(verdict);
  for (const w of verdict.warnings) problems.push({ severity: 'warning', where, message: `${label}: ${w}` });
  const model = modelOf(g, (w) => problems.push({ severity: 'warning', where, message: `${label}: ${w}` }));
  const name = metricName(g.name, 'grader');
  const fm: Obj = {
    name,
    kind: 'pointwise',
    description: `Imported from OpenAI Evals grader "${g.name}" (${type})${evalName ? ` of eval "${evalName}"` : ''}`,
    ...verdict.keys,
    freeform: true,
    // OpenAI's graders guide: the grader replies {"steps": [{description, conclusion}], "result"}.
    verdict: { format: 'json', fields: { [type === 'label_model' ? 'label' : 'score']: 'result', steps: 'steps' }, structured: true },
    ...(layout.system !== undefined ? { system: layout.system } : {}),
    // Inputs are top-level fields: `{{item.meta.lang}}` reads field `meta`.
    inputs: [...new Set(layout.fields.map((f) => f.split('.')[0]!))],
    model,
    source: { format: 'openai-evals', name: g.name, fields: mapped.fields },
  };
  return { file: fileName(g.name, 'grader'), name, text: templateText(fm, layout.body), source: where };
}

type Message = { role: 'system' | 'user'; content: string };

/** The grader's `input` as text messages; the roles a template cannot send are refused. */
function messagesOf(input: unknown, where: string, problems: ImportProblem[]): Message[] | string {
  if (!Array.isArray(input) || input.length === 0) return '`input` is not a list of messages';
  const out: Message[] = [];
  let seenUser = false;
  for (const [i, m] of input.entries()) {
    const msg = asObject(m);
    if (!msg) return `input[${i}] is not a message object`;
    const role = msg.role;
    if (role === 'assistant') return `input[${i}] is an assistant message; a template sends one system and one user message, so a grader with an example exchange cannot be reproduced`;
    if (role !== 'system' && role !== 'developer' && role !== 'user') return `input[${i}] has role ${JSON.stringify(role)} (expected system, developer or user)`;
    const content = textOf(msg.content);
    if (typeof content !== 'string') return `input[${i}]: ${content.error}`;
    if (role === 'developer') problems.push({ severity: 'warning', where, message: `input[${i}] is a developer message; it is sent as the system message (chat endpoints other than OpenAI's know no developer role)` });
    const asRole = role === 'user' ? 'user' : 'system';
    if (asRole === 'system' && seenUser) return `input[${i}] is a system message after the user message; a template sends the system message first`;
    if (asRole === 'user') seenUser = true;
    out.push({ role: asRole, content });
  }
  return out;
}

/** A message's content as text: a string, one text part, or a list holding exactly one text part. */
function textOf(content: unknown): string | { error: string } {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const p of parts) {
    if (typeof p === 'string') {
      texts.push(p);
      continue;
    }
    const part = asObject(p);
    if (part && (part.type === 'input_text' || part.type === 'output_text') && typeof part.text === 'string') texts.push(part.text);
    else return { error: `content of type ${JSON.stringify(part?.type ?? typeof p)} (images and audio cannot be sent by a template)` };
  }
  if (texts.length !== 1) return { error: `the content has ${texts.length} text parts; a template sends one text per message` };
  return texts[0]!;
}

/** `{{item.x}}` → field `x`, `{{sample.output_text}}` → `response`; anything else is refused. */
function mapFields(messages: Message[]): { parts: PromptPart[]; fields: Record<string, string> } | string {
  const fields: Record<string, string> = {};
  const parts: PromptPart[] = [];
  for (const m of messages) {
    const pieces: FormatPiece[] = [];
    let last = 0;
    for (const match of m.content.matchAll(/\{\{([^{}]*)\}\}/g)) {
      const expr = (match[1] ?? '').trim();
      const p = PATH.exec(expr);
      if (!p) return `the placeholder {{${expr}}} is not {{item.<field>}} or {{sample.output_text}}`;
      const [, space, rest = ''] = p;
      const segments = rest.slice(1).split('.');
      let field: string;
      if (space === 'sample') {
        if (rest !== '.output_text') return `{{${expr}}} needs the sampled model's ${segments[0]}; Judge Studio judges the response text ({{sample.output_text}})`;
        field = 'response';
      } else {
        if (segments[0] === 'response' && segments.length === 1) return '{{item.response}} and {{sample.output_text}} would both be the field `response`; rename the item field';
        if (segments.some((s) => RESERVED.has(s))) return `{{${expr}}} uses a name Handlebars reserves (${segments.find((s) => RESERVED.has(s))})`;
        field = segments.join('.');
      }
      fields[expr] = field;
      if (match.index > last) pieces.push({ text: m.content.slice(last, match.index) });
      pieces.push({ field });
      last = match.index + match[0].length;
    }
    if (last < m.content.length) pieces.push({ text: m.content.slice(last) });
    parts.push({ role: m.role, pieces });
  }
  return { parts, fields };
}

interface Verdict {
  keys: Obj;
  warnings: string[];
}

function labelVerdict(g: Obj): Verdict | string {
  const labels = g.labels;
  if (!Array.isArray(labels) || labels.length < 2 || !labels.every((l) => typeof l === 'string' && l !== '')) return '`labels` is not a list of at least two labels';
  if (new Set(labels).size !== labels.length) return '`labels` lists a label twice';
  const passing = g.passing_labels;
  if (passing !== undefined && (!Array.isArray(passing) || !passing.every((l) => typeof l === 'string'))) return '`passing_labels` is not a list of labels';
  const unknown = (passing ?? []).filter((l: string) => !labels.includes(l));
  if (unknown.length > 0) return `passing label ${JSON.stringify(unknown[0])} is not one of the labels`;
  const warnings = !passing || passing.length === 0 ? ['no `passing_labels`, so no row is marked passed or failed'] : [];
  return { keys: { labels, ...(passing && passing.length > 0 ? { passing_labels: passing } : {}) }, warnings };
}

function scoreVerdict(g: Obj): Verdict | string {
  const range = g.range ?? [0, 1];
  if (!Array.isArray(range) || range.length !== 2 || !range.every((x) => typeof x === 'number' && Number.isFinite(x)) || !(range[0] < range[1])) {
    return '`range` is not [min, max] with min < max';
  }
  const t = g.pass_threshold;
  if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t))) return '`pass_threshold` is not a number';
  if (typeof t === 'number' && (t < range[0] || t > range[1])) return `\`pass_threshold\` ${t} is outside the range [${range.join(', ')}]`;
  return { keys: { range, ...(typeof t === 'number' ? { pass_threshold: t } : {}) }, warnings: typeof t === 'number' ? [] : ['no `pass_threshold`, so no row is marked passed or failed'] };
}

/** The grader's model and the sampling settings a template carries; the rest is named. */
function modelOf(g: Obj, warn: (message: string) => void): Obj {
  const model: Obj = { name: g.model };
  const sp = asObject(g.sampling_params);
  if (!sp) return model;
  const carried = new Set<string>();
  if (typeof sp.temperature === 'number' && sp.temperature >= 0 && sp.temperature <= 2) {
    model.temperature = sp.temperature;
    carried.add('temperature');
  }
  const max = sp.max_completions_tokens;
  if (typeof max === 'number' && Number.isInteger(max) && max > 0) {
    model.max_tokens = max;
    carried.add('max_completions_tokens');
  }
  const dropped = Object.keys(sp).filter((k) => sp[k] !== null && sp[k] !== undefined && !carried.has(k));
  if (dropped.length > 0) warn(`sampling_params ${dropped.map((k) => `${k}: ${JSON.stringify(sp[k])}`).join(', ')} not carried over (a template sets the model, a temperature from 0 to 2 and max_tokens)`);
  return model;
}
