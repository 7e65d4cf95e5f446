// Which files are results files, so the editor offers the Results Viewer for them: the names the
// product writes, and any JSONL whose first record carries the bookkeeping every results line has.
// Pure (no vscode): the same rule drives the editor-title button and what the run opens at the end.
import { verdictColumn } from '../../../core/results/verdict';

/**
 * Names Judge Studio writes or suggests: `<metric>.results.jsonl` (the CLI's default, batch
 * collect), `probe-results.jsonl`, and everything in `.judge-studio/results/` (editor runs).
 * package.json's `when` clauses use these same two patterns, so the button shows before activation.
 */
export const RESULTS_NAME = /[._-]results\.jsonl$/i;
export const RESULTS_DIR = /[\\/]\.judge-studio[\\/](results|batches|probes)[\\/].*\.jsonl$/i;

/** Lines longer than this are not parsed to look for the columns: the name has to say it. */
const MAX_SNIFF = 4 * 1024 * 1024;

export function isResultsName(filePath: string): boolean {
  return RESULTS_NAME.test(filePath) || RESULTS_DIR.test(filePath);
}

/**
 * A results line: a JSON object with a 1-based integer `_row` and either a 16-hex `_key` (every
 * line the engine writes) or a metric's verdict or error column (files from before `_key`).
 */
export function isResultsLine(line: string): boolean {
  if (line.length > MAX_SNIFF || !line.includes('"_row"')) return false;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const row = record['_row'];
  if (typeof row !== 'number' || !Number.isSafeInteger(row) || row < 1) return false;
  const key = record['_key'];
  if (typeof key === 'string' && /^[0-9a-f]{16}$/.test(key)) return true;
  return Object.keys(record).some((k) => verdictColumn(k) !== undefined || /^[^/]+\/error_kind$/.test(k));
}

/** By name, else by the first non-blank line of the file (`lines` yields its lines in order). */
export function isResultsFile(filePath: string, lines: Iterable<string>): boolean {
  if (!/\.(jsonl|ndjson)$/i.test(filePath)) return false;
  if (isResultsName(filePath)) return true;
  let seen = 0;
  for (const line of lines) {
    if (line.trim() !== '') return isResultsLine(line);
    if (++seen > 100) return false; // a file that opens with pages of blank lines is not ours
  }
  return false;
}
