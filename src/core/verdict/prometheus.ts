// Prometheus 2's verdict (prometheus-eval): the judge writes "Feedback: … [RESULT] N" (absolute
// grading, N on the rubric's scale) or "Feedback: … [RESULT] A" / "B" (relative grading). Read as
// prometheus-eval's parser reads `[RESULT]`: the first marker followed by a verdict token wins,
// with optional brackets or parentheses around the token. Other spellings (`Score:`, `[SCORE]`) are
// not read: a rubric echoed back ("Score 1: …") would otherwise pass for a verdict.
import { MAX_VERDICT_MATCHES } from './match';
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
  const at = prometheusMarks(reply, kind, 1)[0];
  return at && prometheusVerdict(reply, at);
}

/** A `[RESULT]` verdict found by prometheusMarks: its token and where its marker is. */
export interface PrometheusMark {
  text: string;
  at: number;
}

/** The verdict of one mark, with the feedback before it. */
export function prometheusVerdict(reply: string, mark: PrometheusMark): PrometheusVerdict {
  return { text: mark.text, feedback: feedbackOf(reply.slice(0, mark.at)) };
}

/** Every `[RESULT]` verdict of the kind's shape, in reply order (`verdict.match: last | unique`). */
export function prometheusMarks(reply: string, kind: VerdictKind, limit = MAX_VERDICT_MATCHES): PrometheusMark[] {
  const found: PrometheusMark[] = [];
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
    found.push({ text: token, at });
    if (found.length >= limit) break;
  }
  return found;
}

function feedbackOf(before: string): string {
  return before.trim().replace(/^(?:###\s*)?feedback\s*:\s*/i, '').trim();
}
