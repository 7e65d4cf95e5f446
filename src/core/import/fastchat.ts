// FastChat (MT-Bench) judge prompts: a JSONL file of {name, type, system_prompt, prompt_template,
// output_format, …}. Each prompt becomes a free-form template whose rendering is, byte for byte,
// `prompt_template.format(**row)`, with the system prompt as the system message and the verdict
// read by FastChat's own rule (`[[rating]]` → tagged score 1-10, `[[A]]` → tagged winner).
import { handlebarsBody, parsePythonFormat } from './pyformat';
import type { ImportedTemplate, ImportProblem, ImportResult } from './types';
import { fileName, metricName, templateText, uniquely } from './write';

/** FastChat judges with temperature 0 and at most 2048 new tokens. */
const FASTCHAT_MODEL = { temperature: 0, max_tokens: 2048 };

interface FastChatPrompt {
  name?: unknown;
  type?: unknown;
  system_prompt?: unknown;
  prompt_template?: unknown;
  output_format?: unknown;
  description?: unknown;
  category?: unknown;
}

export function importFastChat(text: string): ImportResult {
  const problems: ImportProblem[] = [];
  const made: ImportedTemplate[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      problems.push({ severity: 'error', where, message: `not JSON (${(e as Error).message}); skipped` });
      return;
    }
    const made1 = fromPrompt(value as FastChatPrompt, where, problems);
    if (made1) made.push(made1);
  });
  if (made.length === 0 && !problems.some((p) => p.severity === 'error')) problems.push({ severity: 'error', where: 'file', message: 'no judge prompts found' });
  return { templates: uniquely(made), problems };
}

function fromPrompt(p: FastChatPrompt, where: string, problems: ImportProblem[]): ImportedTemplate | undefined {
  const fail = (message: string) => {
    problems.push({ severity: 'error', where, message: `${typeof p.name === 'string' ? `${p.name}: ` : ''}${message}; skipped` });
    return undefined;
  };
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return fail('not a JSON object');
  if (typeof p.name !== 'string' || p.name === '') return fail('no "name"');
  if (typeof p.prompt_template !== 'string') return fail('no "prompt_template" string');
  if (p.system_prompt !== undefined && typeof p.system_prompt !== 'string') return fail('"system_prompt" is not a string');
  const type = p.type === 'single' ? 'pointwise' : p.type === 'pairwise' ? 'pairwise' : undefined;
  if (!type) return fail(`"type" is ${JSON.stringify(p.type)}, not "single" or "pairwise"`);
  const expected = type === 'pointwise' ? '[[rating]]' : '[[A]]';
  if (p.output_format !== expected) {
    return fail(`"output_format" ${JSON.stringify(p.output_format)} is not supported for ${p.type} judges (supported: ${expected})`);
  }
  const parsed = parsePythonFormat(p.prompt_template);
  if (!parsed.ok) return fail(`prompt_template: ${parsed.error}`);
  const body = handlebarsBody(parsed.pieces);
  if (!body.ok) return fail(`prompt_template: ${body.error}`);
  if (/^ {0,3}#[ \t]+system[ \t]*:?[ \t]*#*[ \t]*$/im.test(p.prompt_template)) {
    return fail('prompt_template has a "# System" heading line, which a template reads as its system section');
  }
  let pair: { a: string[]; b: string[] } | undefined;
  if (type === 'pairwise') {
    pair = pairOf(parsed.fields);
    if (!pair) return fail('a pairwise prompt needs fields for both answers (e.g. {answer_a} and {answer_b}) so the position swap can exchange them');
  }
  const description = [`Imported from FastChat judge prompt "${p.name}"`, typeof p.description === 'string' ? p.description : '', typeof p.category === 'string' ? `category: ${p.category}` : '']
    .filter(Boolean)
    .join('; ');
  const name = metricName(p.name, 'judge');
  const fm: Record<string, unknown> = {
    name,
    kind: type,
    description,
    ...(type === 'pointwise' ? { scale: [1, 10] } : {}),
    freeform: true,
    // FastChat's own rule ([[A]] anywhere wins), said outright: the prompt lists all three labels.
    verdict: { format: 'tagged', match: 'first' },
    ...(typeof p.system_prompt === 'string' ? { system: p.system_prompt } : {}),
    inputs: parsed.fields,
    ...(pair ? { pair } : {}),
    model: FASTCHAT_MODEL,
  };
  return { file: fileName(p.name, 'judge'), name, text: templateText(fm, body.source), source: where };
}

/** The answer fields of a pair: `answer_a` ↔ `answer_b`, `answer_a_1` ↔ `answer_b_1`, … */
export function pairOf(fields: string[]): { a: string[]; b: string[] } | undefined {
  const a: string[] = [];
  const b: string[] = [];
  for (const f of fields) {
    if (!/(^|_)a(_|$)/.test(f)) continue;
    const other = f.replace(/(^|_)a(_|$)/, '$1b$2');
    if (fields.includes(other)) {
      a.push(f);
      b.push(other);
    }
  }
  return a.length > 0 ? { a, b } : undefined;
}
