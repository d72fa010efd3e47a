/**
 * One p-value format everywhere: the terminal's comparison tables, the slice finder, the report and
 * the panel all call the same function, so the same p reads the same in each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatP, pStatement } from '../../../../src/core/text/pValue';
import { formatP as reportFormatP } from '../../../../src/shared/format';
import { formatP as compareFormatP } from '../../../../src/core/compare/render';

test('4 decimals from 0.0001; two significant digits below; < 2.2e-16 under machine epsilon; — without a value', () => {
  assert.equal(formatP(1), '1.0000');
  assert.equal(formatP(0.05), '0.0500');
  assert.equal(formatP(0.0001), '0.0001');
  assert.equal(formatP(0.0000999), '1.0e-4');
  assert.equal(formatP(3.14e-7), '3.1e-7');
  // R's format.pval(·, eps = .Machine$double.eps): below 2^-52 the computed p is rounding noise
  assert.equal(formatP(2 ** -52), '2.2e-16');
  assert.equal(formatP(2 ** -53), '< 2.2e-16');
  assert.equal(formatP(0), '< 2.2e-16');
  for (const none of [null, undefined, Number.NaN]) assert.equal(formatP(none), '—');
});

test('one owner: the report and the command line use the same function', () => {
  assert.equal(reportFormatP, formatP);
  assert.equal(compareFormatP, formatP);
});

test('a p statement never reads "p = <"', () => {
  assert.equal(pStatement(0.0123), 'p = 0.0123');
  assert.equal(pStatement(1.2e-5), 'p = 1.2e-5');
  assert.equal(pStatement(0), 'p < 2.2e-16');
  assert.equal(pStatement(null), 'p = —');
});
