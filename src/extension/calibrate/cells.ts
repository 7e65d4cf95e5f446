// The rows behind each confusion cell, so a click on a cell can list them. Labels are read with
// the core's own parsers, so every row lands in the cell the report counted it in.
import type { CalibrationKind, Label } from '../../core/calibration';
import { columnsFor, isLabel, parseChoice, parseRating } from '../../core/calibration/labels';
import type { DatasetRecord, DatasetRow } from '../../core/dataset';
import type { CellRow, FailedRow } from '../../protocol/calibrate';

export const PROMPT_CHARS = 160;
export const JUSTIFICATION_CHARS = 300;
/** Rows sent per cell; a cell may hold thousands, and a list that long helps nobody. */
export const CELL_ROW_LIMIT = 200;

/** Fields that hold the input when there is no `prompt` column. */
const PROMPT_FIELDS = ['prompt', 'input', 'question', 'instruction', 'query'];

export class CellIndex {
  private cells: Map<string, CellRow[]> | undefined;
  private readonly places = new Map<number, RowPlace>();
  /** Rows whose judge call failed, in file order (the first CELL_ROW_LIMIT). */
  readonly failed: FailedRow[] = [];
  failedTotal = 0;

  /**
   * The failed rows are listed at once (only rows with an error are looked at); the cells are
   * built on the first click: a 100,000-row file re-calibrated while a batch appends would
   * otherwise hold the extension host for a few hundred ms on every update.
   */
  constructor(
    private readonly source: readonly DatasetRow[],
    private readonly metric: string,
    private readonly kind: CalibrationKind,
  ) {
    const parse = kind === 'pointwise' ? parseRating : parseChoice;
    const judgeColumn = columnsFor(metric, kind).judge;
    for (const { row, line, record } of source) {
      const error = record[`${metric}/error`];
      // The rows the report skips as "where the judge failed": an error and no judge label.
      if (typeof error !== 'string' || error.trim() === '' || isLabel(parse(record[judgeColumn]))) continue;
      const datasetRow = runRowOf(record) ?? row;
      this.places.set(row, { line, runRow: datasetRow });
      this.failedTotal++;
      const kindValue = record[`${metric}/error_kind`];
      if (this.failed.length < CELL_ROW_LIMIT) {
        this.failed.push({ row, datasetRow, line, errorKind: typeof kindValue === 'string' && kindValue !== '' ? kindValue : null, message: shorten(error, JUSTIFICATION_CHARS) });
      }
    }
  }

  private index(): Map<string, CellRow[]> {
    if (this.cells) return this.cells;
    const cells = new Map<string, CellRow[]>();
    const { metric, kind } = this;
    const columns = columnsFor(metric, kind);
    const parse = kind === 'pointwise' ? parseRating : parseChoice;
    for (const { row, line, record } of this.source) {
      const human = parse(record[columns.human]);
      const judge = parse(record[columns.judge]);
      if (!isLabel(human) || !isLabel(judge)) continue;
      const datasetRow = runRowOf(record) ?? row;
      const entry: CellRow = { row, datasetRow, line, prompt: promptOf(record), human, judge, justification: justificationOf(record, metric) };
      const key = cellKey(human, judge);
      const list = cells.get(key);
      if (list) list.push(entry);
      else cells.set(key, [entry]);
      this.places.set(row, { line, runRow: datasetRow });
    }
    // Results files are appended as rows finish, so file order is not row order: list by row number.
    for (const list of cells.values()) list.sort(byRowNumber);
    this.cells = cells;
    return cells;
  }

  /** The first `limit` rows of a cell by row number (`_row`, then place in the file), and how many it holds in all. */
  rows(human: Label, judge: Label, limit = CELL_ROW_LIMIT): { total: number; rows: CellRow[] } {
    const list = this.index().get(cellKey(human, judge)) ?? [];
    return { total: list.length, rows: list.slice(0, limit) };
  }

  /** Where a labelled row is: its line in the file, and the row number the run view knows it by. */
  locate(row: number): RowPlace | undefined {
    this.index();
    return this.places.get(row);
  }
}

export interface RowPlace {
  /** 1-based line the record starts on. */
  line: number;
  /** The input dataset's row (`_row`, written by a run) when the record has one, else the row in this file. */
  runRow: number;
}

function runRowOf(record: DatasetRecord): number | undefined {
  const value = record['_row'];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function byRowNumber(a: CellRow, b: CellRow): number {
  return a.datasetRow - b.datasetRow || a.row - b.row;
}

function cellKey(human: Label, judge: Label): string {
  return JSON.stringify([human, judge]);
}

function promptOf(record: DatasetRecord): string {
  for (const field of PROMPT_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') return shorten(value, PROMPT_CHARS);
  }
  // No usual input column: the first text field that is not a metric column.
  for (const [key, value] of Object.entries(record)) {
    if (!key.includes('/') && typeof value === 'string') return shorten(value, PROMPT_CHARS);
  }
  return '';
}

function justificationOf(record: DatasetRecord, metric: string): string {
  const justification = record[`${metric}/justification`];
  if (typeof justification === 'string' && justification.trim() !== '') return shorten(justification, JUSTIFICATION_CHARS);
  const error = record[`${metric}/error`];
  if (typeof error === 'string' && error.trim() !== '') return shorten(`error: ${error}`, JUSTIFICATION_CHARS);
  return '';
}

/** One line of at most `max` characters (code points), whitespace collapsed, cut with an ellipsis. */
export function shorten(text: string, max: number): string {
  // Only the head is looked at: a row's text may be megabytes long.
  const headLength = max * 4;
  const flat = text.slice(0, headLength).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= max && text.length <= headLength) return flat;
  return `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}
