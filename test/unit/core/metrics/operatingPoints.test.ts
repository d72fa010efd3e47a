// The operating-point table of the threshold explorer: accepted rows, error per group and the
// ECE of the accepted rows at every exact point of the risk–coverage curve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationValues, eceBinIndex } from '../../../../src/core/metrics/calibration';
import { operatingPointColumns } from '../../../../src/core/metrics/operatingPoints';
import { exactRiskCoverage } from '../../../../src/core/metrics/riskCoverage';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { calibrationStep, selectiveFamily } from '../../../../src/core/tasks/classificationSelective';
import { familyStep } from '../../../../src/core/tasks/classificationFamilies';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import type { ClassificationData } from '../../../../src/core/data/classificationData';
import { operatingPointModel } from '../../../../src/shared/operatingPoint';
import { config, randomData, runClassificationSteps } from '../../helpers/classification';
import { createRng } from '../../helpers/selective';

import { closeRel as close } from '../../helpers/numericClose';

test('operating points: the TSDoc example, written as the formula', () => {
  // conf [0.9, 0.7, 0.7, 0.2], correct [1, 0, 1, 1], B = 2: bins (0, .5] and (.5, 1]
  const rows = sortRowsByScore([0.9, 0.7, 0.7, 0.2], [0, 1, 0, 0]);
  const c = operatingPointColumns(rows, 2);
  assert.deepEqual(Array.from(c.accepted), [1, 3, 4]);
  close(c.ece![0]!, Math.abs(1 - 0.9) / 1);
  close(c.ece![1]!, Math.abs(1 - 0.9 + (0 - 0.7) + (1 - 0.7)) / 3);
  close(c.ece![2]!, (Math.abs(1 - 0.9 + (0 - 0.7) + (1 - 0.7)) + Math.abs(1 - 0.2)) / 4);
  assert.equal(c.groupError.length, 0);
});

test('operating points: group errors per point, 1.0 for a group with nothing accepted', () => {
  // groups of the true class: g0 = rows 0, 2; g1 = rows 1, 3. Row 1 wrong, row 3 wrong.
  const rows = sortRowsByScore([0.9, 0.8, 0.8, 0.3], [0, 1, 0, 1], {
    groups: Int32Array.from([0, 1, 0, 1]),
    nGroups: 2,
  });
  const c = operatingPointColumns(rows, null);
  assert.equal(c.ece, null);
  assert.deepEqual(Array.from(c.groupError[0]!), [0 / 1, 0 / 2, 0 / 2]);
  assert.deepEqual(Array.from(c.groupError[1]!), [1.0, 1 / 1, 2 / 2]);
});

/** The slow reference: for each distinct score t, the accepted rows (s ≥ t) as their own data set. */
function slowPoints(
  scores: number[],
  wrong: number[],
  groups: number[],
  G: number,
  weights: number[] | null,
  B: number,
) {
  const ts = [...new Set(scores)].sort((a, b) => b - a);
  return ts.map((t) => {
    const acc = scores.map((s, i) => (s >= t ? i : -1)).filter((i) => i >= 0);
    const sub = sortRowsByScore(
      acc.map((i) => scores[i]!),
      acc.map((i) => wrong[i]!),
      { weights: weights ? acc.map((i) => weights[i]!) : null },
    );
    const ece = calibrationValues(sub, B).ece;
    const groupError = Array.from({ length: G }, (_, g) => {
      const inG = acc.filter((i) => groups[i] === g);
      const mass = inG.reduce((a, i) => a + (weights ? weights[i]! : 1), 0);
      const err = inG.reduce((a, i) => a + (wrong[i] ? (weights ? weights[i]! : 1) : 0), 0);
      return mass > 0 ? err / mass : 1.0;
    });
    return { t, accepted: acc.length, ece, groupError };
  });
}

test('operating points equal a recomputation on the accepted rows (random data: ties, weights, zero confidences, groups)', () => {
  const rng = createRng(2024);
  for (let rep = 0; rep < 80; rep++) {
    const n = 1 + rng.int(60);
    const G = 1 + rng.int(3);
    const B = 1 + rng.int(15);
    const levels = 1 + rng.int(12);
    // scores on a coarse grid (many ties, values on bin edges such as 0.5), some 0 (in no bin)
    const scores = Array.from({ length: n }, () => (rng.next() < 0.1 ? 0 : rng.int(levels + 1) / levels));
    const wrong = Array.from({ length: n }, () => (rng.next() < 0.4 ? 1 : 0));
    const groups = Array.from({ length: n }, () => rng.int(G));
    const weights = rep % 2 === 0 ? null : Array.from({ length: n }, () => (rng.next() < 0.1 ? 0 : 2 * rng.next()));
    const rows = sortRowsByScore(scores, wrong, { groups: Int32Array.from(groups), nGroups: G, weights });
    const fast = operatingPointColumns(rows, B);
    const curve = exactRiskCoverage(rows);
    const slow = slowPoints(scores, wrong, groups, G, weights, B);
    assert.equal(fast.accepted.length, slow.length, `rep ${rep}: one point per distinct score`);
    slow.forEach((p, k) => {
      assert.equal(curve.threshold[k], p.t, `rep ${rep} point ${k}: aligned with the curve`);
      assert.equal(fast.accepted[k], p.accepted, `rep ${rep} point ${k} accepted`);
      close(fast.ece![k]!, p.ece, 1e-12, `rep ${rep} point ${k} ece`);
      p.groupError.forEach((e, g) => close(fast.groupError[g]![k]!, e, 1e-12, `rep ${rep} point ${k} group ${g}`));
      // the curve's balanced / worst risk are the mean / max of these columns
      if (!weights) {
        close(curve.riskBalanced[k]!, p.groupError.reduce((a, b) => a + b, 0) / G, 1e-12, `rep ${rep} balanced`);
        close(curve.riskWorst[k]!, Math.max(...p.groupError), 1e-12, `rep ${rep} worst`);
      }
    });
  }
});

test('operating points: the last point accepts every row, so its ECE is the ECE of the file', () => {
  const rng = createRng(7);
  const n = 500;
  const scores = Array.from({ length: n }, () => rng.next());
  const wrong = scores.map((s) => (rng.next() > s ? 1 : 0));
  for (const B of [1, 10, 15]) {
    const rows = sortRowsByScore(scores, wrong);
    const c = operatingPointColumns(rows, B);
    close(c.ece![c.ece!.length - 1]!, calibrationValues(rows, B).ece, 1e-12, `B = ${B}`);
    // a confidence on a bin edge goes to the lower bin, as for ece
    assert.equal(eceBinIndex(0.4, 15), 5);
  }
});

test('operating points and the curve at chosen points: the whole columns at those indices, bit for bit', () => {
  const rng = createRng(31);
  for (let rep = 0; rep < 40; rep++) {
    const n = 1 + rng.int(80);
    const G = rng.int(3);
    const scores = Array.from({ length: n }, () => rng.int(20) / 19);
    const wrong = Array.from({ length: n }, () => (rng.next() < 0.4 ? 1 : 0));
    const groups = G > 0 ? Int32Array.from({ length: n }, () => rng.int(G)) : null;
    const weights = rep % 2 === 0 ? null : Array.from({ length: n }, () => (rng.next() < 0.2 ? 0 : 2 * rng.next()));
    const rows = sortRowsByScore(scores, wrong, { groups, nGroups: G, weights });
    const whole = exactRiskCoverage(rows);
    const cols = operatingPointColumns(rows, 5);
    const nb = rows.blockStart.length - 1;
    const points = Array.from({ length: nb }, (_, k) => k).filter(() => rng.next() < 0.4);
    const at = exactRiskCoverage(rows, null, points);
    const colsAt = operatingPointColumns(rows, 5, points);
    assert.equal(at.coverage.length, points.length, `rep ${rep}: one value per point asked for`);
    assert.equal(colsAt.accepted.length, points.length);
    points.forEach((k, j) => {
      for (const key of ['threshold', 'coverage', 'risk', 'riskBalanced', 'riskWorst'] as const)
        assert.ok(Object.is(at[key][j], whole[key][k]), `rep ${rep} point ${k} ${key}`);
      assert.equal(colsAt.accepted[j], cols.accepted[k]);
      assert.ok(Object.is(colsAt.ece![j], cols.ece![k]), `rep ${rep} point ${k} ece`);
      for (let g = 0; g < G; g++) assert.ok(Object.is(colsAt.groupError[g]![j], cols.groupError[g]![k]));
    });
  }
  // the TSDoc example: points [0, 2] of coverage [1/4, 3/4, 1], risk [0, 1/3, 2/4]
  const c = exactRiskCoverage(sortRowsByScore([0.9, 0.8, 0.8, 0.3], [0, 1, 0, 1]), null, [0, 2]);
  assert.deepEqual(Array.from(c.coverage), [1 / 4, 1]);
  assert.deepEqual(Array.from(c.risk), [0, 2 / 4]);
});

// ---------------------------------------------------------------------------------------------
// In the results: extra columns of the riskCoverage curve

async function evaluate(data: ClassificationData, cfg: ResolvedConfig) {
  const { ctx } = await runClassificationSteps(data, cfg, [familyStep(selectiveFamily), calibrationStep]);
  return ctx.results.build({
    source: { path: 'test.csv', size: 0, sha256: '', format: 'csv', rows: data.n, rowsUsed: data.n, columns: {} },
    task: 'classification',
    config: cfg,
    warnings: ctx.warnings.list,
  });
}

const noCi = (extra: Partial<ResolvedConfig>): ResolvedConfig =>
  config({ ...extra, bootstrap: { n: 0, confidence: 0.95, seed: 0, stratified: false } });

test('riskCoverage in the results: accepted, error_group.<g>, ece_accepted; the configured point equals the metrics', async () => {
  const rng = createRng(99);
  const data = randomData(rng, 400, 5, { ties: true });
  const r = await evaluate(data, noCi({ trainCounts: [100, 50, 20, 10, 5], groups: [2], acceptThreshold: 0.5 }));
  const c = r.curves.riskCoverage!;
  const ex = c.extra!;
  for (const k of [
    'threshold',
    'accepted',
    'risk_balanced',
    'risk_worst',
    'error_group.head',
    'error_group.tail',
    'ece_accepted',
  ] as const)
    assert.equal(ex[k]?.length, c.xs.length, k);
  // the last point accepts every row
  assert.equal(ex.accepted![c.xs.length - 1], 400);
  close(ex.ece_accepted![c.xs.length - 1]!, r.metrics.ece!.value!, 1e-12, 'ece');
  // the point of the configured threshold: the smallest stored threshold ≥ 0.5
  const th = ex.threshold as number[];
  let k = -1;
  th.forEach((t, i) => {
    if (t >= 0.5) k = i;
  });
  assert.ok(k >= 0);
  close(c.xs[k]!, r.metrics.coverage!.value!, 1e-12, 'coverage');
  close(c.ys[k]!, r.metrics.selective_risk!.value!, 1e-12, 'risk');
  close(ex['error_group.head']![k]!, r.metrics['error_group.head']!.value!, 1e-12, 'head');
  close(ex['error_group.tail']![k]!, r.metrics['error_group.tail']!.value!, 1e-12, 'tail');
  close(ex.risk_balanced![k]!, r.metrics.balanced_error!.value!, 1e-12, 'balanced');
  close(ex.risk_worst![k]!, r.metrics.worst_error!.value!, 1e-12, 'worst');
});

test('riskCoverage in the results: a thinned curve still holds the configured operating point, exactly', async () => {
  const rng = createRng(5);
  const data = randomData(rng, 3000, 4);
  const target = 0.6123;
  const r = await evaluate(data, noCi({ targetCoverage: target }));
  const c = r.curves.riskCoverage!;
  assert.ok(c.xs.length > 2001 && c.xs.length <= 2002, `${c.xs.length} points`);
  assert.match(c.note!, /points are stored/);
  const cov = r.metrics.coverage!.value!;
  const k = c.xs.findIndex((x) => x === cov);
  assert.ok(k >= 0, 'the operating point is a stored point');
  assert.equal(c.ys[k], r.metrics.selective_risk!.value);
  assert.equal(c.extra!.accepted![k], Math.round(cov * 3000));
  // the explorer's model: snaps to the stored points, says how many of how many, starts at the evaluated one
  const m = operatingPointModel(r)!;
  const C = data.classes.length;
  const msp = new Set(Array.from({ length: data.n }, (_, i) => Math.max(...data.probs!.subarray(i * C, (i + 1) * C))));
  assert.equal(m.stored, c.xs.length);
  assert.equal(m.total, msp.size, 'one exact point per distinct score');
  assert.ok(m.total > m.stored, `${m.stored} of ${m.total}`);
  assert.equal(m.current, k);
});
