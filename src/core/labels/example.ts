// "Add as Example": a reviewed row becomes a few-shot entry in the template's `# Examples`
// section: its inputs, then the human label as the expected reply in a ```json fence, valid
// against the template's reply schema. Dataset text is hostile to a template: `{{` would become
// a placeholder and a line "# Rubric" a new section, so `{{` is escaped for Handlebars and
// multi-line values are indented as a Markdown code block.
import { replySchema, describeIssues } from '../judge/strategies/replySchema';
import type { DatasetRecord } from '../dataset/types';
import type { ParsedTemplate } from '../template/types';
import type { LabelValue } from './types';

export interface ExampleEdit {
  /** Offset in the template text where `text` is inserted. */
  offset: number;
  text: string;
  /** Offsets of the justification inside `text`, so the editor can select it for rewriting. */
  justification: { start: number; end: number };
}

export type ExampleOutcome = { ok: true; edit: ExampleEdit } | { ok: false; error: string };

export const PLACEHOLDER_JUSTIFICATION = 'A human reviewer gave this label; replace this with the reasoning that leads to it.';

export function exampleEdit(t: ParsedTemplate, record: DatasetRecord, fields: readonly string[], label: LabelValue, comment: string | undefined): ExampleOutcome {
  const config = t.config;
  if (!config) return { ok: false, error: 'the template has no valid front matter; fix it first' };
  if (config.dimensions && config.dimensions.length > 0) return { ok: false, error: 'Add as Example supports single-verdict templates; this one judges several dimensions' };
  // A JSON fence cannot hold Handlebars' `\{{` escape (it is not valid JSON): break the braces apart instead.
  const justification = (comment?.trim() || PLACEHOLDER_JUSTIFICATION).replace(/\{\{/g, '{ {').replace(/\}\}/g, '} }');
  const reply: Record<string, unknown> =
    config.kind === 'pointwise' ? { justification, score: label } : { justification, winner: label, confidence: 1 };
  const checked = replySchema(config).safeParse(reply);
  if (!checked.success) return { ok: false, error: `the label does not fit the template's reply: ${describeIssues(checked.error)}` };

  const examples = t.sections.find((s) => s.key === 'examples');
  const count = t.examples.length;
  const lines: string[] = [];
  const header = examples ? [] : ['# Examples', ''];
  lines.push(...header, `## Example ${count + 1}`, '');
  for (const field of fields) lines.push(...fieldLines(field, record[field]));
  lines.push('', '```json');
  // The spacing of the hand-written examples: `{"justification": "…", "score": 2}`.
  const json = `{${Object.entries(reply).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;
  lines.push(json, '```', '');
  const text = lines.join('\n');
  const jsonStart = text.indexOf(json);
  const quoted = JSON.stringify(justification);
  const start = jsonStart + json.indexOf(quoted) + 1;

  let offset: number;
  if (examples) offset = trimBack(t.text, examples.bodyEnd, examples.bodyStart);
  else {
    // No examples yet: after the evaluation steps (the order the design's sections come in).
    const steps = t.sections.find((s) => s.key === 'evaluation_steps');
    offset = steps ? trimBack(t.text, steps.bodyEnd, steps.bodyStart) : t.text.length;
  }
  const before = t.text.slice(0, offset);
  const lead = before.length === 0 || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  return { ok: true, edit: { offset, text: lead + text, justification: { start: lead.length + start, end: lead.length + start + quoted.length - 2 } } };
}

/** The end of a section's text without its trailing blank lines, keeping one line break. */
function trimBack(text: string, end: number, floor: number): number {
  let i = end;
  while (i > floor && /\s/.test(text[i - 1] ?? '')) i--;
  if (text[i] === '\r') i++;
  if (text[i] === '\n') i++;
  return i;
}

function fieldLines(field: string, value: unknown): string[] {
  const name = field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  const safe = escapeBraces(text);
  if (!/[\r\n]/.test(safe)) return [`${name}: ${safe}`];
  return [`${name}:`, '', ...safe.split(/\r?\n/).map((l) => (l === '' ? '' : `    ${l}`)), ''];
}

/** `{{` → `\{{`: Handlebars shows it literally instead of reading a placeholder. */
function escapeBraces(text: string): string {
  return text.replace(/\{\{/g, '\\{{');
}
