/**
 * "Did you mean …?" for unknown keys and enum values. Candidates are compared after folding case
 * and dropping `_`/`-` (so `train_counts` finds `trainCounts`), by the optimal-string-alignment
 * distance (Levenshtein plus adjacent transpositions, as typos usually are).
 */

/** Optimal string alignment distance between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  if (m === 0) return n;
  if (n === 0) return m;
  // Three rolling rows: i-2, i-1, i.
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

function fold(s: string): string {
  return s.toLowerCase().replace(/[_\-\s]/g, '');
}

/**
 * The candidate nearest to `word`, or undefined when none is close: distance (after folding) at
 * most max(1, ⌊len/3⌋), capped at 3; a candidate that starts with the folded word (≥ 3 letters)
 * also counts. Ties go to the candidate listed first.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = fold(word);
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(w, fold(c));
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const limit = Math.min(3, Math.max(1, Math.floor(w.length / 3)));
  if (best !== undefined && bestD <= limit) return best;
  if (w.length >= 3) return candidates.find((c) => fold(c).startsWith(w));
  return undefined;
}
