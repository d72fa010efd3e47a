import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateClassification,
  confusionMatrix,
  perClassAccuracy,
  perClassScores,
  prepareClassification,
  type ClassificationData,
} from '../../helpers/classificationMetrics';
import { close, createRng, makeData, randomData } from '../../helpers/classification';

// ---------------------------------------------------------------------------------------------
// Hand-computed examples, written as the formula.
// ---------------------------------------------------------------------------------------------

// 3 classes, 6 rows. labels y, predictions ŷ, probabilities p.
const hand = makeData({
  classes: ['a', 'b', 'c'],
  labels: [0, 0, 1, 1, 2, 2],
  probs: [
    [0.7, 0.2, 0.1], // ŷ=a ✓  rank of true = 1
    [0.3, 0.6, 0.1], // ŷ=b ✗  rank 2
    [0.1, 0.8, 0.1], // ŷ=b ✓  rank 1
    [0.5, 0.4, 0.1], // ŷ=a ✗  rank 2
    [0.2, 0.3, 0.5], // ŷ=c ✓  rank 1
    [0.6, 0.3, 0.1], // ŷ=a ✗  rank 3
  ],
});

test('accuracy, balanced accuracy, macro F1 by hand', () => {
  const { values, stats } = aggregateClassification(prepareClassification(hand));
  close(values.accuracy, 3 / 6);
  // acc_a = 1/2, acc_b = 1/2, acc_c = 1/2
  assert.deepEqual(perClassAccuracy(stats), [1 / 2, 1 / 2, 1 / 2]);
  close(values.balanced_accuracy, (1 / 2 + 1 / 2 + 1 / 2) / 3);
  // TP = [1,1,1]; support = [2,2,2]; predicted = [3,2,1]
  // F1_c = 2TP/(support+predicted) = [2/5, 2/4, 2/3]
  close(values.macro_f1, (2 / 5 + 2 / 4 + 2 / 3) / 3);
  // MCC: t = support = [2,2,2], p = predicted = [3,2,1], c = ΣTP = 3, s = 6
  // (c·s − Σ p·t) / √((s² − Σ p²)(s² − Σ t²)) = (18 − 12) / √((36 − 14)(36 − 12))
  close(
    values.matthews_corrcoef,
    (3 * 6 - (3 * 2 + 2 * 2 + 1 * 2)) / Math.sqrt((36 - (9 + 4 + 1)) * (36 - (4 + 4 + 4))),
  );
});

test('top-k, NLL and Brier by hand', () => {
  const { values } = aggregateClassification(prepareClassification(hand, { topK: [1, 2, 3] }));
  // true ranks: [1,2,1,2,1,3]
  close(values.top1_accuracy, 3 / 6);
  close(values.top2_accuracy, 5 / 6);
  close(values.top3_accuracy, 6 / 6);
  const pTrue = [0.7, 0.3, 0.8, 0.4, 0.5, 0.1];
  close(values.nll, pTrue.reduce((s, p) => s - Math.log(p), 0) / 6);
  const brierRows = [
    0.3 ** 2 + 0.2 ** 2 + 0.1 ** 2,
    0.7 ** 2 + 0.6 ** 2 + 0.1 ** 2,
    0.1 ** 2 + 0.2 ** 2 + 0.1 ** 2,
    0.5 ** 2 + 0.6 ** 2 + 0.1 ** 2,
    0.2 ** 2 + 0.3 ** 2 + 0.5 ** 2,
    0.6 ** 2 + 0.3 ** 2 + 0.9 ** 2,
  ];
  close(values.brier, brierRows.reduce((a, b) => a + b, 0) / 6);
});

test('weighted accuracy and balanced accuracy by hand', () => {
  const w = [2, 1, 1, 3, 0.5, 0.5];
  const { values } = aggregateClassification(prepareClassification(makeData({ ...plain(hand), weights: w })));
  // correct rows 0, 2, 4 with weights 2, 1, 0.5; total 8
  close(values.accuracy, (2 + 1 + 0.5) / 8);
  // acc_a = 2/3, acc_b = 1/4, acc_c = 0.5/1
  close(values.balanced_accuracy, (2 / 3 + 1 / 4 + 0.5) / 3);
  // TP = [2,1,0.5]; support = [3,4,1]; predicted (rows 0,3,5 → a; 1,2 → b; 4 → c) = [5.5, 2, 0.5]
  close(values.macro_f1, ((2 * 2) / (3 + 5.5) + (2 * 1) / (4 + 2) + (2 * 0.5) / (1 + 0.5)) / 3);
});

test('the docstring example of aggregateClassification', () => {
  const d = makeData({ classes: ['0', '1'], labels: [0, 1, 1], preds: [0, 0, 1] });
  const { values } = aggregateClassification(prepareClassification(d));
  close(values.accuracy, 2 / 3);
  close(values.balanced_accuracy, 0.75);
  close(values.macro_f1, 2 / 3);
});

test('confusion matrix and per-class precision/recall/F1 by hand', () => {
  const prep = prepareClassification(hand);
  assert.deepEqual(confusionMatrix(prep), [
    [1, 1, 0],
    [1, 1, 0],
    [1, 0, 1],
  ]);
  const s = perClassScores(aggregateClassification(prep).stats);
  close(s[0].precision, 1 / 3);
  close(s[0].recall, 1 / 2);
  close(s[0].f1, 2 / 5);
  close(s[2].precision, 1);
  close(s[2].f1, 2 / 3);
});

test('weights all 1 give exactly the unweighted values', () => {
  const rng = createRng(7);
  const d = randomData(rng, 300, 6, { noisyPred: true });
  const ones = makeData({ ...plain(d), weights: new Array(d.n).fill(1) });
  const a = aggregateClassification(prepareClassification(d, { topK: [1, 3] })).values;
  const b = aggregateClassification(prepareClassification(ones, { topK: [1, 3] })).values;
  assert.deepEqual(b, a);
  assert.deepEqual(confusionMatrix(prepareClassification(ones)), confusionMatrix(prepareClassification(d)));
});

// ---------------------------------------------------------------------------------------------
// A slow, obvious reference implementation, compared with the fast code on random inputs.
// ---------------------------------------------------------------------------------------------

function reference(d: ClassificationData, topK: number[], counts?: number[]): Record<string, number | null> {
  const C = d.classes.length;
  const w = (i: number) => (d.weights ? d.weights[i] : 1) * (counts ? counts[i] : 1);
  const rows = Array.from({ length: d.n }, (_, i) => i).filter((i) => !counts || counts[i] > 0);
  const total = rows.reduce((s, i) => s + w(i), 0);
  const out: Record<string, number | null> = {};
  out.accuracy = rows.reduce((s, i) => s + (d.labels[i] === d.preds[i] ? w(i) : 0), 0) / total;
  const accs: number[] = [];
  const f1s: number[] = [];
  for (let c = 0; c < C; c++) {
    const ofC = rows.filter((i) => d.labels[i] === c);
    const predC = rows.filter((i) => d.preds[i] === c);
    const sup = ofC.reduce((s, i) => s + w(i), 0);
    const tp = ofC.filter((i) => d.preds[i] === c).reduce((s, i) => s + w(i), 0);
    const pr = predC.reduce((s, i) => s + w(i), 0);
    if (sup > 0) accs.push(tp / sup);
    if (ofC.length > 0 || predC.length > 0) {
      const precision = pr > 0 ? tp / pr : 0;
      const recall = sup > 0 ? tp / sup : 0;
      f1s.push(precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0);
    }
  }
  out.balanced_accuracy = accs.reduce((a, b) => a + b, 0) / accs.length;
  out.macro_f1 = f1s.reduce((a, b) => a + b, 0) / f1s.length;
  out.matthews_corrcoef = referenceMcc(d, rows, w);
  if (d.probs) {
    const p = (i: number, c: number) => d.probs![i * C + c];
    for (const k of topK) {
      let hit = 0;
      for (const i of rows) {
        // sort scores descending; the true class is a hit when its score is among the k largest values
        const sorted = Array.from({ length: C }, (_, c) => p(i, c)).sort((a, b) => b - a);
        if (p(i, d.labels[i]) >= sorted[Math.min(k, C) - 1]) hit += w(i);
      }
      out[`top${k}_accuracy`] = hit / total;
    }
    out.nll = rows.reduce((s, i) => s + w(i) * -Math.log(Math.max(p(i, d.labels[i]), 1e-15)), 0) / total;
    out.brier =
      rows.reduce((s, i) => {
        let b = 0;
        for (let c = 0; c < C; c++) b += (p(i, c) - (c === d.labels[i] ? 1 : 0)) ** 2;
        return s + w(i) * b;
      }, 0) / total;
  }
  return out;
}

/**
 * MCC as Gorodkin defines it: the weighted covariance of the one-hot true and predicted label
 * matrices X, Y (n × C), cov(X, Y) / √(cov(X, X)·cov(Y, Y)), cov(U, V) = Σ_i w_i Σ_k (U_ik − Ū_k)(V_ik − V̄_k),
 * with column means Ū_k = Σ_i w_i U_ik / Σ w; 0 when a variance is 0 (scikit-learn).
 */
function referenceMcc(d: ClassificationData, rows: number[], w: (i: number) => number): number {
  const C = d.classes.length;
  const total = rows.reduce((s, i) => s + w(i), 0);
  const oneHot = (c: number) => Array.from({ length: C }, (_, k) => (k === c ? 1 : 0));
  const mean = (of: (i: number) => number[]) =>
    Array.from({ length: C }, (_, k) => rows.reduce((s, i) => s + w(i) * of(i)[k], 0) / total);
  const x = (i: number) => oneHot(d.labels[i]);
  const y = (i: number) => oneHot(d.preds[i]);
  const mx = mean(x);
  const my = mean(y);
  const cov = (u: (i: number) => number[], mu: number[], v: (i: number) => number[], mv: number[]) =>
    rows.reduce((s, i) => s + w(i) * u(i).reduce((t, uk, k) => t + (uk - mu[k]) * (v(i)[k] - mv[k]), 0), 0);
  const den = cov(x, mx, x, mx) * cov(y, my, y, my);
  return den > 0 ? cov(x, mx, y, my) / Math.sqrt(den) : 0;
}

function compare(fast: Record<string, number | null>, ref: Record<string, number | null>, what: string): void {
  assert.deepEqual(Object.keys(fast).sort(), Object.keys(ref).sort(), what);
  for (const k of Object.keys(ref)) close(fast[k], ref[k], 1e-10, `${what} ${k}`);
}

test('fast aggregate = slow reference on random data (unweighted, weighted, ties, noisy preds)', () => {
  const rng = createRng(2024);
  for (let rep = 0; rep < 12; rep++) {
    const C = 2 + rng.int(9);
    const d = randomData(rng, 20 + rng.int(300), C, {
      weighted: rep % 2 === 1,
      ties: rep % 3 === 0,
      noisyPred: rep % 4 === 0,
    });
    const topK = [1, 2, 5];
    compare(aggregateClassification(prepareClassification(d, { topK })).values, reference(d, topK), `rep ${rep}`);
  }
});

test('multiplicities (bootstrap counts) equal the same rows repeated', () => {
  const rng = createRng(99);
  for (let rep = 0; rep < 6; rep++) {
    const d = randomData(rng, 80, 5, { weighted: rep % 2 === 0, noisyPred: true });
    const counts = Array.from({ length: d.n }, () => rng.int(3));
    const fast = aggregateClassification(prepareClassification(d, { topK: [2] }), Float64Array.from(counts)).values;
    compare(fast, reference(d, [2], counts), `counts rep ${rep}`);
    // and the explicit copy of the rows, each repeated counts[i] times
    const idx: number[] = [];
    counts.forEach((m, i) => {
      for (let j = 0; j < m; j++) idx.push(i);
    });
    const C = d.classes.length;
    const copy = makeData({
      classes: d.classes,
      labels: idx.map((i) => d.labels[i]),
      preds: idx.map((i) => d.preds[i]),
      probs: idx.map((i) => Array.from(d.probs!.subarray(i * C, (i + 1) * C))),
      weights: d.weights ? idx.map((i) => d.weights![i]) : null,
    });
    compare(fast, aggregateClassification(prepareClassification(copy, { topK: [2] })).values, `copy rep ${rep}`);
  }
});

function plain(d: ClassificationData) {
  const C = d.classes.length;
  return {
    classes: d.classes,
    labels: Array.from(d.labels),
    preds: Array.from(d.preds),
    probs: d.probs ? Array.from({ length: d.n }, (_, i) => Array.from(d.probs!.subarray(i * C, (i + 1) * C))) : null,
  };
}
