import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatCi, formatCount, formatLevel, formatNumber, formatP, significanceMark } from '../../../src/shared/format';

test('formatNumber: 4 decimals, dash for undefined, counts as integers, tiny as exponent', () => {
  assert.equal(formatNumber(2 / 3), '0.6667');
  assert.equal(formatNumber(1), '1.0000');
  assert.equal(formatNumber(0), '0.0000');
  assert.equal(formatNumber(null), '—');
  assert.equal(formatNumber(Number.NaN), '—');
  assert.equal(formatNumber(1234, 'users_evaluated'), '1,234');
  assert.equal(formatNumber(0.00001234), '1.23e-5');
  assert.equal(formatNumber(-0.5), '-0.5000');
});

test('formatCi, formatCount, formatLevel, formatBytes', () => {
  assert.equal(formatCi([0.5, 0.8333]), '[0.5000, 0.8333]');
  assert.equal(formatCi(undefined), '');
  assert.equal(formatCount(1234567), '1,234,567');
  assert.equal(formatLevel(0.95), '95%');
  assert.equal(formatLevel(0.999), '99.9%');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(35098), '34.3 KB');
});

test('p-values and significance marks at the boundaries', () => {
  assert.equal(formatP(0.04999), '0.0500');
  assert.equal(formatP(0.00001), '< 0.0001');
  assert.equal(formatP(null), '—');
  assert.equal(significanceMark(0.05), '');
  assert.equal(significanceMark(0.0499), '*');
  assert.equal(significanceMark(0.0099), '**');
  assert.equal(significanceMark(0.00099), '***');
  assert.equal(significanceMark(null), '');
});
