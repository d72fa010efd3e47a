/**
 * Best / second / third per column, as the long-tail paper's tables mark them (Fang et al.
 * 2023: red, green, blue), by the metric's direction.
 *
 * Rule (standard competition ranking, "1224"): a run's place in a column is 1 + the number of runs
 * with a strictly better value. Equal values share a place and the following place is skipped:
 * two runs tied for best are both 1st, and the next run is 3rd (there is no 2nd). Places 1–3 are
 * marked. Null values are never placed and do not push others down. A column with fewer than two
 * values is not marked (there is nothing to compare). Equality is exact equality of the numbers.
 */
import type { Direction } from '../results/types';
import type { Place, RunTable } from './types';

/**
 * Places of `values` in one column (null for unplaced entries).
 *
 * @example placesOf([0.5, 0.7, 0.7, 0.6, null], 'higher') = [null, 1, 1, 3, null]
 */
export function placesOf(values: readonly (number | null)[], direction: Direction): (Place | null)[] {
  const defined = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (defined.length < 2) return values.map(() => null);
  const better = direction === 'higher' ? (x: number, y: number) => x > y : (x: number, y: number) => x < y;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return null;
    const place = 1 + defined.filter((u) => better(u, v)).length;
    return place <= 3 ? (place as Place) : null;
  });
}

/** Marks of every column of `t` that has a direction: metric → run → place. */
export function markTable(t: Pick<RunTable, 'runs' | 'metrics' | 'directions' | 'table'>): RunTable['marks'] {
  const marks: RunTable['marks'] = {};
  for (const m of t.metrics) {
    const dir = t.directions[m];
    if (!dir) continue;
    const places = placesOf(t.runs.map((r) => t.table[r]?.[m] ?? null), dir);
    const col: Record<string, Place> = {};
    places.forEach((p, i) => {
      if (p !== null) col[t.runs[i]] = p;
    });
    marks[m] = col;
  }
  return marks;
}
