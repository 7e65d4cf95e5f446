// "Did you mean" by edit distance, for typos in keys, placeholders and section names.

/** Edit distance counting a swap of two neighbouring letters as one edit ("scael" → "scale"). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      cur.push(d);
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** The closest candidate within a third of the word's length (at least 1, at most 3 edits). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance && d <= limit) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
