// Seeded randomness for review: the same seed gives the same sample and the same shown order of
// pairwise responses on every machine, so a sample can be reproduced and an order audited.
import { createHash } from 'node:crypto';

/** A 32-bit seed from any text. */
export function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}

/** mulberry32: small, fast, good enough for shuffling a queue (not for cryptography). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The order a row's pairwise responses are shown in: fixed by the seed and the row's key. */
export function shownOrder(seed: string, key: string): 'AB' | 'BA' {
  return seedOf(`${seed}\u0000${key}`) % 2 === 0 ? 'AB' : 'BA';
}

/** Maps a choice made on the shown order back to the file's order. */
export function fromShown(choice: 'A' | 'B' | 'TIE', shown: 'AB' | 'BA'): 'A' | 'B' | 'TIE' {
  if (shown === 'AB' || choice === 'TIE') return choice;
  return choice === 'A' ? 'B' : 'A';
}

/** Maps a choice in the file's order onto the shown order (the same swap: it is its own inverse). */
export const toShown = fromShown;
