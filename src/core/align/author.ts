// What align asks the author model (askJson, the plumbing Generate Rubric uses): the reasoning
// behind a human label, for an example without a reviewer comment; and a clarification of the
// rubric or the evaluation steps drawn from the pattern of train disagreements. Only train rows
// are ever shown to it; its text is checked against the held-out rows afterwards all the same.
import { z } from 'zod';
import { askJson, type AskDeps, type AskOutcome } from '../generate/ask';
import { sectionText } from '../generate/prompt';
import { jsonSchemaOf } from '../generate/schema';
import type { ChatMessage } from '../judge/transport/types';
import type { ParsedTemplate } from '../template/types';
import type { Disagreement } from './examples';

const SYSTEM =
  'You help calibrate an LLM-as-judge metric against human labels. You write general, concrete guidance a judge can apply to new cases. ' +
  'You never copy text from the cases you are shown. You reply with one JSON object and nothing else.';

const FIELD_CHARS = 600;

function clip(text: string, n = FIELD_CHARS): string {
  return text.length > n ? `${text.slice(0, n)}… (cut)` : text;
}

function fieldValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v) ?? '';
}

function templateContext(t: ParsedTemplate): string[] {
  const parts: string[] = [`Metric: ${t.config?.name ?? '?'} (${t.config?.kind === 'pairwise' ? 'two responses are compared: A, B or TIE' : `scored on ${t.config?.scale?.min ?? 1}–${t.config?.scale?.max ?? 5}`})`];
  for (const [key, title] of [['criteria', 'Criteria'], ['rubric', 'Rubric'], ['evaluation_steps', 'Evaluation steps']] as const) {
    const body = sectionText(t, key);
    if (body) parts.push('', `${title}:`, `<${key}>`, clip(body, 4000), `</${key}>`);
  }
  return parts;
}

function caseLines(fields: readonly string[], record: Record<string, unknown>): string[] {
  return fields.flatMap((f) => [`<${f}>`, clip(fieldValue(record[f])), `</${f}>`]);
}

export const justificationSchema = z.object({ justification: z.string().trim().min(1, 'must not be empty').max(800, 'keep it under 800 characters') }).strict();

/** The reasoning that leads to the human's label on one train row. */
export async function draftJustification(t: ParsedTemplate, fields: readonly string[], d: Disagreement, deps: AskDeps): Promise<AskOutcome<z.infer<typeof justificationSchema>>> {
  const verdict = t.config?.kind === 'pairwise' ? `winner ${String(d.row.label)}` : `score ${String(d.row.label)}`;
  const user = [
    ...templateContext(t),
    '',
    'A case a human reviewer judged:',
    ...caseLines(fields, d.row.record),
    '',
    `The reviewer's verdict is ${verdict}. Write the justification a careful judge following the criteria and rubric above gives for exactly that verdict:`,
    'two or three sentences, about what the case shows, written as the judge (do not mention a reviewer or that the verdict was given).',
    '',
    'Reply with a JSON object: {"justification": "..."}.',
  ];
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user.join('\n') },
  ];
  return askJson(
    { messages, schema: justificationSchema, jsonSchema: jsonSchemaOf(justificationSchema), schemaName: 'judge_studio_align_justification', repairInstruction: 'Give {"justification": "..."} with two or three sentences.', what: 'justification', cacheTag: '#align' },
    deps,
  );
}

export const clarificationSchema = z
  .object({
    section: z.enum(['rubric', 'evaluation_steps']).describe('Where the clarifications go.'),
    clarifications: z.array(z.string().trim().min(1, 'must not be empty').max(400, 'keep each under 400 characters')).min(1, 'give at least one').max(4, 'give at most four'),
  })
  .strict();
export type Clarification = z.infer<typeof clarificationSchema>;

export interface Pattern {
  /** "humans 1, judge 0: 7 rows", most frequent first. */
  confusions: string[];
  positionInconsistent: number;
  /** Criteria templates: the criterion whose scores disagree with the humans most, with its count. */
  worstCriterion?: { name: string; rows: number };
  total: number;
}

/** A clarification of the rubric or the steps that would settle rows like the disagreements. */
export async function draftClarification(t: ParsedTemplate, fields: readonly string[], pattern: Pattern, shown: readonly Disagreement[], deps: AskDeps): Promise<AskOutcome<Clarification>> {
  const pairwise = t.config?.kind === 'pairwise';
  const user = [
    ...templateContext(t),
    '',
    `On ${pattern.total} labelled training case(s) the judge disagreed with the human reviewers:`,
    ...pattern.confusions.map((c) => `- ${c}`),
    ...(pairwise && pattern.positionInconsistent > 0 ? [`- ${pattern.positionInconsistent} of them changed verdict when the two responses swapped places`] : []),
    ...(pattern.worstCriterion ? [`- the criterion that disagrees most with the humans: ${pattern.worstCriterion.name} (${pattern.worstCriterion.rows} row(s))`] : []),
    '',
    'Some of those cases, each with the human verdict, the judge verdict and the judge reasoning:',
    ...shown.flatMap((d, i) => [
      `Case ${i + 1}: human ${String(d.row.label)}, judge ${String(d.verdict.label)}`,
      ...caseLines(fields, d.row.record),
      ...(d.verdict.justification ? [`<judge_reasoning>${clip(d.verdict.justification, 400)}</judge_reasoning>`] : []),
      '',
    ]),
    'Write one to four clarifications to add to the rubric levels or to the evaluation steps, so that a judge applying them agrees with the human verdicts on cases like these.',
    'Each is one general rule in one sentence. Do not quote or paraphrase the cases: they are examples of a pattern, not text to copy.',
    '',
    'Reply with a JSON object: {"section": "rubric" or "evaluation_steps", "clarifications": ["...", "..."]}.',
  ];
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user.join('\n') },
  ];
  return askJson(
    {
      messages,
      schema: clarificationSchema,
      jsonSchema: jsonSchemaOf(clarificationSchema),
      schemaName: 'judge_studio_align_rubric',
      repairInstruction: 'Give {"section": "rubric" or "evaluation_steps", "clarifications": [one to four non-empty sentences]}.',
      what: 'rubric clarification',
      cacheTag: '#align',
    },
    deps,
  );
}

/** One Markdown bullet on one line that the rubric parser will not read as a level, with `{{` kept literal. */
export function clarificationBullet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\{\{/g, '\\{{');
  // A line that starts like a level ("3", "A:", "TIE =") would be read as one.
  return `- ${/^[-*+#>]?\s*(\d|(A|B|TIE)\s*[:=).-])/i.test(line) ? `Note: ${line}` : line}`;
}

export const CLARIFICATIONS_HEADING = 'Clarifications drawn from labelled disagreements:';

/** The template with the clarifications appended to the section's body. */
export function withClarification(t: ParsedTemplate, c: Clarification): { ok: true; text: string } | { ok: false; error: string } {
  const section = t.sections.find((s) => s.key === c.section);
  if (!section) return { ok: false, error: `the template has no ${c.section === 'rubric' ? 'Rubric' : 'Evaluation steps'} section to clarify` };
  let end = section.bodyEnd;
  while (end > section.bodyStart && /\s/.test(t.text[end - 1] ?? '')) end--;
  const block = `\n\n${CLARIFICATIONS_HEADING}\n\n${c.clarifications.map(clarificationBullet).join('\n')}\n`;
  const rest = t.text.slice(section.bodyEnd);
  return { ok: true, text: `${t.text.slice(0, end)}${block}${rest.length > 0 ? '\n' : ''}${rest}` };
}
