// The reply schema of a multi-dimension pairwise template. Like ../replySchema.ts, the JSON schema
// for structured output and the generated "Output format" text both derive from the zod schema.
import { fieldLines, outputInstructionText, type SchemaProperties } from '../instruction';
import { z } from 'zod';
import type { TemplateConfig } from '../../../template/types';
import { WINNERS } from '../winners';
import { ruleText } from './rules';
import { dimensionalSpec, quoteList, RULE_IDS, type DimensionalReply, type DimensionalSpec } from './spec';

function verdictSchema(spec: DimensionalSpec, about: string) {
  const [none] = spec.degrees;
  return z.object({
    winner: z.enum(WINNERS).describe(`Which response is better ${about}: "A", "B", or "TIE" when the degree is ${JSON.stringify(none)}.`),
    degree: z
      .enum(spec.degrees as [string, ...string[]])
      .describe(`How much better the winner is, one of ${quoteList(spec.degrees)}.`),
  });
}

function sideSchema<T extends z.ZodType>(value: () => T, what: (side: 'A' | 'B') => string) {
  return z.object({ A: value().describe(what('A')), B: value().describe(what('B')) });
}

/**
 * Keys in reasoning-first order. Rankings are plain integers on purpose: a ranking outside the
 * scale is reported by the `ranking-range` rule, not turned into a parse failure and a repair.
 */
export function dimensionalReplySchema(config: TemplateConfig): z.ZodType<DimensionalReply> {
  const spec = dimensionalSpec(config);
  const { min, max } = spec.ranking;
  const names = spec.dimensions.map((d) => d.name);
  const dimensionShape = Object.fromEntries(
    spec.dimensions.map((d) => [d.name, verdictSchema(spec, `on ${d.name}`).describe(d.description)]),
  );
  const schema = z.looseObject({
    justification: z
      .string()
      .describe('Your reasoning, comparing both responses dimension by dimension in priority order, written before any verdict.'),
    dimensions: z.object(dimensionShape).describe(`One verdict per dimension, in priority order: ${quoteList(names, 'then')}.`),
    ranking: sideSchema(
      () => z.number().int(),
      (side) => `Absolute quality of response ${side}, an integer from ${min} to ${max}.`,
    ).describe(`Absolute quality of each response on the ${min}-${max} ranking scale.`),
    deflection: sideSchema(
      () => z.boolean(),
      (side) => `true when response ${side} declines or deflects the request.`,
    ).describe('Whether each response declines or deflects the request instead of answering it.'),
    overall: verdictSchema(spec, 'overall').describe(
      'The overall preference: it follows the highest-priority dimension that is not a tie and agrees with the rankings.',
    ),
  });
  return schema as unknown as z.ZodType<DimensionalReply>;
}

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** Closes every object (OpenAI strict mode) and drops zod's ±MAX_SAFE_INTEGER bounds, which only add noise. */
function tighten(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(tighten);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  if (obj.type === 'object' || 'properties' in obj) obj.additionalProperties = false;
  if (obj.type === 'integer' && obj.minimum === -SAFE_INT && obj.maximum === SAFE_INT) {
    delete obj.minimum;
    delete obj.maximum;
  }
  for (const value of Object.values(obj)) tighten(value);
}

/** JSON schema for `response_format: {type: "json_schema"}`, strict-mode compatible at every level. */
export function dimensionalJsonSchema(config: TemplateConfig): Record<string, unknown> {
  const schema = z.toJSONSchema(dimensionalReplySchema(config), { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  tighten(schema);
  return schema;
}

function exampleReply(spec: DimensionalSpec): string {
  const { min, max } = spec.ranking;
  const verdict = '{"winner": "A" | "B" | "TIE", "degree": "<degree>"}';
  const dims = spec.dimensions.map((d) => `${JSON.stringify(d.name)}: ${verdict}`).join(', ');
  return (
    `{"justification": "<your reasoning>", "dimensions": {${dims}}, ` +
    `"ranking": {"A": <integer ${min}-${max}>, "B": <integer ${min}-${max}>}, ` +
    `"deflection": {"A": true | false, "B": true | false}, "overall": ${verdict}}`
  );
}

/** The instruction appended when a multi-dimension template has no `Output format` section. */
export function dimensionalOutputInstruction(config: TemplateConfig): string {
  const spec = dimensionalSpec(config);
  // Each dimension's description is what the judge needs to tell them apart.
  const fields = fieldLines(dimensionalJsonSchema(config).properties as SchemaProperties, ['dimensions']);
  const rules = [
    `Every "winner" is "A", "B" or "TIE"; every "degree" is one of ${quoteList(spec.degrees)}.`,
    'Your reply must follow these consistency rules:',
    ...RULE_IDS.map((id) => `- ${ruleText(id, spec)}`),
  ];
  return outputInstructionText(fields, exampleReply(spec), rules);
}
