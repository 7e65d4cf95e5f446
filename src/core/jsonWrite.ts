// JSON text written in pieces: the same characters as JSON.stringify, without ever holding the
// whole text as one string. A row with a 50 MB field is hashed, sent and written as a few
// megabytes at a time instead of one more 50 MB string (and its copy as bytes) per step.

/** Characters of a long string quoted at a time: small enough that each piece is a young object, freed by the next minor collection. */
const PIECE = 1 << 15;
/** A value holding a longer string is written in pieces; shorter ones are written whole, as JSON.stringify does. */
const LARGE = 1 << 20;

/**
 * JSON.stringify(text), as pieces of at most about PIECE characters. Escaping is per character
 * but for surrogate pairs, which are never cut, so the pieces join to exactly the whole.
 */
export function writeJsonString(text: string, emit: (piece: string) => void): void {
  for (const piece of stringPieces(text)) emit(piece);
}

function* stringPieces(text: string): Generator<string> {
  if (text.length <= PIECE) return yield JSON.stringify(text);
  yield '"';
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + PIECE);
    const c = text.charCodeAt(to - 1);
    if (to < text.length && c >= 0xd800 && c <= 0xdbff) to--; // keep a high surrogate with its pair
    yield JSON.stringify(text.slice(from, to)).slice(1, -1);
    from = to;
  }
  yield '"';
}

/**
 * JSON.stringify(value) for plain data, as pieces: strings through writeJsonString, everything else
 * as JSON.stringify writes it (key order, undefined and functions left out of objects and null in
 * arrays, toJSON). Values without long strings are written whole, in one piece.
 */
export function writeJson(value: unknown, emit: (piece: string) => void): void {
  for (const piece of jsonPieces(value)) emit(piece);
}

/** The pieces of writeJson, made as they are taken. */
export function* jsonPieces(value: unknown, key = ''): Generator<string> {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  if (typeof value === 'string') return yield* stringPieces(value);
  if (value === null || typeof value !== 'object' || !holdsLongString(value, 0)) {
    const text = JSON.stringify(value);
    if (text !== undefined) yield text;
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (i > 0) yield ',';
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') yield 'null';
      else yield* jsonPieces(v, String(i));
    }
    return yield ']';
  }
  yield '{';
  let first = true;
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(k)}:`;
    first = false;
    yield* jsonPieces(v, k);
  }
  yield '}';
}

/** Whether a long string is somewhere in `value` (only those are worth writing in pieces). */
function holdsLongString(value: object, depth: number): boolean {
  if (depth > 64) return false; // deep values are written whole, by JSON.stringify itself
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    if (typeof v === 'string' ? v.length > LARGE : v !== null && typeof v === 'object' && holdsLongString(v as object, depth + 1)) return true;
  }
  return false;
}

/** Characters gathered per chunk by jsonChunks: with its last piece, still a young object. */
const CHUNK = 1 << 15;

/**
 * The UTF-8 bytes of JSON.stringify(value) + suffix, some 32 KB at a time: a line with a
 * 50 MB field is written (or sent) without the whole text, or all its bytes, in memory at once.
 */
export function* jsonChunks(value: unknown, suffix = ''): Generator<Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  let batch: string[] = [];
  let size = 0;
  for (const piece of jsonPieces(value)) {
    batch.push(piece);
    size += piece.length;
    if (size >= CHUNK) {
      yield encoder.encode(batch.join(''));
      batch = [];
      size = 0;
    }
  }
  batch.push(suffix);
  const rest = batch.join('');
  if (rest !== '') yield encoder.encode(rest);
}

/**
 * A request body for a value with a huge text: its bytes as a stream made chunk by chunk, and
 * their count (sent as content-length, so the request is as a plain body would be).
 */
export function jsonStream(value: unknown): { stream: ReadableStream<Uint8Array>; length: number } {
  const body = jsonBody(value);
  const chunks = body.chunks()[Symbol.iterator]();
  const length = body.length;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return { stream, length };
}

/** A request body made chunk by chunk (for node:http), with its length in bytes. */
export interface ChunkedBody {
  length: number;
  chunks(): Iterable<Uint8Array>;
}

/** JSON.stringify(value) as a ChunkedBody: the bytes are counted first, then made again as they are sent. */
export function jsonBody(value: unknown): ChunkedBody {
  let length = 0;
  writeJson(value, (piece) => void (length += Buffer.byteLength(piece, 'utf8')));
  return { length, chunks: () => jsonChunks(value) };
}

/** Whether `value` holds a text long enough to be written in pieces (jsonChunks, jsonStream). */
export function holdsLargeText(value: unknown): boolean {
  return typeof value === 'string' ? value.length > LARGE : value !== null && typeof value === 'object' && holdsLongString(value, 0);
}
