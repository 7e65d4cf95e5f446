// Tolerant JSON extraction from a judge reply: models wrap JSON in fences, prose or <think> blocks.
// Pure and lossless: it finds JSON, it never invents or coerces values (validation does the rest).
import { jsonDepthExceeds, tooDeepMessage } from '../../security/jsonDepth';

export type ExtractSource = 'bare' | 'fence' | 'object';

export type Extraction =
  | { ok: true; value: unknown; source: ExtractSource; /** the JSON text that was parsed */ json: string }
  | { ok: false; error: string };

/** Finds the judge's JSON in `text`: the whole reply, a ```json (or bare ```) fence, or the first balanced object. */
export function extractJson(text: string): Extraction {
  // JSON inside a reasoning block is the judge thinking aloud, never its verdict.
  return extractFrom(stripThinking(text.replace(/^\uFEFF/, '')));
}

export interface JsonCandidate {
  value: unknown;
  source: ExtractSource;
  /** The JSON text that was parsed. */
  json: string;
}

/**
 * Every JSON value in the reply that could be its verdict: the whole reply when it is JSON, else
 * each fence and each top-level balanced object (an object inside a fence is found by both; callers
 * compare values, so it counts once). `firstError` explains why nothing parsed.
 */
export function jsonCandidates(text: string): { candidates: JsonCandidate[]; firstError?: string } {
  const body = stripThinking(text.replace(/^\uFEFF/, ''));
  const trimmed = body.trim();
  if (trimmed === '') return { candidates: [], firstError: 'the reply is empty; expected a JSON object' };
  const bare = parseLenient(trimmed);
  if (bare.ok) return { candidates: [{ value: bare.value, source: 'bare', json: bare.text }] };
  const candidates: JsonCandidate[] = [];
  let firstError: string | undefined;
  for (const fence of fences(body)) {
    const parsed = parseLenient(fence.trim());
    if (parsed.ok) candidates.push({ value: parsed.value, source: 'fence', json: parsed.text });
    else firstError ??= `the JSON in the code fence is invalid (${parsed.error})`;
  }
  for (const candidate of balancedObjects(body)) {
    const parsed = parseLenient(candidate);
    if (parsed.ok) candidates.push({ value: parsed.value, source: 'object', json: parsed.text });
    else firstError ??= `the JSON object in the reply is invalid (${parsed.error})`;
  }
  return candidates.length > 0 || firstError ? { candidates, ...(firstError ? { firstError } : {}) } : { candidates, firstError: 'the reply contains no JSON object' };
}

/**
 * The one verdict a reply's JSON states. `read` checks one candidate (schema, field names); a JSON
 * object that repeats a key is never read (JSON.parse would keep the last value silently), and two
 * readable candidates whose `key`s differ make the reply ambiguous: an error, never a pick.
 */
export function pickJsonVerdict<T>(
  text: string,
  read: (value: unknown) => { ok: true; value: T } | { ok: false; error: string },
  key: (value: T) => string,
): { ok: true; value: T } | { ok: false; error: string } {
  const { candidates, firstError } = jsonCandidates(text);
  const found: { value: T; key: string }[] = [];
  let error = firstError;
  const errors: string[] = [];
  for (const c of candidates) {
    const repeated = repeatedKey(c.json);
    if (repeated !== undefined) {
      errors.push(`the JSON object gives the key "${repeated}" more than once; give each field once`);
      continue;
    }
    const r = read(c.value);
    if (r.ok) found.push({ value: r.value, key: key(r.value) });
    else errors.push(r.error);
  }
  const distinct = [...new Map(found.map((f) => [f.key, f])).values()];
  if (distinct.length === 1) return { ok: true, value: distinct[0]!.value };
  if (distinct.length > 1) {
    return { ok: false, error: `the reply holds ${distinct.length} different verdicts in its JSON (${distinct.map((d) => d.key).join(' / ')}); give exactly one` };
  }
  error = errors[0] ?? error;
  return { ok: false, error: error ?? 'the reply contains no JSON object' };
}

/** The first key that an object in `json` (valid JSON) gives twice, at any depth. */
export function repeatedKey(json: string): string | undefined {
  // Each open object's keys so far; arrays push null. `expectKey`: the next string is a key.
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      let j = i + 1;
      while (j < json.length && json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        const k = JSON.parse(json.slice(i, j + 1)) as string;
        if (top.has(k)) return k;
        top.add(k);
      }
      expectKey = false;
      i = j;
    } else if (c === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (c === '[') {
      stack.push(null);
      expectKey = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1] !== null && stack.length > 0;
    }
  }
  return undefined;
}

function extractFrom(text: string): Extraction {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'the reply is empty; expected a JSON object' };

  const bare = parseLenient(trimmed);
  if (bare.ok) return { ok: true, value: bare.value, source: 'bare', json: trimmed };

  let firstError: string | undefined;
  for (const fence of fences(text)) {
    const parsed = parseLenient(fence.trim());
    if (parsed.ok) return { ok: true, value: parsed.value, source: 'fence', json: fence.trim() };
    firstError ??= `the JSON in the code fence is invalid (${parsed.error})`;
  }

  for (const candidate of balancedObjects(text)) {
    const parsed = parseLenient(candidate);
    if (parsed.ok) return { ok: true, value: parsed.value, source: 'object', json: candidate };
    firstError ??= `the JSON object in the reply is invalid (${parsed.error})`;
  }

  return { ok: false, error: firstError ?? 'the reply contains no JSON object' };
}

/**
 * Drops reasoning blocks (`<think>…</think>`, `<thinking>`, `<reasoning>`) wherever they stand, the
 * variant where the server already removed the opening tag and only `</think>` is left, and an
 * unclosed block at the end (a reply cut off mid-thought has no verdict).
 */
export function stripThinking(text: string): string {
  let rest = text;
  const orphan = /<\/(think|thinking|reasoning)>/i.exec(rest);
  if (orphan && !/<(think|thinking|reasoning)>/i.test(rest.slice(0, orphan.index))) {
    rest = rest.slice(orphan.index + orphan[0].length);
  }
  rest = rest.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '');
  const unclosed = /<(think|thinking|reasoning)>/i.exec(rest);
  if (unclosed) rest = rest.slice(0, unclosed.index);
  return rest;
}

/** Contents of Markdown code fences, ```json ones first. */
function fences(text: string): string[] {
  const tagged: string[] = [];
  const untagged: string[] = [];
  const re = /```([A-Za-z0-9_-]*)[^\S\n]*\n?([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const lang = (m[1] ?? '').toLowerCase();
    if (lang === 'json' || lang === 'jsonc' || lang === 'json5') tagged.push(m[2] ?? '');
    else if (lang === '') untagged.push(m[2] ?? '');
  }
  return [...tagged, ...untagged];
}

/** Every top-level balanced `{…}` in order, skipping braces inside JSON strings. */
function* balancedObjects(text: string): Generator<string> {
  let from = 0;
  while (true) {
    const start = text.indexOf('{', from);
    if (start < 0) return;
    const end = matchingBrace(text, start);
    if (end < 0) {
      // Unbalanced: a later `{` may still start a complete object.
      from = start + 1;
      continue;
    }
    yield text.slice(start, end + 1);
    from = end + 1;
  }
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return c === '}' ? i : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

type Parsed = { ok: true; value: unknown; /** the text JSON.parse accepted */ text: string } | { ok: false; error: string };

/** Strict JSON.parse, then once more with trailing commas removed (outside strings only); never past the nesting bound. */
function parseLenient(json: string): Parsed {
  if (jsonDepthExceeds(json)) return { ok: false, error: tooDeepMessage() };
  try {
    return { ok: true, value: JSON.parse(json), text: json };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    const fixed = removeTrailingCommas(json);
    if (fixed === json) return { ok: false, error };
    try {
      return { ok: true, value: JSON.parse(fixed), text: fixed };
    } catch {
      return { ok: false, error };
    }
  }
}

/** Removes a comma that is followed (after whitespace) by `}` or `]`, never touching string contents. */
export function removeTrailingCommas(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i] as string;
    if (inString) {
      out += c;
      if (c === '\\' && i + 1 < json.length) out += json[++i];
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      let j = i + 1;
      while (j < json.length && /\s/.test(json[j] as string)) j++;
      if (json[j] === '}' || json[j] === ']') continue;
    }
    out += c;
  }
  return out;
}
