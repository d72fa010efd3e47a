// The bootstrap's fast path of aggregateClassification (Int32 multiplicities, no weight column)
// equals the general path given the same multiplicities as a Float64Array.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateClassification, prepareClassification } from '../../../../src/core/metrics/classification';
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
