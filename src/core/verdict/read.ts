// Reads a verdict out of a free-text reply by the template's declared format. Never coerces: a
// number outside the scale or a winner that is not A, B or a tie is an unreadable reply.
import { pickJsonVerdict } from '../judge/strategies/extract';
import { ambiguousError, pickVerdict } from './match';
import { prometheusMarks, prometheusVerdict } from './prometheus';
import { allVerdictMatches, compileVerdictPattern, matchVerdict } from './regex';
import { allTaggedNumbers, allTaggedWinners, findTaggedNumber, findTaggedWinner } from './tagged';
import type { TextVerdict, VerdictKind, VerdictSpec } from './types';

export interface Scale {
  min: number;
  max: number;
  /** Any number from min to max (a template's `range:`), not only integers. */
  continuous?: boolean;
}

const WINNER_WORDS: Record<string, 'A' | 'B' | 'TIE'> = { a: 'A', b: 'B', tie: 'TIE', c: 'TIE' };

/** A reader for one template: the pattern is compiled once. With `labels` (a categorical template) the verdict is one of them. */
export function verdictReader(spec: VerdictSpec, kind: VerdictKind, scale: Scale | undefined, labels?: readonly string[]): (reply: string) => TextVerdict {
  const range = scale ?? { min: 1, max: 5 };
  const categorical = kind === 'pointwise' && labels !== undefined && labels.length > 0;
  const mapped = (text: string, justification: string): TextVerdict => {
    const value = spec.values ? spec.values[text.trim()] : text;
    if (value === undefined) return { ok: false, error: `the verdict "${clip(text)}" is not one of ${Object.keys(spec.values ?? {}).map((k) => JSON.stringify(k)).join(', ')}` };
    if (categorical) return label(String(value), labels, justification);
    return kind === 'pointwise' ? score(String(value), range, justification) : winner(String(value), justification);
  };
  if (spec.format === 'json') {
    const field = verdictField(spec, kind, categorical);
    const steps = spec.fields?.steps;
    const why = steps ?? spec.fields?.justification ?? 'justification';
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
          let justification = typeof j === 'string' ? j : '';
          if (steps !== undefined) {
            const joined = stepsText(j);
            if (joined === undefined) return { ok: false, error: `the reply's "${steps}" field is not a list of steps, each {"description": "…", "conclusion": "…"}` };
            justification = joined;
          }
          const read = gated(obj, String(v), justification);
          return read.ok ? { ok: true, value: read } : read;
        },
        (v) => ('score' in v ? String(v.score) : 'label' in v ? v.label : v.winner),
      );
      return picked.ok ? picked.value : picked;
    };
  }
  return textReader(spec, kind, range, mapped);
}

/** The regex, Prometheus and tagged readers, each picking among several verdicts by `spec.match`. */
function textReader(spec: VerdictSpec, kind: VerdictKind, range: Scale, mapped: (text: string, justification: string) => TextVerdict): (reply: string) => TextVerdict {
  const rule = spec.match;
  const several = rule === 'last' || rule === 'unique';
  if (spec.format === 'regex') {
    const compiled = compileVerdictPattern(spec.pattern ?? '', spec.flags, kind);
    if (!compiled.ok) return () => ({ ok: false, error: compiled.message });
    return (reply) => {
      const m = several ? pickVerdict(allVerdictMatches(compiled.regex, compiled.group, reply), rule, (c) => c.value.trim()) : wrap(matchVerdict(compiled.regex, compiled.group, reply));
      if (!m) return { ok: false, error: `no match for the verdict pattern /${spec.pattern}/` };
      if (!m.ok) return ambiguousError(m.distinct);
      return mapped(m.value.value, reply.slice(0, m.value.index).trim());
    };
  }
  if (spec.format === 'prometheus') {
    return (reply) => {
      const m = pickVerdict(prometheusMarks(reply, kind, several ? undefined : 1), rule, (c) => c.text.toUpperCase());
      if (!m) return { ok: false, error: kind === 'pointwise' ? 'no verdict in the form "[RESULT] N" was found' : 'no verdict in the form "[RESULT] A" or "[RESULT] B" was found' };
      if (!m.ok) return ambiguousError(m.distinct);
      const v = prometheusVerdict(reply, m.value);
      if (kind === 'pointwise') return score(v.text, range, v.feedback);
      return { ok: true, winner: v.text.toUpperCase() === 'A' ? 'A' : 'B', justification: v.feedback };
    };
  }
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
}

/** Every verdict text the format's reader finds in `text`, in order (the lint over a prompt's label lists). */
export function verdictTexts(spec: VerdictSpec, kind: VerdictKind, text: string): string[] {
  if (spec.format === 'regex') {
    const compiled = compileVerdictPattern(spec.pattern ?? '', spec.flags, kind);
    return compiled.ok ? allVerdictMatches(compiled.regex, compiled.group, text).map((m) => m.value) : [];
  }
  if (spec.format === 'prometheus') return prometheusMarks(text, kind).map((m) => `[RESULT] ${m.text}`);
  if (spec.format !== 'tagged') return [];
  return kind === 'pointwise' ? allTaggedNumbers(text).map((n) => `[[${n.text}]]`) : allTaggedWinners(text).map((w) => `[[${w.winner === 'TIE' ? 'C' : w.winner}]]`);
}

function wrap<T>(value: T | undefined): { ok: true; value: T } | undefined {
  return value === undefined ? undefined : { ok: true, value };
}

function score(text: string, range: Scale, justification: string): TextVerdict {
  const value = /^\s*[+-]?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  const shaped = range.continuous ? Number.isFinite(value) : Number.isInteger(value);
  if (!shaped || value < range.min || value > range.max) {
    return { ok: false, error: `the verdict "${clip(text)}" is not ${range.continuous ? 'a number' : 'an integer'} from ${range.min} to ${range.max}` };
  }
  return { ok: true, score: value, justification };
}

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

function label(text: string, labels: readonly string[], justification: string): TextVerdict {
  // Exactly as listed, as for a JSON categorical reply: a label is not normalised.
  if (!labels.includes(text)) return { ok: false, error: `the label "${clip(text)}" is not one of ${labels.map((l) => JSON.stringify(l)).join(', ')}` };
  return { ok: true, label: text, justification };
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
