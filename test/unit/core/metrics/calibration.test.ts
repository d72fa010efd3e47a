// ECE (equal-width, (lo, hi] bins), MCE, adaptive ECE, reliability bins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { binIndices, calibrationValues, eceBinIndex, reliabilityBins } from '../../../../src/core/metrics/calibration';
import { createRng, expand } from '../../helpers/selective';

import { closeRel as close } from '../../helpers/numericClose';

/** The AR-GSE evaluation scripts' calculate_ece, transcribed (bin edges k/B in float64, conf > lo & conf <= hi). */
function seedEce(conf: number[], correct: number[], B: number): number {
  let ece = 0;
  for (let i = 0; i < B; i++) {
    const lo = i / B;
    const hi = (i + 1) / B;
    const idx = conf.map((c, j) => (c > lo && c <= hi ? j : -1)).filter((j) => j >= 0);
    if (idx.length > 0) {
      const acc = idx.reduce((a, j) => a + correct[j], 0) / idx.length;
      const cf = idx.reduce((a, j) => a + conf[j], 0) / idx.length;
      ece += idx.length * Math.abs(acc - cf);
    }
  }
  return ece / conf.length;
}

function rowsOf(conf: number[], correct: number[], weights?: number[]) {
  return sortRowsByScore(
    conf,
    correct.map((c) => 1 - c),
    { weights: weights ?? null },
  );
}

test('bin edges: a confidence exactly on an edge goes to the LOWER bin; 0 is in no bin', () => {
  assert.equal(eceBinIndex(0.4, 15), 5); // 0.4 = 6/15 → (5/15, 6/15]
  assert.equal(eceBinIndex(0.41, 15), 6);
  assert.equal(eceBinIndex(1, 15), 14);
  assert.equal(eceBinIndex(0, 15), -1);
  assert.equal(eceBinIndex(1e-300, 15), 0);
  for (let B = 1; B <= 40; B++) {
    for (let k = 1; k <= B; k++) assert.equal(eceBinIndex(k / B, B), k - 1, `edge ${k}/${B}`);
  }
  assert.equal(eceBinIndex(0.5, 2), 0);
  assert.equal(eceBinIndex(0.5000000001, 2), 1);
});

test('ECE / MCE / adaptive ECE: the TSDoc example, written as formulas', () => {
  const r = rowsOf([0.9, 0.9, 0.6, 0.2], [1, 0, 1, 0]);
  const v = calibrationValues(r, 2);
  close(v.ece, (Math.abs(0 - 0.2) * 1 + Math.abs(2 / 3 - 2.4 / 3) * 3) / 4);
  close(v.ece, 0.15);
  close(v.mce, Math.max(0.2, Math.abs(2 / 3 - 0.8)));
  close(v.eceAdaptive, (2 * Math.abs(1 / 2 - 0.4) + 2 * Math.abs(1 / 2 - 0.9)) / 4);
});

test('confidence 0: in no bin but counts in n', () => {
  // one row at 0.8 (correct) and one at 0 (wrong): ECE = (1/2)·|1 − 0.8|
  const v = calibrationValues(rowsOf([0.8, 0], [1, 0]), 15);
  close(v.ece, 0.5 * 0.2);
  close(v.mce, 0.2);
  const bins = reliabilityBins(rowsOf([0.8, 0], [1, 0]), 15);
  assert.equal(
    bins.reduce((a, b) => a + b.count, 0),
    1,
  );
  // every confidence 0: every bin empty, mce undefined
  const z = calibrationValues(rowsOf([0, 0], [1, 0]), 15);
  assert.equal(z.ece, 0);
  assert.ok(Number.isNaN(z.mce));
});

test('ECE equals a literal per-bin loop (calculate_ece as selective-classification scripts write it) on random data (also with values on edges)', () => {
  const rng = createRng(31);
  for (let rep = 0; rep < 30; rep++) {
    const n = 1 + rng.int(300);
    const B = 1 + rng.int(20);
    const conf = Array.from({ length: n }, () => (rng.next() < 0.3 ? rng.int(B + 1) / B : rng.next()));
    const correct = conf.map((c) => (rng.next() < c ? 1 : 0));
    close(calibrationValues(rowsOf(conf, correct), B).ece, seedEce(conf, correct, B), 1e-12);
  }
});

test('adaptive ECE: chunk sizes differ by at most one, the first n mod B chunks one larger', () => {
  // n = 7, B = 3 → chunks 3, 2, 2 of the ascending order; per-row gaps chosen so chunks are visible
  const conf = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
  const correct = [1, 1, 1, 0, 0, 0, 0];
  const v = calibrationValues(rowsOf(conf, correct), 3);
  const chunk = (idx: number[]) => Math.abs(idx.reduce((a, j) => a + correct[j] - conf[j], 0));
  close(v.eceAdaptive, (chunk([0, 1, 2]) + chunk([3, 4]) + chunk([5, 6])) / 7);
  // n < B: first n chunks hold one row each, the rest are empty
  const w = calibrationValues(rowsOf([0.3, 0.9], [0, 1]), 15);
  close(w.eceAdaptive, (0.3 + 0.1) / 2);
});

test('adaptive ECE: stable ascending sort, ties in row order', () => {
  // three rows tied at 0.5: rows 0, 1 (correct) and 2 (wrong); B = 2 → chunks {0, 1}, {2} of the tie
  const v = calibrationValues(rowsOf([0.5, 0.5, 0.5], [1, 1, 0]), 2);
  close(v.eceAdaptive, (Math.abs(2 - 1) + Math.abs(0 - 0.5)) / 3);
});

test('weighted form: multiplicities equal the expanded data; unit weights equal unweighted', () => {
  const rng = createRng(32);
  for (let rep = 0; rep < 30; rep++) {
    const n = 1 + rng.int(80);
    const B = 1 + rng.int(16);
    const conf = Array.from({ length: n }, () => Math.round(rng.next() * 20) / 20);
    const correct = conf.map(() => rng.int(2));
    const mult = conf.map(() => rng.int(4));
    if (!mult.some((m) => m > 0)) mult[0] = 1;
    const r = rowsOf(conf, correct);
    const m = Float64Array.from(r.rowIndex, (i) => mult[i]);
    const a = calibrationValues(r, B, m, binIndices(r, B));
    const b = calibrationValues(rowsOf(expand(conf, mult), expand(correct, mult)), B);
    close(a.ece, b.ece);
    close(a.eceAdaptive, b.eceAdaptive);
    if (Number.isNaN(b.mce)) assert.ok(Number.isNaN(a.mce));
    else close(a.mce, b.mce);
    assert.deepEqual(
      calibrationValues(
        rowsOf(
          conf,
          correct,
          conf.map(() => 1),
        ),
        B,
      ),
      calibrationValues(r, B),
    );
  }
});

test('reliability bins: edges, counts, accuracy and confidence (null when empty)', () => {
  const bins = reliabilityBins(rowsOf([0.9, 0.9, 0.6, 0.2], [1, 0, 1, 0]), 2);
  assert.deepEqual(bins[0], { lo: 0, hi: 0.5, count: 1, accuracy: 0, confidence: 0.2 });
  assert.equal(bins[1].count, 3);
  close(bins[1].accuracy!, 2 / 3);
  close(bins[1].confidence!, 2.4 / 3);
  const empty = reliabilityBins(rowsOf([0.9], [1]), 4);
  assert.equal(empty[0].accuracy, null);
  assert.equal(empty[0].confidence, null);
});
