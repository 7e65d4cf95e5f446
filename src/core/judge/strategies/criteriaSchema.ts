// The reply schema of a multi-criterion pointwise template. As in replySchema.ts, the JSON schema
// sent as structured output and the generated "Output format" text both derive from this zod schema.
import { z } from 'zod';
import { normalisedWeights } from '../../template/criteria';
import type { Criterion, TemplateConfig } from '../../template/types';

export interface CriterionVerdict {
  evidence: string[];
  justification: string;
  score: number;
  improvement: string;
}

export interface CriteriaReply {
  criteria: Record<string, CriterionVerdict>;
  summary: string;
  [extra: string]: unknown;
}

export function isMultiCriterion(config: TemplateConfig): config is TemplateConfig & { criteria: Criterion[] } {
  return config.kind === 'pointwise' && Array.isArray(config.criteria) && config.criteria.length > 0;
}

function percent(w: number): string {
  return `${Math.round(w * 1000) / 10}%`;
}

/**
 * Reasoning first: per criterion the evidence and the justification come before its score, and
 * the summary after every criterion. The criteria object is strict: a reply that leaves one out
 * or adds one it was not asked for is invalid (repaired once, then a failed row), never a partial score.
 */
export function criteriaReplySchema(config: TemplateConfig): z.ZodType<CriteriaReply> {
  const { min, max } = config.scale ?? { min: 1, max: 5 };
  const criteria = config.criteria ?? [];
  const weights = normalisedWeights(criteria);
  const shape = Object.fromEntries(
    criteria.map((c, i) => [
      c.name,
      z
        .object({
          evidence: z.array(z.string()).describe('Quotes from the response, or concrete observations about it, that bear on this criterion.'),
          justification: z.string().describe('Why the evidence earns this score under the criterion\'s rubric, written before the score.'),
          score: z.number().int().min(min).max(max).describe(`An integer from ${min} to ${max} on this criterion's rubric.`),
          improvement: z.string().describe('One specific change that would raise this score.'),
        })
        .describe(`${c.description} (weight ${percent(weights[i] ?? 0)})`),
    ]),
  );
  const schema = z.looseObject({
    criteria: z.strictObject(shape).describe(`One entry per criterion, in this order: ${criteria.map((c) => JSON.stringify(c.name)).join(', ')}.`),
    summary: z.string().describe('A short overall assessment, written after every criterion.'),
  });
  return schema as unknown as z.ZodType<CriteriaReply>;
}

function tighten(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(tighten);
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  if (obj.type === 'object' || 'properties' in obj) obj.additionalProperties = false;
  for (const value of Object.values(obj)) tighten(value);
}

/** JSON schema for `response_format: {type: "json_schema"}`, strict-mode compatible at every level. */
export function criteriaJsonSchema(config: TemplateConfig): Record<string, unknown> {
  const schema = z.toJSONSchema(criteriaReplySchema(config), { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  tighten(schema);
  return schema;
}

type Props = Record<string, { description?: string; properties?: Props }>;

/** The instruction appended when a multi-criterion template has no `Output format` section. */
export function criteriaOutputInstruction(config: TemplateConfig): string {
  const { min, max } = config.scale ?? { min: 1, max: 5 };
  const props = (criteriaJsonSchema(config).properties ?? {}) as Props;
  const lines: string[] = [];
  for (const [key, p] of Object.entries(props)) {
    lines.push(`- "${key}": ${p.description ?? ''}`.trimEnd());
    if (key !== 'criteria') continue;
    for (const [name, c] of Object.entries(p.properties ?? {})) {
      lines.push(`  - "${name}": ${c.description ?? ''}`.trimEnd());
      for (const [field, f] of Object.entries(c.properties ?? {})) lines.push(`    - "${field}": ${f.description ?? ''}`.trimEnd());
    }
  }
  const entry = `{"evidence": ["<quote or observation>"], "justification": "<reasoning>", "score": <integer ${min}-${max}>, "improvement": "<one change>"}`;
  const names = (config.criteria ?? []).map((c) => `${JSON.stringify(c.name)}: ${entry}`).join(', ');
  return [
    '# Output format',
    '',
    'Reply with a single JSON object and nothing else, with these fields in this order:',
    ...lines,
    '',
    'Score every criterion on its own rubric; give every criterion listed and no other.',
    '',
    `Example shape: {"criteria": {${names}}, "summary": "<overall assessment>"}`,
  ].join('\n');
}
