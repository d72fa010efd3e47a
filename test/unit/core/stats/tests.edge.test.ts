// Edge cases of the paired tests: n < 2, zero variance, all differences zero, unequal lengths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cohensDPooled, cohensDz, pairedTTest, wilcoxonSignedRank } from '../../../../src/core/stats/tests';

test('n = 0 and n = 1: every statistic undefined (NaN), as scipy', () => {
  for (const [a, b] of [
    [[], []],
    [[0.7], [0.4]],
  ] as [number[], number[]][]) {
    const t = pairedTTest(a, b);
    assert.ok(Number.isNaN(t.t) && Number.isNaN(t.p) && Number.isNaN(t.pGreater));
    assert.ok(Number.isNaN(cohensDz(a, b)));
    assert.ok(Number.isNaN(cohensDPooled(a, b)));
  }
  assert.ok(Number.isNaN(wilcoxonSignedRank([], []).p));
});

test('constant non-zero differences: t = ±Infinity, p = 0, one-sided 0 or 1', () => {
  const up = pairedTTest([1, 2, 3], [0, 1, 2]);
  assert.equal(up.t, Infinity);
  assert.equal(up.p, 0);
  assert.equal(up.pGreater, 0);
  assert.equal(cohensDz([1, 2, 3], [0, 1, 2]), Infinity);
  const down = pairedTTest([0, 1, 2], [1, 2, 3]);
  assert.equal(down.t, -Infinity);
  assert.equal(down.p, 0);
  assert.equal(down.pGreater, 1);
});

test('all differences zero: t, p, Wilcoxon and d_z are NaN; pooled d is 0 when the samples vary', () => {
  const a = [1, 0, 1, 1];
  const t = pairedTTest(a, a);
  assert.ok(Number.isNaN(t.t) && Number.isNaN(t.p));
  const w = wilcoxonSignedRank(a, a);
  assert.equal(w.nZero, 4);
  assert.equal(w.nUsed, 0);
  assert.ok(Number.isNaN(w.statistic) && Number.isNaN(w.p));
  assert.ok(Number.isNaN(cohensDz(a, a)));
  assert.equal(cohensDPooled(a, a), 0);
});

test('both samples constant: pooled d is ±Infinity or NaN', () => {
  assert.equal(cohensDPooled([1, 1], [0, 0]), Infinity);
  assert.ok(Number.isNaN(cohensDPooled([1, 1], [1, 1])));
});

test('unequal lengths are a RangeError naming both lengths', () => {
  assert.throws(() => pairedTTest([1, 2], [1]), /equal length, but got 2 and 1/);
  assert.throws(() => wilcoxonSignedRank([1], [1, 2]), /equal length/);
  assert.throws(() => cohensDPooled([1], [1, 2]), /equal length/);
});
