// What calibration keeps of each row: the columns the figures read (labels, error, passes, panel
// votes, criteria, the lengths of the responses), nothing else. A million-row file is held until
// its end (the last line per `_row` stands), so a row costs a few small values, not its text.
// Every figure computed from a slim record equals the figure from the full record.
import { keyOf } from '../labels/queue';
import type { DatasetRecord } from '../dataset/types';
import { LIMITS, type RecordShape } from '../dataset/types';
import { codePointLength, LENGTH_OF, TEXT_FIELDS, textLength, type TextField } from './bias';
import { isBlank, jsonCell } from './labels';
import { LITERAL, NESTED, NUMBER, ObjectScanner, STRING, type ValueType } from './scan';

export interface SlimSpec {
  /** The metric being calibrated (for a multi-criterion judge, its base name). */
  metric: string;
  /** Labels are joined by `_key`: keep it, computed from these input fields when a line has none. */
  keys?: { fields: readonly string[] | undefined };
}

type Keep =
  | 'value' // as it is: labels, _row, flip rates
  | 'length' // a text: only its length
  | 'blank' // m/error: only whether it is blank
  | 'kind' // m/error_kind: a short code
  | 'passes' // m/passes: order and winner of each
  | 'rules' // m/rule_violations: the rule of each
  | 'judges' // m/judges: judge and verdict of each
  | 'names' // m/criteria: the criterion names
  | 'present' // another metric's label column: that it exists
  | 'key' // _key, for joining labels
  | 'drop';

/** The metric's columns the figures read as they are. */
const VALUE_SUFFIXES = ['human_rating', 'score', 'human_pairwise_choice', 'pairwise_choice', 'position_consistent', 'flip_rate', 'score_sd', 'score_rounded'];
/** Columns of any metric that calibrate names when the requested one has none. */
const LABEL_SUFFIXES = ['/human_rating', '/score', '/human_pairwise_choice', '/pairwise_choice'];
/** Distinct column names remembered; a file with a new name on every line is classified afresh. */
const CACHE_LIMIT = 4096;

export class Slimmer implements RecordShape {
  private readonly exact = new Map<string, Keep>();
  private readonly cache = new Map<string, Keep>();
  private readonly prefix: string;
  private readonly scanner: ObjectScanner;
  // The line being read by fromLine, and what it found so far.
  private text = '';
  private out: DatasetRecord = {};
  private hasKey = false;
  private rawKey: unknown;

  constructor(
    readonly spec: SlimSpec,
    maxDepth: number = LIMITS.depth,
  ) {
    this.scanner = new ObjectScanner(maxDepth);
    const m = spec.metric;
    this.prefix = `${m}/`;
    this.exact.set('_row', 'value');
    if (spec.keys) this.exact.set('_key', 'key');
    for (const f of TEXT_FIELDS) this.exact.set(f, 'length');
    for (const s of VALUE_SUFFIXES) this.exact.set(`${m}/${s}`, 'value');
    this.exact.set(`${m}/error`, 'blank');
    this.exact.set(`${m}/error_kind`, 'kind');
    this.exact.set(`${m}/passes`, 'passes');
    this.exact.set(`${m}/rule_violations`, 'rules');
    this.exact.set(`${m}/judges`, 'judges');
    this.exact.set(`${m}/criteria`, 'names');
  }

  /**
   * The slim record straight from a JSON Lines line, without parsing the columns it drops; the same
   * record `shape(JSON.parse(text))` gives. Undefined when the line is not plainly valid JSON (or
   * its key must be computed from the full row): the reader then parses it and calls `shape`.
   */
  fromLine(text: string): DatasetRecord | undefined {
    this.text = text;
    this.out = {};
    this.hasKey = false;
    this.rawKey = undefined;
    const ok = this.scanner.scan(text, this.member);
    const out = this.out;
    this.out = {};
    this.text = '';
    if (!ok) return undefined;
    const keys = this.spec.keys;
    if (keys) {
      // A valid `_key` is the key; without one, the key comes from the input fields: parse the row.
      const valid = this.hasKey ? keyOf({ _key: this.rawKey }, undefined) : undefined;
      if (valid !== undefined) out['_key'] = valid;
      else if (keys.fields) return undefined;
      else if (this.hasKey) out['_key'] = this.rawKey;
    }
    return out;
  }

  private readonly member = (key: string, start: number, end: number, type: ValueType, escaped: boolean): void => {
    const keep = this.keepOf(key);
    if (keep === 'drop') return;
    const t = this.text;
    const out = this.out;
    switch (keep) {
      case 'length': {
        // A later duplicate key wins, as in JSON.parse: a text that is not a string has no length.
        const symbol = LENGTH_OF[key as TextField];
        if (type === STRING) (out as Record<symbol, unknown>)[symbol] = codePointLength(escaped ? (JSON.parse(t.slice(start, end)) as string) : t.slice(start + 1, end - 1));
        else delete (out as Record<symbol, unknown>)[symbol];
        return;
      }
      case 'key':
        this.hasKey = true;
        this.rawKey = decode(t, start, end, type);
        return;
      case 'present':
        return put(out, key, null);
      case 'blank':
        if (type === STRING && !escaped) return put(out, key, isBlank(t.slice(start + 1, end - 1)) ? null : true);
        return put(out, key, slimValue(keep, decode(t, start, end, type)));
      default:
        return put(out, key, slimValue(keep, decode(t, start, end, type)));
    }
  };

  /** The record as calibration needs it. */
  shape(record: DatasetRecord): DatasetRecord {
    return this.slim(record);
  }

  /** The record as calibration needs it. */
  slim(record: DatasetRecord): DatasetRecord {
    const out: DatasetRecord = {};
    for (const key of Object.keys(record)) {
      const keep = this.keepOf(key);
      if (keep === 'drop') continue;
      if (keep === 'length') {
        const n = textLength(record, key as TextField);
        if (n !== undefined) (out as Record<symbol, unknown>)[LENGTH_OF[key as TextField]] = n;
        continue;
      }
      if (keep === 'key') continue; // set below, once
      put(out, key, slimValue(keep, record[key]));
    }
    const keys = this.spec.keys;
    if (keys) {
      // The key the join would compute from the full row (it needs the input fields, dropped here).
      const key = keyOf(record, keys.fields);
      if (key !== undefined) out['_key'] = key;
      else if (Object.hasOwn(record, '_key')) out['_key'] = record['_key'];
    }
    return out;
  }

  private keepOf(key: string): Keep {
    const known = this.exact.get(key) ?? this.cache.get(key);
    if (known !== undefined) return known;
    const keep = this.classify(key);
    if (this.cache.size < CACHE_LIMIT) this.cache.set(key, keep);
    return keep;
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
function put(out: DatasetRecord, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

const CODE = /^[a-z-]{1,40}$/;

/** A value the scan found, as JSON.parse makes it. */
function decode(t: string, start: number, end: number, type: ValueType): unknown {
  switch (type) {
    case NUMBER:
      return Number(t.slice(start, end)); // the scan checked JSON's number grammar: same double as JSON.parse
    case LITERAL:
      return t.charCodeAt(start) === 0x74 ? true : t.charCodeAt(start) === 0x66 ? false : null;
    case STRING:
    case NESTED:
      return JSON.parse(t.slice(start, end)) as unknown;
  }
}

function slimValue(keep: Exclude<Keep, 'length' | 'key' | 'drop'>, value: unknown): unknown {
  switch (keep) {
    case 'value':
      return value;
    case 'present':
      return null;
    case 'blank':
      return isBlank(value) ? null : true;
    case 'kind':
      // calibrate counts a failure under its kind when it looks like one, else as "unknown".
      return typeof value === 'string' && CODE.test(value) ? value : null;
    case 'passes':
      return each(jsonCell(value), (p) => ({ order: p.order, winner: p.winner }));
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
  }
}

/** A list with only the named fields of its objects (anything else in it becomes null); null when not a list. */
function each(value: unknown, pick: (item: Record<string, unknown>) => Record<string, unknown>): unknown[] | null {
  if (!Array.isArray(value)) return null;
  return (value as unknown[]).map((item) => (typeof item === 'object' && item !== null ? pick(item as Record<string, unknown>) : null));
}
