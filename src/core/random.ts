// The project's one seeded PRNG. mulberry32 is small enough to reimplement anywhere (the Python
// references do), so seeded samples, shuffles, bootstraps and fuzzers reproduce on every machine.
// Not for cryptography.

/** mulberry32: floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
