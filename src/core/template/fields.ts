// Which dataset fields a template may use, and which it must use, per kind.
import type { ParsedTemplate, TemplateConfig } from './types';

export const STANDARD_FIELDS = {
  pointwise: ['prompt', 'response', 'reference', 'context'],
  pairwise: ['prompt', 'response_a', 'response_b', 'baseline_model_response', 'response', 'reference', 'context'],
} as const;

/** Short descriptions for completion and hover. */
export const FIELD_DOCS: Record<string, string> = {
  prompt: 'The input the model under test was given.',
  response: 'The response being judged (pointwise), or slot B of the Vertex AI pair (pairwise).',
  response_a: 'The first response of the pair (slot A).',
  response_b: 'The second response of the pair (slot B).',
  baseline_model_response: 'Vertex AI pair: the baseline response, slot A.',
  reference: 'A reference answer to compare against.',
  context: 'Extra context given to the model under test (e.g. retrieved documents).',
};

export function knownFields(config: TemplateConfig): string[] {
  return [...new Set([...STANDARD_FIELDS[config.kind], ...(config.inputs ?? [])])];
}

/** Top-level fields the body reads (placeholders outside context-changing blocks). */
export function usedFields(t: ParsedTemplate): Set<string> {
  return new Set(t.placeholders.filter((p) => !p.inBlock && p.head).map((p) => p.head));
}

export type PairStyle = 'ab' | 'vertex';

/** Which pair of slots a pairwise template fills: response_a/_b, or Vertex's baseline/response. */
export function pairStyle(t: ParsedTemplate): PairStyle {
  const used = usedFields(t);
  return used.has('baseline_model_response') && !used.has('response_a') && !used.has('response_b') ? 'vertex' : 'ab';
}

export function pairFields(style: PairStyle): [string, string] {
  return style === 'vertex' ? ['baseline_model_response', 'response'] : ['response_a', 'response_b'];
}
