// A worked example small enough to check by hand, written as the formulas (docs/metrics/importance.md).
//
// Population |U| = 20, biased set |B| = 4, all 4 B rows labelled (b = 4), and a uniform sample of
// m = 4 rows from the 16 others (Bc):
//   w_B  = (|B|/b)/|U|      = (4/4)/20  = 1/20
//   w_Bc = ((|U|−|B|)/m)/|U| = (16/4)/20 = 1/5
//
//   stratum  y  score   weight
//   B        1  0.9     1/20
//   B        1  0.8     1/20
//   B        0  0.7     1/20
//   B        0  0.2     1/20
//   Bc       1  0.6     1/5
//   Bc       0  0.8     1/5      (tied with the B positive at 0.8)
//   Bc       0  0.4     1/5
//   Bc       0  0.1     1/5
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricVector, stratumWeights, IW_KEYS } from '../../../../src/core/metrics/importance';
import { auprTrapz, averagePrecision, precisionRecallAt, rocAuc } from '../../helpers/importanceAt';
import {
  blockCounts,
  blocksAtOrAbove,
  prPoints,
  rocPoints,
  scoreOrder,
} from '../../../../src/core/metrics/binaryCurve';
import { closeAbs as near } from '../../helpers/numericClose';

const wB = 1 / 20;
const wBc = 1 / 5;
const y = [1, 1, 0, 0, 1, 0, 0, 0];
const s = [0.9, 0.8, 0.7, 0.2, 0.6, 0.8, 0.4, 0.1];
const w = [wB, wB, wB, wB, wBc, wBc, wBc, wBc];

test('stratum weights: w_B = (|B|/b)/|U|, w_Bc = ((|U|−|B|)/m)/|U|', () => {
  const r = stratumWeights({ populationSize: 20, biasedSize: 4, b: 4, m: 4 });
  near(r.wB, 1 / 20);
  near(r.wBc, 1 / 5);
  // the TSDoc example
  const e = stratumWeights({ populationSize: 1000, biasedSize: 100, b: 100, m: 50 });
  near(e.wB, 0.001);
  near(e.wBc, 0.018);
  // b = |B| gives the seed's 1/|U| and (1 − |B|/|U|)/m; the weights sum to 1
  near(e.wB, 1 / 1000);
  near(e.wBc, (1 - 100 / 1000) / 50);
  near(100 * e.wB + 50 * e.wBc, 1);
  // a sample of B: |B| = 400 with b = 100 rows → each stands for 4 items
  near(stratumWeights({ populationSize: 1000, biasedSize: 400, b: 100, m: 50 }).wB, 4 / 1000);
});

test('precision, recall, F1 at t = 0.5 by hand', () => {
  // predicted positive: 0.9, 0.8, 0.7 (B) and 0.6, 0.8 (Bc)
  const TP = 2 * wB + 1 * wBc; // 0.3
  const FP = 1 * wB + 1 * wBc; // 0.25
  const FN = 0;
  const r = precisionRecallAt(y, s, { weights: w, threshold: 0.5 });
  near(r.precision, TP / (TP + FP)); // 6/11
  near(r.precision, 6 / 11);
  near(r.recall, TP / (TP + FN)); // 1
  near(r.f1, (2 * TP) / (2 * TP + FP + FN)); // 12/17
  near(r.f1, 12 / 17);
  // unweighted: TP = 3, FP = 2
  const u = precisionRecallAt(y, s, { threshold: 0.5 });
  near(u.precision, 3 / 5);
  near(u.recall, 1);
  near(u.f1, 3 / 4);
});

test('PR curve, average_precision and aupr_trapz by hand', () => {
  // Cumulative (TP, FP) after each distinct score, positives total P = 0.3:
  //   0.9 → (.05, 0)   R = 1/6, P = 1
  //   0.8 → (.10, .2)  R = 1/3, P = 1/3      (the tie enters together)
  //   0.7 → (.10, .25) R = 1/3, P = 2/7
  //   0.6 → (.30, .25) R = 1,   P = 6/11
  //   0.4 → (.30, .45) R = 1,   P = 2/5
  //   0.2 → (.30, .50) R = 1,   P = 3/8
  //   0.1 → (.30, .70) R = 1,   P = 3/10
  const so = scoreOrder(s);
  const pr = prPoints(so, blockCounts(so, y, w))!;
  const R = [0, 1 / 6, 1 / 3, 1 / 3, 1, 1, 1, 1];
  const P = [1, 1, 1 / 3, 2 / 7, 6 / 11, 2 / 5, 3 / 8, 3 / 10];
  assert.equal(pr.x.length, 8);
  pr.x.forEach((x, i) => near(x, R[i]));
  pr.y.forEach((v, i) => near(v, P[i]));
  assert.deepEqual(pr.threshold, [null, 0.9, 0.8, 0.7, 0.6, 0.4, 0.2, 0.1]);
  // AP = Σ (R_k − R_{k−1}) P_k = (1/6)·1 + (1/6)·(1/3) + 0 + (2/3)·(6/11) = 58/99
  near(averagePrecision(y, s, { weights: w }), (1 / 6) * 1 + (1 / 6) * (1 / 3) + (2 / 3) * (6 / 11));
  near(averagePrecision(y, s, { weights: w }), 58 / 99);
  // trapezoid: (1/6)(1+1)/2 + (1/6)(1+1/3)/2 + 0 + (2/3)(2/7+6/11)/2 = 1/6 + 1/9 + 64/231
  near(auprTrapz(y, s, { weights: w }), 1 / 6 + 1 / 9 + 64 / 231);
});

test('roc_auc by hand: weighted pairs, the tie at 0.8 counts one half', () => {
  // positives (score, w): (0.9, 1/20), (0.8, 1/20), (0.6, 1/5); negatives total 0.7
  //   0.9 beats every negative:                   1/20 · 0.7
  //   0.8 ties the Bc negative at 0.8 (½ · 1/5), beats 0.7, 0.4, 0.2, 0.1 (1/20+1/5+1/20+1/5)
  //   0.6 beats 0.4, 0.2, 0.1 (1/5 + 1/20 + 1/5)
  const num = wB * 0.7 + wB * (0.5 * wBc + 0.5) + wBc * 0.45;
  near(rocAuc(y, s, { weights: w }), num / (0.3 * 0.7));
  near(rocAuc(y, s, { weights: w }), 31 / 42);
  const so = scoreOrder(s);
  const roc = rocPoints(so, blockCounts(so, y, w))!;
  near(roc.x[2], wBc / 0.7); // after the 0.8 block: FP = 1/5
  near(roc.y[2], (2 * wB) / 0.3); // TP = 2/20
});

test('metricVector holds every key in IW_KEYS order, NaN where undefined', () => {
  const so = scoreOrder(s);
  const v = metricVector(so, y, w, blocksAtOrAbove(so, 0.5));
  assert.deepEqual(
    [...IW_KEYS],
    ['precision', 'recall', 'f1', 'aupr_trapz', 'average_precision', 'roc_auc', 'error_rate'],
  );
  near(v[0], 6 / 11);
  near(v[1], 1);
  near(v[2], 12 / 17);
  near(v[3], 1 / 6 + 1 / 9 + 64 / 231);
  near(v[4], 58 / 99);
  near(v[5], 31 / 42);
  // error rate at 0.5: one wrong B row (0, 0.7) and one wrong Bc row (0, 0.8), Σ w = 1
  near(v[6], 1 / 20 + 1 / 5);
});

test('TSDoc examples', () => {
  const ly = [1, 0, 1, 0];
  const ls = [0.9, 0.8, 0.7, 0.1];
  near(averagePrecision(ly, ls), 5 / 6);
  near(auprTrapz(ly, ls), 19 / 24);
  near(rocAuc(ly, ls), 3 / 4);
});

test('ties: tied rows enter the curve together, in any order', () => {
  // Reordering rows inside a tie changes nothing.
  const y2 = [0, 1, 1, 1, 0, 0, 1, 0, 0, 0];
  const s2 = [0.9, 0.9, 0.8, 0.6, 0.6, 0.6, 0.3, 0.3, 0.2, 0.1];
  const y3 = [1, 0, 1, 0, 1, 0, 0, 1, 0, 0];
  const s3 = [0.9, 0.9, 0.8, 0.6, 0.6, 0.6, 0.3, 0.3, 0.2, 0.1];
  near(averagePrecision(y2, s2), averagePrecision(y3, s3)!);
  near(rocAuc(y2, s2), rocAuc(y3, s3)!);
  // The first point holds both rows tied at 0.9: P = 1/2, R = 1/4 (not P = 1 for one of them).
  const so = scoreOrder(s3);
  const pr = prPoints(so, blockCounts(so, y3, null))!;
  near(pr.x[1], 1 / 4);
  near(pr.y[1], 1 / 2);
  // AP by hand: 1/4·1/2 + 1/4·2/3 + 1/4·3/6 + 1/4·4/8 = 1/8 + 1/6 + 1/8 + 1/8
  near(averagePrecision(y3, s3), 1 / 8 + 1 / 6 + 1 / 8 + 1 / 8);
});

test('threshold with no positive prediction: precision null, recall 0, f1 0', () => {
  const r = precisionRecallAt(y, s, { weights: w, threshold: 0.95 });
  assert.equal(r.precision, null);
  assert.equal(r.recall, 0);
  assert.equal(r.f1, 0);
  // a threshold equal to the top score predicts those rows positive (s ≥ t)
  const top = precisionRecallAt(y, s, { weights: w, threshold: 0.9 });
  near(top.precision, 1);
  near(top.recall, wB / 0.3);
});
