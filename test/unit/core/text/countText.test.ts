/**
 * Counts with thousands separators: the same text as `toLocaleString('en-US')`, whose locale data
 * the command line no longer loads to print a row count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countText } from '../../../../src/core/text/countText';

test('whole numbers: grouped by threes with commas, as en-US writes them', () => {
  assert.equal(countText(0), '0');
  assert.equal(countText(999), '999');
  assert.equal(countText(1000), '1,000');
  assert.equal(countText(1_000_000), '1,000,000');
  assert.equal(countText(-1234567), '-1,234,567');
  assert.equal(countText(-0), '-0');
  assert.equal(countText(Number.MAX_SAFE_INTEGER), '9,007,199,254,740,991');
});

test('the same text as toLocaleString("en-US") over whole numbers of every length, fractions and non-finite values', () => {
  const values = [-0, 0, 0.5, 1.23456, -999.9995, 1e20, 1e21, 1.5e300, NaN, Infinity, -Infinity];
  for (let d = 1; d <= 21; d++) {
    const x = 10 ** (d - 1);
    values.push(x, x - 1, x + 7, -x, 3 * x + 1);
  }
  for (const v of values) assert.equal(countText(v), v.toLocaleString('en-US'), String(v));
});
