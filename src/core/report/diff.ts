// A line diff of two template versions for the report (the editor opens VS Code's diff instead).
// Longest common subsequence over lines; templates are short, and longer inputs are refused.
import type { DiffLine } from './types';

/** Lines per side beyond which no diff is drawn (the table is |a|·|b| cells). */
export const MAX_DIFF_LINES = 3000;

export function lineDiff(a: string, b: string): DiffLine[] | undefined {
  const x = a.split(/\r?\n/);
  const y = b.split(/\r?\n/);
  if (x.length > MAX_DIFF_LINES || y.length > MAX_DIFF_LINES) return undefined;
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      out.push({ op: ' ', text: x[i]! });
      i++;
      j++;
    } else if (i < x.length && (j >= y.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
      out.push({ op: '-', text: x[i++]! });
    } else {
      out.push({ op: '+', text: y[j++]! });
    }
  }
  return out;
}
