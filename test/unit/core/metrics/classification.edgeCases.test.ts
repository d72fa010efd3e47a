import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateClassification,
  aggregateLongTail,
  classesWithoutRows,
  confusionMatrix,
  perClassAccuracy,
  perClassScores,
  prepareClassification,
  prepareLongTail,
  groupsFromBoundaries,
  groupsFromMap,
  trainDistributionFromValues,
  EvalLensError,
} from '../../helpers/classificationMetrics';
import { classNames, close, config, makeData } from '../../helpers/classification';

test('empty class (no test rows, never predicted): per-class null, excluded from balanced accuracy and macro F1', () => {
  const d = makeData({ classes: classNames(3), labels: [0, 0, 1], preds: [0, 1, 1] });
  const { values, stats } = aggregateClassification(prepareClassification(d));
  assert.deepEqual(perClassAccuracy(stats), [1 / 2, 1, null]);
  assert.deepEqual(classesWithoutRows(stats), [2]);
  close(values.balanced_accuracy, (1 / 2 + 1) / 2);
  // labels in the union: 0, 1 → F1 = [2·1/(2+1), 2·1/(1+2)]
  close(values.macro_f1, 2 / 3);
  const s = perClassScores(stats)[2];
  assert.deepEqual([s.accuracy, s.precision, s.recall, s.f1], [null, null, null, null]);
});

test('class predicted but never true: no accuracy, F1 = 0 counted in macro F1 (scikit-learn)', () => {
  const d = makeData({ classes: classNames(3), labels: [0, 0, 1], preds: [0, 2, 1] });
  const { values, stats } = aggregateClassification(prepareClassification(d));
  assert.equal(perClassAccuracy(stats)[2], null);
  close(values.balanced_accuracy, (1 / 2 + 1) / 2);
  close(values.macro_f1, ((2 * 1) / (2 + 1) + (2 * 1) / (1 + 1) + 0) / 3);
  assert.equal(perClassScores(stats)[2].precision, 0);
});

test('single class: everything defined, accuracy = top1 = 1 when all predicted', () => {
  const d = makeData({ classes: ['only'], labels: [0, 0], probs: [[1], [1]] });
  const { values } = aggregateClassification(prepareClassification(d, { topK: [1, 5] }));
  assert.equal(values.accuracy, 1);
  assert.equal(values.balanced_accuracy, 1);
  assert.equal(values.macro_f1, 1);
  assert.equal(values.top1_accuracy, 1);
  assert.equal(values.top5_accuracy, 1);
  assert.equal(values.nll, 0);
  assert.equal(values.brier, 0);
});

test("ties at top-k count in the model's favour, independent of class order", () => {
  // true class 2 ties with class 0 at the top; class 1 lower
  const d = makeData({
    classes: classNames(3),
    labels: [2, 0],
    preds: [0, 0],
    probs: [
      [0.4, 0.2, 0.4],
      [0.4, 0.2, 0.4],
    ],
  });
  const { values } = aggregateClassification(prepareClassification(d, { topK: [1, 2] }));
  assert.equal(values.top1_accuracy, 1); // both rows: rank = 1 + #strictly higher = 1
  assert.equal(values.top2_accuracy, 1);
  assert.equal(values.accuracy, 1 / 2); // the arg-max (first maximum) still picks class 0
});

test('all-equal probabilities: rank 1 for every class, NLL = ln C, Brier = 1 − 1/C', () => {
  const C = 4;
  const p = new Array(C).fill(1 / C);
  const d = makeData({
    classes: classNames(C),
    labels: [0, 1, 2, 3, 3],
    preds: [0, 0, 0, 0, 0],
    probs: [p, p, p, p, p],
  });
  const { values } = aggregateClassification(prepareClassification(d, { topK: [1] }));
  assert.equal(values.top1_accuracy, 1);
  close(values.nll, Math.log(C));
  close(values.brier, (C - 1) * (1 / C) ** 2 + (1 - 1 / C) ** 2);
});

test('probability 0 for the true class: NLL uses the 1e-15 floor', () => {
  const d = makeData({ classes: classNames(2), labels: [0], probs: [[0, 1]] });
  close(aggregateClassification(prepareClassification(d)).values.nll, -Math.log(1e-15));
});

test('string labels: the class set order is what it is given, metrics by index', () => {
  const d = makeData({ classes: ['zebra', 'ant', 'moth'], labels: [0, 1, 2, 2], preds: [0, 2, 2, 2] });
  const { values } = aggregateClassification(prepareClassification(d));
  close(values.accuracy, 3 / 4);
  assert.deepEqual(confusionMatrix(prepareClassification(d)), [
    [1, 0, 0],
    [0, 0, 1],
    [0, 0, 2],
  ]);
  const cfg = config();
  const groups = groupsFromMap({ zebra: 'big', ant: 'small', moth: 'small' }, d.classes, cfg);
  const train = trainDistributionFromValues({ ant: 10, moth: 5, zebra: 100 }, d.classes, 'trainCounts', cfg);
  const lt = aggregateLongTail(
    prepareLongTail(3, train, groups),
    aggregateClassification(prepareClassification(d)).stats,
  );
  close(lt['acc_group.big'], 1);
  close(lt['acc_group.small'], (0 + 1) / 2);
});

test('zero-weight rows: they change no value, but their labels still count in the macro-F1 union', () => {
  const base = { classes: classNames(3), labels: [0, 1, 1, 2], preds: [0, 1, 0, 2] };
  const w = makeData({ ...base, weights: [1, 1, 1, 0] });
  const without = makeData({ classes: classNames(3), labels: [0, 1, 1], preds: [0, 1, 0] });
  const a = aggregateClassification(prepareClassification(w));
  const b = aggregateClassification(prepareClassification(without));
  assert.equal(a.values.accuracy, b.values.accuracy);
  assert.equal(a.values.balanced_accuracy, b.values.balanced_accuracy); // class 2 has zero weighted support: excluded
  assert.equal(perClassAccuracy(a.stats)[2], null);
  // class 2 appears (weight 0): F1_2 = 0 is averaged in, as scikit-learn does with sample_weight
  close(a.values.macro_f1, ((2 * 1) / (1 + 2) + (2 * 1) / (2 + 1) + 0) / 3);
  close(b.values.macro_f1, ((2 * 1) / (1 + 2) + (2 * 1) / (2 + 1)) / 2);
});

test('all weights zero, or no rows: scalar metrics are null, never 0', () => {
  const d = makeData({
    classes: classNames(2),
    labels: [0, 1],
    preds: [0, 0],
    probs: [
      [0.6, 0.4],
      [0.7, 0.3],
    ],
    weights: [0, 0],
  });
  const { values } = aggregateClassification(prepareClassification(d, { topK: [1] }));
  for (const k of ['accuracy', 'balanced_accuracy', 'top1_accuracy', 'nll', 'brier']) assert.equal(values[k], null, k);
  const empty = makeData({ classes: classNames(2), labels: [], preds: [] });
  const e = aggregateClassification(prepareClassification(empty)).values;
  assert.equal(e.accuracy, null);
  assert.equal(e.macro_f1, null);
});

test('no probabilities: top-k, nll and brier are left out', () => {
  const d = makeData({ classes: classNames(2), labels: [0, 1], preds: [0, 0] });
  const { values } = aggregateClassification(prepareClassification(d, { topK: [1] }));
  assert.deepEqual(Object.keys(values).sort(), ['accuracy', 'balanced_accuracy', 'macro_f1', 'matthews_corrcoef']);
});

test('k ≥ C: every row is a hit', () => {
  const d = makeData({
    classes: classNames(3),
    labels: [0, 1],
    probs: [
      [0.1, 0.2, 0.7],
      [0.5, 0.1, 0.4],
    ],
  });
  assert.equal(aggregateClassification(prepareClassification(d, { topK: [3, 10] })).values.top10_accuracy, 1);
});

test('invalid topK is an error naming the key', () => {
  const d = makeData({ classes: classNames(2), labels: [0], preds: [0] });
  assert.throws(
    () => prepareClassification(d, { topK: [0] }),
    (e: unknown) => e instanceof EvalLensError && /`topK`.*got 0/.test(e.message),
  );
  assert.throws(() => prepareClassification(d, { topK: [1.5] }), /positive integer, but got 1\.5/);
});

test('long tail: a group with no test rows gets weighted error 1.0 and acc_group null; empty shot group null', () => {
  const classes = classNames(4);
  const d = makeData({ classes, labels: [0, 0, 1], preds: [0, 1, 1] });
  const cfg = config();
  const train = trainDistributionFromValues([400, 300, 10, 5], classes, 'trainCounts', cfg);
  const groups = groupsFromBoundaries([2], train, classes, cfg);
  const lt = aggregateLongTail(
    prepareLongTail(4, train, groups),
    aggregateClassification(prepareClassification(d)).stats,
  );
  assert.equal(lt['acc_group.tail'], null);
  assert.equal(lt['weighted_error_group.tail'], 1.0);
  assert.equal(lt.acc_few, null);
  assert.equal(lt.acc_medium, null); // no class with 20 ≤ n_c ≤ 100
  close(lt.acc_many, (1 / 2 + 1) / 2);
});

test('long tail: rows whose classes all have n_c = 0 give a null weighted error, not a silent 0', () => {
  const classes = classNames(3);
  const d = makeData({ classes, labels: [0, 2], preds: [0, 1] });
  const cfg = config();
  const train = trainDistributionFromValues([10, 5, 0], classes, 'trainCounts', cfg);
  const groups = groupsFromBoundaries([2], train, classes, cfg);
  const lt = aggregateLongTail(
    prepareLongTail(3, train, groups),
    aggregateClassification(prepareClassification(d)).stats,
  );
  assert.equal(lt['weighted_error_group.tail'], null);
  close(lt['weighted_error_group.head'], 0);
});

test('Matthews correlation coefficient: perfect 1, total disagreement −1, one true or one predicted class 0, no weight null', () => {
  const mcc = (labels: number[], preds: number[], C = 2, weights: number[] | null = null) =>
    aggregateClassification(prepareClassification(makeData({ classes: classNames(C), labels, preds, weights }))).values
      .matthews_corrcoef;
  assert.equal(mcc([0, 1, 2, 1], [0, 1, 2, 1], 3), 1);
  // two classes, every prediction wrong: the φ coefficient of [[0, 2], [2, 0]] is −1
  assert.equal(mcc([0, 0, 1, 1], [1, 1, 0, 0]), -1);
  // a factor under the root is 0: scikit-learn's matthews_corrcoef returns 0, so do we
  assert.equal(mcc([0, 0, 0], [0, 1, 0]), 0); // one true class
  assert.equal(mcc([0, 1, 1], [1, 1, 1]), 0); // one predicted class
  assert.equal(mcc([0, 0], [0, 0], 1), 0); // a single class
  // no row has weight: undefined, never 0
  assert.equal(mcc([0, 1], [0, 1], 2, [0, 0]), null);
  // zero-weight rows change nothing: [0,0,1,1] vs [0,1,1,1] → 4/√48, with a wrong row of weight 0 added
  close(mcc([0, 0, 1, 1], [0, 1, 1, 1]), 4 / Math.sqrt(48));
  close(mcc([0, 0, 1, 1, 0], [0, 1, 1, 1, 1], 2, [1, 1, 1, 1, 0]), 4 / Math.sqrt(48));
});
