// `reweight: true` seen whole: the group errors at the operating point reweighted to the train
// distribution beside the uniform ones (group table), the frequency-weighted balanced risk
// weighted_balanced_error with its interval, and the AURC family and curves, which the protocol
// does not reweight, saying so next to their numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  trainWeightedMean,
  selectiveFamily,
  calibrationStep,
} from '../../../../src/core/tasks/classificationSelective';
import { familyStep } from '../../../../src/core/tasks/classificationFamilies';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import { config, makeData, runClassificationSteps } from '../../helpers/classification';
import { closeRel as close } from '../../helpers/numericClose';

const noCi = (extra: Partial<ResolvedConfig> = {}) =>
  config({ bootstrap: { n: 0, confidence: 0.95, seed: 0, stratified: false }, ...extra });

// The long-tail reweighting worked example: 100 classes, train frequencies non-increasing over the
// class order, groups [69] (head 0–68, tail 69–99); 10 accepted rows (6 head, 3 wrong; 4 tail, 2 wrong).
const C = 100;
const classes = Array.from({ length: C }, (_, c) => String(c));
const seedW: Record<number, number> = {
  5: 0.046,
  10: 0.044,
  20: 0.042,
  30: 0.04,
  40: 0.038,
  50: 0.037,
  70: 0.0011,
  75: 0.0008,
  80: 0.0006,
  99: 0.0005,
};
const seedClasses = Object.keys(seedW).map(Number);
const w = Array.from({ length: C }, (_, c) => seedW[seedClasses.find((k) => k >= c)!]);
function data() {
  const d = makeData({
    classes,
    labels: [5, 10, 20, 30, 40, 50, 70, 75, 80, 99, 1, 90],
    preds: [5, 10, 22, 30, 42, 51, 71, 75, 82, 99, 2, 91],
  });
  d.scoreColumn = Float64Array.from([0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.1, 0.1]);
  d.scoreColumnName = 'confidence';
  return d;
}
const cfg = { classWeights: w, groups: [69], reweight: true, acceptThreshold: 0.5 };
// π_g = Σ_{c∈g} w_c (a common scale cancels in the weighted mean):
// head: 6·0.046 + 5·0.044 + 10·0.042 + 10·0.04 + 10·0.038 + 10·0.037 + 18·0.0011
// tail: 2·0.0011 + 5·0.0008 + 5·0.0006 + 19·0.0005
const piHead = 6 * 0.046 + 5 * 0.044 + 10 * 0.042 + 10 * 0.04 + 10 * 0.038 + 10 * 0.037 + 18 * 0.0011;
const piTail = 2 * 0.0011 + 5 * 0.0008 + 5 * 0.0006 + 19 * 0.0005;
const eHead = 0.117 / 0.247;
const eTail = 0.0017 / 0.003;

test('weighted_balanced_error = Σ_g π_g·e_g(w^trn) / Σ_g π_g, π_g = the group train share', async () => {
  const { ctx } = await runClassificationSteps(data(), noCi(cfg), [familyStep(selectiveFamily), calibrationStep]);
  const m = ctx.results.metrics;
  close(m['error_group.head'].value, eHead, 1e-9);
  close(m['error_group.tail'].value, eTail, 1e-9);
  close(m.weighted_balanced_error.value, (piHead * eHead + piTail * eTail) / (piHead + piTail), 1e-9);
  close(m.balanced_error.value, (eHead + eTail) / 2, 1e-9); // the plain mean stays as it was
  assert.equal(m.weighted_balanced_error.direction, 'lower');
  assert.match(m.weighted_balanced_error.note!, /π_head = .*π_tail = /);
  assert.deepEqual(
    ctx.results.families.selective!.indexOf('weighted_balanced_error'),
    ctx.results.families.selective!.indexOf('worst_error') + 1,
  );
});

test('uniform and reweighted group errors side by side in the group table', async () => {
  const { ctx } = await runClassificationSteps(data(), noCi(cfg), [familyStep(selectiveFamily)]);
  const rows = ctx.results.tables.groupAnalysis!;
  assert.deepEqual(
    rows.map((r) => r.group),
    ['head', 'tail'],
  );
  close(rows[0].errorUniform!, 3 / 6);
  close(rows[1].errorUniform!, 2 / 4);
  close(rows[0].errorReweighted!, eHead, 1e-9);
  close(rows[1].errorReweighted!, eTail, 1e-9);
  assert.equal(rows[0].error, rows[0].errorReweighted);
  // without reweight: neither column, and no weighted_balanced_error
  const plain = await runClassificationSteps(data(), noCi({ ...cfg, reweight: false }), [familyStep(selectiveFamily)]);
  const prow = plain.ctx.results.tables.groupAnalysis![0];
  assert.equal(prow.errorUniform, undefined);
  assert.equal(plain.ctx.results.metrics.weighted_balanced_error, undefined);
});

test('the AURC family and the curves are not reweighted, and their notes say so', async () => {
  const { ctx } = await runClassificationSteps(data(), noCi(cfg), [familyStep(selectiveFamily)]);
  const plain = await runClassificationSteps(data(), noCi({ ...cfg, reweight: false }), [familyStep(selectiveFamily)]);
  const m = ctx.results.metrics;
  const aurcKeys = ctx.results.families.selective!.filter((k) => k.includes('aurc'));
  // the exact AURC keys, then the grid keys of each risk (standard, balanced, worst group)
  const grid = ['', '_balanced', '_worst'].flatMap((r) => [`aurc${r}_grid101`, `aurc${r}_grid101_0.2_1`]);
  assert.deepEqual(aurcKeys, ['aurc', 'eaurc', 'aurc_balanced', 'aurc_worst', ...grid]);
  for (const k of aurcKeys) {
    assert.equal(m[k].value, plain.ctx.results.metrics[k].value, `${k}: the same value as without reweight`);
    assert.match(m[k].note!, /not reweighted/, k);
    assert.doesNotMatch(plain.ctx.results.metrics[k].note!, /not reweighted/, k);
  }
  // the keys at the operating point are the reweighted ones
  for (const k of ['error_group.head', 'balanced_error', 'worst_error', 'weighted_balanced_error'])
    assert.doesNotMatch(m[k].note!, /not reweighted/, k);
  assert.match(ctx.results.curves.riskCoverage!.note!, /not reweighted/);
  assert.match(ctx.results.curves.costSweep!.note!, /not reweighted/);
  assert.doesNotMatch(plain.ctx.results.curves.costSweep!.note!, /not reweighted/);
});

test('the point step writes the keys, the tables step the group table, the scores used and the curves', async () => {
  const { ctx, run } = await runClassificationSteps(data(), noCi(cfg), []);
  const drawn = await selectiveFamily.point(run, ctx);
  assert.ok(drawn, 'the family is computed');
  assert.deepEqual(Object.keys(ctx.results.tables), [], 'no table from the point step');
  assert.deepEqual(Object.keys(ctx.results.curves), [], 'no curve from the point step');
  assert.match(ctx.results.metrics.aurc.note!, /not reweighted/, 'the clause is on the key as it is written');
  const metricsBefore = JSON.stringify(ctx.results.metrics);
  await selectiveFamily.tables!(run, ctx, drawn);
  assert.equal(JSON.stringify(ctx.results.metrics), metricsBefore, 'the tables step changes no key');
  assert.deepEqual(Object.keys(ctx.results.tables), ['groupAnalysis', 'scoresUsed']);
  // (no 101-point grid curve: 12 rows are fewer than its points)
  assert.deepEqual(Object.keys(ctx.results.curves), ['riskCoverage', 'costSweep']);
  for (const t of Object.keys(ctx.results.tables))
    assert.ok(
      selectiveFamily.tableNames!.some((n) => n === t),
      `${t} is declared`,
    );
  // the group errors of the point step, reweighted, beside the uniform ones
  const rows = ctx.results.tables.groupAnalysis!;
  close(rows[0].errorReweighted!, ctx.results.metrics['error_group.head'].value!, 1e-12);
  close(rows[1].errorReweighted!, ctx.results.metrics['error_group.tail'].value!, 1e-12);
});

test('weighted_balanced_error gets a bootstrap interval', async () => {
  const { ctx } = await runClassificationSteps(
    data(),
    config({ ...cfg, bootstrap: { n: 200, confidence: 0.95, seed: 0, stratified: false } }),
  );
  const ci = ctx.results.metrics.weighted_balanced_error.ci;
  assert.ok(ci && ci[0] <= ci[1], 'an interval');
});

test('trainWeightedMean: the seed’s 40.2% example and its edge cases', () => {
  close(trainWeightedMean([0.4, 0.6], [0.99, 0.01]), 0.99 * 0.4 + 0.01 * 0.6);
  close(trainWeightedMean([0.4, 0.6], [2, 2]), 0.5); // equal shares: the plain mean
  close(trainWeightedMean([0.4, NaN], [1, 0]), 0.4); // a group with no train share does not count
  assert.ok(Number.isNaN(trainWeightedMean([0.4], [0])));
});
