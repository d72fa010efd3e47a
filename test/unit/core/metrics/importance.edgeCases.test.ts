// Edge cases of the importance family: all negatives, all positives, a single row, constant
// scores, zero weights, mismatched inputs. Undefined values are null plus a warning, never 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { averagePrecision, auprTrapz, precisionRecallAt, rocAuc } from '../../helpers/importanceAt';
import { blockCounts, prPoints, rocPoints, scoreOrder } from '../../../../src/core/metrics/binaryCurve';
import { runIw, tempFile } from '../../helpers/iwBinary';

test('all negatives: recall, AP, AUPR, ROC AUC null; precision 0 where something is predicted positive', () => {
  const y = [0, 0, 0];
  const s = [0.9, 0.4, 0.1];
  assert.equal(averagePrecision(y, s), null);
  assert.equal(auprTrapz(y, s), null);
  assert.equal(rocAuc(y, s), null);
  assert.deepEqual(precisionRecallAt(y, s, { threshold: 0.5 }), { precision: 0, recall: null, f1: 0 });
  // nothing predicted positive and no positives: F1 = 0/0
  assert.deepEqual(precisionRecallAt(y, s, { threshold: 0.95 }), { precision: null, recall: null, f1: null });
  const so = scoreOrder(s);
  assert.equal(prPoints(so, blockCounts(so, y, null)), null);
  assert.equal(rocPoints(so, blockCounts(so, y, null)), null);
});

test('all positives: precision 1 everywhere, AP = AUPR = 1, ROC AUC null', () => {
  const y = [1, 1, 1];
  const s = [0.9, 0.4, 0.1];
  assert.equal(averagePrecision(y, s), 1);
  assert.equal(auprTrapz(y, s), 1);
  assert.equal(rocAuc(y, s), null);
  assert.deepEqual(precisionRecallAt(y, s, { threshold: 0.5 }), {
    precision: 1,
    recall: 1 / 3,
    f1: (2 * 1) / (2 * 1 + 0 + 2),
  });
});

test('a single row', () => {
  assert.equal(averagePrecision([1], [0.3]), 1);
  assert.equal(auprTrapz([1], [0.3]), 1);
  assert.equal(rocAuc([1], [0.3]), null);
  assert.equal(averagePrecision([0], [0.3]), null);
  assert.deepEqual(precisionRecallAt([1], [0.3], { threshold: 0.5 }), { precision: null, recall: 0, f1: 0 });
  assert.deepEqual(precisionRecallAt([1], [0.3], { threshold: 0.3 }), { precision: 1, recall: 1, f1: 1 });
});

test('constant scores: one curve point; AP = prevalence, AUPR = (1 + prevalence)/2, ROC AUC = 1/2', () => {
  const y = [1, 0, 0, 1, 0];
  const s = [0.5, 0.5, 0.5, 0.5, 0.5];
  const w = [1, 2, 3, 4, 5];
  const prev = (1 + 4) / 15;
  assert.equal(averagePrecision(y, s, { weights: w }), prev);
  assert.ok(Math.abs(auprTrapz(y, s, { weights: w })! - (1 + prev) / 2) < 1e-15);
  assert.equal(rocAuc(y, s, { weights: w }), 0.5);
  const so = scoreOrder(s);
  assert.equal(so.nBlocks, 1);
  assert.deepEqual(prPoints(so, blockCounts(so, y, w))!.x, [0, 1]);
});

test('zero weights: a block of only zero-weight rows makes no curve point (as scikit-learn drops them)', () => {
  const y = [1, 0, 1, 0];
  const s = [0.9, 0.8, 0.7, 0.1];
  const w = [1, 0, 1, 1];
  const so = scoreOrder(s);
  const pr = prPoints(so, blockCounts(so, y, w))!;
  assert.deepEqual(pr.threshold, [null, 0.9, 0.7, 0.1]);
  // the zero-weight negative at 0.8 changes nothing: AP = 1, ROC AUC = 1
  assert.equal(averagePrecision(y, s, { weights: w }), 1);
  assert.equal(rocAuc(y, s, { weights: w }), 1);
  // every positive with weight 0: undefined
  assert.equal(averagePrecision(y, s, { weights: [0, 1, 0, 1] }), null);
});

test('bad arguments are rejected with a message naming the argument', () => {
  assert.throws(
    () => averagePrecision([1, 0], [0.5]),
    /Expected `labels` and `scores` to have the same length, but got 2 and 1/,
  );
  assert.throws(() => rocAuc([1, 0], [0.5, NaN]), /Expected finite scores, but got NaN at index 1/);
  assert.throws(() => rocAuc([1, 2], [0.5, 0.4]), /Expected labels in \{0, 1\}, but got 2 at index 1/);
  assert.throws(
    () => rocAuc([1, 0], [0.5, 0.4], { weights: [1, -1] }),
    /Expected finite non-negative weights, but got -1 at index 1/,
  );
  assert.throws(() => rocAuc([1, 0], [0.5, 0.4], { weights: [1] }), /Expected `weights` to have 2 entries, but got 1/);
});

test('runner, all negatives: keys null with warnings, no PR/ROC curves', async () => {
  const { results, warnings } = await runIw(tempFile('label,score,stratum\n0,0.9,B\n0,0.4,Bc\n0,0.1,Bc\n'), {
    populationSize: 10,
    bootstrapN: 30,
  });
  assert.equal(results.metrics.recall.value, null);
  assert.equal(results.metrics.average_precision.value, null);
  assert.equal(results.metrics.aupr_trapz.value, null);
  assert.equal(results.metrics.roc_auc.value, null);
  assert.equal(results.metrics.precision.value, 0);
  assert.ok(warnings.some((w) => w.code === 'no-positive-labels'));
  assert.equal(results.curves.pr, undefined);
  assert.equal(results.curves.roc, undefined);
});

test('runner, all positives: roc_auc null with a warning; PR curve kept', async () => {
  const { results, warnings } = await runIw(tempFile('label,score,stratum\n1,0.9,B\n1,0.4,Bc\n1,0.1,Bc\n'), {
    populationSize: 10,
  });
  assert.equal(results.metrics.roc_auc.value, null);
  assert.equal(results.metrics.average_precision.value, 1);
  assert.ok(warnings.some((w) => w.code === 'no-negative-labels'));
  assert.ok(results.curves.pr);
  assert.equal(results.curves.roc, undefined);
});

test('runner, a single Bc row', async () => {
  const { results, source } = await runIw(tempFile('label,score,stratum\n1,0.7,Bc\n'), {
    populationSize: 5,
    bootstrapN: 20,
  });
  assert.equal(source.rowsUsed, 1);
  assert.equal(results.metrics.precision.value, 1);
  assert.equal(results.metrics.average_precision.value, 1);
  assert.deepEqual(results.metrics.average_precision.ci, [1, 1]);
});

test('runner, constant scores', async () => {
  const { results } = await runIw(tempFile('label,score,stratum\n1,0.5,B\n0,0.5,B\n0,0.5,Bc\n1,0.5,Bc\n'), {
    populationSize: 12,
  });
  // w_B = (2/2)/12, w_Bc = (10/2)/12: weighted prevalence = (1/12 + 5/12) / 1 = 1/2
  assert.ok(Math.abs(results.metrics.average_precision.value! - 0.5) < 1e-15);
  assert.equal(results.metrics.roc_auc.value, 0.5);
  assert.equal(results.curves.pr!.xs.length, 2);
});

test('runner, an empty file or header only: errors', async () => {
  await assert.rejects(runIw(tempFile('label,score,stratum\n'), { populationSize: 5 }), /EvalLensError|expected|no/i);
});
