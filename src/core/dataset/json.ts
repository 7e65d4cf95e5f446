// A JSON file holding one array of objects. The file is read whole: JSON.parse needs the full
// document, and a file that is not one valid array is unreadable input rather than a list of skips.
import { LineIndex } from '../text';
import { jsonProblem, kindOf, skip } from './messages';
import { DatasetError, type ChunkReader, type DatasetItem } from './types';

export class JsonReader implements ChunkReader {
  private readonly chunks: string[] = [];

  push(chunk: string): DatasetItem[] {
    this.chunks.push(chunk);
    return [];
  }

  end(): DatasetItem[] {
    return parseJsonArray(this.chunks.join(''));
  }
}

export function parseJsonArray(text: string): DatasetItem[] {
  if (text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const p = jsonProblem(e);
    if (p.position === undefined) {
      throw new DatasetError(`invalid JSON (${p.message}); the file must be a JSON array of objects`);
    }
    const at = new LineIndex(text).position(p.position);
    throw new DatasetError(
      `line ${at.line}, column ${at.column}: invalid JSON (${p.message}); the file must be a JSON array of objects`,
      at.line,
    );
  }
  if (!Array.isArray(value)) {
    throw new DatasetError(
      `expected a JSON array of objects ([{...}, {...}]) but the file holds ${kindOf(value)}; ` +
        'wrap the records in [ ], or write one object per line in a .jsonl file',
      1,
    );
  }
  const lines = new LineIndex(text);
  const starts = elementOffsets(text);
  return value.map((element: unknown, i): DatasetItem => {
    const row = i + 1;
    const line = lines.position(starts[i] ?? 0).line;
    if (kindOf(element) !== 'an object') {
      return skip(row, line, `element ${row} of the array is ${kindOf(element)}, not an object`);
    }
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
