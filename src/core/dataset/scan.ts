// The top-level members of one JSON object line, found without building the object: calibration
// reads a few columns of a million lines, and most of each line (the texts) it only needs to skip;
// counting a dataset's readable rows needs no value at all.
// The scan is strict: whenever it meets anything it does not plainly accept (a raw control
// character, a bad escape, nesting past the limit, any syntax error), it gives up and the caller
// parses the line with JSON.parse, so an invalid line is reported exactly as the reader reports it.
import type { RecordShape } from './types';

export const STRING = 1;
export const NUMBER = 2;
export const LITERAL = 3;
export const NESTED = 4;
export type ValueType = typeof STRING | typeof NUMBER | typeof LITERAL | typeof NESTED;

/**
 * One member, by where its key (quotes included) and its value are in the text, `[start, end)`;
 * `keyEscaped`/`escaped`: the key/the string value holds an escape, so it must be decoded.
 */
export type Member = (keyStart: number, keyEnd: number, keyEscaped: boolean, start: number, end: number, type: ValueType, escaped: boolean) => void;

// Characters below U+0020 are invalid inside strings; outside them JSON allows tab, LF and CR,
// which a line never holds but for a tab: such rare lines go to JSON.parse.
const CONTROL = /[\u0000-\u001f]/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export class ObjectScanner {
  private text = '';
  /** The first backslash at or after the scan position, or -1 when there is none. */
  private backslash = -1;
  /** The last string scanned held an escape. */
  private escaped = false;

  /** `maxDepth`: the reader's nesting limit (the top-level object is depth 1). */
  constructor(private readonly maxDepth: number) {}

  /** Reports each member in order; false when the text is not plainly one valid JSON object. */
  scan(text: string, member: Member): boolean {
    if (CONTROL.test(text)) return false;
    this.text = text;
    this.backslash = text.indexOf('\\');
    let i = spaces(text, 0);
    if (text.charCodeAt(i) !== OPEN_BRACE) return false;
    i = spaces(text, i + 1);
    if (text.charCodeAt(i) === CLOSE_BRACE) return spaces(text, i + 1) === text.length;
    for (;;) {
      if (text.charCodeAt(i) !== QUOTE) return false;
      const keyStart = i;
      const keyEnd = this.string(i);
      if (keyEnd < 0) return false;
      const keyEscaped = this.escaped;
      i = spaces(text, keyEnd);
      if (text.charCodeAt(i) !== COLON) return false;
      i = spaces(text, i + 1);
      const start = i;
      const c = text.charCodeAt(i);
      let end: number;
      let type: ValueType;
      this.escaped = false;
      if (c === QUOTE) {
        end = this.string(i);
        type = STRING;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        end = this.nested(i);
        type = NESTED;
      } else {
        end = number(text, i);
        type = NUMBER;
        if (end < 0) {
          end = literal(text, i);
          type = LITERAL;
        }
      }
      if (end < 0) return false;
      member(keyStart, keyEnd, keyEscaped, start, end, type, this.escaped);
      i = spaces(text, end);
      const d = text.charCodeAt(i);
      if (d === COMMA) i = spaces(text, i + 1);
      else if (d === CLOSE_BRACE) return spaces(text, i + 1) === text.length;
      else return false;
    }
  }

  /** `i` at an opening quote: the index after the closing one, or -1. Sets `escaped`. */
  private string(i: number): number {
    const t = this.text;
    let p = i + 1;
    this.escaped = false;
    for (;;) {
      const q = t.indexOf('"', p);
      if (q < 0) return -1;
      if (this.backslash >= 0 && this.backslash < p) this.backslash = t.indexOf('\\', p);
      const b = this.backslash;
      if (b < 0 || b > q) return q + 1;
      this.escaped = true;
      const e = t.charCodeAt(b + 1);
      if (e === 0x75) {
        if (!hex4(t, b + 2)) return -1;
        p = b + 6;
      } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        p = b + 2;
      } else return -1;
      this.backslash = t.indexOf('\\', p);
    }
  }

  /** `i` at `{` or `[` inside the top-level object: the index after its closing bracket, or -1. */
  private nested(i: number): number {
    const t = this.text;
    const closers: number[] = [];
    let p = i;
    let escaped = false;
    // Each turn reads one value at p, then what follows it, until the outermost bracket closes.
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        closers.push(c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET);
        if (closers.length + 1 > this.maxDepth) return -1;
        p = spaces(t, p + 1);
        if (t.charCodeAt(p) === closers[closers.length - 1]) {
          closers.pop();
          p++;
        } else {
          if (c === OPEN_BRACE && (p = this.key(p)) < 0) return -1;
          continue;
        }
      } else {
        const end = c === QUOTE ? this.string(p) : Math.max(number(t, p), literal(t, p));
        if (end < 0) return -1;
        escaped ||= this.escaped;
        p = end;
      }
      // After a value: a comma, or the closer of the innermost open bracket (maybe several).
      for (;;) {
        if (closers.length === 0) {
          this.escaped = escaped;
          return p;
        }
        p = spaces(t, p);
        const d = t.charCodeAt(p);
        const closer = closers[closers.length - 1];
        if (d === COMMA) {
          p = spaces(t, p + 1);
          if (closer === CLOSE_BRACE && (p = this.key(p)) < 0) return -1;
          break;
        }
        if (d !== closer) return -1;
        closers.pop();
        p++;
      }
    }
  }

  /** `p` at a key inside a nested object: the position of its value, or -1. */
  private key(p: number): number {
    const t = this.text;
    if (t.charCodeAt(p) !== QUOTE) return -1;
    const end = this.string(p);
    if (end < 0) return -1;
    const colon = spaces(t, end);
    return t.charCodeAt(colon) === COLON ? spaces(t, colon + 1) : -1;
  }
}

function spaces(t: string, i: number): number {
  while (t.charCodeAt(i) === SPACE) i++;
  return i;
}

function digit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A JSON number at `i`: the index after it, or -1. What follows is the caller's to check. */
function number(t: string, i: number): number {
  let p = i;
  if (t.charCodeAt(p) === 0x2d) p++;
  const first = t.charCodeAt(p);
  if (first === 0x30) p++;
  else if (first >= 0x31 && first <= 0x39) while (digit(t.charCodeAt(++p)));
  else return -1;
  if (t.charCodeAt(p) === 0x2e) {
    if (!digit(t.charCodeAt(++p))) return -1;
    while (digit(t.charCodeAt(++p)));
  }
  const e = t.charCodeAt(p);
  if (e === 0x65 || e === 0x45) {
    const sign = t.charCodeAt(++p);
    if (sign === 0x2b || sign === 0x2d) p++;
    if (!digit(t.charCodeAt(p))) return -1;
    while (digit(t.charCodeAt(++p)));
  }
  return p;
}

function literal(t: string, i: number): number {
  if (t.startsWith('true', i) || t.startsWith('null', i)) return i + 4;
  if (t.startsWith('false', i)) return i + 5;
  return -1;
}

function hex4(t: string, i: number): boolean {
  for (let k = i; k < i + 4; k++) {
    const c = t.charCodeAt(k);
    if (!(digit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/**
 * A shape that keeps nothing, for reading a dataset only to count and number its rows: a line the
 * scan accepts is never parsed, so a row with a 50 MB text costs no parsed copy of it.
 */
export function countingShape(maxDepth: number): RecordShape {
  const scanner = new ObjectScanner(maxDepth);
  const none = (): void => undefined;
  return { fromLine: (text) => (scanner.scan(text, none) ? {} : undefined), shape: () => ({}) };
}
