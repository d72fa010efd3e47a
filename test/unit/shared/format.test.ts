import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatAxisValue,
  formatBytes,
  formatCi,
  formatCount,
  formatLevel,
  formatNumber,
  formatP,
  significanceMark,
} from '../../../src/shared/format';

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
  assert.equal(formatP(0.00001), '1.0e-5');
  assert.equal(formatP(null), '—');
  assert.equal(significanceMark(0.05), '');
  assert.equal(significanceMark(0.0499), '*');
  assert.equal(significanceMark(0.0099), '**');
  assert.equal(significanceMark(0.00099), '***');
  assert.equal(significanceMark(null), '');
});

test('integers print as integers: count keys and axis values', () => {
  assert.equal(formatNumber(200, 'users'), '200');
  assert.equal(formatNumber(10, 'epoch'), '10');
  assert.equal(formatNumber(0.5, 'users'), '0.5000');
  assert.equal(formatAxisValue(10), '10');
  assert.equal(formatAxisValue(200), '200');
  assert.equal(formatAxisValue(123456), '123,456');
  assert.equal(formatAxisValue(0.25), '0.2500');
  assert.equal(formatAxisValue(null), '—');
});

test('formatCi: one notation for both bounds', () => {
  assert.equal(formatCi([0.000832, 0.0012]), '[8.32e-4, 1.20e-3]');
  assert.equal(formatCi([0, 0.0012]), '[0.0000, 0.0012]');
  assert.equal(formatCi([0, 0.00005]), '[0, 5.00e-5]');
  assert.equal(formatCi([0.1, 0.2]), '[0.1000, 0.2000]');
  assert.equal(formatCi([1100, 1250], 'users_evaluated'), '[1,100, 1,250]');
});
