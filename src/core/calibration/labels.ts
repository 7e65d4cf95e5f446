// Column names (Vertex AI's, see design.md) and how a cell becomes a label.
import { VERDICT_COLUMNS } from '../results/verdict';
import type { CalibrationKind, Label } from './types';

export interface Columns {
  human: string;
  judge: string;
}

export function columnsFor(metric: string, kind: CalibrationKind): Columns {
  const { human, judge } = VERDICT_COLUMNS[kind];
  return { human: `${metric}/${human}`, judge: `${metric}/${judge}` };
}

/** No label in the cell: absent, null or blank. A sentinel, not an object, so reading a row allocates nothing. */
export const MISSING: unique symbol = Symbol('missing');

/** A cell holding something that is not a label of this kind. */
export class InvalidLabel {
  readonly shown: string;

  constructor(value: unknown) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
    this.shown = shown.length > 40 ? `${shown.slice(0, 37)}...` : shown;
  }
}

export type ParsedLabel<T> = T | typeof MISSING | InvalidLabel;

export function isLabel<T>(parsed: ParsedLabel<T>): parsed is T {
  return parsed !== MISSING && !(parsed instanceof InvalidLabel);
}

// Plain decimal numbers only: Number() would also take "0x10", "Infinity" or " ".
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A pointwise rating: a finite number, or a string holding one (CSV cells are strings). */
export function parseRating(value: unknown): ParsedLabel<number> {
  if (typeof value === 'number') return Number.isFinite(value) ? value : new InvalidLabel(value);
  if (value === undefined || value === null) return MISSING;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return MISSING;
    return DECIMAL.test(text) ? Number(text) : new InvalidLabel(value);
  }
  return new InvalidLabel(value);
}

/** A categorical label: text (trimmed), or a number written as text (a CSV cell, a label "1"). */
export function parseCategory(value: unknown): ParsedLabel<string> {
  if (value === undefined || value === null) return MISSING;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : new InvalidLabel(value);
  if (typeof value !== 'string') return new InvalidLabel(value);
  const text = value.trim();
  return text === '' ? MISSING : text;
}

export type Choice = 'A' | 'B' | 'TIE';

// Vertex AI writes BASELINE/CANDIDATE/SAME and, in its own examples, model_A/model_B.
const CHOICES = new Map<string, Choice>([
  ['A', 'A'],
  ['B', 'B'],
  ['TIE', 'TIE'],
  ['BASELINE', 'A'],
  ['CANDIDATE', 'B'],
  ['SAME', 'TIE'],
  ['MODEL_A', 'A'],
  ['MODEL_B', 'B'],
]);

/** A pairwise choice, read case-insensitively and reported as A, B or TIE. */
export function parseChoice(value: unknown): ParsedLabel<Choice> {
  if (value === undefined || value === null) return MISSING;
  if (typeof value !== 'string') return new InvalidLabel(value);
  const exact = CHOICES.get(value); // the common case: already A, B or TIE
  if (exact !== undefined) return exact;
  const text = value.trim();
  if (text === '') return MISSING;
  return CHOICES.get(text.toUpperCase()) ?? new InvalidLabel(value);
}

/** The accepted spellings, for messages. */
export const CHOICE_SPELLINGS = 'A, B, TIE (or BASELINE, CANDIDATE, SAME; model_A, model_B), any case';

/** A cell that should hold JSON (a list of passes or violations) may arrive as text from a CSV file. */
export function jsonCell(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!text.startsWith('[') && !text.startsWith('{')) return value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value;
  }
}

/** true/false, or their spelling in a CSV cell; undefined for anything else. */
export function booleanCell(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return undefined;
}

/** Absent, null or blank text. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** How a label of `kind` is read, the human's and the judge's alike. */
export function labelParser(kind: CalibrationKind): (value: unknown) => ParsedLabel<Label> {
  return kind === 'pointwise' ? parseRating : kind === 'pairwise' ? parseChoice : parseCategory;
}
