// Turning what the user highlighted into a dataset record for a template. Pure, so every rule is
// unit-tested: plain text becomes the response, a JSON object (or JSONL line) supplies the fields,
// and for pairwise two selections or two objects become responses A and B.
import type { DatasetRecord } from '../../../core/dataset/types';

export interface SelectionTarget {
  kind: 'pointwise' | 'pairwise';
  /** The two slot fields of a pairwise template: `response_a`/`response_b` or `baseline_model_response`/`response`. */
  pair: [string, string];
  /** Top-level fields the template body reads. */
  used: ReadonlySet<string>;
}

export type SelectionSample =
  | { ok: true; record: DatasetRecord; note: string }
  | { ok: false; message: string };

/**
 * The top-level JSON objects in `text` when it is nothing but objects separated by whitespace or
 * commas (a JSONL block, `{…},{…}`, or a JSON array of objects); undefined for anything else.
 */
export function jsonObjects(text: string): DatasetRecord[] | undefined {
  let body = text.trim();
  if (body.startsWith('[') && body.endsWith(']')) body = body.slice(1, -1);
  const objects: DatasetRecord[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      if (depth === 0) return undefined; // a bare string between objects
      inString = true;
    } else if (c === '{' || c === '[') {
      if (depth === 0) {
        if (c === '[') return undefined;
        start = i;
      }
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) {
        try {
          objects.push(JSON.parse(body.slice(start, i + 1)) as DatasetRecord);
        } catch {
          return undefined;
        }
      }
    } else if (depth === 0 && !/[\s,]/.test(c)) return undefined;
  }
  return depth === 0 && objects.length > 0 ? objects : undefined;
}

const fieldList = (names: Iterable<string>) => [...names].map((n) => `"${n}"`).join(', ');

/** The value of one side of a pair from an object meant as one response: its slot field, else `response`. */
function side(o: DatasetRecord, slot: string): unknown {
  return slot in o ? o[slot] : o.response;
}

/**
 * The record for `texts` (the non-empty selections, in document order). `base` supplies fields the
 * selection does not (the template's sample row), and the note says where each part came from.
 */
export function sampleFromSelection(texts: string[], target: SelectionTarget, base?: { record: DatasetRecord; label: string }): SelectionSample {
  const parts = texts.map((t) => t.trim()).filter((t) => t !== '');
  if (parts.length === 0) return { ok: false, message: 'Nothing is selected: highlight the response to judge (or a JSON object or JSONL line with all fields).' };
  if (parts.length > 2) return { ok: false, message: `${parts.length} selections: select one response, or for a pairwise template two (A then B).` };

  const objects = parts.length === 1 ? jsonObjects(parts[0]!) : undefined;
  if (objects && objects.length === 1) return withBase(objects[0]!, 'all fields from the selected JSON object', target, base);

  const [slotA, slotB] = target.pair;
  if (target.kind === 'pointwise') {
    if (parts.length === 2 || (objects && objects.length > 1)) {
      return { ok: false, message: 'A pointwise template judges one response: select one piece of text, one JSON object or one JSONL line.' };
    }
    return withBase({ response: parts[0]! }, '"response" is the selected text', target, base);
  }

  // Pairwise: two objects (one per side), or two selections of text.
  const sides = objects ?? (parts.length === 2 ? parts.map((p) => jsonObjects(p)?.[0] ?? p) : undefined);
  if (!sides || sides.length !== 2) {
    return {
      ok: false,
      message:
        `A pairwise template needs both responses: select two pieces of text (Alt+click adds a second selection; the first becomes "${slotA}"), ` +
        `two JSON objects, or one JSON object or JSONL line with ${fieldList(target.pair)}.`,
    };
  }
  const [a, b] = sides as [DatasetRecord | string, DatasetRecord | string];
  const record: DatasetRecord = {};
  // Shared fields (the prompt…) come from the first object, then the second fills gaps.
  for (const o of [b, a]) if (typeof o === 'object') Object.assign(record, o);
  delete record.response;
  record[slotA] = typeof a === 'string' ? a : side(a, slotA);
  record[slotB] = typeof b === 'string' ? b : side(b, slotB);
  for (const [slot, v] of [[slotA, record[slotA]], [slotB, record[slotB]]] as const) {
    if (v === undefined) return { ok: false, message: `The selected object for "${slot}" has neither "${slot}" nor "response".` };
  }
  return withBase(record, `"${slotA}" and "${slotB}" are the two selections`, target, base);
}

function withBase(record: DatasetRecord, said: string, target: SelectionTarget, base: { record: DatasetRecord; label: string } | undefined): SelectionSample {
  const missing = [...target.used].filter((f) => !(f in record));
  if (!missing.length || !base) return { ok: true, record, note: said };
  const filled = missing.filter((f) => f in base.record);
  const merged: DatasetRecord = { ...record };
  for (const f of filled) merged[f] = base.record[f];
  const note = filled.length ? `${said}; ${fieldList(filled)} from ${base.label}` : said;
  return { ok: true, record: merged, note };
}

/**
 * Text highlighted inside a JSON string (a JSONL line) is still JSON-escaped (`\"`, `\n`); when it
 * is exactly one field's value as written, that value is meant. Otherwise the text as selected.
 */
export function decodeSelectedValue(text: string, record: DatasetRecord): string {
  const trimmed = text.trim();
  for (const value of Object.values(record)) {
    if (typeof value === 'string' && value !== trimmed && JSON.stringify(value).slice(1, -1) === trimmed) return value;
  }
  return text;
}
