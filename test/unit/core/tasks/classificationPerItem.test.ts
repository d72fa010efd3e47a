// Per-row values kept for paired comparisons: each is the term whose mean is the metric.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateFile } from '../../../../src/core/evaluate';
import { classificationPerRow, PER_ROW_BUDGET } from '../../../../src/core/tasks/classificationPerItem';
import type { PreparedClassification } from '../../../../src/core/metrics/classification';

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

test('digits-lt logreg: the per-row means are accuracy, nll, brier and top-k accuracy', async () => {
  const r = await evaluateFile('examples/digits-lt/logreg.csv', { overrides: { bootstrap: { n: 0 } } });
  const v = r.perItem!.values;
  for (const key of [
    'accuracy',
    'nll',
    'brier',
    ...Object.keys(r.metrics).filter((k) => /^top\d+_accuracy$/.test(k)),
  ]) {
    assert.ok(v[key], `per-row ${key}`);
    assert.equal(v[key].length, r.source.rowsUsed);
    const m = r.metrics[key].value!;
    assert.ok(Math.abs(mean(v[key]) - m) <= 1e-12 * Math.max(1, Math.abs(m)), `${key}: mean ${mean(v[key])} vs ${m}`);
  }
  // Not a mean over rows: no per-row values.
  for (const key of ['balanced_accuracy', 'macro_f1', 'ece', 'aurc']) assert.equal(v[key], undefined, key);
});

test('the per-row terms by hand; top-k from the true-class rank; the budget keeps accuracy first', () => {
  const prepared = {
    n: 3,
    C: 3,
    classes: ['a', 'b', 'c'],
    labels: Int32Array.from([0, 1, 2]),
    preds: Int32Array.from([0, 2, 2]),
    weights: null,
    correct: Uint8Array.from([1, 0, 1]),
    nllTerm: Float64Array.from([-Math.log(0.7), -Math.log(0.2), -Math.log(0.5)]),
    brierTerm: Float64Array.from([
      0.3 ** 2 + 0.2 ** 2 + 0.1 ** 2,
      0.3 ** 2 + 0.8 ** 2 + 0.5 ** 2,
      0.25 ** 2 + 0.25 ** 2 + 0.5 ** 2,
    ]),
    trueRank: Int32Array.from([1, 2, 1]),
    topK: [1, 2],
  } as PreparedClassification;
  const all = { accuracy: 0, nll: 0, brier: 0, top1_accuracy: 0, top2_accuracy: 0 };
  const v = classificationPerRow(prepared, all);
  assert.deepEqual(v.accuracy, [1, 0, 1]);
  assert.deepEqual(v.top1_accuracy, [1, 0, 1]);
  assert.deepEqual(v.top2_accuracy, [1, 1, 1]);
  assert.deepEqual(v.nll, Array.from(prepared.nllTerm!));
  // A key the results do not have gets no vector.
  assert.equal(classificationPerRow(prepared, { accuracy: 0, nll: 0 }).brier, undefined);
  // Over the budget: accuracy only.
  const big = { ...prepared, n: PER_ROW_BUDGET } as PreparedClassification;
  assert.deepEqual(Object.keys(classificationPerRow(big, all)), ['accuracy']);
});
