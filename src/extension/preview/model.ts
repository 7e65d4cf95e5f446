// The preview's content as a pure function: template + validation + sample row -> the message
// the webview shows. No `vscode` here, so it is unit-tested and benchmarked in plain node.
import type { Diagnostic } from '../../core/diagnostics';
import type { DatasetRecord } from '../../core/dataset/types';
import { renderTemplate, type ParsedTemplate, type RenderedPrompt } from '../../core/template';
import { labelRule, sourceRule, verdictRule } from '../../core/verdict';
import type { HostMessage, PreviewMessage, Problem, SampleInfo, SwapOrder, TemplateInfo } from '../../protocol/preview';

/** The chosen dataset row, or why there is none (codes: no-dataset, dataset-unreadable, row-missing, row-skipped). */
export type SampleOutcome = { ok: true; record: DatasetRecord } | { ok: false; code: string; message: string };

export interface PreviewInput {
  uri: string;
  file: string;
  template: ParsedTemplate;
  /** validateTemplate(template), computed once by the caller (it also feeds the editor). */
  diagnostics: Diagnostic[];
  sample: SampleInfo;
  record: SampleOutcome;
}

export function buildPreview(input: PreviewInput): HostMessage {
  const { template: t, sample } = input;
  const template: TemplateInfo = { uri: input.uri, file: input.file, name: t.config?.name ?? null, kind: t.config?.kind ?? null };
  const errors = input.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    return { type: 'errors', template, sample, title: `The template has ${plural(errors.length, 'error')}; fix ${errors.length === 1 ? 'it' : 'them'} to see the rendered prompt.`, errors: errors.map(toProblem) };
  }
  if (!input.record.ok) {
    return { type: 'errors', template, sample, title: 'There is no dataset row to render.', errors: [{ code: input.record.code, severity: 'error', message: input.record.message }] };
  }
  const record = input.record.record;
  const pairwise = t.config?.kind === 'pairwise';
  const plan: { label: SwapOrder['label']; swap: boolean; sent: boolean }[] = pairwise
    ? [
        { label: 'AB', swap: false, sent: true },
        { label: 'BA', swap: true, sent: t.config?.model.swap !== false },
      ]
    : [{ label: 'single', swap: false, sent: true }];
  const orders: SwapOrder[] = [];
  for (const step of plan) {
    const outcome = renderTemplate(t, record, { row: sample.row, swap: step.swap, values: true });
    if (!outcome.ok) {
      const problem: Problem = { code: outcome.field ? 'missing-field' : 'render-failed', severity: 'error', message: outcome.error };
      return { type: 'errors', template, sample, title: `Row ${sample.row} cannot be rendered with this template.`, errors: [problem] };
    }
    orders.push({ label: step.label, sent: step.sent, messages: toMessages(outcome.prompt) });
  }
  const c = t.config;
  const rule = c?.labels && !c.verdict?.fields ? { verdictRule: labelRule(c.labels, c.passing_labels) } : c?.verdict ? { verdictRule: verdictRule(c.verdict, c.kind, c.scale, c.labels, c.passing_labels) } : {};
  const source = c?.source ? { sourceMapping: sourceRule(c.source) } : {};
  return { type: 'render', template, sample, orders, ...rule, ...source, diagnostics: input.diagnostics.map(toProblem) };
}

function toMessages(prompt: RenderedPrompt): PreviewMessage[] {
  return prompt.messages.map((m, i) => ({
    role: m.role,
    content: m.content,
    chars: countChars(m.content),
    tokens: estimateTokens(m.content),
    values: prompt.values.filter((v) => v.messageIndex === i && v.end <= m.content.length).map(({ name, start, end }) => ({ name, start, end })),
  }));
}

function toProblem(d: Diagnostic): Problem {
  return { code: d.code, severity: d.severity, message: d.message, line: d.line, column: d.column };
}

/** Unicode code points, which is what a reader means by characters (an emoji is one). */
export function countChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) n++;
    else {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      n++;
    }
  }
  return n;
}

/** A rough token estimate without a tokenizer: about four characters per token for English text. */
export function estimateTokens(text: string): number {
  return Math.ceil(countChars(text) / 4);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
