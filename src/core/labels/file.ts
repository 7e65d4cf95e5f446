// Reading and appending the labels file. Appending one line per label (and one per undo) means
// nothing is ever rewritten: two people labelling the same file lose nothing, and a crash loses
// at most the line being written.
import { appendFile, open, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { LabelLine, LabelSkip, LabelsRead, LabelValue } from './types';

const KEY = /^[0-9a-f]{16}$/;

/**
 * The labels file for a results or dataset file: beside it, the stem without `.results`, plus
 * `.labels.jsonl` (`helpfulness.results.jsonl` and `helpfulness.jsonl` both → `helpfulness.labels.jsonl`).
 */
export function labelsFileFor(file: string): string {
  const dir = path.dirname(file);
  let stem = path.basename(file).replace(/\.(jsonl|ndjson|json|csv)$/i, '');
  stem = stem.replace(/\.(results|labels)$/i, '');
  return path.join(dir, `${stem}.labels.jsonl`);
}

/** A label read from a line: numbers for scales, A/B/TIE for pairs, null for a retraction. */
function labelOf(value: unknown): LabelValue | null | undefined {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const upper = value.trim().toUpperCase();
    if (upper === 'A' || upper === 'B' || upper === 'TIE') return upper;
  }
  return undefined;
}

/** Parses the text of a labels file; bad lines come back as skips with their line numbers. */
export function parseLabels(text: string): LabelsRead {
  const lines: LabelLine[] = [];
  const skipped: LabelSkip[] = [];
  const all = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  all.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      skipped.push({ line, error: `invalid JSON (${(e as Error).message})` });
      return;
    }
    const parsed = lineOf(value);
    if (typeof parsed === 'string') skipped.push({ line, error: parsed });
    else lines.push({ ...parsed, line });
  });
  return { lines, skipped };
}

function lineOf(value: unknown): LabelLine | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v._key !== 'string' || !KEY.test(v._key)) return '"_key" is not 16 lowercase hex characters';
  if (typeof v.metric !== 'string' || v.metric === '') return '"metric" is missing';
  const label = labelOf(v.label);
  if (label === undefined) return `"label" ${JSON.stringify(v.label) ?? 'undefined'} is not a number, A, B, TIE or null`;
  if (typeof v.annotator !== 'string' || v.annotator.trim() === '') return '"annotator" is missing';
  const out: LabelLine = { _key: v._key, metric: v.metric, label, annotator: v.annotator.trim(), time: typeof v.time === 'string' ? v.time : '' };
  if (typeof v.comment === 'string' && v.comment !== '') out.comment = v.comment;
  if (v.shown === 'AB' || v.shown === 'BA') out.shown = v.shown;
  if (Array.isArray(v.fields) && v.fields.every((f) => typeof f === 'string')) out.fields = v.fields as string[];
  return out;
}

/** The file's labels; a file that does not exist yet holds none. Other errors are thrown. */
export async function readLabels(file: string): Promise<LabelsRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], skipped: [] };
    throw new Error(`cannot read labels file ${file}: ${(e as Error).message}`);
  }
  return parseLabels(text);
}

/** One JSON line, keys in the documented order. */
export function serializeLabel(l: LabelLine): string {
  const out: Record<string, unknown> = { _key: l._key, metric: l.metric, label: l.label, annotator: l.annotator, time: l.time, comment: l.comment ?? '' };
  if (l.shown) out.shown = l.shown;
  if (l.fields) out.fields = l.fields;
  return JSON.stringify(out);
}

/** Appends lines; a file whose last line has no newline gets one first, so lines never merge. */
export async function appendLabels(file: string, lines: readonly LabelLine[]): Promise<void> {
  if (lines.length === 0) return;
  const last = await lastByte(file);
  const prefix = last === undefined || last === 0x0a ? '' : '\n';
  await appendFile(file, prefix + lines.map(serializeLabel).join('\n') + '\n', 'utf8');
}

/** The file's last byte, or undefined when it is empty or absent (read without loading the file). */
async function lastByte(file: string): Promise<number | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return undefined;
    const buffer = Buffer.alloc(1);
    await handle.read(buffer, 0, 1, size - 1);
    return buffer[0];
  } finally {
    await handle.close();
  }
}
