// Acceptance rules, operating-point metrics, reweighted group errors (the long-tail reweighting worked example), group table, cost sweep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { groupAnalysis, operatingPoint, targetCoverageEnd, thresholdEnd } from '../../../../src/core/metrics/selective';
import { costSweep, defaultCostGrid } from '../../../../src/core/metrics/costSweep';
import { createRng, expand, randomRows, seedCalculateSelectiveErrors } from '../../helpers/selective';

import { closeRel as close } from '../../helpers/numericClose';

test('acceptThreshold: accept s ≥ t is the prefix of the descending order', () => {
  const r = sortRowsByScore([0.2, 0.9, 0.5, 0.5, 0.7], [0, 0, 1, 0, 1]);
  assert.equal(thresholdEnd(r, 0.5), 4);
  assert.equal(thresholdEnd(r, 0.51), 2);
  assert.equal(thresholdEnd(r, 1), 0);
  assert.equal(thresholdEnd(r, -1), 5);
});

test('targetCoverage: shortest prefix reaching c, then every tie of its last score (TSDoc example)', () => {
  const r = sortRowsByScore([0.9, 0.8, 0.8, 0.8, 0.1], [0, 0, 0, 0, 0]);
  const t = targetCoverageEnd(r, 0.5);
  assert.deepEqual(t, { end: 4, threshold: 0.8 });
  // 0.2 is reached by the first row alone
  assert.deepEqual(targetCoverageEnd(r, 0.2), { end: 1, threshold: 0.9 });
  // exactly 0.7 of 10 rows → 7 rows, no float drift pushes it to 8
  const r10 = sortRowsByScore([10, 9, 8, 7, 6, 5, 4, 3, 2, 1], new Array(10).fill(0));
  assert.equal(targetCoverageEnd(r10, 0.7).end, 7);
  assert.equal(targetCoverageEnd(r10, 0.71).end, 8);
  assert.equal(targetCoverageEnd(r10, 1).end, 10);
  assert.throws(() => targetCoverageEnd(r10, 0), /targetCoverage/);
});

test('targetCoverage with weights: coverage is the weight share', () => {
  // weights 3,1,1,1 (desc order): c = 0.5 is reached by the first row (3/6)
  const r = sortRowsByScore([0.9, 0.8, 0.7, 0.6], [0, 0, 0, 0], { weights: [3, 1, 1, 1] });
  assert.equal(targetCoverageEnd(r, 0.5).end, 1);
  assert.equal(targetCoverageEnd(r, 0.51).end, 2);
});

test('operating point: coverage, selective risk, group errors as a literal calculate_selective_errors loop', () => {
  const rng = createRng(21);
  for (let rep = 0; rep < 30; rep++) {
    const n = 5 + rng.int(60);
    const d = randomRows(rng, n, { levels: 6, nGroups: 3, classes: 6 });
    const classToGroup = [0, 1, 2, 0, 1, 2];
    const r = sortRowsByScore(d.scores, d.wrong, { groups: Int32Array.from(d.groups), nGroups: 3 });
    const t = [0.2, 0.5, 0.8][rep % 3];
    const end = thresholdEnd(r, t);
    const op = operatingPoint(r, { kind: 'prefix', end });
    const mask = d.scores.map((s) => s >= t);
    const seed = seedCalculateSelectiveErrors(d.preds, d.labels, mask, classToGroup, 3);
    close(op.coverage, seed.coverage);
    if (end > 0) close(op.risk, seed.overall_error);
    else assert.ok(Number.isNaN(op.risk));
    seed.group_errors.forEach((e, g) => close(op.groupError[g], e));
    close(op.balanced, seed.balanced_error);
    close(op.worst, seed.worst_error);
  }
});

test('an empty group: error 1.0, listed in emptyGroups', () => {
  // group 1's only row is rejected
  const r = sortRowsByScore([0.9, 0.8, 0.1], [0, 1, 0], { groups: Int32Array.from([0, 0, 1]), nGroups: 2 });
  const op = operatingPoint(r, { kind: 'prefix', end: 2 });
  assert.deepEqual(Array.from(op.groupError), [0.5, 1.0]);
  assert.deepEqual(op.emptyGroups, [1]);
  assert.equal(op.balanced, 0.75);
  assert.equal(op.worst, 1.0);
});

test('reweight on the long-tail worked example at its operating point: head 0.117/0.247, tail 0.0017/0.0030', () => {
  // The 10 accepted rows of the worked example plus two rejected (wrong) rows that must not count.
  const labels = [5, 10, 20, 30, 40, 50, 70, 75, 80, 99, 1, 90];
  const preds = [5, 10, 22, 30, 42, 51, 71, 75, 82, 99, 2, 91];
  const wtrn = [0.046, 0.044, 0.042, 0.04, 0.038, 0.037, 0.0011, 0.0008, 0.0006, 0.0005, 0.046, 0.0006];
  const scores = [...new Array(10).fill(0.9), 0.1, 0.1];
  const wrong = labels.map((y, i) => (y === preds[i] ? 0 : 1));
  const groups = Int32Array.from(labels.map((y) => (y < 69 ? 0 : 1)));
  const r = sortRowsByScore(scores, wrong, { groups, nGroups: 2, groupWeights: wtrn });
  const acc = { kind: 'prefix' as const, end: thresholdEnd(r, 0.5) };
  const eps = 1e-12;
  const op = operatingPoint(r, acc, null, { reweight: true, epsilon: eps });
  close(op.groupError[0], (0.042 + 0.038 + 0.037) / (0.046 + 0.044 + 0.042 + 0.04 + 0.038 + 0.037 + eps));
  close(op.groupError[1], (0.0011 + 0.0006) / (0.0011 + 0.0008 + 0.0006 + 0.0005 + eps));
  assert.equal(op.groupError[0].toFixed(4), '0.4737');
  assert.equal(op.groupError[1].toFixed(4), '0.5667');
  close(op.balanced, (op.groupError[0] + op.groupError[1]) / 2);
  assert.equal(op.worst, op.groupError[1]);
  // Without reweighting: 3/6 and 2/4
  const plain = operatingPoint(r, acc);
  assert.deepEqual(Array.from(plain.groupError), [0.5, 0.5]);
  // coverage and selective risk never use w^trn
  assert.equal(op.coverage, 10 / 12);
  assert.equal(op.risk, 5 / 10);
});

test('reweight: a group whose accepted rows all have train share 0 is NaN (not a silent 0)', () => {
  const r = sortRowsByScore([0.9, 0.8], [1, 0], { groups: Int32Array.from([0, 1]), nGroups: 2, groupWeights: [0, 1] });
  const op = operatingPoint(r, { kind: 'prefix', end: 2 }, null, { reweight: true });
  assert.ok(Number.isNaN(op.groupError[0]));
  assert.ok(Number.isNaN(op.balanced) && Number.isNaN(op.worst));
});

test('operating point with multiplicities equals the expanded data set', () => {
  const rng = createRng(22);
  for (let rep = 0; rep < 20; rep++) {
    const n = 30;
    const d = randomRows(rng, n, { levels: 5, nGroups: 2 });
    const mult = d.scores.map(() => rng.int(3));
    const w = d.scores.map(() => 0.5 + rng.next());
    const r = sortRowsByScore(d.scores, d.wrong, { groups: Int32Array.from(d.groups), nGroups: 2, weights: w });
    const m = Float64Array.from(r.rowIndex, (i) => mult[i]);
    const big = sortRowsByScore(expand(d.scores, mult), expand(d.wrong, mult), {
      groups: Int32Array.from(expand(d.groups, mult)),
      nGroups: 2,
      weights: expand(w, mult),
    });
    const a = targetCoverageEnd(r, 0.6, m);
    const b = targetCoverageEnd(big, 0.6);
    assert.equal(a.threshold, b.threshold);
    const opA = operatingPoint(r, { kind: 'prefix', end: a.end }, m);
    const opB = operatingPoint(big, { kind: 'prefix', end: b.end });
    close(opA.coverage, opB.coverage);
    close(opA.risk, opB.risk);
    close(opA.balanced, opB.balanced);
    close(opA.worst, opB.worst);
  }
});

test('accept column: an explicit mask in sorted order', () => {
  const r = sortRowsByScore([0.1, 0.9, 0.5], [1, 0, 0]);
  // accept rows 0 and 2 (file order) → sorted positions of rows 0 and 2
  const mask = new Uint8Array(3);
  r.rowIndex.forEach((i, p) => (mask[p] = i === 0 || i === 2 ? 1 : 0));
  const op = operatingPoint(r, { kind: 'mask', mask });
  assert.equal(op.coverage, 2 / 3);
  assert.equal(op.risk, 1 / 2);
});

test('group analysis table: size, coverage, error, TPR, FPR (null when 0/0), score stats', () => {
  // group 0: scores 0.9 (correct), 0.6 (wrong), 0.3 (correct); group 1: 0.8 (correct) only
  const r = sortRowsByScore([0.9, 0.6, 0.3, 0.8], [0, 1, 0, 0], { groups: Int32Array.from([0, 0, 0, 1]), nGroups: 2 });
  const acc = { kind: 'prefix' as const, end: thresholdEnd(r, 0.5) };
  const op = operatingPoint(r, acc);
  const t = groupAnalysis(r, acc, ['head', 'tail'], op.groupError);
  assert.equal(t[0].group, 'head');
  assert.equal(t[0].size, 3);
  close(t[0].coverage!, 2 / 3);
  close(t[0].error!, 1 / 2);
  close(t[0].tpr!, 1 / 2);
  close(t[0].fpr!, 1);
  close(t[0].scoreMean!, 0.6);
  close(t[0].scoreStd!, Math.sqrt((0.09 + 0 + 0.09) / 2));
  assert.equal(t[0].scoreMin, 0.3);
  assert.equal(t[0].scoreMax, 0.9);
  assert.equal(t[1].fpr, null);
  assert.equal(t[1].tpr, 1);
  assert.equal(t[1].scoreStd, null);
});

test("cost sweep by Chow's rule: accept s ≥ 1 − c (TSDoc example) and Chow's loss", () => {
  const r = sortRowsByScore([0.9, 0.7, 0.4], [0, 1, 1]);
  const s = costSweep(r, [0.25, 0, 1], { probability: true });
  assert.equal(s.threshold[0], 0.75);
  close(s.coverage[0], 1 / 3);
  assert.equal(s.risk[0], 0);
  close(s.loss[0], (0 + 0.25 * 2) / 3);
  assert.equal(s.coverage[1], 0); // c = 0: accept only s ≥ 1
  assert.ok(Number.isNaN(s.risk[1]));
  close(s.loss[1], 0);
  assert.equal(s.coverage[2], 1); // c = 1: accept s ≥ 0
  close(s.risk[2], 2 / 3);
});

test('cost sweep on non-probability scores spans the score range; default grid has 81 values', () => {
  const r = sortRowsByScore([-3, 1, 5], [1, 0, 0]); // t(0.5) = 5 − 0.5·8 = 1: the row at 1 is accepted
  const s = costSweep(r, [0, 0.5, 1], { probability: false });
  assert.deepEqual(Array.from(s.threshold), [5, 1, -3]);
  assert.deepEqual(Array.from(s.coverage), [1 / 3, 2 / 3, 1]);
  const g = defaultCostGrid();
  assert.equal(g.length, 81);
  assert.equal(g[0], 0);
  assert.equal(g[80], 1);
  assert.equal(g[40], 0.5);
});

test("a selective evaluation script's fixed-coverage 'sweep' accepts the same rows for every c (why it is not a sweep)", () => {
  const rng = createRng(23);
  const margins = Array.from({ length: 200 }, () => rng.next());
  const quantile = (xs: number[], q: number) => {
    const s = [...xs].sort((a, b) => a - b);
    const h = (s.length - 1) * q;
    const lo = Math.floor(h);
    return s[lo] + (h - lo) * (s[Math.min(lo + 1, s.length - 1)] - s[lo]);
  };
  const accepted = [0.1, 0.5, 0.9].map((c) => {
    const shifted = margins.map((m) => m - c);
    const t = quantile(shifted, 1 - 0.7);
    return shifted.map((m) => m >= t).join('');
  });
  assert.equal(accepted[0], accepted[1]);
  assert.equal(accepted[1], accepted[2]);
});

test('group analysis: accepted and rejected mean score and their gap; every score statistic null without scores', () => {
  // group 0: scores 0.9 (correct), 0.6 (wrong), 0.3 (correct); group 1: 0.8 (correct) only; accept s ≥ 0.5
  const r = sortRowsByScore([0.9, 0.6, 0.3, 0.8], [0, 1, 0, 0], { groups: Int32Array.from([0, 0, 0, 1]), nGroups: 2 });
  const acc = { kind: 'prefix' as const, end: thresholdEnd(r, 0.5) };
  const op = operatingPoint(r, acc);
  const t = groupAnalysis(r, acc, ['head', 'tail'], op.groupError);
  close(t[0].scoreMeanAccepted!, (0.9 + 0.6) / 2);
  close(t[0].scoreMeanRejected!, 0.3);
  close(t[0].scoreGap!, (0.9 + 0.6) / 2 - 0.3);
  close(t[1].scoreMeanAccepted!, 0.8);
  assert.equal(t[1].scoreMeanRejected, null); // nothing rejected
  assert.equal(t[1].scoreGap, null);
  // No score in the file (an accept column only): the placeholder scores give no statistic, not 0.
  const z = sortRowsByScore([0, 0, 0, 0], [0, 1, 0, 0], { groups: Int32Array.from([0, 0, 0, 1]), nGroups: 2 });
  const mask = { kind: 'mask' as const, mask: Uint8Array.from([1, 1, 0, 1]) };
  const nz = groupAnalysis(z, mask, ['head', 'tail'], operatingPoint(z, mask).groupError, false);
  for (const row of nz) {
    for (const k of [
      'scoreMean',
      'scoreStd',
      'scoreMin',
      'scoreMax',
      'scoreMeanAccepted',
      'scoreMeanRejected',
      'scoreGap',
    ] as const)
      assert.equal(row[k], null, `${row.group} ${k}`);
  }
  close(nz[0].coverage!, 2 / 3);
  assert.equal(nz[0].size, 3);
});
