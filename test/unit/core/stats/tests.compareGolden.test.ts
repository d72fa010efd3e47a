// McNemar's exact test and the multiple-testing adjustments of a comparison, against statsmodels
// (`mcnemar(exact=True)`, `multipletests(method='holm' | 'fdr_bh')`) and scipy's `binomtest`:
// golden values written by scripts/golden/compare_tests.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bhAdjust, effectReading, holmAdjust, mcnemarExact } from '../../../../src/core/stats/tests';

const golden = JSON.parse(readFileSync('test/golden/compare_tests.json', 'utf8')) as {
  mcnemar: { b: number; c: number; p: number }[];
  adjust: { p: number[]; holm: number[]; bh: number[] }[];
};

const close = (x: number, y: number): boolean => Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(y));

test('McNemar exact = statsmodels mcnemar(exact=True), including no discordant pair and thousands of pairs', () => {
  assert.ok(golden.mcnemar.length >= 10);
  for (const g of golden.mcnemar)
    assert.ok(close(mcnemarExact(g.b, g.c).p, g.p), `b=${g.b} c=${g.c}: ${mcnemarExact(g.b, g.c).p} vs ${g.p}`);
});

test('McNemar by hand: b = 1, c = 5 → 2·(C(6,0) + C(6,1))/2^6 = 14/64; symmetric in b and c; bad counts refused', () => {
  // summed in log space: equal to the last few ulps
  assert.ok(close(mcnemarExact(1, 5).p, 14 / 64));
  assert.equal(mcnemarExact(5, 1).p, mcnemarExact(1, 5).p);
  assert.equal(mcnemarExact(3, 3).p, 1);
  assert.equal(mcnemarExact(0, 0).p, 1);
  assert.throws(() => mcnemarExact(-1, 2), RangeError);
  assert.throws(() => mcnemarExact(1.5, 2), RangeError);
});

test('Holm and Benjamini–Hochberg = statsmodels multipletests, ties and random p-values', () => {
  for (const g of golden.adjust) {
    const h = holmAdjust(g.p);
    const b = bhAdjust(g.p);
    g.p.forEach((_, i) => {
      assert.ok(close(h[i]!, g.holm[i]!), `holm ${i}: ${h[i]} vs ${g.holm[i]}`);
      assert.ok(close(b[i]!, g.bh[i]!), `bh ${i}: ${b[i]} vs ${g.bh[i]}`);
    });
  }
});

test('BH by hand: [0.01, 0.04, 0.03, 0.005] → min over j ≥ i of 4·p_(j)/j = [0.02, 0.04, 0.04, 0.02]; nulls stay out of the family', () => {
  assert.deepEqual(bhAdjust([0.01, 0.04, 0.03, 0.005]), [0.02, 0.04, 0.04, 0.02]);
  assert.deepEqual(bhAdjust([0.01, null, 0.04]), [0.02, null, 0.04]);
  assert.throws(() => bhAdjust([1.5]), RangeError);
});

test("Cohen's reading of d: thresholds 0.2, 0.5, 0.8 on |d|", () => {
  assert.deepEqual([0, 0.19, -0.2, 0.49, 0.5, -0.79, 0.8, 3].map(effectReading), [
    'negligible',
    'negligible',
    'small',
    'small',
    'medium',
    'medium',
    'large',
    'large',
  ]);
});
