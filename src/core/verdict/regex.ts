// Custom verdict patterns: compiled once at validation for the linear-time engine
// (core/security/boundedRegex.ts), so no pattern and no reply can stall a run, and run on a bounded
// window of the reply.
import { compileBounded, type BoundedRegex } from '../security/boundedRegex';
import { MAX_VERDICT_MATCHES } from './match';
import type { VerdictKind } from './types';

/** A custom pattern sees at most this many characters: the end of the reply, where verdicts go. */
export const REGEX_READ_LIMIT = 20_000;

export const VERDICT_FLAGS = /^[ims]*$/;

export type PatternCheck =
  | { ok: true; regex: BoundedRegex; group: 'score' | 'winner' }
  | { ok: false; code: 'verdict-pattern-invalid' | 'verdict-pattern-unsafe' | 'verdict-pattern-unsupported'; message: string };

export function groupFor(kind: VerdictKind): 'score' | 'winner' {
  return kind === 'pointwise' ? 'score' : 'winner';
}

export function compileVerdictPattern(pattern: string, flags: string | undefined, kind: VerdictKind): PatternCheck {
  const group = groupFor(kind);
  const f = flags ?? '';
  if (!VERDICT_FLAGS.test(f) || new Set(f).size !== f.length) {
    return { ok: false, code: 'verdict-pattern-invalid', message: `\`verdict.flags\` may hold i, m and s, each once; got "${f}".` };
  }
  const compiled = compileBounded(pattern, f);
  if (!compiled.ok) {
    if (compiled.reason === 'syntax') return { ok: false, code: 'verdict-pattern-invalid', message: `\`verdict.pattern\` is not a valid regular expression: ${compiled.message}.` };
    const code = compiled.reason === 'too-large' ? 'verdict-pattern-unsafe' : 'verdict-pattern-unsupported';
    return { ok: false, code, message: `\`verdict.pattern\` cannot be used: ${compiled.message}.` };
  }
  if (!compiled.regex.groupNames.includes(group)) {
    const example = kind === 'pointwise' ? 'Score: (?<score>\\d+)' : 'Winner: (?<winner>A|B|TIE)';
    return { ok: false, code: 'verdict-pattern-invalid', message: `A ${kind} verdict pattern needs a named group \`(?<${group}>…)\`, e.g. \`${example}\`.` };
  }
  return { ok: true, regex: compiled.regex, group };
}

export interface RegexMatch {
  value: string;
  /** Offset of the match in the whole reply. */
  index: number;
}

/** The first match in the reply's last REGEX_READ_LIMIT characters. */
export function matchVerdict(regex: BoundedRegex, group: string, reply: string): RegexMatch | undefined {
  const offset = Math.max(0, reply.length - REGEX_READ_LIMIT);
  const window = offset > 0 ? reply.slice(offset) : reply;
  const m = regex.exec(window);
  const value = m?.groups[group];
  if (!m || value === undefined) return undefined;
  return { value, index: offset + m.index };
}

/** Every match in the same window whose group took part, in reply order (`verdict.match: last | unique`). */
export function allVerdictMatches(regex: BoundedRegex, group: string, reply: string): RegexMatch[] {
  const offset = Math.max(0, reply.length - REGEX_READ_LIMIT);
  const window = offset > 0 ? reply.slice(offset) : reply;
  return regex.execAll(window, MAX_VERDICT_MATCHES).flatMap((m) => {
    const value = m.groups[group];
    return value === undefined || value === '' ? [] : [{ value, index: offset + m.index }];
  });
}
