// The reply of a categorical template (`labels:`): reasoning first, then one of the labels. The zod
// schema, the JSON schema sent as structured output and the generated instruction come from one
// definition, as for the other kinds.
import { z } from 'zod';
import type { TemplateConfig } from '../../template/types';
import { fieldLines, outputInstructionText, type SchemaProperties } from './instruction';

export interface CategoricalReply {
  justification: string;
  label: string;
  [extra: string]: unknown;
}

/** A pointwise template whose verdict is one of a list of labels. */
export function isCategorical(config: Pick<TemplateConfig, 'kind' | 'labels'>): config is TemplateConfig & { labels: string[] } {
  return config.kind === 'pointwise' && Array.isArray(config.labels) && config.labels.length > 0;
}

export function categoricalReplySchema(labels: readonly string[]) {
  const [first, ...rest] = labels;
  return z
    .object({
      justification: z.string().describe('Your reasoning, citing evidence from the input, written before the label.'),
      label: z.enum([first ?? '', ...rest] as [string, ...string[]]).describe(`Exactly one of: ${labels.map((l) => JSON.stringify(l)).join(', ')}.`),
    })
    .passthrough();
}

export function categoricalJsonSchema(labels: readonly string[]): Record<string, unknown> {
  const schema = z.toJSONSchema(categoricalReplySchema(labels), { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  schema.additionalProperties = false;
  return schema;
}

export function categoricalOutputInstruction(labels: readonly string[]): string {
  const props = categoricalJsonSchema(labels).properties as SchemaProperties;
  const example = `{"justification": "<your reasoning>", "label": ${labels.map((l) => JSON.stringify(l)).join(' | ')}}`;
  return outputInstructionText(fieldLines(props), example, ['The label must be written exactly as listed.']);
}
