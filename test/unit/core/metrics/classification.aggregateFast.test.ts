// The bootstrap's fast path of aggregateClassification (Int32 multiplicities, no weight column,
// several resamples per walk) equals the general path given the same multiplicities as a
// Float64Array — bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AGGREGATE_LANES,
  aggregateClassification,
  aggregateUnitBatch,
  prepareClassification,
  type PreparedClassification,
} from '../../../../src/core/metrics/classification';
import { createRng } from '../../../../src/core/stats/rng';
import { makeData } from '../../helpers/classification';

test('Int32 multiplicities (fast path) give the same values and class sums as Float64 ones', () => {
  const rng = createRng(4);
  for (const [n, C, withProbs] of [
    [1, 2, true],
    [40, 3, true],
    [300, 7, false],
    [500, 12, true],
  ] as const) {
    const classes = Array.from({ length: C }, (_, c) => `c${c}`);
    const labels = Array.from({ length: n }, () => rng.int(C));
    const probs = Array.from({ length: n }, () => {
      const r = Array.from({ length: C }, () => rng.next());
      const s = r.reduce((a, b) => a + b, 0);
      return r.map((x) => x / s);
    });
    const preds = withProbs ? undefined : Array.from({ length: n }, () => rng.int(C));
    const prep = prepareClassification(makeData({ classes, labels, preds, probs: withProbs ? probs : null }), {
      topK: [1, 2],
    });
    for (let rep = 0; rep < 5; rep++) {
      const counts = new Int32Array(n);
      for (let j = 0; j < n; j++) counts[rng.int(n)]++;
      const fast = aggregateClassification(prep, counts);
      const slow = aggregateClassification(prep, Float64Array.from(counts));
      for (const [k, v] of Object.entries(slow.values)) {
        const f = fast.values[k];
        if (v === null) assert.equal(f, null, k);
        else assert.ok(f !== null && Math.abs(f - v) <= 1e-12 * Math.max(1, Math.abs(v)), `${k}: ${f} vs ${v}`);
      }
      assert.deepEqual(fast.stats.present, slow.stats.present);
      assert.deepEqual(fast.stats.support, slow.stats.support);
      assert.deepEqual(fast.stats.predicted, slow.stats.predicted);
      assert.equal(fast.stats.total, slow.stats.total);
    }
  }
});

/** Random prepared rows: C classes, scores with ties (equal probabilities) when `ties`, optional probabilities. */
function randomPrepared(seed: number, n: number, C: number, withProbs: boolean, ties: boolean): PreparedClassification {
  const rng = createRng(seed);
  const classes = Array.from({ length: C }, (_, c) => `c${c}`);
  const labels = Array.from({ length: n }, () => rng.int(C));
  const probs = Array.from({ length: n }, () => {
    const r = Array.from({ length: C }, () => (ties ? 1 + rng.int(3) : rng.next()));
    const s = r.reduce((a, b) => a + b, 0);
    return r.map((x) => x / s);
  });
  const preds = withProbs ? undefined : Array.from({ length: n }, () => rng.int(C));
  return prepareClassification(makeData({ classes, labels, preds, probs: withProbs ? probs : null }), {
    topK: [1, 2, 5],
  });
}

test('a batch of 1–4 resamples in one walk = each resample through the general path, bit for bit', () => {
  const rng = createRng(11);
  for (const [n, C, withProbs, ties] of [
    [1, 2, true, false],
    [37, 3, true, true],
    [300, 7, false, false],
    [500, 12, true, true],
  ] as const) {
    const prep = randomPrepared(n + C, n, C, withProbs, ties);
    for (let L = 1; L <= AGGREGATE_LANES; L++) {
      const counts = Array.from({ length: L }, (_, l) => {
        const c = new Int32Array(n);
        // lane 1 of a 2+ batch is an empty resample (every value null), the others n draws
        if (l !== 1) for (let j = 0; j < n; j++) c[rng.int(n)]++;
        return c;
      });
      const batch = aggregateUnitBatch(prep, counts, L);
      assert.equal(batch.length, L);
      for (let l = 0; l < L; l++) {
        const slow = aggregateClassification(prep, Float64Array.from(counts[l]));
        assert.deepStrictEqual(batch[l].values, slow.values, `n=${n} L=${L} lane ${l}`);
        assert.deepStrictEqual(batch[l].stats, slow.stats, `n=${n} L=${L} lane ${l}`);
        // and one resample alone (aggregateClassification's Int32 path) = the same resample in the batch
        assert.deepStrictEqual(aggregateClassification(prep, counts[l]), batch[l]);
      }
      if (L > 1) assert.equal(batch[1].values.accuracy, null);
    }
  }
});

test('a batch refuses more lanes than it has, and integer sums that would overflow', () => {
  const prep = randomPrepared(3, 4, 2, true, false);
  const c = new Int32Array(4).fill(1);
  assert.throws(() => aggregateUnitBatch(prep, [c, c, c, c, c], 5), RangeError);
  assert.throws(() => aggregateUnitBatch(prep, [c], 2), RangeError);
  const huge = Int32Array.from([2 ** 30, 2 ** 30, 0, 0]);
  assert.throws(() => aggregateUnitBatch(prep, [huge], 1), /fewer than 2\^31 items/);
});
