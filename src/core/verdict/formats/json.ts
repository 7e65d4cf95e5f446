// `verdict: json` with renamed fields, `values`, a `gate` or `structured` (the plain default JSON reply
// is read by the pointwise and pairwise strategies' own schemas, and described here too).
import { jsonReader } from '../read';
import { verdictField } from '../values';
import type { VerdictFormatRules } from './rules';

export const JSON_FORMAT: VerdictFormatRules = {
  takes: { pattern: false, values: true, fields: true, gate: true, match: false, structured: true },
  reader: jsonReader,
  texts: () => [],
  rule: ({ spec, kind, labels, values }) => {
    if (spec?.fields || spec?.values || spec?.gate || spec?.structured) {
      const field = verdictField(spec, kind, labels !== undefined);
      const gate = spec.gate ? `, and it stands only when the reply's "${spec.gate.field}" is at least ${spec.gate.min} (else the score is ${spec.gate.otherwise})` : '';
      const one = labels ? ` (exactly one of ${labels.map((l) => JSON.stringify(l)).join(', ')})` : '';
      const why = spec.fields?.steps ? `its "${spec.fields.steps}" list of {description, conclusion} steps, one numbered line per step` : `its "${spec.fields?.justification ?? 'justification'}" field`;
      const asked = spec.structured ? ' Asked for with structured output: the JSON schema sent is this reply.' : '';
      return `JSON: the verdict is the reply's "${field}" field${one}${values}${gate}; the justification is ${why} (JSON bare, in a \`\`\`json fence, or the first object in prose).${asked}`;
    }
    return kind === 'pointwise'
      ? 'JSON: the reply must be a JSON object with "justification" and an integer "score" (bare, in a ```json fence, or the first object in prose).'
      : 'JSON: the reply must be a JSON object with "justification", "winner" ("A", "B" or "TIE") and "confidence" (bare, in a ```json fence, or the first object in prose).';
  },
  instruction: (spec, kind, _range, labels) => {
    const field = verdictField(spec, kind, labels !== undefined);
    const written = spec.values ? Object.keys(spec.values) : labels;
    const allowed = written ? ` (one of ${written.map((k) => JSON.stringify(k)).join(', ')})` : '';
    const why = spec.fields?.steps ? `"${spec.fields.steps}" field holds your reasoning as a list of steps, each {"description": "…", "conclusion": "…"},` : `"${spec.fields?.justification ?? 'justification'}" field holds your reasoning`;
    return `Then reply with a JSON object whose ${why} and whose "${field}" field holds your verdict${allowed}.`;
  },
  prompt: { asks: (prompt) => /json/i.test(prompt), shape: () => 'a JSON object' },
  firstRuleNote: () => '',
  check: () => undefined,
};
