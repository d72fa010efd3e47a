// The basic bootstrap interval of the binned calibration errors (ece, mce, ece_adaptive): the formula
// by hand, scipy.stats.bootstrap(method='basic') on the same resample values, and a coverage
// simulation with a known calibration error where the percentile interval (the rule of the other
// metrics) misses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { basicInterval, intervalMethodOf, intervalOf, percentileInterval } from '../../../../src/core/stats/bootstrap';
import { createRng } from '../../../../src/core/stats/rng';
import { bootstrapDistribution } from '../../helpers/bootstrapReference';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { binIndices, calibrationValues } from '../../../../src/core/metrics/calibration';

test('basic interval by hand: the percentile interval reflected about the point, clipped to the range', () => {
  const v = [0.5, 0.1, 0.4, 0.2, 0.3];
  // confidence 0.5: numpy's linear percentile at 25% and 75% of [0.1 … 0.5] = 0.2 and 0.4
  assert.deepEqual(percentileInterval(v, 0.5), [0.2, 0.4]);
  const b = basicInterval(v, 0.25, 0.5)!;
  // [2·0.25 − 0.4, 2·0.25 − 0.2] = [0.1, 0.3]
  assert.ok(Math.abs(b[0] - 0.1) < 1e-15 && Math.abs(b[1] - 0.3) < 1e-15, String(b));
  // point 0.15: [0.3 − 0.4, 0.3 − 0.2] = [−0.1, 0.1] → the lower bound clipped to 0
  const c = basicInterval(v, 0.15, 0.5, [0, 1])!;
  assert.equal(c[0], 0);
  assert.ok(Math.abs(c[1] - 0.1) < 1e-15);
  // point 0.9: [1.8 − 0.4, 1.8 − 0.2] = [1.4, 1.6] → both clipped to 1
  assert.deepEqual(basicInterval(v, 0.9, 0.5, [0, 1]), [1, 1]);
  // undefined in more than half the resamples, or no point: no interval
  assert.equal(basicInterval([NaN, NaN, 0.1], 0.1, 0.5), null);
  assert.equal(basicInterval(v, NaN, 0.5), null);
});

test('which keys take the basic interval: the binned calibration errors only', () => {
  for (const k of ['ece', 'mce', 'ece_adaptive']) assert.equal(intervalMethodOf(k), 'basic', k);
  for (const k of ['accuracy', 'worst_error', 'aurc', 'nll', 'brier', 'ece_x', 'recall@10'])
    assert.equal(intervalMethodOf(k), 'percentile', k);
  // a key qualified by a prefix (a slice's value) takes the method of the metric after the colon
  for (const k of ['0:ece', '12:mce', 'x:y:ece_adaptive']) assert.equal(intervalMethodOf(k), 'basic', k);
  for (const k of ['0:Δece', '3:accuracy', 'unweighted:precision', 'ece:accuracy'])
    assert.equal(intervalMethodOf(k), 'percentile', k);
  const v = [0.5, 0.1, 0.4, 0.2, 0.3];
  assert.deepEqual(intervalOf('accuracy', v, 0.25, 0.5), [0.2, 0.4]);
  const e = intervalOf('ece', v, 0.25, 0.5)!;
  assert.ok(Math.abs(e[0] - 0.1) < 1e-15 && Math.abs(e[1] - 0.3) < 1e-15);
});

interface GoldenKey {
  point: number;
  basic: [number, number];
  percentile: [number, number];
  bootstrap_distribution: number[];
}
interface GoldenCase {
  name: string;
  conf: number[];
  correct: number[];
  confidence: number;
  ece: GoldenKey;
  mce: GoldenKey;
}
const golden = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'golden', 'calibration_ci.json'), 'utf8')) as {
  cases: GoldenCase[];
};

for (const g of golden.cases)
  test(`scipy.stats.bootstrap(method='basic') on the same resamples: ${g.name}`, () => {
    const rows = sortRowsByScore(
      g.conf,
      g.correct.map((c) => 1 - c),
      { weights: null },
    );
    const v = calibrationValues(rows, 15);
    for (const [key, ours, gk] of [
      ['ece', v.ece, g.ece],
      ['mce', v.mce, g.mce],
    ] as const) {
      assert.ok(Math.abs(ours - gk.point) < 1e-12, `${key} point ${ours} vs ${gk.point}`);
      const clip = (x: number): number => Math.min(1, Math.max(0, x));
      const got = intervalOf(key, gk.bootstrap_distribution, ours, g.confidence)!;
      for (let i = 0; i < 2; i++) {
        assert.ok(Math.abs(got[i] - clip(gk.basic[i])) < 1e-12, `${key} basic[${i}] ${got[i]} vs ${gk.basic[i]}`);
        const p = percentileInterval(gk.bootstrap_distribution, g.confidence)!;
        assert.ok(Math.abs(p[i] - gk.percentile[i]) < 1e-12, `${key} percentile[${i}]`);
      }
    }
  });

test('coverage with a known calibration error: the basic interval near 95%, the percentile one far below', () => {
  // Confidences uniform on (0.5, 1), each row correct with probability conf − 0.05: in every bin the
  // accuracy is 0.05 below the confidence, so the population's ECE and MCE (15 bins) are both 0.05.
  const truth = 0.05;
  const n = 300;
  const reps = 150;
  const rng = createRng(2026);
  const hits = { ece: { basic: 0, percentile: 0 }, mce: { basic: 0, percentile: 0 } };
  const aboveEce = { percentile: 0 };
  for (let r = 0; r < reps; r++) {
    const conf = Array.from({ length: n }, () => 0.5 + 0.5 * rng.next());
    const wrong = conf.map((c) => (rng.next() < c - truth ? 0 : 1));
    const rows = sortRowsByScore(conf, wrong, { weights: null });
    const bins = binIndices(rows, 15);
    const point = calibrationValues(rows, 15, null, bins);
    const dist = bootstrapDistribution(
      n,
      (counts) => {
        const v = calibrationValues(rows, 15, counts, bins);
        return [v.ece, v.mce];
      },
      { n: 200, confidence: 0.95, seed: r },
    );
    for (const [k, key, p] of [
      [0, 'ece', point.ece],
      [1, 'mce', point.mce],
    ] as const) {
      const basic = intervalOf(key, dist[k]!, p, 0.95)!;
      const perc = percentileInterval(dist[k]!, 0.95)!;
      if (basic[0] <= truth && truth <= basic[1]) hits[key].basic++;
      if (perc[0] <= truth && truth <= perc[1]) hits[key].percentile++;
      if (key === 'ece' && perc[0] > truth) aboveEce.percentile++;
    }
  }
  const rate = (h: number): number => h / reps;
  const msg = JSON.stringify(hits);
  // Simulated with numpy (300 samples): basic 0.89 (ECE) and 0.88 (MCE), percentile 0.53 and 0.00.
  assert.ok(rate(hits.ece.basic) >= 0.82, msg);
  assert.ok(rate(hits.mce.basic) >= 0.8, msg);
  assert.ok(rate(hits.ece.percentile) <= 0.7, msg);
  assert.ok(rate(hits.mce.percentile) <= 0.1, msg);
  // the percentile interval misses by sitting above the truth
  assert.equal(aboveEce.percentile, reps - hits.ece.percentile, msg);
});
