// The requests that ask a judge model to write a rubric or evaluation steps for a template's
// criteria (seed 3: per-level descriptions with what sets each level apart, edge cases, scoring
// guidelines; G-Eval-style steps). Pure: the template in, chat messages out.
import type { ChatMessage } from '../judge/transport/types';
import type { IntRange, ParsedTemplate } from '../template/types';

export type Strictness = 'lenient' | 'balanced' | 'strict';
export const STRICTNESS: readonly Strictness[] = ['lenient', 'balanced', 'strict'];
export type GenerateKind = 'rubric' | 'steps';

export interface GenerateOptions {
  /** The field the judged responses come from, e.g. "customer support" or "Python code review". */
  domain?: string;
  strictness: Strictness;
}

/** What generation needs from a template, or why it cannot start. */
export type GenerateInput =
  | { ok: true; criteria: string; scale?: IntRange; metric: string; kind: 'pointwise' | 'pairwise'; description?: string; rubric?: string }
  | { ok: false; code: 'template-invalid' | 'no-criteria' | 'no-scale'; message: string };

export function generateInput(t: ParsedTemplate, what: GenerateKind): GenerateInput {
  if (!t.config) return { ok: false, code: 'template-invalid', message: 'The front matter is missing or invalid; fix it first (name, kind and scale tell the generator what to write).' };
  const criteria = sectionText(t, 'criteria');
  if (!criteria) return { ok: false, code: 'no-criteria', message: 'Write the `# Criteria` section first: the rubric and the steps are generated from it.' };
  const scale = t.config.scale ?? t.config.ranking;
  if (what === 'rubric' && !scale) {
    return { ok: false, code: 'no-scale', message: 'This pairwise template has no score scale (its verdict is A, B or TIE), so there are no levels to describe; generate evaluation steps instead.' };
  }
  const data = t.frontMatter?.data as { description?: unknown } | undefined;
  const rubric = sectionText(t, 'rubric');
  return {
    ok: true,
    criteria,
    metric: t.config.name,
    kind: t.config.kind,
    ...(scale && { scale }),
    ...(typeof data?.description === 'string' && { description: data.description }),
    ...(rubric && { rubric }),
  };
}

/** A section's text without Handlebars comments, trimmed; undefined when empty or absent. */
export function sectionText(t: ParsedTemplate, key: 'criteria' | 'rubric' | 'evaluation_steps'): string | undefined {
  const s = t.sections.find((x) => x.key === key);
  if (!s) return undefined;
  const body = t.text.slice(s.bodyStart, s.bodyEnd).replace(/\{\{!--[\s\S]*?--\}\}|\{\{![\s\S]*?\}\}/g, '').trim();
  return body || undefined;
}

const STRICTNESS_TEXT: Record<Strictness, string> = {
  lenient: 'Be lenient: give the benefit of the doubt, and let the top score allow small slips that do not affect the user.',
  balanced: 'Be balanced: the top score needs a response with no meaningful problem; each lower level adds a clear, observable shortfall.',
  strict: 'Be strict: the top score is only for a flawless response; any factual error or missed requirement caps the score in the lower half.',
};

const SYSTEM = 'You write evaluation rubrics for LLM-as-judge metrics. You are precise and concrete: every level names observable features of a response, never just "good" or "bad". You reply with one JSON object and nothing else.';

function context(input: Extract<GenerateInput, { ok: true }>, options: GenerateOptions): string[] {
  return [
    `Metric: ${input.metric} (${input.kind === 'pointwise' ? 'each response is scored on its own' : 'two responses are compared'})`,
    ...(input.description ? [`Purpose: ${input.description}`] : []),
    ...(options.domain ? [`Domain of the responses: ${options.domain}`] : []),
    '',
    'Criteria, as the template states them:',
    '<criteria>',
    input.criteria,
    '</criteria>',
  ];
}

export function rubricMessages(input: Extract<GenerateInput, { ok: true }>, options: GenerateOptions): ChatMessage[] {
  const scale = input.scale ?? { min: 1, max: 5 };
  const user = [
    ...context(input, options),
    '',
    `Write a rating rubric on the integer scale ${scale.min} to ${scale.max}: exactly one level for each score from ${scale.max} down to ${scale.min}, none skipped.`,
    'For each level give a short label, a concrete description of a response at that level, and what distinguishes it from the neighbouring levels.',
    'Then list edge cases the levels do not settle on their own (and how to score them), and scoring guidelines for choosing between adjacent levels.',
    STRICTNESS_TEXT[options.strictness],
    '',
    'Reply with a JSON object: {"levels": [{"score": <integer>, "label": "...", "description": "...", "distinguishing": "..."}, …], "edge_cases": ["..."], "guidelines": ["..."]}.',
  ];
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user.join('\n') },
  ];
}

export function stepsMessages(input: Extract<GenerateInput, { ok: true }>, options: GenerateOptions): ChatMessage[] {
  const user = [
    ...context(input, options),
    ...(input.rubric ? ['', 'Rubric:', '<rubric>', input.rubric, '</rubric>'] : []),
    '',
    'Write 3 to 6 evaluation steps a judge follows to apply these criteria (G-Eval style): each step one imperative sentence about what to read, check or compare, in order.',
    'The last step tells the judge to write its justification first and only then the verdict.',
    STRICTNESS_TEXT[options.strictness],
    '',
    'Reply with a JSON object: {"steps": ["...", "..."]}.',
  ];
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user.join('\n') },
  ];
}

export function repairInstruction(what: GenerateKind, scale?: IntRange): string {
  return what === 'rubric'
    ? `Give exactly one level per score from ${scale?.max ?? 5} down to ${scale?.min ?? 1}, each with a non-empty label, description and distinguishing text, as {"levels": [...], "edge_cases": [...], "guidelines": [...]}.`
    : 'Give 3 to 6 non-empty steps as {"steps": [...]}.';
}
