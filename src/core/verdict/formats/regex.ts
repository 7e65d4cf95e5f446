// `verdict: {format: regex, pattern}`: a custom pattern with a named group (see ../regex.ts).
import { ambiguousError, pickVerdict } from '../match';
import { allVerdictMatches, compileVerdictPattern, matchVerdict, REGEX_READ_LIMIT } from '../regex';
import { wrap } from '../values';
import type { VerdictFormatRules } from './rules';

export const REGEX_FORMAT: VerdictFormatRules = {
  takes: { pattern: true, values: true, fields: false, gate: false, match: true, structured: false },
  reader: ({ spec, kind, mapped }) => {
    const rule = spec.match;
    const several = rule === 'last' || rule === 'unique';
    const compiled = compileVerdictPattern(spec.pattern ?? '', spec.flags, kind);
    if (!compiled.ok) return () => ({ ok: false, error: compiled.message });
    return (reply) => {
      const m = several ? pickVerdict(allVerdictMatches(compiled.regex, compiled.group, reply), rule, (c) => c.value.trim()) : wrap(matchVerdict(compiled.regex, compiled.group, reply));
      if (!m) return { ok: false, error: `no match for the verdict pattern /${spec.pattern}/` };
      if (!m.ok) return ambiguousError(m.distinct);
      return mapped(m.value.value, reply.slice(0, m.value.index).trim());
    };
  },
  texts: (spec, kind, text) => {
    const compiled = compileVerdictPattern(spec.pattern ?? '', spec.flags, kind);
    return compiled.ok ? allVerdictMatches(compiled.regex, compiled.group, text).map((m) => m.value) : [];
  },
  rule: ({ spec, kind, scale, values }) => {
    const group = kind === 'pointwise' ? 'score' : 'winner';
    const must = values ? `one of the mapped values${values}` : kind === 'pointwise' ? `an integer${scale ? ` from ${scale.min} to ${scale.max}` : ''}` : 'A, B, TIE or C (a tie), any case';
    return `Pattern: the first match of /${spec?.pattern ?? ''}/${spec?.flags ?? ''} in the last ${REGEX_READ_LIMIT.toLocaleString('en')} characters of the reply; its group "${group}" must be ${must}. The text before the match is the justification.`;
  },
  instruction: (spec) => `After your explanation, give your verdict so that it matches the pattern /${spec.pattern ?? ''}/.`,
  // A custom pattern cannot be checked against prose.
  prompt: null,
  firstRuleNote: () => '',
  check: (spec, kind) => {
    if (!spec.pattern) return undefined;
    const checked = compileVerdictPattern(spec.pattern, spec.flags, kind);
    return checked.ok ? undefined : { path: ['verdict', 'pattern'], code: checked.code, message: checked.message };
  },
};
