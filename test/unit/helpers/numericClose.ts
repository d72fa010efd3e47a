/**
 * The one numeric-closeness check of the unit tests. Two kinds of tolerance, each kept as the test
 * that uses it wrote it:
 *
 * - absolute: |actual − expected| ≤ tol;
 * - relative: |actual − expected| ≤ tol · max(1, |expected|) (absolute near zero, relative above 1).
 *
 * Values that are not finite numbers compare by identity: an expected NaN needs a NaN, an expected
 * ±Infinity the same infinity, an expected null a null (not undefined); a number expected and
 * null/undefined got fails.
 */
import assert from 'node:assert/strict';

export type ToleranceKind = 'abs' | 'rel';

/** Asserts that `actual` is within `tol` of `expected` (see the module comment for `kind`). */
export function assertClose(
  actual: number | null | undefined,
  expected: number | null,
  tol: number,
  kind: ToleranceKind,
  what = '',
): void {
  const label = what ? `${what}: ` : '';
  if (expected === null) {
    assert.equal(actual, null, `${label}expected null, got ${actual}`);
    return;
  }
  assert.ok(typeof actual === 'number', `${label}expected ${expected}, got ${actual}`);
  if (!Number.isFinite(expected)) {
    assert.ok(
      Object.is(actual, expected) || (Number.isNaN(expected) && Number.isNaN(actual)),
      `${label}expected ${expected}, got ${actual}`,
    );
    return;
  }
  const bound = kind === 'abs' ? tol : tol * Math.max(1, Math.abs(expected));
  const diff = Math.abs(actual - expected);
  assert.ok(diff <= bound, `${label}expected ${expected}, got ${actual} (|diff| ${diff} > ${bound})`);
}

/** |actual − expected| ≤ tol. */
export function closeAbs(actual: number | null | undefined, expected: number | null, tol = 1e-12, what = ''): void {
  assertClose(actual, expected, tol, 'abs', what);
}

/** |actual − expected| ≤ tol · max(1, |expected|). */
export function closeRel(actual: number | null | undefined, expected: number | null, tol = 1e-12, what = ''): void {
  assertClose(actual, expected, tol, 'rel', what);
}
