/**
 * A slice's rows in score order are cut from the whole file's order (sortedSubsets) instead of
 * being sorted again. The cut must equal sorting the slice on its own — positions, tied blocks,
 * weights — and the slice metrics computed from it must equal those computed by sorting, point
 * values and bootstrap resamples alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareClassification } from '../../../../src/core/metrics/classification';
import { binIndices, calibrationValues } from '../../../../src/core/metrics/calibration';
import { aurcValues } from '../../../../src/core/metrics/riskCoverage';
import { gatherCounts, sortedSubsets, sortRowsByScore, type SortedRows } from '../../../../src/core/metrics/sortedRows';
import { createRng, type Rng } from '../../../../src/core/stats/rng';
import { classNames, makeData } from '../../helpers/classification';

function pick<T extends Float64Array | Uint8Array>(a: T, rows: Int32Array): T {
  const out = a.slice(0, rows.length) as T;
  for (let j = 0; j < rows.length; j++) out[j] = a[rows[j]];
  return out;
}

/** Increasing rows kept with probability `p`. */
function subsetOf(rng: Rng, n: number, p: number): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (rng.next() < p) out.push(i);
  return Int32Array.from(out);
}

/** Scores on a few levels (many ties), with −0 and +0 among them. */
function scoresOf(rng: Rng, n: number, levels: number): Float64Array {
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = rng.int(levels + 1);
    s[i] = k === 0 ? (rng.next() < 0.5 ? -0 : 0) : k / levels;
  }
  return s;
}

test('sortedSubsets equals sorting each subset on its own (ties, ±0, weights, empty, all rows)', () => {
  const rng = createRng(11);
  for (let trial = 0; trial < 60; trial++) {
    const n = 1 + rng.int(300);
    const scores = scoresOf(rng, n, 1 + rng.int(12));
    const wrongAll = Uint8Array.from({ length: n }, () => (rng.next() < 0.4 ? 1 : 0));
    const weightsAll = trial % 2 === 0 ? Float64Array.from({ length: n }, () => rng.next() * 3) : null;
    const whole = sortRowsByScore(scores, wrongAll, { weights: weightsAll });
    const cut = sortedSubsets(whole);
    // several subsets of one whole (the index built on the first call serves the next ones), small
    // (below 1/16: positions sorted) and large (whole scanned)
    for (const p of [0, 1, 0.03, rng.next(), rng.next()]) {
      const rows = subsetOf(rng, n, p);
      const wrong = pick(wrongAll, rows);
      const weights = weightsAll ? pick(weightsAll, rows) : null;
      const expected = sortRowsByScore(pick(scores, rows), wrong, { weights });
      const got = cut(rows, wrong, weights);
      assert.deepEqual(got, expected, `trial ${trial}: ${rows.length} of ${n} rows`);
      // −0 and +0 kept per row, as the sort keeps them
      for (let q = 0; q < got.n; q++) assert.ok(Object.is(got.score[q], expected.score[q]));
    }
  }
});

test('sortedSubsets refuses rows the sorted rows do not hold', () => {
  const scores = Float64Array.from([0.9, 0.1, 0.5]);
  const part = sortRowsByScore(scores, new Uint8Array(3), { rows: Int32Array.from([0, 2]) });
  assert.throws(() => sortedSubsets(part)(Int32Array.from([1, 2]), new Uint8Array(2), null), /1 of the 2 rows/);
  assert.throws(() => sortedSubsets(part)(Int32Array.from([2, 5]), new Uint8Array(2), null), /1 of the 2 rows/);
});

/** ECE (10 bins) and AURC of sorted rows under multiplicities in the rows' own order (null: each once). */
function eceAurc(sorted: SortedRows, mult: Float64Array | null): number[] {
  const m = mult ? gatherCounts(sorted, mult) : null;
  return [calibrationValues(sorted, 10, m, binIndices(sorted, 10)).ece, aurcValues(sorted, m).aurc];
}

test('slice metrics from the cut order equal those from sorting each slice (point and resampled)', () => {
  const rng = createRng(5);
  const C = 4;
  for (const weighted of [false, true]) {
    const n = 400;
    const labels: number[] = [];
    const probs: number[][] = [];
    for (let i = 0; i < n; i++) {
      labels.push(rng.int(C));
      // probabilities on a coarse grid: tied top scores
      const raw = Array.from({ length: C }, () => 1 + rng.int(4));
      const s = raw.reduce((a, b) => a + b, 0);
      probs.push(raw.map((x) => x / s));
    }
    const data = makeData({
      classes: classNames(C),
      labels,
      probs,
      weights: weighted ? Array.from({ length: n }, () => 0.5 + rng.next()) : null,
    });
    const P = prepareClassification(data);
    const scores = Float64Array.from(probs, (r) => Math.max(...r));
    const wrong = Uint8Array.from(P.correct, (c) => 1 - c);
    const order = sortRowsByScore(scores, wrong, { weights: data.weights });
    const cut = sortedSubsets(order);
    for (const p of [0.05, 0.3, 1]) {
      const rows = subsetOf(rng, n, p);
      const w = data.weights ? pick(data.weights, rows) : null;
      const sw = pick(wrong, rows);
      const a = sortRowsByScore(pick(scores, rows), sw, { weights: w });
      const b = cut(rows, sw, w);
      assert.deepEqual(eceAurc(b, null), eceAurc(a, null), `point, ${rows.length} rows`);
      for (let r = 0; r < 5; r++) {
        const mult = Float64Array.from({ length: rows.length }, () => rng.int(3));
        assert.deepEqual(eceAurc(b, mult), eceAurc(a, mult), `resample ${r}, ${rows.length} rows`);
      }
    }
  }
});
