// A text verdict format (tagged `[[N]]` / `[[A]]`, or a custom pattern) on top of the pointwise or
// pairwise strategy: the reply is read by the verdict module instead of JSON + zod, the repair
// request asks for the declared format, and a pairwise verdict read from text states no confidence.
import type { TemplateConfig } from '../../template/types';
import { verdictReader, verdictRepair, type VerdictSpec } from '../../verdict';
import { mappedJsonSchema } from './mappedSchema';
import type { CheckOutcome, JudgeStrategy } from './types';

export function withTextVerdict(strategy: JudgeStrategy, config: TemplateConfig, spec: VerdictSpec): JudgeStrategy {
  const read = verdictReader(spec, config.kind, config.scale, config.labels);
  const parse = (text: string): CheckOutcome<Record<string, unknown>> => {
    // NaN, not a number the judge never gave: withoutConfidence writes null in its place.
    const v = read(text);
    if (!v.ok) return v;
    if ('label' in v) return { ok: true, value: { justification: v.justification, label: v.label } };
    return { ok: true, value: 'score' in v ? { justification: v.justification, score: v.score } : { justification: v.justification, winner: v.winner, confidence: Number.NaN } };
  };
  const repair = (error: string) => verdictRepair(error, spec, config.kind, config.scale, config.labels);
  // `structured: true`: the reply under its own field names is asked for by its JSON schema, and read here.
  const asked = spec.format === 'json' && spec.structured === true ? { jsonSchema: mappedJsonSchema(config, spec), structuredParse: true } : {};
  if (config.kind === 'pointwise') return { ...strategy, ...asked, parse, repair };
  return {
    ...strategy,
    ...asked,
    parse,
    repair,
    columns: (judgments, samples) => withoutConfidence(strategy.columns(judgments, samples)),
    errorColumns: (finished) => withoutConfidence(strategy.errorColumns(finished)),
  };
}

/**
 * A text verdict states no confidence, so each pass's is null and so is the verdict's, except where
 * the swap rule sets it: orders that disagree give TIE with confidence 0.5, as for JSON templates.
 * The strategy carries NaN for "not stated"; a mean over a NaN stays NaN and becomes null here.
 */
function withoutConfidence(columns: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...columns };
  if (typeof out.confidence !== 'number' || Number.isNaN(out.confidence)) out.confidence = null;
  if (Array.isArray(out.passes)) out.passes = out.passes.map((p: Record<string, unknown>) => ({ ...p, confidence: null }));
  return out;
}
