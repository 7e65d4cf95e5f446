// `verdict: prometheus`: Prometheus 2's `Feedback: … [RESULT] N` or `[RESULT] A|B` (see ../prometheus.ts).
import { ambiguousError, pickVerdict } from '../match';
import { prometheusMarks, prometheusVerdict } from '../prometheus';
import { score } from '../values';
import type { VerdictFormatRules } from './rules';

export const PROMETHEUS_FORMAT: VerdictFormatRules = {
  takes: { pattern: false, values: false, fields: false, gate: false, match: true, structured: false },
  reader: ({ spec, kind, range }) => {
    const rule = spec.match;
    const several = rule === 'last' || rule === 'unique';
    return (reply) => {
      const m = pickVerdict(prometheusMarks(reply, kind, several ? undefined : 1), rule, (c) => c.text.toUpperCase());
      if (!m) return { ok: false, error: kind === 'pointwise' ? 'no verdict in the form "[RESULT] N" was found' : 'no verdict in the form "[RESULT] A" or "[RESULT] B" was found' };
      if (!m.ok) return ambiguousError(m.distinct);
      const v = prometheusVerdict(reply, m.value);
      if (kind === 'pointwise') return score(v.text, range, v.feedback);
      return { ok: true, winner: v.text.toUpperCase() === 'A' ? 'A' : 'B', justification: v.feedback };
    };
  },
  texts: (_spec, kind, text) => prometheusMarks(text, kind).map((m) => `[RESULT] ${m.text}`),
  rule: ({ kind, scale }) => {
    const r = scale ?? { min: 1, max: 5 };
    const what = kind === 'pointwise' ? `an integer from ${r.min} to ${r.max} (absolute grading)` : 'A or B (relative grading)';
    return `Prometheus: the verdict is the first "[RESULT]" followed by ${what}; the text before it, without a leading "Feedback:", is the justification.`;
  },
  instruction: (_spec, kind, r) =>
    kind === 'pointwise'
      ? `Answer in this form: "Feedback: (your feedback on the criteria) [RESULT] (an integer from ${r.min} to ${r.max})".`
      : 'Answer in this form: "Feedback: (your feedback comparing the two responses) [RESULT] (A or B)".',
  prompt: {
    asks: (prompt) => prompt.includes('[RESULT]'),
    shape: (kind) => (kind === 'pointwise' ? '"[RESULT] N" after its feedback' : '"[RESULT] A" or "[RESULT] B" after its feedback'),
  },
  firstRuleNote: () => '',
  check: () => undefined,
};
