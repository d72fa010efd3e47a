/** The range of a list of numbers, for chart axes. */
/**
 * The smallest and largest of `values` by a loop: spreading them into `Math.min(...values)` fails
 * beyond about 120,000 arguments, and a curve read from a results file may hold that many points.
 */
export function extent(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}
