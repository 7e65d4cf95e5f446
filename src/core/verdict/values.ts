// The checks every verdict format shares once it has found the verdict's text: a score on the scale,
// a winner word, one of a categorical template's labels. Never coerced: anything else is an error.
import type { Scale, TextVerdict, VerdictKind, VerdictSpec } from './types';

const WINNER_WORDS: Record<string, 'A' | 'B' | 'TIE'> = { a: 'A', b: 'B', tie: 'TIE', c: 'TIE' };

/** The reply field a json verdict reads its verdict from. */
export function verdictField(spec: VerdictSpec, kind: VerdictKind, categorical: boolean): string {
  if (categorical) return spec.fields?.label ?? 'label';
  return kind === 'pointwise' ? (spec.fields?.score ?? 'score') : (spec.fields?.winner ?? 'winner');
}

/**
 * OpenAI's model graders reason in steps, `[{description, conclusion}]`: kept as the justification,
 * one numbered line per step, "description — conclusion" (a step with one of the two gives that one).
 * Undefined when the value is not such a list.
 */
export function stepsText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const lines: string[] = [];
  for (const step of value) {
    if (typeof step !== 'object' || step === null || Array.isArray(step)) return undefined;
    const { description, conclusion } = step as Record<string, unknown>;
    const parts = [description, conclusion].filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());
    if (parts.length === 0) return undefined;
    lines.push(`${lines.length + 1}. ${parts.join(' — ')}`);
  }
  return lines.join('\n');
}

export function wrap<T>(value: T | undefined): { ok: true; value: T } | undefined {
  return value === undefined ? undefined : { ok: true, value };
}

export function score(text: string, range: Scale, justification: string): TextVerdict {
  const value = /^\s*[+-]?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  const shaped = range.continuous ? Number.isFinite(value) : Number.isInteger(value);
  if (!shaped || value < range.min || value > range.max) {
    return { ok: false, error: `the verdict "${clip(text)}" is not ${range.continuous ? 'a number' : 'an integer'} from ${range.min} to ${range.max}` };
  }
  return { ok: true, score: value, justification };
}

export function label(text: string, labels: readonly string[], justification: string): TextVerdict {
  // Exactly as listed, as for a JSON categorical reply: a label is not normalised.
  if (!labels.includes(text)) return { ok: false, error: `the label "${clip(text)}" is not one of ${labels.map((l) => JSON.stringify(l)).join(', ')}` };
  return { ok: true, label: text, justification };
}

export function winner(text: string, justification: string): TextVerdict {
  const w = WINNER_WORDS[text.trim().toLowerCase()];
  if (!w) return { ok: false, error: `the verdict "${clip(text)}" is not A, B, TIE or C` };
  return { ok: true, winner: w, justification };
}

/** A gate field's number: a JSON number, or a string holding a plain decimal. */
export function gateValue(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(v)) return Number(v);
  return undefined;
}

export function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
