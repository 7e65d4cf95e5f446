// Identities a results line carries: `_key` names a dataset row by its inputs (so labels and
// comparisons follow a row through re-runs and reordering), `template_hash` names the template
// version that judged it (so resume and compare refuse to mix versions).
import { createHash } from 'node:crypto';
import { writeJsonString } from '../jsonWrite';
import type { ParsedTemplate } from '../template/types';

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units, no white
 * space, numbers and strings serialised as ECMAScript's JSON.stringify does.
 * Non-JSON values (undefined, functions) are dropped from objects and are null in arrays, as in JSON.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  writeCanonical(value, (piece) => void out.push(piece));
  return out.join('');
}

/** sha256 (hex) of canonicalJson(value), fed in pieces: a row with a 50 MB field is never one more 50 MB string. */
export function sha256Canonical(value: unknown): string {
  const hash = createHash('sha256');
  writeCanonical(value, (piece) => void hash.update(piece));
  return hash.digest('hex');
}

/** canonicalJson, in order, as pieces. */
function writeCanonical(value: unknown, emit: (piece: string) => void): void {
  // An explicit stack keeps a 100,000-deep record from overflowing the call stack.
  const out = { push: emit };
  const stack: unknown[] = [value];
  const CLOSE_ARRAY = Symbol('close]');
  const CLOSE_OBJECT = Symbol('close}');
  const COMMA = Symbol(',');
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === CLOSE_ARRAY) out.push(']');
    else if (v === CLOSE_OBJECT) out.push('}');
    else if (v === COMMA) out.push(',');
    else if (v instanceof KeyToken) out.push(v.text);
    else if (Array.isArray(v)) {
      out.push('[');
      stack.push(CLOSE_ARRAY);
      for (let i = v.length - 1; i >= 0; i--) {
        const item = v[i];
        stack.push(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item);
        if (i > 0) stack.push(COMMA);
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.keys(v)
        .filter((k) => {
          const x = (v as Record<string, unknown>)[k];
          return x !== undefined && typeof x !== 'function' && typeof x !== 'symbol';
        })
        .sort(compareUtf16);
      out.push('{');
      stack.push(CLOSE_OBJECT);
      for (let i = entries.length - 1; i >= 0; i--) {
        const k = entries[i]!;
        stack.push((v as Record<string, unknown>)[k]);
        stack.push(new KeyToken(`${JSON.stringify(k)}:`));
        if (i > 0) stack.push(COMMA);
      }
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new Error('canonical JSON has no representation for NaN or Infinity');
      out.push(JSON.stringify(v));
    } else if (typeof v === 'bigint') {
      throw new Error('canonical JSON has no representation for a BigInt');
    } else if (typeof v === 'string') writeJsonString(v, emit);
    else out.push(JSON.stringify(v ?? null));
  }
}


class KeyToken {
  constructor(readonly text: string) {}
}

function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0; // JS string comparison is by UTF-16 code units, as RFC 8785 asks
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The fields that identify a row: the template's `inputs`, else the placeholders it uses. */
export function keyFields(template: Pick<ParsedTemplate, 'config' | 'placeholders'>): string[] {
  const declared = template.config?.inputs;
  if (declared && declared.length > 0) return [...new Set(declared)].sort(compareUtf16);
  const heads = template.placeholders.filter((p) => !p.inBlock && p.head !== '').map((p) => p.head);
  return [...new Set(heads)].sort(compareUtf16);
}

/** `_key`: the first 16 hex of sha256 over the canonical JSON of the row's key fields (absent fields left out). */
export function rowKey(record: Record<string, unknown>, fields: readonly string[]): string {
  const picked: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(record, f)) picked[f] = record[f];
  return sha256Canonical(picked).slice(0, 16);
}

/** `m/template_hash`: the first 12 hex of sha256 over the template's bytes (UTF-8). */
export function templateHash(text: string): string {
  return sha256Hex(text).slice(0, 12);
}
