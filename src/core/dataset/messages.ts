// Wording shared by the readers, so every skip reads the same and can be summarised.
import type { DatasetSkip } from './types';

const SKIPPED = '; the row is skipped';

export function skip(row: number, line: number, what: string): DatasetSkip {
  return { row, line, error: `line ${line}: ${what}${SKIPPED}` };
}

/** "a string", "an array", "null"… for messages about a value of the wrong kind. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : t === 'string' ? 'a string' : `a ${t}`;
}

/** V8's JSON.parse message with its character position, if it gave one. */
export function jsonProblem(error: unknown): { message: string; position?: number } {
  const raw = error instanceof Error ? error.message : String(error);
  const m = /\s*in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(raw);
  if (!m) return { message: raw };
  return { message: raw.slice(0, m.index) + raw.slice(m.index + m[0].length), position: Number(m[1]) };
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
    `${file}: skipped ${n} malformed row${n === 1 ? '' : 's'} and read the rest. ` +
    `${listed.join('; ')}${more}. ` +
    'Fix or remove those records to include them; row numbers of the other rows stay the same either way.'
  );
}
