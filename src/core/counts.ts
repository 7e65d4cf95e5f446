// Counts in messages say what they count, with the right plural: "1 error and 2 warnings", not "3 problem(s)".

/** `1 row`, `2 rows`; pass the plural when it is not the word plus "s". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinAnd(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export interface SeverityCounts {
  error?: number;
  warning?: number;
  info?: number;
}

/** `1 error and 2 warnings`, `3 warnings`; only the severities that occur; `no errors or warnings` when none does. */
export function severityCounts(c: SeverityCounts): string {
  const parts: string[] = [];
  if (c.error) parts.push(plural(c.error, 'error'));
  if (c.warning) parts.push(plural(c.warning, 'warning'));
  if (c.info) parts.push(plural(c.info, 'note'));
  return parts.length ? joinAnd(parts) : 'no errors or warnings';
}

/** Counts of each severity in a list of findings. */
export function countSeverities(items: readonly { severity: string }[]): Required<SeverityCounts> {
  const out = { error: 0, warning: 0, info: 0 };
  for (const i of items) if (i.severity === 'error' || i.severity === 'warning' || i.severity === 'info') out[i.severity]++;
  return out;
}
