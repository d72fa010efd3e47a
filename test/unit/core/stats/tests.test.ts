// Hand-worked examples and a slow reference for the paired tests, effect sizes and Holm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cohensDPooled, cohensDz, holmAdjust, pairedTTest, wilcoxonSignedRank } from '../../../../src/core/stats/tests';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { normalCdf, normalSf, studentTSf } from '../../../../src/core/stats/distributions';

/** The library's P(T ≤ x), the lower tail our wrappers mirror. */
const studentTCdf = (x: number, df: number): number => tCdf(x, df);
import { createRng } from '../../../../src/core/stats/rng';

import { closeAbs as near } from '../../helpers/numericClose';

test('paired t-test by hand: d = [1, 1, 1, 2]', () => {
  const r = pairedTTest([1, 2, 3, 5], [0, 1, 2, 3]);
  // mean 1.25, sd = sqrt(((-.25)^2*3 + .75^2)/3) = sqrt(0.75/3) = 0.5, t = 1.25/(0.5/2) = 5, df 3
  near(r.meanDiff, 1.25);
  near(r.sdDiff, 0.5);
  near(r.t, 5);
  assert.equal(r.df, 3);
  near(r.p, 2 * studentTSf(5, 3));
  near(r.pGreater, r.p / 2);
});

test('Wilcoxon by hand: d = [2, −1, 3, 0]', () => {
  const r = wilcoxonSignedRank([3, 1, 4, 1], [1, 2, 1, 1]);
  assert.deepEqual([r.nZero, r.nUsed, r.wPlus, r.wMinus, r.statistic], [1, 3, 5, 1, 1]);
  // μ = 3·4/4 = 3, σ² = 3·4·7/24 = 3.5, z = (1 − 3)/√3.5
  near(r.z, -2 / Math.sqrt(3.5));
  near(r.p, 2 * normalCdf(-2 / Math.sqrt(3.5)));
});

test('Wilcoxon tie correction by hand: |d| = [1, 1, 2, 2, 2]', () => {
  const r = wilcoxonSignedRank([1, 1, 2, 2, 2], [0, 2, 0, 0, 4]);
  // d = [1, −1, 2, 2, −2]; ranks 1.5, 1.5, 4, 4, 4; W+ = 1.5 + 8 = 9.5, W− = 1.5 + 4 = 5.5
  assert.equal(r.wPlus, 9.5);
  assert.equal(r.wMinus, 5.5);
  // σ² = [5·6·11 − ½(2·3 + 3·8)]/24 = (330 − 15)/24
  near(r.z, (5.5 - 7.5) / Math.sqrt(315 / 24));
});

test("Cohen's d by hand", () => {
  near(cohensDz([1, 2, 3, 5], [0, 1, 2, 3]), 2.5);
  near(cohensDPooled([1, 2, 3], [0, 0, 3]), 1 / Math.SQRT2);
});

test('Holm on the Wikipedia example (Holm–Bonferroni method, "Example": p = 0.01, 0.04, 0.03, 0.005)', () => {
  // Source: en.wikipedia.org/wiki/Holm–Bonferroni_method, section "Example": at α = 0.05, H4
  // (0.005 < 0.05/4) and H1 (0.01 < 0.05/3) are rejected, H3 (0.03 ≥ 0.05/2) and H2 are not.
  // Adjusted p: 4·0.005 = 0.02, 3·0.01 = 0.03, max(0.03, 2·0.03) = 0.06, max(0.06, 1·0.04) = 0.06.
  const adj = holmAdjust([0.01, 0.04, 0.03, 0.005]) as number[];
  [0.03, 0.06, 0.06, 0.02].forEach((e, i) => near(adj[i], e, 1e-15));
  assert.deepEqual(
    adj.map((p) => p < 0.05),
    [true, false, false, true],
  );
});

test('Holm: capped at 1, undefined p-values are outside the family, single test unchanged', () => {
  assert.deepEqual(holmAdjust([0.6, 0.5]), [1, 1]);
  const adj = holmAdjust([0.01, null, NaN, 0.02]);
  assert.deepEqual(adj, [0.02, null, null, 0.02]);
  assert.deepEqual(holmAdjust([0.2]), [0.2]);
  assert.deepEqual(holmAdjust([]), []);
  assert.throws(() => holmAdjust([1.5]), /p-values in \[0, 1\]/);
});

test('distribution wrappers: symmetry and known values', () => {
  near(normalCdf(0), 0.5);
  near(normalSf(1.959963984540054), 0.025, 1e-15);
  near(studentTCdf(0, 7), 0.5);
  // t with 1 df is Cauchy: P(T ≤ 1) = 3/4
  near(studentTCdf(1, 1), 0.75, 1e-15);
  near(studentTSf(-40, 5) + studentTCdf(-40, 5), 1, 1e-15);
});

/** Slow obvious Wilcoxon: ranks by counting, σ from the ranks' sum of squares (equivalent form). */
function slowWilcoxon(a: number[], b: number[]): { wPlus: number; wMinus: number; z: number } {
  const d = a.map((x, i) => x - b[i]).filter((x) => x !== 0);
  const abs = d.map(Math.abs);
  const rank = abs.map((v) => abs.filter((u) => u < v).length + (abs.filter((u) => u === v).length + 1) / 2);
  let wPlus = 0;
  let wMinus = 0;
  d.forEach((x, i) => (x > 0 ? (wPlus += rank[i]) : (wMinus += rank[i])));
  const m = d.length;
  // Var(W) under H0 with ties = Σ r_i² / 4
  const varW = rank.reduce((s, r) => s + r * r, 0) / 4;
  return { wPlus, wMinus, z: (Math.min(wPlus, wMinus) - (m * (m + 1)) / 4) / Math.sqrt(varW) };
}

test('Wilcoxon equals a slow reference on random tied data (seeded)', () => {
  const rng = createRng(7);
  for (let rep = 0; rep < 50; rep++) {
    const n = 5 + rng.int(120);
    const a = Array.from({ length: n }, () => rng.int(7) / 2);
    const b = Array.from({ length: n }, () => rng.int(7) / 2);
    const fast = wilcoxonSignedRank(a, b);
    const slow = slowWilcoxon(a, b);
    if (fast.nUsed === 0) continue;
    assert.equal(fast.wPlus, slow.wPlus);
    assert.equal(fast.wMinus, slow.wMinus);
    near(fast.z, slow.z, 1e-9);
  }
});

test('paired t-test equals the one-sample formula on random data (seeded)', () => {
  const rng = createRng(11);
  for (let rep = 0; rep < 20; rep++) {
    const n = 2 + rng.int(60);
    const a = Array.from({ length: n }, () => rng.next());
    const b = Array.from({ length: n }, () => rng.next());
    const d = a.map((x, i) => x - b[i]);
    const m = d.reduce((s, x) => s + x, 0) / n;
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
    const r = pairedTTest(a, b);
    near(r.t, (m / sd) * Math.sqrt(n), 1e-9);
    near(r.p, Math.min(1, 2 * (1 - studentTCdf(Math.abs(r.t), n - 1))), 1e-9);
    near(cohensDz(a, b), r.t / Math.sqrt(n), 1e-9);
  }
});
