// `verdict.match`: which of the verdicts a text reply writes counts. Judges quote the label list
// back ("[[A>>B]] if A is much better…") or change their mind before the end, so a reply can hold
// several; `first` keeps the readers' historical rule, `last` the final word, and `unique` refuses
// a reply whose verdicts differ (Arena-Hard-Auto and JudgeBench read such a reply as no verdict).
import type { VerdictMatch } from './types';

/** At most this many verdicts are collected from one reply (each found in linear time). */
export const MAX_VERDICT_MATCHES = 1_000;

export type Picked<T> = { ok: true; value: T } | { ok: false; distinct: string[] } | undefined;

/**
 * The candidate the rule picks from `found` (in reply order), undefined when there is none, or
 * the distinct texts when `unique` finds verdicts that differ. `same` gives the text compared.
 */
export function pickVerdict<T>(found: readonly T[], rule: VerdictMatch | undefined, same: (c: T) => string): Picked<T> {
  const first = found[0];
  if (first === undefined) return undefined;
  if (rule === 'last') return { ok: true, value: found[found.length - 1]! };
  if (rule !== 'unique') return { ok: true, value: first };
  const distinct = [...new Set(found.map(same))];
  return distinct.length === 1 ? { ok: true, value: found[found.length - 1]! } : { ok: false, distinct };
}

/** The error of a reply that wrote different verdicts under `match: unique`. */
export function ambiguousError(distinct: readonly string[]): { ok: false; error: string; kind: 'ambiguous-verdict' } {
  const shown = distinct.slice(0, 5).map((d) => JSON.stringify(d.length > 40 ? `${d.slice(0, 40)}…` : d));
  const more = distinct.length > 5 ? ` and ${distinct.length - 5} more` : '';
  return {
    ok: false,
    kind: 'ambiguous-verdict',
    error: `the reply gives different verdicts (${shown.join(', ')}${more}); with \`verdict.match: unique\` every verdict in a reply must be the same, so write the verdict once`,
  };
}
