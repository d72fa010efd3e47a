/**
 * Best / second / third per column, as the long-tail papers print their tables (best in bold,
 * second underlined), by the metric's direction.
 *
 * Rules:
 * - Ties are ties: two values are equal when they differ by at most 1e-12 of the larger magnitude
 *   (so the same number computed in another summation order still ties). A run's place is 1 + the
 *   number of runs with a strictly better value (standard competition ranking, "1224"): two runs
 *   tied for best are both 1st, and the next run is 3rd.
 * - A mark says that a run beat another, so a run is marked only when some run is strictly worse:
 *   the last place is never marked. Hence nobody is marked when all runs tie, and with two runs
 *   only the better one is (bold), never the other.
 * - Places 1–3 are marked. Null values are never placed and do not push others down; a column with
 *   fewer than two values is not marked. Counts (`users_evaluated`, `users_skipped`) describe the
 *   data, not the quality of a run, and are never marked.
 */
import type { Direction } from '../results/types';
import type { Place, RunTable } from './types';

/** Relative tolerance under which two values tie. */
export const TIE_TOLERANCE = 1e-12;

/** Keys that are counts of the data rather than scores: shown, never ranked. */
const UNRANKED_EXACT: ReadonlySet<string> = new Set(['users_evaluated', 'users_skipped']);

/**
 * Keys shown, never ranked, with no paired test: the user counts, and the spreads over users of
 * a ranking metric (`diversity_std@K`, `alignment_std@K`), which have no better direction and no
 * per-user value.
 */
export const UNRANKED_KEYS: { has(key: string): boolean } = {
  has: (key) => UNRANKED_EXACT.has(key) || /_std@\d+$/.test(key),
};

/** True when `a` and `b` tie: |a − b| ≤ 1e-12 · max(|a|, |b|). */
export function ties(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= TIE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * Places of `values` in one column (null for unplaced entries).
 *
 * @example placesOf([0.5, 0.7, 0.7, 0.6, null], 'higher') = [null, 1, 1, 3, null]
 * @example placesOf([0.8, 0.8], 'higher') = [null, null]; placesOf([0.8, 0.7], 'higher') = [1, null]
 */
export function placesOf(values: readonly (number | null)[], direction: Direction): (Place | null)[] {
  const defined = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (defined.length < 2) return values.map(() => null);
  const better = (x: number, y: number): boolean => !ties(x, y) && (direction === 'higher' ? x > y : x < y);
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return null;
    if (!defined.some((u) => better(v, u))) return null; // last (or all tie): nothing beaten
    const place = 1 + defined.filter((u) => better(u, v)).length;
    return place <= 3 ? (place as Place) : null;
  });
}

/** Marks of every column of `t` that has a direction (counts excepted): metric → run → place. */
export function markTable(t: Pick<RunTable, 'runs' | 'metrics' | 'directions' | 'table'>): RunTable['marks'] {
  const marks: RunTable['marks'] = {};
  for (const m of t.metrics) {
    const dir = t.directions[m];
    if (!dir || UNRANKED_KEYS.has(m)) continue;
    const places = placesOf(
      t.runs.map((r) => t.table[r]?.[m] ?? null),
      dir,
    );
    const col: Record<string, Place> = {};
    places.forEach((p, i) => {
      if (p !== null) col[t.runs[i]] = p;
    });
    marks[m] = col;
  }
  return marks;
}
