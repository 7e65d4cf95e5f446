// Reads a verdict out of a free-text reply by the template's declared format. Never coerces: a
// number outside the scale or a winner that is not A, B or a tie is an unreadable reply.
import { pickJsonVerdict } from '../judge/strategies/extract';
import { findPrometheusVerdict } from './prometheus';
import { compileVerdictPattern, matchVerdict } from './regex';
import { findTaggedNumber, findTaggedWinner } from './tagged';
import type { TextVerdict, VerdictKind, VerdictSpec } from './types';

export interface Scale {
  min: number;
  max: number;
  /** Any number from min to max (a template's `range:`), not only integers. */
  continuous?: boolean;
}

const WINNER_WORDS: Record<string, 'A' | 'B' | 'TIE'> = { a: 'A', b: 'B', tie: 'TIE', c: 'TIE' };

/** A reader for one template: the pattern is compiled once. */
export function verdictReader(spec: VerdictSpec, kind: VerdictKind, scale: Scale | undefined): (reply: string) => TextVerdict {
  const range = scale ?? { min: 1, max: 5 };
  const mapped = (text: string, justification: string): TextVerdict => {
    const value = spec.values ? spec.values[text.trim()] : text;
    if (value === undefined) return { ok: false, error: `the verdict "${clip(text)}" is not one of ${Object.keys(spec.values ?? {}).map((k) => JSON.stringify(k)).join(', ')}` };
    return kind === 'pointwise' ? score(String(value), range, justification) : winner(String(value), justification);
  };
  if (spec.format === 'json') {
    const field = kind === 'pointwise' ? (spec.fields?.score ?? 'score') : (spec.fields?.winner ?? 'winner');
    const why = spec.fields?.justification ?? 'justification';
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
          const read = gated(obj, String(v), typeof j === 'string' ? j : '');
          return read.ok ? { ok: true, value: read } : read;
        },
        (v) => ('score' in v ? String(v.score) : v.winner),
      );
      return picked.ok ? picked.value : picked;
    };
  }
  if (spec.format === 'regex') {
    const compiled = compileVerdictPattern(spec.pattern ?? '', spec.flags, kind);
    if (!compiled.ok) return () => ({ ok: false, error: compiled.message });
    return (reply) => {
      const m = matchVerdict(compiled.regex, compiled.group, reply);
      if (!m) return { ok: false, error: `no match for the verdict pattern /${spec.pattern}/` };
      return mapped(m.value, reply.slice(0, m.index).trim());
    };
  }
  if (spec.format === 'prometheus') {
    return (reply) => {
      const v = findPrometheusVerdict(reply, kind);
      if (!v) return { ok: false, error: kind === 'pointwise' ? 'no verdict in the form "[RESULT] N" was found' : 'no verdict in the form "[RESULT] A" or "[RESULT] B" was found' };
      if (kind === 'pointwise') return score(v.text, range, v.feedback);
      return { ok: true, winner: v.text.toUpperCase() === 'A' ? 'A' : 'B', justification: v.feedback };
    };
  }
  if (kind === 'pointwise') {
    return (reply) => {
      const n = findTaggedNumber(reply);
      if (!n) return { ok: false, error: 'no verdict in the form [[N]] (or [N]) was found' };
      return score(n.text, range, reply.slice(0, n.index).trim());
    };
  }
  return (reply) => {
    const w = findTaggedWinner(reply);
    if (!w) return { ok: false, error: 'no verdict [[A]], [[B]] or [[C]] was found' };
    return { ok: true, winner: w.winner, justification: reply.slice(0, w.index).trim() };
  };
}

function score(text: string, range: Scale, justification: string): TextVerdict {
  const value = /^\s*[+-]?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  const shaped = range.continuous ? Number.isFinite(value) : Number.isInteger(value);
  if (!shaped || value < range.min || value > range.max) {
    return { ok: false, error: `the verdict "${clip(text)}" is not ${range.continuous ? 'a number' : 'an integer'} from ${range.min} to ${range.max}` };
  }
  return { ok: true, score: value, justification };
}

function winner(text: string, justification: string): TextVerdict {
  const w = WINNER_WORDS[text.trim().toLowerCase()];
  if (!w) return { ok: false, error: `the verdict "${clip(text)}" is not A, B, TIE or C` };
  return { ok: true, winner: w, justification };
}

/** A gate field's number: a JSON number, or a string holding a plain decimal. */
function gateValue(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(v)) return Number(v);
  return undefined;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
