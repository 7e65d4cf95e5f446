// A dataset is read as a stream of numbered items; a malformed record keeps its number.

export type DatasetRecord = Record<string, unknown>;

export type DatasetFormat = 'jsonl' | 'json' | 'csv';

export interface DatasetRow {
  /** 1-based row number in file order (JSONL: Nth non-blank line; CSV: Nth record after the header; JSON: Nth element). */
  row: number;
  /** 1-based line in the file where the record starts. */
  line: number;
  record: DatasetRecord;
}

export interface DatasetSkip {
  row: number;
  line: number;
  /** What is wrong and what to do, e.g. "line 7: invalid JSON (Unexpected token } at column 12); the row is skipped". */
  error: string;
}

export type DatasetItem = DatasetRow | DatasetSkip;

export function isSkip(item: DatasetItem): item is DatasetSkip {
  return 'error' in item;
}

/** The file as a whole cannot be read as a dataset (a JSON file that is not an array, a bad CSV header): unreadable input. */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';

  constructor(
    message: string,
    /** 1-based line the problem is on, when known. */
    readonly line?: number,
  ) {
    super(message);
  }
}

/** Turns text chunks into dataset items; chunks may split a line or a character pair (CRLF) anywhere. */
export interface ChunkReader {
  push(chunk: string): DatasetItem[];
  /** Flushes what is left at end of input. */
  end(): DatasetItem[];
}
