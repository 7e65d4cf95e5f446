// Which columns of a results line calibration keeps, and what of each: the labels, the error, the
// passes, the panel votes, the criteria names, the lengths of the responses. Every figure computed
// from the kept values equals the figure computed from the full record.
import type { DatasetRecord } from '../dataset/types';
import { LENGTH_OF, TEXT_FIELDS, type TextField } from './bias';
import { isBlank, jsonCell } from './labels';
import { VERDICT_COLUMN_NAMES } from '../results/verdict';

export type Keep =
  | 'value' // as it is: labels, _row, flip rates
  | 'length' // a text: only its length (kept under a symbol, see bias.ts)
  | 'blank' // m/error: only whether it is blank
  | 'kind' // m/error_kind: a short code
  | 'passes' // m/passes: order, winner (sample, error kind) of each
  | 'rules' // m/rule_violations: the rule of each
  | 'judges' // m/judges: judge and verdict of each
  | 'names' // m/criteria: the criterion names
  | 'present' // another metric's label column: that it exists
  | 'key' // _key, for joining labels
  | 'drop';

/** One column name as calibration sees it; the same object for every line that has it. */
export interface Column {
  readonly key: string;
  readonly keep: Keep;
  /** Where the kept value goes in the slim record: the key, or the symbol of a length. */
  readonly name: string | symbol;
  readonly id: number;
}

/** The metric's columns the figures read as they are. */
const VALUE_SUFFIXES = [...VERDICT_COLUMN_NAMES, 'position_consistent', 'flip_rate', 'score_sd', 'score_rounded', 'template_hash'];
/** Columns of any metric that calibrate names when the requested one has none. */
const LABEL_SUFFIXES = VERDICT_COLUMN_NAMES.map((name) => `/${name}`);
/** Distinct column names remembered; past this a name is classified afresh on every line. */
const CACHE_LIMIT = 4096;

export class ColumnSet {
  private readonly known = new Map<string, Column>();
  private readonly prefix: string;
  private nextId = 0;

  constructor(metric: string, withKey: boolean, keep: readonly string[] = []) {
    const m = metric;
    this.prefix = `${m}/`;
    const fixed: [string, Keep][] = [
      ['_row', 'value'],
      [`${m}/error`, 'blank'],
      [`${m}/error_kind`, 'kind'],
      [`${m}/passes`, 'passes'],
      [`${m}/rule_violations`, 'rules'],
      [`${m}/judges`, 'judges'],
      [`${m}/criteria`, 'names'],
      ...VALUE_SUFFIXES.map((s): [string, Keep] => [`${m}/${s}`, 'value']),
      ...TEXT_FIELDS.map((f): [string, Keep] => [f, 'length']),
    ];
    if (withKey) fixed.push(['_key', 'key']);
    // A grouping column (`--by`) the figures are split by; a metric column of the same name keeps its own rule.
    for (const key of keep) if (!fixed.some(([k]) => k === key)) fixed.push([key, 'value']);
    for (const [key, keep] of fixed) if (!this.known.has(key)) this.known.set(key, this.make(key, keep));
  }

  /** The column for `key`; the same object each time while the set has room. */
  get(key: string): Column {
    const known = this.known.get(key);
    if (known !== undefined) return known;
    const column = this.make(key, this.classify(key));
    if (this.known.size < CACHE_LIMIT) this.known.set(key, column);
    return column;
  }

  private make(key: string, keep: Keep): Column {
    return { key, keep, name: keep === 'length' ? LENGTH_OF[key as TextField] : key, id: this.nextId++ };
  }

  private classify(key: string): Keep {
    const p = this.prefix;
    // A criterion's columns: m/score_<c> and m/human_rating/<c>.
    if (key.startsWith(p) && (key.startsWith(`${p}score_`) || key.startsWith(`${p}human_rating/`))) return 'value';
    if (LABEL_SUFFIXES.some((s) => key.endsWith(s) && key.length > s.length)) return 'present';
    return 'drop';
  }
}

/** `__proto__` is an own column when JSON.parse makes it, and must stay one. */
export function put(out: DatasetRecord, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Sets a kept value in a slim record: a length under its symbol (undefined: no text, no length). */
export function setKept(out: DatasetRecord, column: Column, value: unknown): void {
  if (typeof column.name === 'string') return put(out, column.name, value);
  const lengths = out as Record<symbol, unknown>;
  if (value === undefined) delete lengths[column.name];
  else lengths[column.name] = value;
}

const CODE = /^[a-z-]{1,40}$/;

/** What is kept of a column's value (not for `length`, `key` or `drop`). */
export function keptValue(keep: Keep, value: unknown): unknown {
  switch (keep) {
    case 'blank':
      return isBlank(value) ? null : true;
    case 'kind':
      // calibrate counts a failure under its kind when it looks like one, else as "unknown".
      return typeof value === 'string' && CODE.test(value) ? value : null;
    case 'passes':
      // Sample and error kind too, when a line has them: `calibrate --swap-rule` re-aggregates from them.
      return each(jsonCell(value), (p) => ({ order: p.order, winner: p.winner, ...(p.sample !== undefined ? { sample: p.sample } : {}), ...(p.error_kind !== undefined ? { error_kind: p.error_kind } : {}) }));
    case 'rules':
      return each(jsonCell(value), (v) => ({ rule: v.rule }));
    case 'judges':
      return Array.isArray(value) ? each(value, (j) => ({ judge: j.judge, verdict: j.verdict })) : null;
    case 'names': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
      const names: DatasetRecord = {};
      for (const k of Object.keys(value)) put(names, k, true);
      return names;
    }
    case 'present':
      return null;
    default:
      return value;
  }
}

/** A list with only the named fields of its objects (anything else in it becomes null); null when not a list. */
function each(value: unknown, pick: (item: Record<string, unknown>) => Record<string, unknown>): unknown[] | null {
  if (!Array.isArray(value)) return null;
  return (value as unknown[]).map((item) => (typeof item === 'object' && item !== null ? pick(item as Record<string, unknown>) : null));
}
