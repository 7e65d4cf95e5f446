// A JSON file holding one array of objects. The file is read whole: JSON.parse needs the full
// document, and a file that is not one valid array is unreadable input rather than a list of skips.
import { LineIndex } from '../text';
import { INVALID_UTF8, jsonProblem, kindOf, nestsDeeperThan, skip, tooDeep } from './messages';
import { DatasetError, LIMITS, type ChunkReader, type DatasetItem, type ReaderLimits } from './types';

export class JsonReader implements ChunkReader {
  private readonly chunks: string[] = [];
  private chars = 0;
  private readonly invalidUtf8 = new Set<number>();

  constructor(private readonly limits: ReaderLimits & { fileChars?: number } = {}) {}

  flagInvalidUtf8(line: number): void {
    this.invalidUtf8.add(line);
  }

  push(chunk: string): DatasetItem[] {
    this.chars += chunk.length;
    const max = this.limits.fileChars ?? LIMITS.jsonFileChars;
    if (this.chars > max) {
      throw new DatasetError(
        `a .json file is read whole, and this one is longer than ${max.toLocaleString('en-US')} characters; ` +
          'write it as JSON Lines (.jsonl, one object per line), which is read one record at a time',
        undefined,
        'file-too-large',
      );
    }
    this.chunks.push(chunk);
    return [];
  }

  end(): DatasetItem[] {
    return parseJsonArray(this.chunks.join(''), this.limits.depth, this.invalidUtf8);
  }
}

export function parseJsonArray(text: string, maxDepth: number = LIMITS.depth, invalidUtf8: ReadonlySet<number> = new Set()): DatasetItem[] {
  if (text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const p = jsonProblem(e);
    if (p.position === undefined) {
      throw new DatasetError(`invalid JSON (${p.message}); the file must be a JSON array of objects`, undefined, 'invalid-json');
    }
    const at = new LineIndex(text).position(p.position);
    throw new DatasetError(
      `line ${at.line}, column ${at.column}: invalid JSON (${p.message}); the file must be a JSON array of objects`,
      at.line,
      'invalid-json',
    );
  }
  if (!Array.isArray(value)) {
    throw new DatasetError(
      `expected a JSON array of objects ([{...}, {...}]) but the file holds ${kindOf(value)}; ` +
        'wrap the records in [ ], or write one object per line in a .jsonl file',
      1,
      'not-an-array',
    );
  }
  const lines = new LineIndex(text);
  const starts = elementOffsets(text);
  const lineOf = (i: number): number => lines.position(starts[i] ?? text.length).line;
  return value.map((element: unknown, i): DatasetItem => {
    const row = i + 1;
    const line = lineOf(i);
    if (invalidUtf8.size > 0) {
      // Up to the line before the next element; elements that share a line share its bad bytes.
      const last = i + 1 < starts.length ? Math.max(line, lineOf(i + 1) - 1) : Infinity;
      for (const bad of invalidUtf8) if (bad >= line && bad <= last) return skip(row, line, 'invalid-utf8', INVALID_UTF8);
    }
    if (kindOf(element) !== 'an object') {
      return skip(row, line, 'not-an-object', `element ${row} of the array is ${kindOf(element)}, not an object`);
    }
    if (nestsDeeperThan(element, maxDepth)) return skip(row, line, 'too-deep', tooDeep(maxDepth));
    return { row, line, record: element as Record<string, unknown> };
  });
}

/** Offsets where each top-level element of a valid JSON array starts (for line numbers). */
function elementOffsets(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let expecting = false; // inside the top-level array, before the next element
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (depth === 1 && expecting && c !== ']') {
      starts.push(i);
      expecting = false;
    }
    if (c === '"') {
      // Skip the string, escapes included, so brackets inside it are not counted.
      for (i++; i < text.length && text.charAt(i) !== '"'; i++) if (text.charAt(i) === '\\') i++;
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expecting = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expecting = true;
  }
  return starts;
}
