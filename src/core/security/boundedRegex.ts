// Regular expressions that come from files (a template's verdict pattern) run in RE2's linear-time
// engine (re2js), never in V8's backtracking one: no pattern and no reply can hold the CLI or the
// extension host. The pattern is written in JavaScript syntax; this module translates it to RE2's,
// keeping JavaScript's meaning where the two differ (`\s`, `.`, `[^]`, escapes), and refuses what
// a linear-time engine cannot run (backreferences, lookaround) instead of running it unbounded.
import type { RE2JS } from 're2js';

type Engine = typeof import('re2js').RE2JS;
let engine: Engine | undefined;
/** Loaded on first use: most templates have no pattern, and the editor should not pay for it at start. */
function re2(): Engine {
  return (engine ??= (require('re2js') as typeof import('re2js')).RE2JS);
}

/** Longer patterns are refused before compiling: a verdict pattern is a line, not a program. */
export const MAX_PATTERN_LENGTH = 2_000;

/**
 * Matching costs (reply length × program size) in the worst case; this cap keeps one match over a
 * 20,000-character window well under a quarter of a second. Typical verdict patterns are below 60.
 */
export const MAX_PROGRAM_SIZE = 500;

export type BoundedFailure = {
  ok: false;
  /** `syntax`: not a JavaScript regular expression; `unsupported`: RE2 cannot run it; `too-large`: over the caps. */
  reason: 'syntax' | 'unsupported' | 'too-large';
  message: string;
};

export type BoundedCompile = { ok: true; regex: BoundedRegex } | BoundedFailure;

export interface BoundedMatch {
  /** Offset of the match in the text, in UTF-16 code units (as String.prototype.slice counts). */
  index: number;
  /** Named groups; a group that took no part in the match is undefined. */
  groups: Record<string, string | undefined>;
}

export class BoundedRegex {
  /** The names of the pattern's named groups. */
  readonly groupNames: readonly string[];

  constructor(
    private readonly re: RE2JS,
    /** The pattern as written (JavaScript syntax). */
    readonly source: string,
    readonly flags: string,
  ) {
    this.groupNames = Object.keys(re.namedGroups());
  }

  /** The first (leftmost) match, in time linear in the text's length. */
  exec(text: string): BoundedMatch | undefined {
    const m = this.re.exec(text) as (string[] & { index: number; groups?: Record<string, string | undefined> }) | null;
    if (!m) return undefined;
    return { index: m.index, groups: { ...(m.groups ?? {}) } };
  }

  /** Every match left to right (at most `limit`), each search linear in the text's length. */
  execAll(text: string, limit: number): BoundedMatch[] {
    const out: BoundedMatch[] = [];
    for (const m of this.re.matchAll(text) as Iterable<string[] & { index: number; groups?: Record<string, string | undefined> }>) {
      out.push({ index: m.index, groups: { ...(m.groups ?? {}) } });
      if (out.length >= limit) break;
    }
    return out;
  }
}

/** JavaScript's `\s`: ASCII whitespace, \v, Unicode space separators, line/paragraph separators, BOM. */
const JS_SPACE = '\\t\\n\\x0B\\f\\r\\x20\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** JavaScript's `.` without the s flag: anything but a line terminator. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANY = '[\\x00-\\x{10FFFF}]';
const NOTHING = '[^\\x00-\\x{10FFFF}]';

/** Compiles a JavaScript-syntax pattern with flags from `i`, `m`, `s` for the linear-time engine. */
export function compileBounded(pattern: string, flags: string): BoundedCompile {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return { ok: false, reason: 'too-large', message: `the pattern is ${pattern.length.toLocaleString('en')} characters long; at most ${MAX_PATTERN_LENGTH.toLocaleString('en')} are allowed` };
  }
  if (!/^[ims]*$/.test(flags)) return { ok: false, reason: 'syntax', message: `flags may be i, m and s; got "${flags}"` };
  try {
    // Only parsed, to report JavaScript's own syntax errors; it never runs.
    new RegExp(pattern, flags);
  } catch (e) {
    return { ok: false, reason: 'syntax', message: (e as Error).message.replace(/^Invalid regular expression: /, '') };
  }
  const translated = toRe2Syntax(pattern, flags.includes('s'));
  if (!translated.ok) return translated;
  let re: RE2JS;
  try {
    const RE2 = re2();
    const f = (flags.includes('i') ? RE2.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2.MULTILINE : 0) | (flags.includes('s') ? RE2.DOTALL : 0);
    re = RE2.compile(translated.source, f);
  } catch (e) {
    const text = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    const reason = /repeat count|too large|too big/i.test(text) ? 'too-large' : 'unsupported';
    return { ok: false, reason, message: `the linear-time engine cannot run it (${text})` };
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) {
    return { ok: false, reason: 'too-large', message: `it compiles to ${re.programSize()} instructions, more than the ${MAX_PROGRAM_SIZE} a verdict pattern may use; simplify it (fewer alternatives or smaller repeat counts)` };
  }
  return { ok: true, regex: new BoundedRegex(re, pattern, flags) };
}

type Translation = { ok: true; source: string } | BoundedFailure;

const unsupported = (message: string): BoundedFailure => ({ ok: false, reason: 'unsupported', message });

/** JavaScript (non-unicode mode, as validated by `new RegExp`) to RE2 syntax with the same meaning. */
export function toRe2Syntax(src: string, dotAll: boolean): Translation {
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '\\') {
      const e = escape(src, i, inClass);
      if (!e.ok) return e;
      out += e.text;
      i += e.length;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      // A `[` inside a class is a literal in JavaScript; RE2 would read `[:` as a POSIX class.
      out += c === '[' ? '\\[' : c;
      i++;
      continue;
    }
    if (c === '[') {
      if (src.startsWith('[]', i)) {
        out += NOTHING;
        i += 2;
      } else if (src.startsWith('[^]', i)) {
        out += ANY;
        i += 3;
      } else {
        inClass = true;
        const negated = src[i + 1] === '^';
        out += negated ? '[^' : '[';
        i += negated ? 2 : 1;
        // In JavaScript `]` right after `[` closes an empty class (handled above); in RE2 it is a literal.
      }
      continue;
    }
    if (c === '(' && src[i + 1] === '?') {
      const look = /^\(\?(<=|<!|=|!)/.exec(src.slice(i, i + 4));
      if (look) {
        const kind = look[1]!.startsWith('<') ? 'lookbehind' : 'lookahead';
        return unsupported(`it uses a ${kind} \`${look[0]}…)\` at character ${i + 1}, which the linear-time engine cannot run; match the surrounding text instead`);
      }
      if (src[i + 2] === '<') {
        out += '(?P<';
        i += 3;
        continue;
      }
    }
    if (c === '.') {
      out += dotAll ? '.' : JS_DOT;
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return { ok: true, source: out };
}

type Escape = { ok: true; text: string; length: number } | BoundedFailure;

function escape(src: string, at: number, inClass: boolean): Escape {
  const n = src[at + 1];
  const ok = (text: string, length = 2): Escape => ({ ok: true, text, length });
  if (n === undefined) return { ok: false, reason: 'syntax', message: 'the pattern ends with a lone backslash' };
  if (/[1-9]/.test(n)) return unsupported(`it uses a backreference \`\\${n}\` at character ${at + 1}, which the linear-time engine cannot run; repeat the group's pattern instead`);
  if (n === 'k') return unsupported(`it uses a named backreference \`\\k<…>\` at character ${at + 1}, which the linear-time engine cannot run; repeat the group's pattern instead`);
  if (n === '0') return /[0-9]/.test(src[at + 2] ?? '') ? unsupported(`it uses an octal escape at character ${at + 1}; write \\xHH instead`) : ok('\\x00');
  if (n === 's') return ok(inClass ? JS_SPACE : `[${JS_SPACE}]`);
  if (n === 'S' && !inClass) return ok(`[^${JS_SPACE}]`);
  if (n === 'b' && inClass) return ok('\\x08');
  if ('bBdDwWStnrfv'.includes(n)) return ok(`\\${n}`);
  if (n === 'c') {
    const letter = src[at + 2] ?? '';
    if (/[A-Za-z]/.test(letter)) return ok(`\\x{${(letter.charCodeAt(0) % 32).toString(16)}}`, 3);
    return unsupported(`\`\\c\` at character ${at + 1} is not followed by a letter`);
  }
  if (n === 'x' && /^[0-9A-Fa-f]{2}$/.test(src.slice(at + 2, at + 4))) return ok(src.slice(at, at + 4), 4);
  if (n === 'u' && /^[0-9A-Fa-f]{4}$/.test(src.slice(at + 2, at + 6))) return ok(`\\x{${src.slice(at + 2, at + 6)}}`, 6);
  // Any other escaped letter is the letter itself in JavaScript (`\y` is "y"); RE2 would give some a meaning (`\z`, `\pL`).
  if (/[A-Za-z]/.test(n)) return ok(n);
  if (/[!-/:-@[-`{-~]/.test(n)) return ok(`\\${n}`);
  return ok(n);
}
