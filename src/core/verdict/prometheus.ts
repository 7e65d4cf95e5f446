// Prometheus 2's verdict (prometheus-eval): the judge writes "Feedback: … [RESULT] N" (absolute
// grading, N on the rubric's scale) or "Feedback: … [RESULT] A" / "B" (relative grading). Read as
// prometheus-eval's parser reads `[RESULT]`: the first marker followed by a verdict token wins,
// with optional brackets or parentheses around the token. Other spellings (`Score:`, `[SCORE]`) are
// not read: a rubric echoed back ("Score 1: …") would otherwise pass for a verdict.
import type { VerdictKind } from './types';

/** Replies longer than this are read only up to here. */
export const PROMETHEUS_READ_LIMIT = 200_000;

const MARK = '[result]';
/** After the marker: white space and opening brackets, then the token (bounded, so linear). */
const TOKEN = /[\s([]{0,20}([+-]?\d{1,12}(?:\.\d{1,12})?|[A-Za-z]{1,12})/y;

export interface PrometheusVerdict {
  /** The token as written: "4", "4.5", "A", "b". */
  text: string;
  /** The text before the marker, without a leading "Feedback:". */
  feedback: string;
}

/** The verdict token after the first `[RESULT]` that has one of the kind's shape, else undefined. */
export function findPrometheusVerdict(reply: string, kind: VerdictKind): PrometheusVerdict | undefined {
  const text = reply.length > PROMETHEUS_READ_LIMIT ? reply.slice(0, PROMETHEUS_READ_LIMIT) : reply;
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(MARK); at >= 0; at = lower.indexOf(MARK, at + MARK.length)) {
    TOKEN.lastIndex = at + MARK.length;
    const m = TOKEN.exec(text);
    const token = m?.[1];
    if (!m || token === undefined) continue;
    const next = text.charAt(TOKEN.lastIndex);
    if (/[A-Za-z0-9]/.test(next)) continue; // "[RESULT] Afterwards" is prose, not a verdict
    // Absolute grading takes the first number (its range is checked by the caller); relative
    // grading only A or B, so "[RESULT] (A or B)" echoed from the prompt still reads as A.
    if (kind === 'pointwise' ? !/\d/.test(token) : !/^[ab]$/i.test(token)) continue;
    return { text: token, feedback: feedbackOf(text.slice(0, at)) };
  }
  return undefined;
}

function feedbackOf(before: string): string {
  return before.trim().replace(/^(?:###\s*)?feedback\s*:\s*/i, '').trim();
}
