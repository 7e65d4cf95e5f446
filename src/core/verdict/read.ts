// Reads a `json` verdict (renamed fields, `values`, a `gate`, `steps`) out of a reply: the one JSON
// verdict reader outside the engine, so JSON is extracted the engine's way (pickJsonVerdict).
import { pickJsonVerdict } from '../judge/strategies/extract';
import type { ReadContext } from './formats/rules';
import type { TextVerdict } from './types';
import { gateValue, score, stepsText, verdictField } from './values';

/** The reader of a `json` verdict spec (the plain default reply is read by the strategies' own schemas). */
export function jsonReader({ spec, kind, range, categorical, mapped }: ReadContext): (reply: string) => TextVerdict {
  const field = verdictField(spec, kind, categorical);
  const steps = spec.fields?.steps;
  const why = steps ?? spec.fields?.justification ?? 'justification';
  // promptfoo's threshold: a score counts only when its gate field reaches the minimum.
  const gated = (obj: Record<string, unknown>, v: string, justification: string): TextVerdict => {
    if (!spec.gate || kind !== 'pointwise') return mapped(v, justification);
    const g = gateValue(obj[spec.gate.field]);
    if (g === undefined) return { ok: false, error: `the reply has no numeric "${spec.gate.field}" field, which the verdict needs (it counts only when "${spec.gate.field}" is at least ${spec.gate.min})` };
    const verdict = mapped(v, justification);
    if (!verdict.ok || g >= spec.gate.min) return verdict;
    return score(String(spec.gate.otherwise), range, justification);
  };
  return (reply) => {
    const picked = pickJsonVerdict(
      reply,
      (value): { ok: true; value: TextVerdict & { ok: true } } | { ok: false; error: string } => {
        const obj = value as Record<string, unknown> | null;
        if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { ok: false, error: 'the reply is not a JSON object' };
        const v = obj[field];
        if (v === undefined || v === null || typeof v === 'object') return { ok: false, error: `the reply has no "${field}" field` };
        const j = obj[why];
        let justification = typeof j === 'string' ? j : '';
        if (steps !== undefined) {
          const joined = stepsText(j);
          if (joined === undefined) return { ok: false, error: `the reply's "${steps}" field is not a list of steps, each {"description": "…", "conclusion": "…"}` };
          justification = joined;
        }
        const read = gated(obj, String(v), justification);
        return read.ok ? { ok: true, value: read } : read;
      },
      (v) => ('score' in v ? String(v.score) : 'label' in v ? v.label : v.winner),
    );
    return picked.ok ? picked.value : picked;
  };
}
