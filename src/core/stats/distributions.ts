/**
 * Thin wrappers over the distribution functions of stdlib (`@stdlib/stats-base-dists-t-cdf`,
 * `@stdlib/stats-base-dists-normal-cdf`): no special function is written by hand here. Upper
 * tails are taken from the lower tail of the mirrored argument (`sf(x) = cdf(−x)`), never as
 * `1 − cdf(x)`, so that small p-values keep their relative precision.
 *
 * Agreement with scipy 1.10 (`scipy.stats.t.cdf`, `norm.cdf`) is within a few ulps on the values
 * the tests check (test/unit/core/stats/tests.golden.test.ts).
 */
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import normalCdfStd from '@stdlib/stats-base-dists-normal-cdf';

/** P(T > x) = P(T < −x), the upper tail of Student's t. */
export function studentTSf(x: number, df: number): number {
  return tCdf(-x, df);
}

/** P(Z ≤ x) for the standard normal. */
export function normalCdf(x: number): number {
  return normalCdfStd(x, 0, 1);
}

/** P(Z > x) = P(Z < −x), the upper tail of the standard normal. */
export function normalSf(x: number): number {
  return normalCdfStd(-x, 0, 1);
}
