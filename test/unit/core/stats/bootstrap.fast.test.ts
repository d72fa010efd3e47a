// The fast bootstrap entry points of stats/bootstrap.ts (fastBootstrapDistribution,
// fastCiForStatistics) and the families that use them (iw-binary, the paired bootstrap of the
// comparisons): each interval equals a direct computation on the resamples materialised with
// drawResample, the strata keep their sizes, and the seed fixes the values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { fastBootstrapDistribution, fastCiForStatistics } from '../../helpers/bootstrapReference';
import { drawResample, stratumPositions } from '../../../../src/core/stats/resampleDraws';
import { createRng } from '../../../../src/core/stats/rng';
import { CancelledError } from '../../../../src/core/diagnostics';
import { compareRuns } from '../../../../src/core/compare/compareRuns';
import { classificationRun } from '../../../fixtures/compare/makeResults';
import { IW_KEYS, metricVector } from '../../../../src/core/metrics/importance';
import { blocksAtOrAbove, scoreOrder } from '../../../../src/core/metrics/binaryCurve';
import { runIw, tempFile } from '../../helpers/iwBinary';

const weightedMean = (x: ArrayLike<number>, c: ArrayLike<number>): number => {
  let s = 0;
  let d = 0;
  for (let i = 0; i < x.length; i++) {
    s += c[i] * x[i];
    d += c[i];
  }
  return s / d;
};

test('fastBootstrapDistribution = the statistic on drawResample(seed, b), per key; stratum sizes kept', () => {
  const rng = createRng(5);
  const n = 37;
  const x = Float64Array.from({ length: n }, () => rng.next());
  const strata = Int32Array.from({ length: n }, (_, i) => [2, 0, 5][i % 3]);
  const pos = stratumPositions(n, strata);
  const dist = fastBootstrapDistribution(
    n,
    3,
    (c, out) => {
      // each stratum resampled to its own size
      for (const [id, size] of [
        [2, 13],
        [0, 12],
        [5, 12],
      ]) {
        let tot = 0;
        for (let i = 0; i < n; i++) if (strata[i] === id) tot += c[i];
        assert.equal(tot, size);
      }
      out[0] = weightedMean(x, c);
      out[1] = c[0];
      // out[2] left NaN: undefined
    },
    { n: 50, confidence: 0.9, seed: 11, strata },
  );
  assert.equal(dist.length, 3);
  const counts = new Int32Array(n);
  for (let b = 0; b < 50; b++) {
    drawResample(11, b, counts, pos);
    assert.equal(dist[0][b], weightedMean(x, counts));
    assert.equal(dist[1][b], counts[0]);
    assert.ok(Number.isNaN(dist[2][b]));
  }
  // same seed → same values; another seed → other values
  const again = fastBootstrapDistribution(n, 1, (c, out) => void (out[0] = weightedMean(x, c)), {
    n: 50,
    confidence: 0.9,
    seed: 11,
    strata,
  });
  assert.deepEqual(again[0], dist[0]);
  const other = fastBootstrapDistribution(n, 1, (c, out) => void (out[0] = weightedMean(x, c)), {
    n: 50,
    confidence: 0.9,
    seed: 12,
    strata,
  });
  assert.notDeepEqual(other[0], dist[0]);
  assert.throws(
    () => fastBootstrapDistribution(n, 1, () => {}, { n: 0, confidence: 0.9, seed: 1 }),
    /positive integer/,
  );
});

test('fastCiForStatistics: percentile interval per key, null when fewer than half are defined; progress and cancellation', () => {
  const x = [3, 1, 4, 1, 5, 9, 2, 6];
  const stat = (c: Int32Array, out: Float64Array): void => {
    out[0] = weightedMean(x, c);
    out[2] = c[0] > 0 ? 1 : NaN; // defined in ~66% of the resamples
  };
  const opts = { n: 300, confidence: 0.9, seed: 3 };
  const got = fastCiForStatistics(8, stat, ['mean', 'never', 'sometimes'], opts);
  const dist = fastBootstrapDistribution(8, 3, stat, opts);
  assert.deepEqual(got.mean, percentileInterval(dist[0], 0.9));
  assert.equal(got.never, null);
  assert.deepEqual(got.sometimes, [1, 1]);
  // coverage of the mean of a known distribution (seeded): uniform(0, 1), true mean 0.5
  let hits = 0;
  for (let r = 0; r < 100; r++) {
    const g = createRng(100 + r);
    const u = Float64Array.from({ length: 60 }, () => g.next());
    const ci = fastCiForStatistics(60, (c, out) => void (out[0] = weightedMean(u, c)), ['m'], {
      n: 300,
      confidence: 0.9,
      seed: r,
    }).m!;
    if (ci[0] <= 0.5 && 0.5 <= ci[1]) hits++;
  }
  assert.ok(hits >= 78 && hits <= 98, `90% intervals covered the mean ${hits}/100 times`);
  const seen: number[] = [];
  fastCiForStatistics(8, stat, ['mean', 'never', 'sometimes'], {
    ...opts,
    n: 5,
    onResample: (done, total) => seen.push(done * 100 + total),
  });
  assert.deepEqual(seen, [105, 205, 305, 405, 505]);
  assert.throws(
    () =>
      fastCiForStatistics(8, stat, ['a', 'b', 'c'], {
        ...opts,
        onResample: () => {
          throw new CancelledError();
        },
      }),
    CancelledError,
  );
});

test('compare: ci_diff = percentile interval of mean(run − baseline) over the pairs drawn by drawResample', async () => {
  const g = createRng(8);
  const n = 90;
  const ids = Array.from({ length: n }, (_, i) => `r${i}`);
  const labels = ids.map(() => 'x');
  const base = ids.map(() => (g.next() < 0.6 ? 1 : 0));
  const better = base.map((c) => (c === 1 || g.next() < 0.3 ? 1 : 0));
  const opts = { bootstrap: { n: 400, confidence: 0.95, seed: 21 } };
  const r = (
    await compareRuns(
      [classificationRun('base.csv', ids, labels, base), classificationRun('better.csv', ids, labels, better)],
      opts,
    )
  ).tests[0];
  const d = better.map((v, i) => v - base[i]);
  const counts = new Int32Array(n);
  const means = new Float64Array(400);
  for (let b = 0; b < 400; b++) {
    drawResample(21, b, counts, null);
    means[b] = weightedMean(d, counts);
  }
  const direct = percentileInterval(means, 0.95)!;
  const got = r.ci_diff as [number, number];
  assert.ok(Math.abs(got[0] - direct[0]) < 1e-15 && Math.abs(got[1] - direct[1]) < 1e-15, `${got} vs ${direct}`);
});

test('iw-binary: intervals = metricVector of the materialised stratified resamples (score order, strata per position)', async () => {
  const g = createRng(13);
  const rows: string[] = ['label,score,stratum,weight'];
  const y: number[] = [];
  const s: number[] = [];
  const st: number[] = [];
  const w: number[] = [];
  for (let i = 0; i < 60; i++) {
    const inB = i % 3 === 0;
    const yi = g.next() < (inB ? 0.5 : 0.2) ? 1 : 0;
    const si = Math.round((0.3 * yi + 0.7 * g.next()) * 20) / 20; // ties
    const wi = inB ? 1 : 4;
    y.push(yi);
    s.push(si);
    st.push(inB ? 0 : 1);
    w.push(wi);
    rows.push(`${yi},${si},${inB ? 'B' : 'Bc'},${wi}`);
  }
  const B = 120;
  const { results } = await runIw(tempFile(rows.join('\n') + '\n'), { bootstrapN: B, seed: 4, threshold: 0.5 });
  const so = scoreOrder(s);
  const nAbove = blocksAtOrAbove(so, 0.5);
  const pos = stratumPositions(
    60,
    Int32Array.from(so.order, (i) => st[i]),
  );
  const counts = new Int32Array(60);
  const byRow = new Float64Array(60);
  const distW = IW_KEYS.map(() => new Float64Array(B));
  const distU = IW_KEYS.map(() => new Float64Array(B));
  for (let b = 0; b < B; b++) {
    drawResample(4, b, counts, pos);
    so.order.forEach((i, p) => (byRow[i] = counts[p]));
    const vw = metricVector(
      so,
      y,
      w.map((wi, i) => wi * byRow[i]),
      nAbove,
    );
    const vu = metricVector(so, y, byRow, nAbove);
    IW_KEYS.forEach((_, j) => {
      distW[j][b] = vw[j];
      distU[j][b] = vu[j];
    });
  }
  const close = (a: readonly number[] | null | undefined, e: [number, number] | null, what: string): void => {
    assert.ok(a && e && Math.abs(a[0] - e[0]) < 1e-12 && Math.abs(a[1] - e[1]) < 1e-12, `${what}: ${a} vs ${e}`);
  };
  IW_KEYS.forEach((k, j) => {
    if (results.metrics[k].value !== null) close(results.metrics[k].ci, percentileInterval(distW[j], 0.95), k);
    if (results.baselines!.unweighted[k].value !== null)
      close(results.baselines!.unweighted[k].ci, percentileInterval(distU[j], 0.95), `unweighted ${k}`);
  });
});
