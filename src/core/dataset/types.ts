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

/**
 * Why a record was skipped; stable codes (add more, never rename), so a run summary can count
 * skips by reason and users can filter on them.
 */
export const SKIP_REASONS = [
  'invalid-json',
  'not-an-object',
  'too-deep',
  'invalid-utf8',
  'nul-byte',
  'line-too-long',
  'unterminated-quote',
  'text-after-quote',
  'field-count',
] as const;

export type SkipReason = (typeof SKIP_REASONS)[number];

export interface DatasetSkip {
  row: number;
  line: number;
  reason: SkipReason;
  /** What is wrong and what to do, e.g. "line 7: invalid JSON (Unexpected token } at column 12); the row is skipped". Printable: input quoted in it is escaped and cut. */
  error: string;
}

export type DatasetItem = DatasetRow | DatasetSkip;

export function isSkip(item: DatasetItem): item is DatasetSkip {
  return 'error' in item;
}

/**
 * Why a whole file cannot be read as a dataset; stable codes. `binary-file` and
 * `unsupported-encoding` are found from the first 8 KB, before any row is read.
 */
export type DatasetErrorCode =
  | 'binary-file'
  | 'unsupported-encoding'
  | 'unsupported-format'
  | 'file-unreadable'
  | 'file-too-large'
  | 'invalid-json'
  | 'not-an-array'
  | 'bad-header';

/** The file as a whole cannot be read as a dataset (a JSON file that is not an array, a bad CSV header, not text): unreadable input. */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';

  constructor(
    message: string,
    /** 1-based line the problem is on, when known. */
    readonly line?: number,
    readonly code: DatasetErrorCode = 'file-unreadable',
  ) {
    super(message);
  }
}

/** Turns text chunks into dataset items; chunks may split a line or a character pair (CRLF) anywhere. */
export interface ChunkReader {
  push(chunk: string): DatasetItem[];
  /** Flushes what is left at end of input. */
  end(): DatasetItem[];
  /**
   * Marks a 1-based line as holding bytes that are not valid UTF-8 (found while decoding), so the
   * record on it is skipped with reason `invalid-utf8`. Called before the line's text is pushed.
   */
  flagInvalidUtf8?(line: number): void;
}

/** Limits every reader applies; documented in the README ("Large files"). */
export const LIMITS = {
  /** Characters in one record (a JSONL line, a CSV record): 64 Mi. */
  recordChars: 64 * 1024 * 1024,
  /** Nesting of arrays and objects in one record. */
  depth: 256,
  /** A .json array is read whole; past this size it must be JSON Lines (V8 strings stop near 512 Mi characters). */
  jsonFileChars: 256 * 1024 * 1024,
} as const;

export interface ReaderLimits {
  recordChars?: number;
  depth?: number;
}

/**
 * What a reader keeps of each record, for readers of many rows that need a few columns (calibration).
 * Records keep their row and line numbers and every skip is reported as without a shape.
 */
export interface RecordShape {
  /** A JSON Lines line made into the shaped record directly, or undefined to parse it and call `shape`. */
  fromLine?(text: string): DatasetRecord | undefined;
  shape(record: DatasetRecord): DatasetRecord;
}
