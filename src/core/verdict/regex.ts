// Custom verdict patterns: compiled once at validation, refused when they could backtrack
// catastrophically (a repeated group that itself repeats), and run on a bounded window of the reply.
import type { VerdictKind } from './types';

/** A custom pattern sees at most this many characters: the end of the reply, where verdicts go. */
export const REGEX_READ_LIMIT = 20_000;

export const VERDICT_FLAGS = /^[ims]*$/;

export type PatternCheck =
  | { ok: true; regex: RegExp; group: 'score' | 'winner' }
  | { ok: false; code: 'verdict-pattern-invalid' | 'verdict-pattern-unsafe'; message: string };

export function groupFor(kind: VerdictKind): 'score' | 'winner' {
  return kind === 'pointwise' ? 'score' : 'winner';
}

export function compileVerdictPattern(pattern: string, flags: string | undefined, kind: VerdictKind): PatternCheck {
  const group = groupFor(kind);
  const f = flags ?? '';
  if (!VERDICT_FLAGS.test(f) || new Set(f).size !== f.length) {
    return { ok: false, code: 'verdict-pattern-invalid', message: `\`verdict.flags\` may hold i, m and s, each once; got "${f}".` };
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, f);
  } catch (e) {
    return { ok: false, code: 'verdict-pattern-invalid', message: `\`verdict.pattern\` is not a valid regular expression: ${(e as Error).message}.` };
  }
  if (!new RegExp(`\\(\\?<${group}>`).test(pattern)) {
    const example = kind === 'pointwise' ? 'Score: (?<score>\\d+)' : 'Winner: (?<winner>A|B|TIE)';
    return { ok: false, code: 'verdict-pattern-invalid', message: `A ${kind} verdict pattern needs a named group \`(?<${group}>…)\`, e.g. \`${example}\`.` };
  }
  const nested = nestedQuantifier(pattern);
  if (nested !== undefined) {
    return {
      ok: false,
      code: 'verdict-pattern-unsafe',
      message: `The group ending at character ${nested + 1} repeats a part that repeats itself (like \`(a+)+\`), which can take exponential time on some replies; rewrite it without the nested repetition.`,
    };
  }
  return { ok: true, regex, group };
}

/**
 * The offset of the first group that is repeated (`*`, `+`, `{n,}`, `{n,m}` with m > 1) while it
 * contains an unbounded repetition itself: the shape behind catastrophic backtracking.
 */
export function nestedQuantifier(pattern: string): number | undefined {
  const stack: boolean[] = [];
  let inner = false; // the current group holds an unbounded quantifier
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '[') {
      i = classEnd(pattern, i);
      continue;
    }
    if (c === '(') {
      stack.push(inner);
      inner = false;
      i++;
      continue;
    }
    if (c === ')') {
      const q = quantifier(pattern, i + 1);
      if (q.repeats && inner) return i;
      const outer = stack.pop() ?? false;
      inner = outer || inner || q.unbounded;
      i = i + 1 + q.length;
      continue;
    }
    const q = quantifier(pattern, i);
    if (q.length > 0) {
      inner = inner || q.unbounded;
      i += q.length;
      continue;
    }
    i++;
  }
  return undefined;
}

function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1;
}

function quantifier(pattern: string, at: number): { length: number; repeats: boolean; unbounded: boolean } {
  const c = pattern[at];
  const lazy = (n: number) => (pattern[at + n] === '?' ? n + 1 : n);
  if (c === '*' || c === '+') return { length: lazy(1), repeats: true, unbounded: true };
  if (c === '?') return { length: lazy(1), repeats: false, unbounded: false };
  if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at, at + 24));
    if (m) {
      const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      return { length: lazy(m[0].length), repeats: max > 1, unbounded: max === Infinity };
    }
  }
  return { length: 0, repeats: false, unbounded: false };
}

export interface RegexMatch {
  value: string;
  /** Offset of the match in the whole reply. */
  index: number;
}

/** The first match in the reply's last REGEX_READ_LIMIT characters. */
export function matchVerdict(regex: RegExp, group: string, reply: string): RegexMatch | undefined {
  const offset = Math.max(0, reply.length - REGEX_READ_LIMIT);
  const window = offset > 0 ? reply.slice(offset) : reply;
  const once = new RegExp(regex.source, regex.flags.replace(/[gy]/g, ''));
  const m = once.exec(window);
  const value = m?.groups?.[group];
  if (!m || value === undefined) return undefined;
  return { value, index: offset + m.index };
}
