/** Checks of a weight column shared by the loaders (classification, importance-weighted binary). */
import { basename } from 'node:path';
import { fail, type Warnings } from '../diagnostics';

/**
 * Largest sum of a weight column. Weighted sums also multiply weights by per-row terms up to
 * −ln 1e-15 ≈ 34.5, so the limit keeps every sum well inside a double (max ≈ 1.8e308).
 */
export const MAX_WEIGHT_SUM = 1e300;

/** Largest weight below which a weight column is scaled up before any sum ({@link scaleTinyWeights}). */
export const TINY_WEIGHT_MAX = 2 ** -512;

/**
 * Weights whose largest is below {@link TINY_WEIGHT_MAX} (≈ 7.5e-155) are multiplied, in place, by
 * the power of two 2^k that brings the largest to [1, 2). A product w·term or a sum of such weights
 * would otherwise lose digits in the subnormal range (5e-324 · 0.7 is 5e-324), and weights of
 * 5e-324 would give another log-loss than the same weights scaled to 1. Multiplying by a power of
 * two is exact, so the weighted metrics are exactly those of the scaled weights: weights of 5e-324,
 * 1e-323, … give the values of 1, 2, …. Returns k (0 when nothing was scaled); a weighted total is
 * reported in the weights as written by {@link unshiftWeight} (exact too).
 */
export function scaleTinyWeights(w: Float64Array): number {
  let max = 0;
  for (let i = 0; i < w.length; i++) if (w[i] > max) max = w[i];
  if (!(max > 0 && max < TINY_WEIGHT_MAX)) return 0;
  let e = Math.floor(Math.log2(max));
  if (2 ** e > max) e--;
  else if (2 ** (e + 1) <= max) e++;
  // 2^k may not be a double (k up to 1074): two exact steps
  const k = -e;
  const a = 2 ** Math.min(k, 1000);
  const b = 2 ** (k - Math.min(k, 1000));
  for (let i = 0; i < w.length; i++) w[i] = w[i] * a * b;
  return k;
}

/** A weight (or a sum of weights) scaled by {@link scaleTinyWeights}'s 2^k, as written again. */
export function unshiftWeight(x: number, k: number): number {
  if (k === 0) return x;
  const a = Math.min(k, 1000);
  return x / 2 ** a / 2 ** (k - a);
}

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
