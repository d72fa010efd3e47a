// Edge cases of the selective and calibration families: empty input, all tied, all right / all
// wrong, zero weights, no groups, no scores, non-probability scores, bad config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { aurcGrid101, aurcValues, exactRiskCoverage, setGroupRisks } from '../../../../src/core/metrics/riskCoverage';
import { operatingPoint, targetCoverageEnd } from '../../../../src/core/metrics/selective';
import { calibrationValues } from '../../../../src/core/metrics/calibration';
import { costSweep } from '../../../../src/core/metrics/costSweep';
import { calibrationStep, selectiveFamily } from '../../../../src/core/tasks/classificationSelective';
import { familyStep } from '../../../../src/core/tasks/classificationFamilies';
import { EvalLensError } from '../../../../src/core/diagnostics';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import type { ClassificationData } from '../../../../src/core/data/classificationData';
import { config, makeData, runClassificationSteps } from '../../helpers/classification';

import { closeRel as close } from '../../helpers/numericClose';

test('no rows: every value NaN, nothing throws', () => {
  const r = sortRowsByScore([], []);
  assert.equal(r.n, 0);
  const a = aurcValues(r);
  assert.ok(Number.isNaN(a.aurc) && Number.isNaN(a.eaurc));
  assert.equal(exactRiskCoverage(r).coverage.length, 0);
  assert.equal(aurcGrid101(r), null);
  assert.ok(Number.isNaN(operatingPoint(r, { kind: 'prefix', end: 0 }).coverage));
  assert.ok(Number.isNaN(calibrationValues(r, 15).ece));
  assert.deepEqual(targetCoverageEnd(r, 0.5), { end: 0, threshold: NaN });
  assert.equal(costSweep(r, [0.5], { probability: true }).coverage.length, 1);
});

test('every score tied: one RC point; aurc = the error rate (every order is equally likely)', () => {
  const wrong = [1, 0, 0, 1, 0];
  const r = sortRowsByScore([0.5, 0.5, 0.5, 0.5, 0.5], wrong);
  const c = exactRiskCoverage(r);
  assert.deepEqual(Array.from(c.coverage), [1]);
  close(aurcValues(r).aurc, 2 / 5);
  assert.deepEqual(targetCoverageEnd(r, 0.1), { end: 5, threshold: 0.5 });
});

test('all correct: aurc = aurc* = 0; all wrong: aurc = aurc* = 1, eaurc = 0', () => {
  const ok = aurcValues(sortRowsByScore([0.9, 0.5, 0.1], [0, 0, 0]));
  assert.equal(ok.aurc, 0);
  assert.equal(ok.eaurc, 0);
  const bad = aurcValues(sortRowsByScore([0.9, 0.5, 0.1], [1, 1, 1]));
  close(bad.aurc, 1);
  close(bad.eaurc, 0);
});

test('zero-weight rows add no mass: the curve starts where the first weighted row enters', () => {
  const r = sortRowsByScore([0.9, 0.8, 0.7], [1, 0, 1], { weights: [0, 1, 1] });
  const c = exactRiskCoverage(r);
  assert.ok(Number.isNaN(c.risk[0])); // nothing with mass accepted yet
  assert.equal(c.coverage[1], 0.5);
  close(aurcValues(r).aurc, (0.5 * 0 + 0.5 * (1 / 2)) / 1);
  const op = operatingPoint(r, { kind: 'prefix', end: 1 });
  assert.equal(op.coverage, 0);
  assert.ok(Number.isNaN(op.risk));
});

test('no groups: balanced / worst are NaN', () => {
  const r = sortRowsByScore([0.9, 0.1], [0, 1]);
  assert.ok(Number.isNaN(aurcValues(r).aurcBalanced));
  assert.ok(Number.isNaN(operatingPoint(r, { kind: 'prefix', end: 2 }).worst));
});

const noCi = (extra: Partial<ResolvedConfig> = {}) =>
  config({ bootstrap: { n: 0, confidence: 0.95, seed: 0, stratified: false }, ...extra });

async function run(data: ClassificationData, cfg: ResolvedConfig) {
  const { ctx } = await runClassificationSteps(data, cfg, [familyStep(selectiveFamily), calibrationStep]);
  return { m: ctx.results.metrics, codes: ctx.warnings.list.map((w) => w.code), ctx };
}

test('no scores and no accept column: the families are skipped with a warning', async () => {
  const { m, codes } = await run(makeData({ classes: ['a', 'b'], labels: [0, 1], preds: [0, 0] }), noCi());
  assert.equal(m.coverage, undefined);
  assert.equal(m.ece, undefined);
  assert.ok(codes.includes('no-scores'));
});

test('accept column without scores: operating-point keys only', async () => {
  const data = makeData({ classes: ['a', 'b'], labels: [0, 1, 1], preds: [0, 0, 1] });
  data.accept = Uint8Array.from([1, 1, 0]);
  const { m } = await run(data, noCi({ targetCoverage: 0.5 }));
  close(m.coverage.value!, 2 / 3);
  close(m.selective_risk.value!, 1 / 2);
  assert.equal(m.aurc, undefined);
  assert.match(m.coverage.note!, /accept/);
});

test('a margin / entropy ranking with probabilities: calibration on the top-label probability, cost sweep spans the range', async () => {
  // msp (the top-label probability) 0.7 (right), 0.65 (wrong), 0.55 (wrong); 15 equal-width bins
  // put them in bins 10, 9, 8, one row each: ECE = (|1 − 0.7| + |0 − 0.65| + |0 − 0.55|)/3 = 0.5,
  // MCE = 0.65 — the same as with score "msp", whatever score ranks the rows.
  const probs = [
    [0.7, 0.3],
    [0.35, 0.65],
    [0.55, 0.45],
  ];
  for (const score of ['entropy', 'margin'] as const) {
    const { m, codes, ctx } = await run(makeData({ classes: ['a', 'b'], labels: [0, 0, 1], probs }), noCi({ score }));
    close(m.ece.value!, 0.5);
    close(m.mce.value!, 0.65);
    assert.ok(!codes.includes('calibration-skipped'));
    assert.match(
      m.ece.note!,
      /confidence = msp \(max probability, the top-label confidence; the risk–coverage ranking uses (negative entropy|margin)/,
    );
    const used = ctx.results.tables.scoresUsed!;
    assert.match(used.selective, score === 'margin' ? /^margin/ : /entropy/);
    assert.match(used.calibration!, /^msp/);
    assert.match(ctx.results.curves.costSweep!.note!, /not a probability/);
    assert.ok(m.aurc.value !== null);
    // the curve's ECE of the accepted rows would bin margins as if they were confidences: not given
    assert.equal(ctx.results.curves.riskCoverage!.extra!.ece_accepted, undefined);
  }
  const msp = await run(makeData({ classes: ['a', 'b'], labels: [0, 0, 1], probs }), noCi());
  close(msp.m.ece.value!, 0.5);
  assert.deepEqual(msp.ctx.results.tables.scoresUsed, {
    selective: 'msp (max probability)',
    calibration: 'msp (max probability)',
  });
});

test('a margin column without class probabilities: calibration skipped with a warning', async () => {
  const data = makeData({ classes: ['a', 'b'], labels: [0, 0, 1], preds: [0, 1, 0] });
  data.scoreColumn = Float64Array.from([0.4, 0.3, 0.1]);
  data.scoreColumnName = 'margin';
  const { m, codes } = await run(data, noCi());
  assert.equal(m.ece, undefined);
  assert.ok(codes.includes('calibration-skipped'));
  assert.ok(m.aurc.value !== null);
});

test('bad config values are EvalLensErrors naming the key', async () => {
  const probs = [
    [0.7, 0.3],
    [0.4, 0.6],
  ];
  const data = makeData({ classes: ['a', 'b'], labels: [0, 1], probs });
  await assert.rejects(
    run(data, noCi({ targetCoverage: 1.5 })),
    (e: unknown) => e instanceof EvalLensError && /targetCoverage/.test(e.message),
  );
  await assert.rejects(
    run(data, noCi({ eceBins: 0 })),
    (e: unknown) => e instanceof EvalLensError && /eceBins/.test(e.message),
  );
  await assert.rejects(
    run(data, noCi({ costGrid: [0.5, 2] })),
    (e: unknown) => e instanceof EvalLensError && /costGrid/.test(e.message),
  );
});

test('split column without val rows: the threshold is chosen on the test rows, with a note', async () => {
  // Every row is a test row: no validation rows to choose the threshold on, so targetCoverage 0.5
  // takes the top 2 of the 4 rows by confidence (0.9, 0.8): coverage 2/4, and the note says why.
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-noval-'));
  try {
    const file = join(dir, 'preds.csv');
    writeFileSync(
      file,
      'id,label,pred,split,confidence\n1,a,a,test,0.9\n2,b,b,test,0.8\n3,b,a,test,0.7\n4,a,a,test,0.6\n',
    );
    const r = await evaluateFile(file, {
      overrides: { classes: ['a', 'b'], targetCoverage: 0.5, bootstrap: { n: 0 } },
      root: dir,
    });
    assert.ok(r.warnings.some((w) => w.code === 'split-protocol-unavailable'));
    close(r.metrics.coverage!.value!, 2 / 4);
    close(r.metrics.selective_risk!.value!, 0 / 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('group risks at a point: mean and max of the group errors, a group with nothing accepted at error 1', () => {
  // Error masses [1, 0, 2] over accepted masses [2, 0, 4]: errors 1/2, 1 (nothing accepted), 2/4.
  const balanced = new Float64Array(2);
  const worst = new Float64Array(2);
  setGroupRisks(Float64Array.of(1, 0, 2), Float64Array.of(2, 0, 4), 3, balanced, worst, 1);
  assert.equal(balanced[1], (1 / 2 + 1 + 2 / 4) / 3);
  assert.equal(worst[1], 1);
  assert.deepEqual([balanced[0], worst[0]], [0, 0], 'other points untouched');
  setGroupRisks(new Float64Array(0), new Float64Array(0), 0, balanced, worst, 0);
  assert.ok(Number.isNaN(balanced[0]) && Number.isNaN(worst[0]), 'no groups: NaN');
});
