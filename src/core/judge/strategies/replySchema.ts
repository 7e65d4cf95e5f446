// One zod schema per template kind validates judge replies; the JSON schema sent as structured
// output and the generated "Output format" instruction are both derived from it, so they cannot drift.
import { z } from 'zod';
import type { TemplateConfig } from '../../template/types';

import { criteriaJsonSchema, criteriaOutputInstruction, criteriaReplySchema, isMultiCriterion } from './criteriaSchema';
import { dimensionalJsonSchema, dimensionalOutputInstruction, dimensionalReplySchema, isDimensional } from './dimensions';
import { fieldLines, outputInstructionText, type SchemaProperties } from './instruction';
import { WINNERS, type Winner } from './winners';
import { isTextFormat, verdictInstruction } from '../../verdict';
import { categoricalJsonSchema, categoricalOutputInstruction, categoricalReplySchema, isCategorical } from './categoricalSchema';

export { WINNERS, type Winner } from './winners';

export interface PointwiseReply {
  justification: string;
  score: number;
  [extra: string]: unknown;
}

export interface PairwiseReply {
  justification: string;
  winner: Winner;
  confidence: number;
  [extra: string]: unknown;
}

export function pointwiseSchema(min: number, max: number, continuous = false) {
  const score = continuous ? z.number().min(min).max(max).describe(`A number from ${min} to ${max}.`) : z.number().int().min(min).max(max).describe(`An integer from ${min} to ${max}.`);
  return z
    .object({
      justification: z.string().describe('Your reasoning, citing evidence from the response, written before the score.'),
      score,
    })
    .passthrough();
}

export const pairwiseSchema = z
  .object({
    justification: z.string().describe('Your reasoning, comparing both responses, written before the verdict.'),
    winner: z.enum(WINNERS).describe('"A", "B", or "TIE" when the responses are genuinely equivalent.'),
    confidence: z.number().min(0).max(1).describe('How sure you are, from 0 to 1.'),
  })
  .passthrough();

/** The schema a reply of this template must satisfy. */
export function replySchema(config: TemplateConfig): z.ZodType<Record<string, unknown>> {
  if (isDimensional(config)) return dimensionalReplySchema(config) as unknown as z.ZodType<Record<string, unknown>>;
  if (isMultiCriterion(config)) return criteriaReplySchema(config) as unknown as z.ZodType<Record<string, unknown>>;
  if (isCategorical(config)) return categoricalReplySchema(config.labels);
  if (config.kind === 'pointwise') {
    const scale = config.scale ?? { min: 1, max: 5 };
    return pointwiseSchema(scale.min, scale.max, config.scale?.continuous === true);
  }
  return pairwiseSchema;
}

/** JSON schema for `response_format: {type: "json_schema"}`: strict-mode compatible (no extra keys). */
export function replyJsonSchema(config: TemplateConfig): Record<string, unknown> {
  if (isDimensional(config)) return dimensionalJsonSchema(config);
  if (isMultiCriterion(config)) return criteriaJsonSchema(config);
  if (isCategorical(config)) return categoricalJsonSchema(config.labels);
  const schema = z.toJSONSchema(replySchema(config), { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  schema.additionalProperties = false;
  return schema;
}

/** A readable example reply in key order (reasoning first). */
function exampleReply(config: TemplateConfig): string {
  if (config.kind === 'pointwise') {
    const scale = config.scale ?? { min: 1, max: 5 };
    return `{"justification": "<your reasoning>", "score": <${scale.continuous ? 'number' : 'integer'} ${scale.min}-${scale.max}>}`;
  }
  return '{"justification": "<your reasoning>", "winner": "A" | "B" | "TIE", "confidence": <number 0-1>}';
}

/** The instruction appended when a template has no `Output format` section. */
export function outputInstruction(config: TemplateConfig): string {
  if (isDimensional(config)) return dimensionalOutputInstruction(config);
  if (isMultiCriterion(config)) return criteriaOutputInstruction(config);
  if (isTextFormat(config.verdict)) return verdictInstruction(config.verdict, config.kind, config.scale, config.labels);
  if (isCategorical(config)) return categoricalOutputInstruction(config.labels);
  return outputInstructionText(fieldLines(replyJsonSchema(config).properties as SchemaProperties), exampleReply(config));
}

/** Readable zod issues for a repair request or a row error, e.g. `score: must be <= 5`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join('.') : '(reply)'}: ${i.message}`)
    .join('; ');
}
