// G-Eval's expected score: the probability-weighted mean over the scale's values at the token where
// the reply writes its score, from the endpoint's top logprobs. The integer score is unchanged; this
// is a finer reading of how sure the judge was between neighbouring scores.
import type { TokenLogprob } from '../transport/types';

const SCORE_KEY = /"score"\s*:\s*(?=-?\d)/g;

/**
 * The expected score, or null when the reply's tokens do not show the score with alternatives in
 * the scale. Candidates at the score token that are not an integer of the scale are left out and
 * the rest renormalised, as G-Eval does.
 */
export function expectedScore(tokens: readonly TokenLogprob[], scale: { min: number; max: number }): number | null {
  const text = tokens.map((t) => t.token).join('');
  let at = -1;
  for (const m of text.matchAll(SCORE_KEY)) at = m.index + m[0].length; // the last "score": is the field
  if (at < 0) return null;
  let start = 0;
  for (const t of tokens) {
    const end = start + t.token.length;
    if (at < end) {
      // Alternatives must share the part of the token before the number (e.g. ": " in ": 4").
      const prefix = t.token.slice(0, at - start);
      let weight = 0;
      let sum = 0;
      const seen = new Set<number>();
      for (const alt of t.top.length ? t.top : [{ token: t.token, logprob: 0 }]) {
        if (!alt.token.startsWith(prefix)) continue;
        const m = /^\s*(-?\d+)\s*[,}]?\s*$/.exec(alt.token.slice(prefix.length));
        if (!m) continue;
        const v = Number(m[1]);
        if (v < scale.min || v > scale.max || seen.has(v) || !Number.isFinite(alt.logprob)) continue;
        seen.add(v);
        const p = Math.exp(alt.logprob);
        weight += p;
        sum += v * p;
      }
      return weight > 0 ? sum / weight : null;
    }
    start = end;
  }
  return null;
}
