// Percentile bootstrap: determinism, coverage on a statistic with a known distribution,
// stratified resampling, the multi-statistic helper, progress and cancellation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentileInterval, quantileSorted, resampleProgress, strataOf } from '../../../../src/core/stats/bootstrap';
import { bootstrapDistribution, ciForStatistics } from '../../helpers/bootstrapReference';
import { createRng } from '../../../../src/core/stats/rng';
import { CancelledError } from '../../../../src/core/diagnostics';

function weightedMean(x: ArrayLike<number>, counts: ArrayLike<number>): number {
  let s = 0;
  let m = 0;
  for (let i = 0; i < x.length; i++) {
    s += x[i] * counts[i];
    m += counts[i];
  }
  return m > 0 ? s / m : NaN;
}

test('same seed → identical interval; different seed → a different one', () => {
  const rng = createRng(1);
  const x = Array.from({ length: 200 }, () => (rng.next() < 0.3 ? 1 : 0));
  const opts = { n: 500, confidence: 0.95, seed: 7 };
  const a = ciForStatistics(x.length, (c) => [weightedMean(x, c)], ['mean'], opts);
  const b = ciForStatistics(x.length, (c) => [weightedMean(x, c)], ['mean'], opts);
  assert.deepEqual(a, b);
  const c = ciForStatistics(x.length, (cnt) => [weightedMean(x, cnt)], ['mean'], { ...opts, seed: 8 });
  assert.notDeepEqual(a, c);
});

test('coverage: over 200 repetitions the 95% interval of a Bernoulli mean covers the truth ≈95% of the time', () => {
  const p = 0.3;
  const n = 200;
  const reps = 200;
  const rng = createRng(2024);
  let covered = 0;
  for (let r = 0; r < reps; r++) {
    const x = Float64Array.from({ length: n }, () => (rng.next() < p ? 1 : 0));
    const ci = ciForStatistics(n, (c) => [weightedMean(x, c)], ['mean'], { n: 400, confidence: 0.95, seed: r })[
      'mean'
    ]!;
    if (ci[0] <= p && p <= ci[1]) covered++;
  }
  // Binomial(200, 0.95): sd ≈ 3.1; the percentile interval of a mean is slightly narrow at n = 200,
  // so allow 4 sd below and 3 above.
  const sd = Math.sqrt(reps * 0.95 * 0.05);
  assert.ok(covered >= reps * 0.95 - 4 * sd && covered <= reps * 0.95 + 3 * sd, `covered ${covered}/${reps}`);
});

test('every resample has n rows; stratified resampling keeps every stratum size', () => {
  const strata = strataOf(['a', 'a', 'b', 'c', 'b', 'a', 'c', 'c', 'c']);
  assert.deepEqual(Array.from(strata), [0, 0, 1, 2, 1, 0, 2, 2, 2]);
  let checked = 0;
  bootstrapDistribution(
    9,
    (counts) => {
      const per = [0, 0, 0];
      let tot = 0;
      counts.forEach((c, i) => {
        per[strata[i]] += c;
        tot += c;
      });
      assert.deepEqual(per, [3, 2, 4]);
      assert.equal(tot, 9);
      checked++;
      return 0;
    },
    { n: 50, confidence: 0.9, seed: 3, strata },
  );
  assert.equal(checked, 50);
});

test('ciForStatistics: one interval per key; null where fewer than half the resamples are defined', () => {
  const x = [1, 2, 3, 4, 5];
  const out = ciForStatistics(
    5,
    (c) => [weightedMean(x, c), null, c[0] > 0 ? 1 : NaN],
    ['mean', 'never', 'sometimes'],
    { n: 300, confidence: 0.9, seed: 1 },
  );
  assert.ok(out.mean![0] >= 1 && out.mean![1] <= 5 && out.mean![0] < out.mean![1]);
  assert.equal(out.never, null);
  // row 0 is drawn with probability 1 − 0.8^5 ≈ 0.67 > 1/2
  assert.deepEqual(out.sometimes, [1, 1]);
  assert.throws(() => ciForStatistics(5, () => [1], ['a', 'b'], { n: 2, confidence: 0.9, seed: 1 }), /2 values/);
});

test('percentile interval uses numpy linear interpolation', () => {
  const v = Float64Array.from({ length: 11 }, (_, i) => i);
  const ci = percentileInterval(v, 0.9)!;
  // (1 − 0.9)/2 is 0.04999999999999999 in float64, as in numpy
  assert.ok(Math.abs(ci[0] - 0.5) < 1e-12 && Math.abs(ci[1] - 9.5) < 1e-12);
  assert.equal(quantileSorted([1, 2], 0.25), 1.25);
});

test('percentile interval = the quantiles of the finite values sorted alone, bit for bit (NaN, ±Infinity, ±0 among them)', () => {
  const rng = createRng(12);
  const special = [NaN, Infinity, -Infinity, 0, -0];
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + rng.int(40);
    const pSpecial = rng.next();
    const v = Float64Array.from({ length: n }, () =>
      rng.next() < pSpecial ? special[rng.int(special.length)] : Math.round((rng.next() - 0.5) * 8) / 4,
    );
    // the obvious reference: keep the finite values, sort them, read the two quantiles
    const finite = Array.from(v).filter((x) => Number.isFinite(x));
    const sorted = Float64Array.from(finite).sort();
    const a = (1 - 0.9) / 2;
    const expected =
      finite.length === 0 || finite.length * 2 < n ? null : [quantileSorted(sorted, a), quantileSorted(sorted, 1 - a)];
    const got = percentileInterval(v, 0.9);
    assert.equal(got === null, expected === null);
    if (got && expected) for (let i = 0; i < 2; i++) assert.ok(Object.is(got[i], expected[i]), `${got} vs ${expected}`);
  }
  assert.equal(percentileInterval([NaN, Infinity, 1], 0.9), null);
  assert.deepEqual(percentileInterval([-Infinity, 2, 1, NaN], 0.5), [1.25, 1.75]);
});

test('resampleProgress reports and cancellation stops the bootstrap', () => {
  const seen: number[] = [];
  let cancel = false;
  const hook = resampleProgress({ report: (_s, done) => seen.push(done), isCancelled: () => cancel }, 'bootstrap');
  bootstrapDistribution(3, () => 0, { n: 200, confidence: 0.9, seed: 0, onResample: hook });
  assert.ok(seen.length >= 100 && seen.length <= 202);
  assert.equal(seen[seen.length - 1], 200);
  cancel = true;
  const hook2 = resampleProgress({ isCancelled: () => cancel }, 'bootstrap');
  assert.throws(
    () => bootstrapDistribution(3, () => 0, { n: 10, confidence: 0.9, seed: 0, onResample: hook2 }),
    CancelledError,
  );
});

test('the resampling draws are exactly rng.int(m) (same stream as the generator)', () => {
  for (const m of [1, 2, 3, 7, 1000, 200_000, 3_000_001]) {
    const rng = createRng(99);
    const expected = new Float64Array(m);
    for (let j = 0; j < m; j++) expected[rng.int(m)] += 1;
    let got: Float64Array | null = null;
    bootstrapDistribution(m, (c) => ((got = Float64Array.from(c)), 0), { n: 1, confidence: 0.9, seed: 99 });
    assert.deepEqual(got, expected, `m = ${m}`);
  }
});
