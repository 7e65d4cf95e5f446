// Wording shared by the readers, so every skip reads the same and can be summarised.
import { printable } from '../text';
import { LIMITS, SKIP_REASONS, type DatasetSkip, type SkipReason } from './types';

const SKIPPED = '; the row is skipped';

export function skip(row: number, line: number, reason: SkipReason, what: string): DatasetSkip {
  return { row, line, reason, error: `line ${line}: ${what}${SKIPPED}` };
}

/** "a string", "an array", "null"… for messages about a value of the wrong kind. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : t === 'string' ? 'a string' : `a ${t}`;
}

/** V8's JSON.parse message with its character position, if it gave one; the input it quotes made printable. */
export function jsonProblem(error: unknown): { message: string; position?: number } {
  const raw = error instanceof Error ? error.message : String(error);
  const m = /\s*in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(raw);
  if (!m) return { message: printable(raw, 200) };
  const message = raw.slice(0, m.index) + raw.slice(m.index + m[0].length);
  return { message: printable(message, 200), position: Number(m[1]) };
}

/**
 * Whether arrays and objects nest deeper than `limit`. The walk stops one level past the limit, so
 * its recursion is bounded by the limit whatever the depth of the value (JSON.parse has none).
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  return limit <= 1000 ? deeper(value, 1, limit) : deeperIterative(value, limit);
}

function deeperIterative(value: object, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v as object);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

// Called once per record on every row read: no arrays or pairs allocated for a flat record.
function deeper(value: object, depth: number, limit: number): boolean {
  if (depth > limit) return true;
  if (Array.isArray(value)) {
    for (const child of value as unknown[]) if (child !== null && typeof child === 'object' && deeper(child, depth + 1, limit)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && deeper(child, depth + 1, limit)) return true;
  }
  return false;
}

export function tooDeep(limit: number): string {
  return `arrays and objects nest more than ${limit} levels deep (the limit for one record)`;
}

export function tooLong(limit: number): string {
  const mi = limit % (1024 * 1024) === 0 ? ` (${limit / 1024 / 1024} Mi)` : '';
  return `the record is longer than ${limit.toLocaleString('en-US')} characters${mi}, the limit for one record; split the text or shorten it`;
}

export const NUL_BYTE = 'the record holds a NUL character (\\0), which a text dataset never contains; remove it';

export const INVALID_UTF8 =
  'the line is not valid UTF-8; save the file as UTF-8 (if it is Windows-1252: iconv -f WINDOWS-1252 -t UTF-8 in > out)';

export const DEFAULT_DEPTH = LIMITS.depth;

/** Skips counted by reason, every reason present (0 when none), for a run summary. */
export function countSkips(skipped: readonly DatasetSkip[]): Record<SkipReason, number> {
  const counts = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>;
  for (const s of skipped) counts[s.reason]++;
  return counts;
}

/** "2 invalid-json, 1 too-deep": the reasons that occurred, most frequent first. */
export function describeReasons(skipped: readonly DatasetSkip[]): string {
  return Object.entries(countSkips(skipped))
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
}

const LISTED = 5;

/** One paragraph for CLI stderr; '' when nothing was skipped. */
export function describeSkips(skipped: DatasetSkip[], file: string): string {
  if (skipped.length === 0) return '';
  const n = skipped.length;
  const listed = skipped.slice(0, LISTED).map((s) => {
    const what = s.error.replace(/^line \d+: /, '').replace(/; the row is skipped\.?$/, '');
    return `row ${s.row} (line ${s.line}): ${what}`;
  });
  const more = n > LISTED ? `; and ${n - LISTED} more` : '';
  return (
    `${file}: skipped ${n} malformed row${n === 1 ? '' : 's'} (${describeReasons(skipped)}) and read the rest. ` +
    `${listed.join('; ')}${more}. ` +
    'Fix or remove those records to include them; row numbers of the other rows stay the same either way.'
  );
}
