/** Checks of a weight column shared by the loaders (classification, importance-weighted binary). */
import { basename } from 'node:path';
import { fail, type Warnings } from '../diagnostics';

/**
 * Largest sum of a weight column. Weighted sums also multiply weights by per-row terms up to
 * −ln 1e-15 ≈ 34.5, so the limit keeps every sum well inside a double (max ≈ 1.8e308).
 */
export const MAX_WEIGHT_SUM = 1e300;

/**
 * A weight sum past {@link MAX_WEIGHT_SUM} is an error at the line where the running sum passes it
 * (the sums would otherwise overflow to ∞ and every metric become a silent null); a column of
 * zeros is a `zero-total-weight` warning (every weighted metric is then null, never 0).
 */
export function checkWeightSum(
  file: string,
  column: string,
  w: ArrayLike<number>,
  n: number,
  lines: ArrayLike<number>,
  warnings: Warnings,
): void {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += w[i];
    if (!(sum <= MAX_WEIGHT_SUM)) {
      fail(
        'weights-overflow',
        { file, line: lines[i], column },
        `the weights sum to more than ${MAX_WEIGHT_SUM} by this line, too large to add up exactly in double precision; divide every weight by one constant (e.g. the largest weight): the weighted metrics are ratios and do not change.`,
      );
    }
  }
  if (n > 0 && sum === 0) {
    warnings.add({
      code: 'zero-total-weight',
      message: `${basename(file)}: every weight in column "${column}" is 0, so every weighted metric is undefined and shown as null.`,
      file,
      column,
      count: n,
    });
  }
}
