// `verdict: tagged`: FastChat's `[[N]]` (else `[N]`) score, or `[[A]]`/`[[B]]`/`[[C]]` (see ../tagged.ts).
import { ambiguousError, pickVerdict } from '../match';
import { allTaggedNumbers, allTaggedWinners, findTaggedNumber, findTaggedWinner } from '../tagged';
import { score, wrap } from '../values';
import type { VerdictFormatRules } from './rules';

export const TAGGED_FORMAT: VerdictFormatRules = {
  takes: { pattern: false, values: false, fields: false, gate: false, match: true, structured: false },
  reader: ({ spec, kind, range }) => {
    const rule = spec.match;
    const several = rule === 'last' || rule === 'unique';
    if (kind === 'pointwise') {
      return (reply) => {
        const n = several ? pickVerdict(allTaggedNumbers(reply), rule, (c) => c.text) : wrap(findTaggedNumber(reply));
        if (!n) return { ok: false, error: 'no verdict in the form [[N]] (or [N]) was found' };
        if (!n.ok) return ambiguousError(n.distinct);
        return score(n.value.text, range, reply.slice(0, n.value.index).trim());
      };
    }
    return (reply) => {
      const w = several ? pickVerdict(allTaggedWinners(reply), rule, (c) => c.winner) : wrap(findTaggedWinner(reply));
      if (!w) return { ok: false, error: 'no verdict [[A]], [[B]] or [[C]] was found' };
      if (!w.ok) return ambiguousError(w.distinct.map((d) => (d === 'TIE' ? 'C' : d)));
      return { ok: true, winner: w.value.winner, justification: reply.slice(0, w.value.index).trim() };
    };
  },
  texts: (_spec, kind, text) => (kind === 'pointwise' ? allTaggedNumbers(text).map((n) => `[[${n.text}]]`) : allTaggedWinners(text).map((w) => `[[${w.winner === 'TIE' ? 'C' : w.winner}]]`)),
  rule: ({ kind, scale }) => {
    if (kind === 'pointwise') {
      const r = scale ?? { min: 1, max: 5 };
      return `Tagged: the score is the first [[N]] in the reply, else the first [N] (FastChat's rule); it must be an integer from ${r.min} to ${r.max}. The text before it is the justification.`;
    }
    return 'Tagged: [[A]] anywhere in the reply means A, else [[B]] means B, else [[C]] means a tie (FastChat\'s rule). The text before the verdict is the justification.';
  },
  instruction: (_spec, kind, r) =>
    kind === 'pointwise'
      ? `After your explanation, give your rating as an integer from ${r.min} to ${r.max} in double brackets, for example: "Rating: [[${r.max}]]".`
      : 'After your explanation, give your verdict in double brackets: "[[A]]" if response A is better, "[[B]]" if response B is better, "[[C]]" for a tie.',
  prompt: {
    asks: (prompt, kind) => (kind === 'pointwise' ? prompt.includes('[[') : prompt.includes('[[A]]') && prompt.includes('[[B]]')),
    shape: (kind) => (kind === 'pointwise' ? 'a rating in double brackets, e.g. "Rating: [[5]]"' : '"[[A]]", "[[B]]" or "[[C]]" (a tie)'),
  },
  firstRuleNote: (kind) => (kind === 'pairwise' ? ' ([[A]] anywhere, FastChat\'s rule)' : ''),
  check: () => undefined,
};
