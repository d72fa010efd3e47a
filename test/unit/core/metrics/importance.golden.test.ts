// Golden values from scikit-learn 1.2.1, made by scripts/golden/importance.py: random cases with
// tied scores and weights (stratum weights, arbitrary weights, zero weights).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { averagePrecision, auprTrapz, errorRateAt, precisionRecallAt, rocAuc } from '../../helpers/importanceAt';
import { blockCounts, prPoints, rocPoints, scoreOrder } from '../../../../src/core/metrics/binaryCurve';
import { closeAbs } from '../../helpers/numericClose';

interface GoldenCase {
  name: string;
  y: number[];
  s: number[];
  w: number[];
  threshold: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  error_rate: number | null;
  average_precision: number | null;
  aupr_trapz: number | null;
  roc_auc: number | null;
  pr: { recall: number[]; precision: number[]; threshold: (number | null)[] } | null;
  roc: { fpr: number[]; tpr: number[] } | null;
}

const golden = JSON.parse(readFileSync('test/golden/importance.json', 'utf8')) as { cases: GoldenCase[] };
const TOL = 1e-12;

const close = (actual: number | null, expected: number | null, what: string): void =>
  closeAbs(actual, expected, TOL, what);

function closeArray(actual: (number | null)[], expected: (number | null)[], what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) close(actual[i], expected[i], `${what}[${i}]`);
}

test('golden file has the cases the issue asks for', () => {
  assert.ok(golden.cases.length >= 12);
  assert.ok(
    golden.cases.some((c) => c.precision === null),
    'a case with no positive prediction',
  );
  assert.ok(
    golden.cases.some((c) => c.w.some((w) => w === 0)),
    'a case with zero weights',
  );
  assert.ok(
    golden.cases.some((c) => new Set(c.s).size < c.s.length),
    'a case with ties',
  );
});

for (const c of golden.cases) {
  test(`average_precision = sklearn average_precision_score(sample_weight) — ${c.name}`, () => {
    close(averagePrecision(c.y, c.s, { weights: c.w }), c.average_precision, 'average_precision');
  });
  test(`roc_auc = sklearn roc_auc_score(sample_weight) — ${c.name}`, () => {
    close(rocAuc(c.y, c.s, { weights: c.w }), c.roc_auc, 'roc_auc');
  });
  test(`aupr_trapz = sklearn auc(recall, precision) of precision_recall_curve(sample_weight) — ${c.name}`, () => {
    close(auprTrapz(c.y, c.s, { weights: c.w }), c.aupr_trapz, 'aupr_trapz');
  });
  test(`precision/recall/f1 at the threshold = sklearn with sample_weight — ${c.name}`, () => {
    const r = precisionRecallAt(c.y, c.s, { weights: c.w, threshold: c.threshold });
    close(r.precision, c.precision, 'precision');
    close(r.recall, c.recall, 'recall');
    close(r.f1, c.f1, 'f1');
  });
  test(`error_rate at the threshold = 1 − sklearn accuracy_score(sample_weight) — ${c.name}`, () => {
    close(errorRateAt(c.y, c.s, { weights: c.w, threshold: c.threshold }), c.error_rate, 'error_rate');
  });
  test(`PR and ROC curves = sklearn's points — ${c.name}`, () => {
    const so = scoreOrder(c.s);
    const counts = blockCounts(so, c.y, c.w);
    const pr = prPoints(so, counts);
    if (c.pr === null) assert.equal(pr, null);
    else {
      assert.ok(pr);
      closeArray(pr.x, c.pr.recall, 'recall');
      closeArray(pr.y, c.pr.precision, 'precision');
      closeArray(pr.threshold, c.pr.threshold, 'threshold');
    }
    const roc = rocPoints(so, counts);
    if (c.roc === null) assert.equal(roc, null);
    else {
      assert.ok(roc);
      closeArray(roc.x, c.roc.fpr, 'fpr');
      closeArray(roc.y, c.roc.tpr, 'tpr');
    }
  });
}

test('all weights equal ⇒ weighted = unweighted (golden equal_weights_ties vs unit_weights_ties)', () => {
  const eq = golden.cases.find((c) => c.name === 'equal_weights_ties')!;
  const unit = golden.cases.find((c) => c.name === 'unit_weights_ties')!;
  for (const k of ['precision', 'recall', 'f1', 'average_precision', 'aupr_trapz', 'roc_auc'] as const)
    close(eq[k], unit[k], k);
  close(averagePrecision(eq.y, eq.s, { weights: eq.w }), averagePrecision(eq.y, eq.s), 'average_precision');
  close(rocAuc(eq.y, eq.s, { weights: eq.w }), rocAuc(eq.y, eq.s), 'roc_auc');
  close(auprTrapz(eq.y, eq.s, { weights: eq.w }), auprTrapz(eq.y, eq.s), 'aupr_trapz');
});
