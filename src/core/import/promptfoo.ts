// promptfoo configs: every `llm-rubric`, `g-eval` and `model-graded-closedqa` assertion becomes a
// free-form template holding the grading prompt promptfoo would send (the config's `rubricPrompt`
// when it sets one, else promptfoo's default, see data/promptfooDefaults.ts) and the verdict read
// as promptfoo reads it: `pass` of a `{reason, pass, score}` object, a 0-10 `score`, or a final Y/N.
import { parse as parseYaml } from 'yaml';
import { PROMPTFOO_CLOSED_QA, PROMPTFOO_GEVAL_EVALUATE, PROMPTFOO_LLM_RUBRIC, type ChatPromptText } from './data/promptfooDefaults';
import { bodyLayout } from './layout';
import { parseNunjucks, type VariableMapping } from './nunjucks';
import type { FormatPiece } from './pyformat';
import type { ImportedTemplate, ImportProblem, ImportResult } from './types';
import { fileName, metricName, templateText, uniquely } from './write';

const TYPES = ['llm-rubric', 'g-eval', 'model-graded-closedqa'] as const;
type GraderType = (typeof TYPES)[number];
const GEVAL_MAX_SCORE = 10;

interface Assertion {
  type?: unknown;
  value?: unknown;
  metric?: unknown;
  rubricPrompt?: unknown;
  threshold?: unknown;
}

export function importPromptfoo(text: string): ImportResult {
  const problems: ImportProblem[] = [];
  let config: Record<string, unknown>;
  try {
    config = parseYaml(text, { maxAliasCount: 100 }) as Record<string, unknown>;
  } catch (e) {
    return { templates: [], problems: [{ severity: 'error', where: 'file', message: `not YAML (${(e as Error).message.split('\n')[0]})` }] };
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return { templates: [], problems: [{ severity: 'error', where: 'file', message: 'a promptfoo config is a YAML mapping (with `tests` and `defaultTest`)' }] };
  }
  const made: ImportedTemplate[] = [];
  const defaultTest = asObject(config.defaultTest);
  const defaultPrompt = asObject(defaultTest?.options)?.rubricPrompt;
  const visit = (asserts: unknown, where: string, testPrompt: unknown) => {
    if (!Array.isArray(asserts)) return;
    asserts.forEach((a: Assertion, j) => {
      if (typeof a !== 'object' || a === null || !TYPES.includes(a.type as GraderType)) return;
      const t = fromAssertion(a, a.type as GraderType, `${where}.assert[${j}]`, a.rubricPrompt ?? testPrompt ?? defaultPrompt ?? (config as { rubricPrompt?: unknown }).rubricPrompt, made.length + 1, problems);
      if (t) made.push(t);
    });
  };
  visit(defaultTest?.assert, 'defaultTest', undefined);
  const tests = Array.isArray(config.tests) ? config.tests : [];
  if (typeof config.tests === 'string') problems.push({ severity: 'warning', where: 'tests', message: 'tests are read from another file; import that file\'s assertions by pointing at a config that lists them' });
  tests.forEach((t, i) => {
    const test = asObject(t);
    visit(test?.assert, `tests[${i}]`, asObject(test?.options)?.rubricPrompt);
  });
  if (made.length === 0 && !problems.some((p) => p.severity === 'error')) {
    problems.push({ severity: 'error', where: 'file', message: 'no llm-rubric, g-eval or model-graded-closedqa assertions found' });
  }
  return { templates: uniquely(made), problems };
}

function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function fromAssertion(a: Assertion, type: GraderType, where: string, rubricPrompt: unknown, n: number, problems: ImportProblem[]): ImportedTemplate | undefined {
  const fail = (message: string) => {
    problems.push({ severity: 'error', where, message: `${type}: ${message}; skipped` });
    return undefined;
  };
  const value = Array.isArray(a.value) && type === 'g-eval' ? a.value.join('\n') : a.value;
  if (typeof value !== 'string' || value.trim() === '') return fail('the assertion has no text `value` (the rubric or criterion)');
  const custom = type === 'g-eval' ? asObject(rubricPrompt)?.evaluate ?? (asObject(rubricPrompt) ? undefined : rubricPrompt) : rubricPrompt;
  const messages = custom !== undefined ? promptMessages(custom) : defaults(type);
  if (typeof messages === 'string') return fail(`rubricPrompt: ${messages}`);

  // The rubric/criterion is itself a Nunjucks template over the test's vars.
  const literal = parseNunjucks(value, (name) => ({ field: fieldFor(name) }));
  if (!literal.ok) return fail(`value: ${literal.error}`);
  const map: VariableMapping = (name) => {
    if (name === 'rubric' || name === 'criteria') return { pieces: literal.pieces };
    if (name === 'maxScore') return { pieces: [{ text: String(GEVAL_MAX_SCORE) }] };
    if (name === 'steps') return { pieces: [{ text: STEPS_TODO }] };
    return { field: fieldFor(name) };
  };
  const parts: { role: 'system' | 'user'; pieces: FormatPiece[] }[] = [];
  for (const m of messages) {
    const parsed = parseNunjucks(m.content, map);
    if (!parsed.ok) return fail(`rubricPrompt: ${parsed.error}`);
    parts.push({ role: m.role, pieces: parsed.pieces });
  }
  const layout = bodyLayout(parts);
  if (typeof layout === 'string') return fail(layout);
  if (type === 'g-eval') problems.push({ severity: 'warning', where, message: 'g-eval: promptfoo writes the evaluation steps with a first model call; replace the marked line in the template with your steps' });
  const name = metricName(typeof a.metric === 'string' ? a.metric : `${type}_${n}`, 'rubric');
  const fm: Record<string, unknown> = {
    name,
    kind: 'pointwise',
    description: `Imported from promptfoo (${type} at ${where})${custom !== undefined ? ' with the config\'s rubricPrompt' : ' with promptfoo\'s default grading prompt'}${typeof a.threshold === 'number' ? `; promptfoo threshold ${a.threshold}` : ''}`,
    scale: type === 'g-eval' ? [0, GEVAL_MAX_SCORE] : [0, 1],
    freeform: true,
    verdict: VERDICTS[type],
    ...(layout.system !== undefined ? { system: layout.system } : {}),
    inputs: layout.fields,
  };
  return { file: fileName(name), name, text: templateText(fm, layout.body), source: where };
}

const STEPS_TODO = 'TODO: your evaluation steps, one per line starting with "- " (promptfoo generates them from the criteria)';

const VERDICTS: Record<GraderType, Record<string, unknown>> = {
  'llm-rubric': { format: 'json', fields: { score: 'pass', justification: 'reason' }, values: { true: 1, false: 0 } },
  'g-eval': { format: 'json', fields: { justification: 'reason' } },
  'model-graded-closedqa': { format: 'regex', pattern: '(?<score>[YN])\\s*$', values: { Y: 1, N: 0 } },
};

/** promptfoo's `output` is the response judged, `input` (closed QA: also `completion`) the prompt. */
function fieldFor(name: string): string {
  if (name === 'output' || name === 'completion') return 'response';
  if (name === 'input') return 'prompt';
  return name;
}

function defaults(type: GraderType): ChatPromptText[] {
  if (type === 'llm-rubric') return PROMPTFOO_LLM_RUBRIC;
  if (type === 'model-graded-closedqa') return PROMPTFOO_CLOSED_QA;
  return [{ role: 'user', content: PROMPTFOO_GEVAL_EVALUATE }];
}

/** A `rubricPrompt`: a list of messages, a JSON string of one, or plain text (one user message). */
function promptMessages(v: unknown): ChatPromptText[] | string {
  let value = v;
  if (typeof v === 'string') {
    if (v.startsWith('file://')) return `${v} is a file reference; paste its content into the config or import the file's text`;
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
