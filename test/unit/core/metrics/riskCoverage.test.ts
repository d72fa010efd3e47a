// Exact RC curve, AURC / E-AURC (fractional counts in tied blocks) and the seed-compatible grid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { aurcGrid101, aurcValues, exactRiskCoverage, optimalAurc } from '../../../../src/core/metrics/riskCoverage';
import {
  aurcStarFormula,
  bruteForceAurc,
  createRng,
  expand,
  randomRows,
  seedCalculateAurc,
  seedCalculateAurcFrom02,
  seedGenerateRcCurve,
  slowFractionalAurc,
} from '../../helpers/selective';
import { closeRel as close } from '../../helpers/numericClose';

test('sortRowsByScore: stable descending order and tied blocks', () => {
  const r = sortRowsByScore([0.3, 0.8, 0.9, 0.8, -0, 0], [1, 0, 0, 1, 0, 0]);
  assert.deepEqual(Array.from(r.rowIndex), [2, 1, 3, 0, 4, 5]);
  assert.deepEqual(Array.from(r.blockStart), [0, 1, 3, 4, 6]);
  assert.deepEqual(Array.from(r.wrong), [0, 0, 1, 1, 0, 0]);
});

test('exact RC curve: one point per distinct score, ties enter together (hand example)', () => {
  const r = sortRowsByScore([0.9, 0.8, 0.8, 0.3], [0, 1, 0, 1], { groups: Int32Array.from([0, 1, 0, 1]), nGroups: 2 });
  const c = exactRiskCoverage(r);
  assert.deepEqual(Array.from(c.threshold), [0.9, 0.8, 0.3]);
  assert.deepEqual(Array.from(c.coverage), [1 / 4, 3 / 4, 1]);
  assert.deepEqual(Array.from(c.risk), [0, 1 / 3, 2 / 4]);
  // groups: g0 = rows 0, 2 (both correct), g1 = rows 1, 3 (both wrong); empty g1 at the first point → 1.0
  assert.deepEqual(Array.from(c.riskBalanced), [(0 + 1) / 2, (0 + 1) / 2, (0 + 1) / 2]);
  assert.deepEqual(Array.from(c.riskWorst), [1, 1, 1]);
});

test('aurc / aurc* / eaurc: the TSDoc example, written as the formula', () => {
  const r = sortRowsByScore([0.9, 0.8, 0.8, 0.3], [0, 1, 0, 1]);
  const v = aurcValues(r);
  close(v.aurc, (0 / 1 + (0 + 1 / 2) / 2 + 1 / 3 + 2 / 4) / 4);
  close(v.aurc, 13 / 48);
  close(v.aurcOptimal, (1 / 3 + 2 / 4) / 4);
  close(v.eaurc, 13 / 48 - 5 / 24);
  assert.ok(Number.isNaN(v.aurcBalanced));
});

test('aurc equals the brute-force mean over every order inside tied blocks (random small inputs)', () => {
  const rng = createRng(11);
  for (let rep = 0; rep < 60; rep++) {
    const n = 2 + rng.int(7);
    const d = randomRows(rng, n, { levels: 1 + rng.int(3) });
    const v = aurcValues(sortRowsByScore(d.scores, d.wrong));
    close(v.aurc, bruteForceAurc(d.scores, d.wrong), 1e-12, `rep ${rep}`);
    close(v.aurcOptimal, aurcStarFormula(d.wrong), 1e-12, `rep ${rep}`);
    close(v.eaurc, bruteForceAurc(d.scores, d.wrong) - aurcStarFormula(d.wrong), 1e-12, `rep ${rep}`);
  }
});

test('aurc_balanced / aurc_worst equal a from-scratch fractional-count reference', () => {
  const rng = createRng(12);
  for (let rep = 0; rep < 60; rep++) {
    const n = 1 + rng.int(25);
    const G = 1 + rng.int(3);
    const d = randomRows(rng, n, { levels: 1 + rng.int(5), nGroups: G, classes: 6 });
    const v = aurcValues(sortRowsByScore(d.scores, d.wrong, { groups: Int32Array.from(d.groups), nGroups: G }));
    const ref = slowFractionalAurc(d.scores, d.wrong, d.groups, G);
    close(v.aurc, ref.standard, 1e-12, `std rep ${rep}`);
    close(v.aurcBalanced, ref.balanced, 1e-12, `bal rep ${rep}`);
    close(v.aurcWorst, ref.worst, 1e-12, `worst rep ${rep}`);
  }
});

test('distinct scores: aurc is the plain mean of top-k risks, and the best order gives eaurc = 0', () => {
  const wrong = [0, 0, 0, 1, 1];
  const r = sortRowsByScore([5, 4, 3, 2, 1], wrong);
  const v = aurcValues(r);
  close(v.aurc, (0 + 0 + 0 + 1 / 4 + 2 / 5) / 5);
  close(v.eaurc, 0);
});

test('weighted form: multiplicities equal the expanded data set; unit weights equal the unweighted', () => {
  const rng = createRng(13);
  for (let rep = 0; rep < 40; rep++) {
    const n = 101 + rng.int(150);
    const d = randomRows(rng, n, { levels: 2 + rng.int(30), nGroups: 3 });
    const mult = d.scores.map(() => rng.int(4));
    const groups = Int32Array.from(d.groups);
    const base = sortRowsByScore(d.scores, d.wrong, { groups, nGroups: 3 });
    const m = new Float64Array(base.n);
    for (let p = 0; p < base.n; p++) m[p] = mult[base.rowIndex[p]];
    const big = sortRowsByScore(expand(d.scores, mult), expand(d.wrong, mult), {
      groups: Int32Array.from(expand(d.groups, mult)),
      nGroups: 3,
    });
    const a = aurcValues(base, m);
    const b = aurcValues(big);
    for (const k of ['aurc', 'aurcOptimal', 'eaurc', 'aurcBalanced', 'aurcWorst'] as const)
      close(a[k], b[k], 1e-11, `${k} rep ${rep}`);
    const ga = aurcGrid101(base, m);
    const gb = aurcGrid101(big);
    if (gb === null) assert.equal(ga, null);
    else for (const k of Object.keys(gb) as (keyof typeof gb)[]) close(ga![k], gb[k], 1e-11, `grid ${k} rep ${rep}`);
    const ones = sortRowsByScore(d.scores, d.wrong, { groups, nGroups: 3, weights: new Float64Array(n).fill(1) });
    const u = aurcValues(ones);
    const plain = aurcValues(base);
    for (const k of ['aurc', 'eaurc', 'aurcBalanced', 'aurcWorst'] as const) assert.equal(u[k], plain[k]);
    assert.deepEqual(aurcGrid101(ones), aurcGrid101(base));
  }
});

test('weighted aurc: a row of weight 2 is one step of width 2/W (here equal to two copies: both steps have risk 1)', () => {
  // weights [2, 1], wrong [1, 0]: steps of width 2/3 (risk 1) and 1/3 (risk 2/3)
  const r = sortRowsByScore([0.9, 0.5], [1, 0], { weights: [2, 1] });
  close(aurcValues(r).aurc, (2 / 3) * 1 + (1 / 3) * (2 / 3));
  // the same with the row given twice
  close(aurcValues(sortRowsByScore([0.9, 0.9, 0.5], [1, 1, 0])).aurc, (1 + 1 + 2 / 3) / 3);
});

test('optimalAurc: unweighted it is the documented aurc*; no wrong rows → 0; all wrong → 1', () => {
  close(optimalAurc(10, 3, 3), aurcStarFormula([1, 1, 1, 0, 0, 0, 0, 0, 0, 0]));
  assert.equal(optimalAurc(5, 0, 0), 0);
  close(optimalAurc(4, 4, 4), 1);
});

test('grid keys equal a literal transcription of a selective evaluation script (generate_rc_curve + calculate_aurc[_from_02])', () => {
  const rng = createRng(14);
  for (let rep = 0; rep < 30; rep++) {
    const n = 101 + rng.int(400);
    const G = 2;
    const d = randomRows(rng, n, { levels: 3 + rng.int(60), nGroups: G, classes: 7 });
    const classToGroup = Array.from({ length: 7 }, (_, c) => c % G);
    const rc = seedGenerateRcCurve(d.scores, d.preds, d.labels, classToGroup, G);
    const g = aurcGrid101(sortRowsByScore(d.scores, d.wrong, { groups: Int32Array.from(d.groups), nGroups: G }))!;
    close(g.standard, seedCalculateAurc(rc, 'overall_error'), 1e-12, `std rep ${rep}`);
    close(g.standardFrom02, seedCalculateAurcFrom02(rc, 'overall_error'), 1e-12, `std02 rep ${rep}`);
    close(g.balanced, seedCalculateAurc(rc, 'balanced_error'), 1e-12, `bal rep ${rep}`);
    close(g.balancedFrom02, seedCalculateAurcFrom02(rc, 'balanced_error'), 1e-12, `bal02 rep ${rep}`);
    close(g.worst, seedCalculateAurc(rc, 'worst_error'), 1e-12, `worst rep ${rep}`);
    close(g.worstFrom02, seedCalculateAurcFrom02(rc, 'worst_error'), 1e-12, `worst02 rep ${rep}`);
  }
});

test("grid: n = 101 reproduces the seed's floating cut (i = 29 accepts 28 rows, not 29)", () => {
  // Only row 28 (0-based, the 29th best) is wrong: with the exact floor the cut at i = 29 would
  // include it; the seed's int(101 * (29/101)) = 28 does not.
  const n = 101;
  const scores = Array.from({ length: n }, (_, i) => n - i);
  const wrong = scores.map((_, i) => (i === 28 ? 1 : 0));
  const labels = scores.map(() => 0);
  const preds = wrong.map((w) => w);
  const rc = seedGenerateRcCurve(scores, preds, labels, [0, 0], 1);
  assert.equal(rc[28].coverage, 28 / 101);
  const g = aurcGrid101(sortRowsByScore(scores, wrong))!;
  close(g.standard, seedCalculateAurc(rc, 'overall_error'));
});

test('grid keys are null below 101 rows', () => {
  assert.equal(aurcGrid101(sortRowsByScore([0.5, 0.4], [0, 1])), null);
  const r = sortRowsByScore(new Array(101).fill(0.5), new Array(101).fill(0));
  assert.notEqual(aurcGrid101(r), null);
});

test('exact RC curve is O(n log n): 200,000 rows in well under a second', () => {
  const rng = createRng(15);
  const n = 200_000;
  const d = randomRows(rng, n, { levels: 50_000 });
  const t0 = performance.now();
  const r = sortRowsByScore(d.scores, d.wrong, { groups: Int32Array.from(d.groups), nGroups: 2 });
  exactRiskCoverage(r);
  aurcValues(r);
  assert.ok(performance.now() - t0 < 3000);
});

test('unit-mass fast path (no groups, no weights, with multiplicities) agrees with the general loop', () => {
  const rng = createRng(16);
  for (let rep = 0; rep < 20; rep++) {
    const n = 50 + rng.int(3000);
    const d = randomRows(rng, n, { levels: 5 + rng.int(n) });
    const mult = Float64Array.from({ length: n }, () => rng.int(4));
    const plain = sortRowsByScore(d.scores, d.wrong);
    // the same rows with unit weights take the general loop
    const general = sortRowsByScore(d.scores, d.wrong, { weights: new Float64Array(n).fill(1) });
    const a = aurcValues(plain, mult);
    const b = aurcValues(general, mult);
    close(a.aurc, b.aurc, 1e-9, `aurc rep ${rep}`);
    close(a.eaurc, b.eaurc, 1e-8, `eaurc rep ${rep}`);
    close(a.aurcOptimal, b.aurcOptimal, 1e-12, `opt rep ${rep}`);
  }
});
