// Pairs two results files row by row (`_row`; the last line per row stands) and refuses to pair
// rows whose inputs differ: comparing verdicts on different inputs would measure nothing.
import { isSkip, type DatasetItem, type DatasetRecord } from '../dataset/types';
import { canonicalJson, latestPerRow, rowOf } from '../results';

type Items = AsyncIterable<DatasetItem> | Iterable<DatasetItem>;

export interface PairedRow {
  row: number;
  a: DatasetRecord;
  b: DatasetRecord;
}

export interface PairSides {
  /** Rows present only in A or only in B (not compared). */
  onlyA: number[];
  onlyB: number[];
  /** Lines without a numeric `_row` or unreadable, per side. */
  unusableA: number;
  unusableB: number;
}

export type PairOutcome =
  | ({ ok: true; pairs: PairedRow[] } & PairSides)
  | { ok: false; code: 'inputs-differ'; error: string; rows: number[] };

/**
 * The fields that identify what was judged: every column that is not a metric column (`m/…`)
 * and not bookkeeping (`_row`, `_key`, …). Human labels are metric columns, so adding labels to one
 * file does not make its inputs differ.
 */
export function inputFields(record: DatasetRecord): string[] {
  return Object.keys(record).filter((k) => !k.includes('/') && !k.startsWith('_'));
}

export function inputsOf(record: DatasetRecord): string {
  const picked: DatasetRecord = {};
  for (const k of inputFields(record)) picked[k] = record[k];
  return canonicalJson(picked);
}

async function collect(open: () => Items): Promise<{ rows: Map<number, DatasetRecord>; unusable: number }> {
  const rows = new Map<number, DatasetRecord>();
  let unusable = 0;
  for await (const item of latestPerRow(open)) {
    if (isSkip(item)) {
      unusable++;
      continue;
    }
    const row = rowOf(item.record);
    if (row === undefined) unusable++;
    else rows.set(row, item.record);
  }
  return { rows, unusable };
}

/** `open` functions are called twice each (latestPerRow reads a file in two passes). */
export async function pairResults(openA: () => Items, openB: () => Items): Promise<PairOutcome> {
  const a = await collect(openA);
  const b = await collect(openB);
  const pairs: PairedRow[] = [];
  const differ: number[] = [];
  const onlyA: number[] = [];
  for (const [row, ra] of a.rows) {
    const rb = b.rows.get(row);
    if (rb === undefined) {
      onlyA.push(row);
      continue;
    }
    if (inputsOf(ra) !== inputsOf(rb)) differ.push(row);
    else pairs.push({ row, a: ra, b: rb });
  }
  const onlyB = [...b.rows.keys()].filter((row) => !a.rows.has(row));
  if (differ.length > 0) {
    differ.sort((x, y) => x - y);
    const shown = differ.slice(0, 10).join(', ') + (differ.length > 10 ? `, … (${differ.length} rows)` : '');
    return {
      ok: false,
      code: 'inputs-differ',
      rows: differ,
      error: `the inputs of row${differ.length === 1 ? '' : 's'} ${shown} differ between the two files; compare runs of the same dataset`,
    };
  }
  pairs.sort((x, y) => x.row - y.row);
  onlyA.sort((x, y) => x - y);
  onlyB.sort((x, y) => x - y);
  return { ok: true, pairs, onlyA, onlyB, unusableA: a.unusable, unusableB: b.unusable };
}
