// Seeded randomness for review: the same seed gives the same sample and the same shown order of
// pairwise responses on every machine, so a sample can be reproduced and an order audited.
import { createHash } from 'node:crypto';
import { mulberry32 } from '../random';

/** A 32-bit seed from any text. */
export function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}

/** mulberry32 (src/core/random.ts): small, fast, good enough for shuffling a queue. */
export const rng = mulberry32;

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
