// Slim rows kept as columns of typed arrays: the lines of a results file keep the same columns in
// the same order (a layout), so a row is a few numbers in its layout's columns, not an object of
// its own. A million rows cost tens of megabytes and no garbage-collection work; each row becomes
// a record again only while it is being read.
import type { DatasetRecord } from '../dataset/types';
import { setKept, type Column } from './columns';

/** Layouts per file; a file whose lines keep ever new columns stores the rest as records. */
const MAX_LAYOUTS = 256;
/** Distinct non-numeric values a column codes (labels, kinds, null, true); the rest go to a map. */
const MAX_CODES = 4096;
/** Only short texts are coded: a long one is rare and kept as it is. */
const CODED_TEXT = 64;
/** Code of a value kept in the column's map (a list, an object, a long text). */
const OTHER = 0xffff;

/**
 * One kept column of a layout: 32-bit integers (labels, lengths, `_row`) in `ints` until another
 * number comes, then all numbers in `floats`; anything else by a code, once a column has one.
 */
class ValueColumn {
  private ints: Int32Array;
  private floats: Float64Array | undefined;
  /** 0 (or none): the value is a number; 1…MAX_CODES: values[code]; OTHER: others.get(r). */
  private codes: Uint16Array | undefined;
  private readonly coded = new Map<unknown, number>();
  private readonly values: unknown[] = [undefined];
  private others: Map<number, unknown> | undefined;

  constructor(private size: number) {
    this.ints = new Int32Array(size);
  }

  set(r: number, value: unknown): void {
    if (typeof value === 'number') {
      if (this.floats) this.floats[r] = value;
      else if ((value | 0) === value && !Object.is(value, -0)) this.ints[r] = value;
      else {
        this.floats = Float64Array.from(this.ints);
        this.floats[r] = value;
      }
      if (this.codes) this.codes[r] = 0;
      return;
    }
    let code = this.coded.get(value);
    if (code === undefined && codable(value) && this.values.length <= MAX_CODES) {
      code = this.values.length;
      this.values.push(value);
      this.coded.set(value, code);
    }
    if (code === undefined) {
      (this.others ??= new Map()).set(r, value);
      code = OTHER;
    }
    (this.codes ??= new Uint16Array(this.size))[r] = code;
  }

  get(r: number): unknown {
    const code = this.codes ? this.codes[r]! : 0;
    if (code === 0) return this.floats ? this.floats[r] : this.ints[r];
    return code === OTHER ? this.others?.get(r) : this.values[code];
  }

  grow(size: number): void {
    this.size = size;
    this.ints = widen(this.ints, new Int32Array(size));
    if (this.floats) this.floats = widen(this.floats, new Float64Array(size));
    if (this.codes) this.codes = widen(this.codes, new Uint16Array(size));
  }
}

function widen<T extends Int32Array | Float64Array | Uint16Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

function codable(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'boolean' || (typeof value === 'string' && value.length <= CODED_TEXT);
}

interface Layout {
  readonly columns: readonly Column[];
  readonly values: ValueColumn[];
  rows: number;
  capacity: number;
  /** Position of the last `_row` column (the one JSON.parse keeps), or -1. */
  readonly rowAt: number;
}

export class SlimRows {
  private readonly layouts: Layout[] = [];
  private readonly bySignature = new Map<string, number>();
  private last = -1;
  private layoutOf: Uint16Array;
  private rowOf: Int32Array;
  private count = 0;

  /**
   * `expectedRows`: how many rows the file likely holds (readForCalibration estimates it from its
   * size), so the arrays are made once instead of copied at each doubling. Pages never written
   * are never touched, so an estimate too high costs address space, not memory.
   */
  constructor(private readonly expectedRows = 1024) {
    this.layoutOf = new Uint16Array(Math.max(1024, expectedRows));
    this.rowOf = new Int32Array(Math.max(1024, expectedRows));
  }

  /**
   * Stores the first `n` kept values of a line (in line order; a repeated key as often as it
   * appears); the row's index, or undefined when the line needs a record of its own.
   */
  add(columns: readonly Column[], values: readonly unknown[], n: number): number | undefined {
    const id = this.layoutFor(columns, n);
    if (id === undefined) return undefined;
    const layout = this.layouts[id]!;
    if (layout.rows === layout.capacity) {
      layout.capacity *= 2;
      for (const c of layout.values) c.grow(layout.capacity);
    }
    const r = layout.rows++;
    for (let k = 0; k < n; k++) layout.values[k]!.set(r, values[k]);
    const index = this.count++;
    if (index === this.layoutOf.length) this.grow();
    this.layoutOf[index] = id;
    this.rowOf[index] = r;
    return index;
  }

  /** The row as a slim record: its values set in line order, so a repeated key ends with its last value. */
  record(index: number): DatasetRecord {
    const layout = this.layouts[this.layoutOf[index]!]!;
    const r = this.rowOf[index]!;
    const { columns, values } = layout;
    const out: DatasetRecord = {};
    for (let k = 0; k < columns.length; k++) setKept(out, columns[k]!, values[k]!.get(r));
    return out;
  }

  /** The row's `_row` value, or undefined when it has none. */
  runRow(index: number): unknown {
    const layout = this.layouts[this.layoutOf[index]!]!;
    return layout.rowAt < 0 ? undefined : layout.values[layout.rowAt]!.get(this.rowOf[index]!);
  }

  private layoutFor(columns: readonly Column[], n: number): number | undefined {
    const last = this.layouts[this.last];
    if (last && same(last.columns, columns, n)) return this.last;
    let signature = '';
    for (let k = 0; k < n; k++) signature += `${columns[k]!.id},`;
    let id = this.bySignature.get(signature);
    if (id === undefined) {
      if (this.layouts.length >= MAX_LAYOUTS) return undefined;
      const kept = columns.slice(0, n);
      let rowAt = -1;
      kept.forEach((c, k) => {
        if (c.name === '_row') rowAt = k;
      });
      id = this.layouts.length;
      // Most files have one layout: the first gets the expected rows, later ones start small.
      const capacity = id === 0 ? Math.max(1024, this.expectedRows) : 1024;
      this.layouts.push({ columns: kept, values: kept.map(() => new ValueColumn(capacity)), rows: 0, capacity, rowAt });
      this.bySignature.set(signature, id);
    }
    this.last = id;
    return id;
  }

  private grow(): void {
    const size = this.layoutOf.length * 2;
    const layoutOf = new Uint16Array(size);
    layoutOf.set(this.layoutOf);
    const rowOf = new Int32Array(size);
    rowOf.set(this.rowOf);
    this.layoutOf = layoutOf;
    this.rowOf = rowOf;
  }
}

function same(a: readonly Column[], b: readonly Column[], n: number): boolean {
  if (a.length !== n) return false;
  for (let k = 0; k < n; k++) if (a[k] !== b[k]) return false;
  return true;
}
