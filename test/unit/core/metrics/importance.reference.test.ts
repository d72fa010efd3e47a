// A slow, obvious reference (a rescan of every row at every threshold, and the pairwise form of
// the ROC AUC) against the fast sorted/cumulative code, on seeded random inputs with ties, weights
// and zero weights. Also: the bootstrap's weights × multiplicities on one sort order equal the
// metrics of the materialised resample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../../../src/core/stats/rng';
import { IW_KEYS, metricVector, sortedResampler } from '../../../../src/core/metrics/importance';
import { blocksAtOrAbove, scoreOrder } from '../../../../src/core/metrics/binaryCurve';
import { closeAbs } from '../../helpers/numericClose';

/** Every key by definition, O(n²): NaN where undefined. */
function reference(y: number[], s: number[], w: number[], t: number): number[] {
  const n = y.length;
  const sum = (f: (i: number) => number): number => {
    let a = 0;
    for (let i = 0; i < n; i++) a += f(i);
    return a;
  };
  const P = sum((i) => w[i] * y[i]);
  const N = sum((i) => w[i] * (1 - y[i]));
  const tp = sum((i) => (s[i] >= t ? w[i] * y[i] : 0));
  const fp = sum((i) => (s[i] >= t ? w[i] * (1 - y[i]) : 0));
  const fn = P - tp;
  const precision = tp + fp > 0 ? tp / (tp + fp) : NaN;
  const recall = P > 0 ? tp / P : NaN;
  const f1 = 2 * tp + fp + fn > 0 ? (2 * tp) / (2 * tp + fp + fn) : NaN;
  // thresholds: distinct scores carried by a row of positive weight, descending
  const thr = [...new Set(s.filter((_, i) => w[i] > 0))].sort((a, b) => b - a);
  let ap = NaN;
  let trapz = NaN;
  if (P > 0) {
    ap = 0;
    trapz = 0;
    let pr = 0;
    let pp = 1;
    for (const th of thr) {
      const TP = sum((i) => (s[i] >= th ? w[i] * y[i] : 0));
      const FP = sum((i) => (s[i] >= th ? w[i] * (1 - y[i]) : 0));
      const R = TP / P;
      const Pr = TP / (TP + FP);
      ap += (R - pr) * Pr;
      trapz += ((R - pr) * (Pr + pp)) / 2;
      pr = R;
      pp = Pr;
    }
  }
  let auc = NaN;
  if (P > 0 && N > 0) {
    let a = 0;
    for (let i = 0; i < n; i++) {
      if (y[i] !== 1) continue;
      for (let j = 0; j < n; j++) {
        if (y[j] !== 0) continue;
        a += w[i] * w[j] * (s[i] > s[j] ? 1 : s[i] === s[j] ? 0.5 : 0);
      }
    }
    auc = a / (P * N);
  }
  // error rate: the weighted share of rows whose prediction 1[s ≥ t] is not the label
  const W = sum((i) => w[i]);
  const errorRate = W > 0 ? sum((i) => ((s[i] >= t ? 1 : 0) !== y[i] ? w[i] : 0)) / W : NaN;
  return [precision, recall, f1, trapz, ap, auc, errorRate];
}

function randomCase(seed: number) {
  const rng = createRng(seed);
  const n = 1 + rng.int(120);
  const levels = 2 + rng.int(30); // few levels → many ties
  const y: number[] = [];
  const s: number[] = [];
  const w: number[] = [];
  const posRate = rng.next();
  for (let i = 0; i < n; i++) {
    const yi = rng.next() < posRate ? 1 : 0;
    y.push(yi);
    s.push(Math.min(1, Math.floor((0.3 * yi + rng.next() * 0.8) * levels) / levels));
    const kind = seed % 3;
    w.push(
      kind === 0
        ? rng.next() < 0.5
          ? 0.001
          : 0.018
        : kind === 1
          ? rng.next() * 2
          : rng.next() < 0.25
            ? 0
            : rng.next(),
    );
  }
  return { y, s, w, t: Math.floor(rng.next() * levels) / levels };
}

const sameOrBothNaN = (a: number, b: number, what: string): void => closeAbs(a, b, 1e-10, what);

test('fast metricVector = slow reference on 300 seeded random inputs (ties, weights, zero weights)', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const { y, s, w, t } = randomCase(seed);
    const so = scoreOrder(s);
    const fast = metricVector(so, y, w, blocksAtOrAbove(so, t));
    const slow = reference(y, s, w, t);
    IW_KEYS.forEach((k, j) => sameOrBothNaN(fast[j], slow[j], `seed ${seed} ${k}`));
    const fastU = metricVector(so, y, null, blocksAtOrAbove(so, t));
    const slowU = reference(
      y,
      s,
      y.map(() => 1),
      t,
    );
    IW_KEYS.forEach((k, j) => sameOrBothNaN(fastU[j], slowU[j], `seed ${seed} unweighted ${k}`));
  }
});

test('bootstrap form: weights × multiplicities on the full sort order = metrics of the materialised resample', () => {
  for (let seed = 1; seed <= 100; seed++) {
    const { y, s, w, t } = randomCase(seed);
    const rng = createRng(seed + 1000);
    const counts = new Float64Array(y.length);
    for (let j = 0; j < y.length; j++) counts[rng.int(y.length)] += 1;
    const so = scoreOrder(s);
    const eff = w.map((wi, i) => wi * counts[i]);
    const fast = metricVector(so, y, eff, blocksAtOrAbove(so, t));
    // materialise: row i repeated counts[i] times
    const ry: number[] = [];
    const rs: number[] = [];
    const rw: number[] = [];
    y.forEach((_, i) => {
      for (let c = 0; c < counts[i]; c++) {
        ry.push(y[i]);
        rs.push(s[i]);
        rw.push(w[i]);
      }
    });
    const slow = reference(ry, rs, rw, t);
    IW_KEYS.forEach((k, j) => sameOrBothNaN(fast[j], slow[j], `seed ${seed} ${k}`));
  }
});

test('sortedResampler (the bootstrap statistic) = metricVector with w × counts, weighted and unweighted', () => {
  for (let seed = 1; seed <= 100; seed++) {
    const { y, s, w, t } = randomCase(seed);
    const so = scoreOrder(s);
    const nAbove = blocksAtOrAbove(so, t);
    const strata = Int32Array.from(y, (_, i) => i % 2);
    const rs = sortedResampler(so, y, w, strata, nAbove);
    // counts are per sorted position
    assert.deepEqual(
      [...rs.strata!],
      [...so.order].map((i) => i % 2),
    );
    const rng = createRng(seed + 5000);
    const counts = new Float64Array(y.length);
    for (let j = 0; j < y.length; j++) counts[rng.int(y.length)] += 1;
    const byRow = new Float64Array(y.length);
    so.order.forEach((i, p) => (byRow[i] = counts[p]));
    const got = rs.stat(counts);
    const wantW = metricVector(
      so,
      y,
      w.map((wi, i) => wi * byRow[i]),
      nAbove,
    );
    const wantU = metricVector(so, y, byRow, nAbove);
    IW_KEYS.forEach((k, j) => {
      sameOrBothNaN(got[j], wantW[j], `seed ${seed} ${k}`);
      sameOrBothNaN(got[IW_KEYS.length + j], wantU[j], `seed ${seed} unweighted ${k}`);
    });
    // all counts 1: exactly the point estimates
    const ones = rs.stat(new Float64Array(y.length).fill(1));
    const pw = metricVector(so, y, w, nAbove);
    const pu = metricVector(so, y, null, nAbove);
    IW_KEYS.forEach((k, j) => {
      assert.ok(Object.is(ones[j], pw[j]), `seed ${seed} ${k}: ${ones[j]} vs ${pw[j]}`);
      assert.ok(Object.is(ones[IW_KEYS.length + j], pu[j]), `seed ${seed} unweighted ${k}`);
    });
  }
});
