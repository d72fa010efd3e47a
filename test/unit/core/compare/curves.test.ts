// Curves kept for overlays: thinned evenly by index, first and last kept; only curves two runs share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_OVERLAY_POINTS, overlayCurves, thinIndices } from '../../../../src/core/compare/curves';
import { makeResults } from '../../../fixtures/compare/makeResults';

test('thinIndices: round(i·(n−1)/(m−1)), strictly increasing, ends kept; short curves untouched', () => {
  assert.deepEqual(thinIndices(5, 3), [0, 2, 4]);
  assert.deepEqual(thinIndices(3, 400), [0, 1, 2]);
  const idx = thinIndices(1000, MAX_OVERLAY_POINTS);
  assert.equal(idx.length, MAX_OVERLAY_POINTS);
  assert.equal(idx[0], 0);
  assert.equal(idx.at(-1), 999);
  assert.ok(idx.every((v, i) => i === 0 || v > idx[i - 1]!));
  assert.equal(idx[200], Math.round((200 * 999) / 399));
});

test('overlayCurves: curves at least two runs have, thinned, extras dropped', () => {
  const xs = Array.from({ length: 1001 }, (_, i) => i / 1000);
  const a = makeResults('a.csv', { accuracy: 0.5 });
  const b = makeResults('b.csv', { accuracy: 0.6 });
  a.curves = {
    riskCoverage: { x: 'coverage', y: 'risk', xs, ys: xs.map((x) => x / 2), extra: { threshold: xs } },
    pr: { x: 'recall', y: 'precision', xs: [0, 1], ys: [1, 0.5] },
  };
  b.curves = {
    riskCoverage: { x: 'coverage', y: 'risk', xs: [0.5, 1], ys: [0.1, 0.2] },
    'metricVsK.ndcg': { x: 'K', y: 'ndcg', xs: [1], ys: [0.3] },
  };
  const c = overlayCurves([a, b], ['a.csv', 'b.csv']);
  assert.deepEqual(Object.keys(c), ['riskCoverage']);
  assert.equal(c.riskCoverage!['a.csv']!.xs.length, MAX_OVERLAY_POINTS);
  assert.equal(c.riskCoverage!['a.csv']!.xs.at(-1), 1);
  assert.equal(c.riskCoverage!['a.csv']!.extra, undefined);
  assert.deepEqual(c.riskCoverage!['b.csv'], { x: 'coverage', y: 'risk', xs: [0.5, 1], ys: [0.1, 0.2] });
});
