// JSON from a server (a reply's verdict, a response body, a batch output line) is parsed only when
// its nesting is within the bound datasets already have (LIMITS.depth): V8's JSON.parse takes any
// depth, but JSON.stringify, zod and every recursive walk after it overflow the call stack on a
// value 100,000 levels deep, which used to kill a run for good. The text is measured first, in one
// linear pass that skips strings, so nothing recursive ever sees such a value.
import { LIMITS } from '../dataset/types';

export const MAX_JSON_DEPTH = LIMITS.depth;

/** The deepest nesting of arrays and objects in JSON text, stopping as soon as it passes `limit`. */
export function jsonDepthExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escapes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export function tooDeepMessage(limit: number = MAX_JSON_DEPTH): string {
  return `its JSON nests arrays and objects more than ${limit} levels deep`;
}

/** JSON.parse for text from outside: refused with a message when it nests deeper than the bound. */
export function parseBoundedJson(text: string, limit: number = MAX_JSON_DEPTH): unknown {
  if (jsonDepthExceeds(text, limit)) throw new SyntaxError(tooDeepMessage(limit));
  return JSON.parse(text) as unknown;
}
