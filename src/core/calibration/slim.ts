// What calibration keeps of each row (columns.ts), made straight from a JSON Lines line when a
// strict scan can read it (scan.ts), else from the record JSON.parse makes. A million-row file is
// held until its end (the last line per `_row` stands), so the kept values of scanned lines go
// into a SlimRows store instead of an object per row.
import { keyOf } from '../labels/queue';
import { LIMITS, type DatasetRecord, type RecordShape } from '../dataset/types';
import { codePointLength, textLength, type TextField } from './bias';
import { ColumnSet, keptValue, put, setKept, type Column } from './columns';
import { LITERAL, NESTED, NUMBER, ObjectScanner, STRING, type ValueType } from '../dataset/scan';
import { SlimRows } from './store';
import { LineTemplate, type ShapeMember } from './template';

export interface SlimSpec {
  /** The metric being calibrated (for a multi-criterion judge, its base name). */
  metric: string;
  /** Labels are joined by `_key`: keep it, computed from these input fields when a line has none. */
  keys?: { fields: readonly string[] | undefined };
  /** Dataset columns kept as they are (`calibrate --by COLUMN`). */
  keep?: readonly string[];
}

/** The record fromLine gives for a row it stored: only LatestRows reads it. */
export const STORED: unique symbol = Symbol('row in the slim store');

/** Members remembered by position, to recognise the next line's keys without slicing them out. */
const PREDICTED = 256;
/** Longer lines are left to the scan: its indexOf is faster than a regular expression over megabytes. */
const TEMPLATE_CHARS = 1 << 20;
/** Templates made from lines of new shapes before the file is left to the scan alone. */
const TEMPLATES = 64;

export class Slimmer implements RecordShape {
  readonly store: SlimRows;
  private readonly columns: ColumnSet;
  private readonly scanner: ObjectScanner;
  private readonly predicted: (Column | undefined)[] = [];
  // The line being read by fromLine, and what it kept so far.
  private text = '';
  private ordinal = 0;
  private kept = 0;
  private readonly keptColumns: Column[] = [];
  private readonly keptValues: unknown[] = [];
  private rawKey: unknown;
  private hasKey = false;
  /** The shape of the line last read by the scan, when a template may be made from it. */
  private lineShape: ShapeMember[] | undefined;
  private template: LineTemplate | undefined;
  private templatesMade = 0;

  constructor(
    readonly spec: SlimSpec,
    maxDepth: number = LIMITS.depth,
    /** How many rows the file likely holds (SlimRows). */
    expectedRows?: number,
  ) {
    this.store = new SlimRows(expectedRows);
    this.columns = new ColumnSet(spec.metric, spec.keys !== undefined, spec.keep);
    this.scanner = new ObjectScanner(maxDepth);
  }

  /**
   * The slim record straight from a JSON Lines line, without parsing the columns it drops: equal to
   * `shape(JSON.parse(text))`, or a `{[STORED]: index}` stand-in for a row kept in the store.
   * Undefined when the line is not plainly valid JSON (or its key must be computed from the full
   * row): the reader then parses it and calls `shape`.
   */
  fromLine(text: string): DatasetRecord | undefined {
    // A line of the shape of the last one the scan read: one native match (template.ts).
    const template = this.template;
    if (template && text.length <= TEMPLATE_CHARS && template.match(text, this.keptValues)) return this.stored(template.columns, template.columns.length);
    // Joining labels needs each row's key, which only the scan handles: no templates then.
    this.lineShape = this.spec.keys === undefined && this.templatesMade < TEMPLATES ? [] : undefined;
    const record = this.scanned(text);
    const shape = this.lineShape;
    this.lineShape = undefined;
    if (record !== undefined && shape !== undefined && text.length <= TEMPLATE_CHARS) {
      const made = LineTemplate.from(shape);
      // A line with white space between its tokens is not matched by its own template: then none.
      if (made?.match(text, [])) {
        this.template = made;
        this.templatesMade++;
      }
    }
    return record;
  }

  private scanned(text: string): DatasetRecord | undefined {
    this.text = text;
    this.ordinal = 0;
    this.kept = 0;
    this.hasKey = false;
    this.rawKey = undefined;
    const ok = this.scanner.scan(text, this.member);
    this.text = '';
    if (!ok) return undefined;
    const keys = this.spec.keys;
    if (keys) {
      // A valid `_key` is the key; without one, the key comes from the input fields: parse the row.
      const valid = this.hasKey ? keyOf({ _key: this.rawKey }, undefined) : undefined;
      if (valid !== undefined) this.keep(this.columns.get('_key'), valid);
      else if (keys.fields) return undefined;
      else if (this.hasKey) this.keep(this.columns.get('_key'), this.rawKey);
    }
    return this.stored(this.keptColumns, this.kept);
  }

  /** The first `n` kept values in the store (a stand-in record), or as a record when it is full. */
  private stored(columns: readonly Column[], n: number): DatasetRecord {
    const index = this.store.add(columns, this.keptValues, n);
    if (index !== undefined) return { [STORED]: index } as unknown as DatasetRecord;
    const out: DatasetRecord = {};
    for (let k = 0; k < n; k++) setKept(out, columns[k]!, this.keptValues[k]);
    return out;
  }

  /** The record as calibration needs it, from a parsed record. */
  shape(record: DatasetRecord): DatasetRecord {
    const out: DatasetRecord = {};
    for (const key of Object.keys(record)) {
      const column = this.columns.get(key);
      if (column.keep === 'drop' || column.keep === 'key') continue;
      if (column.keep === 'length') setKept(out, column, textLength(record, key as TextField));
      else put(out, key, keptValue(column.keep, record[key]));
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

  private readonly member = (keyStart: number, keyEnd: number, keyEscaped: boolean, start: number, end: number, type: ValueType, escaped: boolean): void => {
    const column = this.columnAt(keyStart, keyEnd, keyEscaped);
    const t = this.text;
    if (this.lineShape) {
      if (keyEscaped) this.lineShape = undefined;
      else this.lineShape.push({ rawKey: column.key, column, type });
    }
    switch (column.keep) {
      case 'drop':
        return;
      case 'length':
        // A later duplicate key wins, as in JSON.parse: a value that is not a string has no length.
        return this.keep(column, type === STRING ? codePointLength(escaped ? (JSON.parse(t.slice(start, end)) as string) : t.slice(start + 1, end - 1)) : undefined);
      case 'key':
        this.hasKey = true;
        this.rawKey = decode(t, start, end, type);
        return;
      case 'present':
        return this.keep(column, null);
      case 'blank':
        if (type === STRING && !escaped) return this.keep(column, keptValue('blank', t.slice(start + 1, end - 1)));
        return this.keep(column, keptValue('blank', decode(t, start, end, type)));
      default:
        return this.keep(column, keptValue(column.keep, decode(t, start, end, type)));
    }
  };

  private keep(column: Column, value: unknown): void {
    this.keptColumns[this.kept] = column;
    this.keptValues[this.kept] = value;
    this.kept++;
  }

  /** The column of the key at `[keyStart, keyEnd)`: usually the one at the same place on the line before. */
  private columnAt(keyStart: number, keyEnd: number, keyEscaped: boolean): Column {
    const t = this.text;
    const ordinal = this.ordinal++;
    const guess = ordinal < PREDICTED ? this.predicted[ordinal] : undefined;
    if (guess !== undefined && !keyEscaped && guess.key.length === keyEnd - keyStart - 2 && t.startsWith(guess.key, keyStart + 1)) return guess;
    const key = keyEscaped ? (JSON.parse(t.slice(keyStart, keyEnd)) as string) : t.slice(keyStart + 1, keyEnd - 1);
    const column = this.columns.get(key);
    if (ordinal < PREDICTED) this.predicted[ordinal] = column;
    return column;
  }
}

/** The store index of a record fromLine stood in for a stored row. */
export function storedIndex(record: DatasetRecord): number | undefined {
  const index = (record as Record<symbol, unknown>)[STORED];
  return typeof index === 'number' ? index : undefined;
}

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
