import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateClassification,
  aggregateEvolving,
  binomialDraw,
  effectiveRho,
  jensenShannon,
  logGamma,
  prepareClassification,
  prepareEvolving,
  rowsByClass,
  shiftAuc,
  symmetricKL,
  testDistributionByRank,
  trainDistributionFromValues,
  type ClassStats,
  type EvolvingSetup,
} from '../../helpers/classificationMetrics';
import { classNames, close, config, createRng, makeData, randomData } from '../../helpers/classification';

function statsFromAcc(acc: number[]): ClassStats {
  const C = acc.length;
  return {
    support: new Float64Array(C).fill(1),
    correct: Float64Array.from(acc),
    predicted: new Float64Array(C).fill(1),
    present: new Uint8Array(C).fill(1),
    total: C,
  };
}

function setupFor(counts: number[], opts: Parameters<typeof prepareEvolving>[3] = {}): EvolvingSetup {
  const classes = classNames(counts.length);
  const train = trainDistributionFromValues(counts, classes, 'trainCounts', config());
  const s = prepareEvolving(train, classes, new Array(counts.length).fill(1), opts);
  if ('unavailable' in s) throw new Error(s.unavailable);
  return s;
}

test('q^tst by hand: C = 3, ρ = 4, α = 1 → weights 1, 1/2, 1/4', () => {
  const q = testDistributionByRank(3, 4, 1);
  close(q[0], 4 / 7);
  close(q[1], 2 / 7);
  close(q[2], 1 / 7);
  // α = 2 (middle peak): 1/2, 1, 1/2
  const m = testDistributionByRank(3, 4, 2);
  close(m[1], 1 / 2);
});

test('symmetric KL and Jensen–Shannon by hand', () => {
  const p = [0.5, 0.5];
  const q = [0.9, 0.1];
  close(symmetricKL(p, q), (0.5 - 0.9) * Math.log(0.5 / 0.9) + (0.5 - 0.1) * Math.log(0.5 / 0.1));
  // m = (p + q)/2 = [0.7, 0.3]
  close(
    jensenShannon(p, q),
    0.5 * (0.5 * Math.log(0.5 / 0.7) + 0.5 * Math.log(0.5 / 0.3)) +
      0.5 * (0.9 * Math.log(0.9 / 0.7) + 0.1 * Math.log(0.1 / 0.3)),
  );
  assert.equal(symmetricKL(p, p), 0);
  assert.ok(jensenShannon(p, q) <= Math.log(2));
});

test('ρ below 1 means 1/ρ; default ρ is the train ratio max/min', () => {
  const train = trainDistributionFromValues([500, 50, 5], classNames(3), 'trainCounts', config());
  close(effectiveRho(train, 0.01), 100);
  close(effectiveRho(train, 100), 100);
  close(effectiveRho(train), 100);
});

test('two classes by hand: α_t, V_t, δ_t, summaries', () => {
  // C = 2, T = 2: α = 1, 2. Train counts 80/20 → q^trn = [0.8, 0.2]. ρ = 4.
  const s = setupFor([80, 20], { imbalanceRatio: 4, T: 2 });
  assert.deepEqual(Array.from(s.alpha), [1, 2]);
  // q^tst(α=1) = [1, 1/4]/(5/4) = [0.8, 0.2]; q^tst(α=2) = [0.2, 0.8]
  close(s.qTest[0], 0.8);
  close(s.qTest[3], 0.8);
  close(s.delta[0], 0);
  close(s.delta[1], (0.8 - 0.2) * Math.log(0.8 / 0.2) + (0.2 - 0.8) * Math.log(0.2 / 0.8));
  const acc = [0.9, 0.5];
  const { values, V } = aggregateEvolving(s, statsFromAcc(acc));
  close(V[0], 0.8 * 0.9 + 0.2 * 0.5);
  close(V[1], 0.2 * 0.9 + 0.8 * 0.5);
  close(values.shift_avg, (0.82 + 0.58) / 2);
  close(values.shift_std, Math.abs(0.82 - 0.58) / 2);
  close(values.shift_max, 0.82);
  close(values.shift_min, 0.58);
  close(values.shift_dr, (0.82 - 0.58) / 0.82);
  // Eq. 9 with two points: the mean of the two V
  close(values.shift_auc, (0.82 + 0.58) / 2);
  close(values.btd, 0.7);
  close(values.acc_uniform, 0.7);
  close(values.acc_forward, 0.8 * 0.9 + 0.2 * 0.5);
  close(values.acc_backward, 0.2 * 0.9 + 0.8 * 0.5);
});

test("the paper's DR identity DR = (MAX − MIN)/MAX: CE on CIFAR10, Table 2 → 48.8%", () => {
  // Choose acc for C = 2, T = 2, ρ = 100 (the paper's 0.01) so that V = [MAX, MIN] of Table 2's CE row.
  const MAX = 0.8932;
  const MIN = 0.4569;
  const s = setupFor([100, 1], { imbalanceRatio: 0.01, T: 2 });
  // V_1 = (a0 + a1/100)/1.01, V_2 = (a0/100 + a1)/1.01 → solve the 2×2 system
  const r = 1 / 100;
  const b0 = MAX * (1 + r);
  const b1 = MIN * (1 + r);
  const a0 = (b0 - r * b1) / (1 - r * r);
  const a1 = (b1 - r * b0) / (1 - r * r);
  const { values } = aggregateEvolving(s, statsFromAcc([a0, a1]));
  close(values.shift_max, MAX, 1e-12);
  close(values.shift_min, MIN, 1e-12);
  assert.equal((values.shift_dr! * 100).toFixed(1), '48.8');
  // and the identity on the other rows of Table 2 (CIFAR10): Focal 41.1%, PCL 8.5%
  for (const [max, min, dr] of [
    [89.98, 52.98, '41.1'],
    [89.7, 82.07, '8.5'],
  ] as const) {
    assert.equal((((max - min) / max) * 100).toFixed(1), dr);
  }
});

test('shift_auc: stable sort by δ, trapezoid, divided by δ_last − δ_first', () => {
  const setup = { delta: Float64Array.from([0.3, 0.1, 0.3, 0.0]), byDelta: Int32Array.from([3, 1, 0, 2]) };
  const V = [0.5, 0.6, 0.7, 0.8];
  // sorted δ: 0.0 (0.8), 0.1 (0.6), 0.3 (0.5), 0.3 (0.7)
  const area = ((0.8 + 0.6) * 0.1) / 2 + ((0.6 + 0.5) * 0.2) / 2 + ((0.5 + 0.7) * 0) / 2;
  close(shiftAuc(setup, V), area / 0.3);
  assert.equal(shiftAuc({ delta: Float64Array.from([0.2]), byDelta: Int32Array.from([0]) }, [0.5]), null);
});

test('acc_backward reverses the train shares over the rank, whatever the class order', () => {
  // counts not in class order: ranks = class 1 (1st), class 2 (2nd), class 0 (3rd)
  const s = setupFor([10, 60, 30]);
  const acc = [0.2, 0.9, 0.5];
  const { values } = aggregateEvolving(s, statsFromAcc(acc));
  // q^trn = [0.1, 0.6, 0.3]; reversed over rank: rank1 (class 1) gets the rank-3 share 0.1, rank3 (class 0) gets 0.6
  close(values.acc_forward, 0.1 * 0.2 + 0.6 * 0.9 + 0.3 * 0.5);
  close(values.acc_backward, 0.6 * 0.2 + 0.1 * 0.9 + 0.3 * 0.5);
});

// Slow reference of the expected protocol, straight from the definition in docs/metrics/classification.md.
function referenceEvolving(counts: number[], acc: number[], rhoIn: number | undefined, T: number) {
  const C = counts.length;
  const N = counts.reduce((a, b) => a + b, 0);
  const qtrn = counts.map((n) => n / N);
  const rank = counts.map((n, c) => 1 + counts.filter((m, d) => m > n || (m === n && d < c)).length);
  const rho = rhoIn === undefined ? Math.max(...counts) / Math.min(...counts) : rhoIn < 1 ? 1 / rhoIn : rhoIn;
  const pts: { d: number; v: number; t: number }[] = [];
  for (let t = 1; t <= T; t++) {
    const alpha = ((t - 1) * C) / T + 1;
    const raw = rank.map((r) => Math.pow(rho, -Math.abs(r - alpha) / (C - 1)));
    const z = raw.reduce((a, b) => a + b, 0);
    const q = raw.map((x) => x / z);
    let d = 0;
    for (let c = 0; c < C; c++) d += qtrn[c] * Math.log(qtrn[c] / q[c]) + q[c] * Math.log(q[c] / qtrn[c]);
    pts.push({ d, v: q.reduce((s, qc, c) => s + qc * acc[c], 0), t });
  }
  const V = pts.map((p) => p.v);
  const avg = V.reduce((a, b) => a + b, 0) / T;
  const sorted = [...pts].sort((a, b) => a.d - b.d || a.t - b.t);
  let area = 0;
  for (let k = 0; k + 1 < T; k++) area += ((sorted[k].v + sorted[k + 1].v) * (sorted[k + 1].d - sorted[k].d)) / 2;
  const back = counts.map((_, c) => qtrn[rank.indexOf(C + 1 - rank[c])]);
  return {
    shift_auc: area / (sorted[T - 1].d - sorted[0].d),
    shift_avg: avg,
    shift_std: Math.sqrt(V.reduce((s, v) => s + (v - avg) ** 2, 0) / T),
    shift_max: Math.max(...V),
    shift_min: Math.min(...V),
    shift_dr: (Math.max(...V) - Math.min(...V)) / Math.max(...V),
    btd: acc.reduce((a, b) => a + b, 0) / C,
    acc_forward: qtrn.reduce((s, q, c) => s + q * acc[c], 0),
    acc_uniform: acc.reduce((a, b) => a + b, 0) / C,
    acc_backward: back.reduce((s, q, c) => s + q * acc[c], 0),
  };
}

test('evolving aggregate = slow reference on random inputs (ties in counts, ρ given/default, T ≠ C)', () => {
  const rng = createRng(5);
  for (let rep = 0; rep < 10; rep++) {
    const C = 2 + rng.int(20);
    const counts = Array.from({ length: C }, () => 1 + rng.int(rep % 3 === 0 ? 4 : 500));
    const acc = Array.from({ length: C }, () => rng.next());
    const rho = rep % 2 === 0 ? undefined : [0.01, 10, 0.1, 50][rep % 4];
    const T = rep % 3 === 1 ? 7 : C;
    const s = setupFor(counts, { imbalanceRatio: rho, T });
    const fast = aggregateEvolving(s, statsFromAcc(acc)).values;
    const ref = referenceEvolving(counts, acc, rho, T);
    for (const [k, v] of Object.entries(ref)) {
      if (!Number.isFinite(v)) assert.equal(fast[k], null, `rep ${rep} ${k}`);
      else close(fast[k], v, 1e-9, `rep ${rep} ${k}`);
    }
  }
});

test('unavailable: a class without test rows or with n_c = 0, or a single class', () => {
  const classes = classNames(3);
  const train = trainDistributionFromValues([5, 3, 0], classes, 'trainCounts', config());
  const a = prepareEvolving(train, classes, [4, 4, 4]);
  assert.ok('unavailable' in a && /class "2" has train count 0/.test(a.unavailable));
  const train2 = trainDistributionFromValues([5, 3, 1], classes, 'trainCounts', config());
  const b = prepareEvolving(train2, classes, [4, 0, 4]);
  assert.ok('unavailable' in b && /class "1" has no test rows/.test(b.unavailable));
  const one = prepareEvolving(trainDistributionFromValues([5], ['x'], 'trainCounts', config()), ['x'], [3]);
  assert.ok('unavailable' in one);
});

test('sampled protocol: N^tst and N_c by Eq. 3, seeded and reproducible, close to the expected protocol', () => {
  const rng = createRng(3);
  const d = randomData(rng, 2000, 5);
  const prep = prepareClassification(d);
  const stats = aggregateClassification(prep).stats;
  const testRows = Array.from(stats.support);
  const train = trainDistributionFromValues([400, 200, 100, 50, 25], d.classes, 'trainCounts', config());
  const mk = (seed: number) => {
    const s = prepareEvolving(train, d.classes, testRows, { protocol: 'sampled', seed });
    if ('unavailable' in s) throw new Error();
    return s;
  };
  const s = mk(1);
  const nMax = Math.max(...testRows);
  assert.equal(s.sampled!.nMax, nMax);
  // ρ = 400/25 = 16; N^tst = Σ_{r=1..5} N_max·16^{−(r−1)/4} = N_max·(1 + 1/2 + 1/4 + 1/8 + 1/16)
  close(s.sampled!.nTest, nMax * (1 + 1 / 2 + 1 / 4 + 1 / 8 + 1 / 16));
  for (let k = 0; k < s.qTest.length; k++) assert.equal(s.sampled!.sizes[k], Math.round(s.sampled!.nTest * s.qTest[k]));
  const classRows = rowsByClass(prep);
  const a = aggregateEvolving(s, stats, { prep, classRows });
  const b = aggregateEvolving(mk(1), stats, { prep, classRows });
  assert.deepEqual(a.V, b.V); // same seed, same numbers
  const c = aggregateEvolving(mk(2), stats, { prep, classRows });
  assert.notDeepEqual(a.V, c.V);
  const expected = aggregateEvolving({ ...s, protocol: 'expected' }, stats);
  // 5 draws of ~1.9·N_max rows each: the sampled V_t stay within a few points of the expected V_t
  for (let t = 0; t < s.T; t++)
    assert.ok(Math.abs(a.V[t] - expected.V[t]) < 0.03, `t=${t}: ${a.V[t]} vs ${expected.V[t]}`);
  // deterministic parts do not depend on the protocol
  close(a.values.btd, expected.values.btd);
});

test('sampled protocol with multiplicities never draws a row of multiplicity 0', () => {
  // class 0: rows 0 (correct) and 1 (wrong); class 1: rows 2 (correct), 3 (wrong)
  const d = makeData({ classes: classNames(2), labels: [0, 0, 1, 1], preds: [0, 1, 1, 0] });
  const prep = prepareClassification(d);
  const train = trainDistributionFromValues([3, 1], d.classes, 'trainCounts', config());
  const s = prepareEvolving(train, d.classes, [2, 2], { protocol: 'sampled' });
  if ('unavailable' in s) throw new Error();
  const counts = Float64Array.from([2, 0, 1, 0]); // only correct rows in the resample
  const r = aggregateEvolving(s, aggregateClassification(prep, counts).stats, {
    prep,
    classRows: rowsByClass(prep),
    counts,
  });
  assert.deepEqual(Array.from(r.V), [1, 1]);
});

test('logGamma against known values; binomialDraw matches the exact pmf', () => {
  close(logGamma(1), 0, 1e-13);
  close(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-13);
  close(logGamma(10), Math.log(362880), 1e-13);
  close(logGamma(171), 706.5730622457874, 1e-13);
  const rng = createRng(17);
  for (const [N, p] of [
    [40, 0.37],
    [2000, 0.8],
    [500, 0.02],
  ] as const) {
    const draws = 20000;
    const hist = new Map<number, number>();
    let sum = 0;
    let sq = 0;
    for (let b = 0; b < draws; b++) {
      const k = binomialDraw(rng, N, p);
      assert.ok(Number.isInteger(k) && k >= 0 && k <= N);
      hist.set(k, (hist.get(k) ?? 0) + 1);
      sum += k;
      sq += k * k;
    }
    const mean = sum / draws;
    const v = sq / draws - mean * mean;
    // mean within 5 standard errors, variance within 5%
    assert.ok(Math.abs(mean - N * p) < 5 * Math.sqrt((N * p * (1 - p)) / draws), `N=${N} mean ${mean}`);
    assert.ok(Math.abs(v / (N * p * (1 - p)) - 1) < 0.05, `N=${N} var ${v}`);
    // the modal outcome's frequency vs its exact probability
    const mode = Math.floor((N + 1) * p);
    const pm = Math.exp(
      logGamma(N + 1) - logGamma(mode + 1) - logGamma(N - mode + 1) + mode * Math.log(p) + (N - mode) * Math.log(1 - p),
    );
    const f = (hist.get(mode) ?? 0) / draws;
    assert.ok(Math.abs(f - pm) < 5 * Math.sqrt((pm * (1 - pm)) / draws), `N=${N} mode freq ${f} vs ${pm}`);
  }
  assert.equal(binomialDraw(rng, 10, 0), 0);
  assert.equal(binomialDraw(rng, 10, 1), 10);
});

test('sampled protocol with a weight column draws rows (weights all 1 ≈ the unweighted protocol)', () => {
  const rng = createRng(23);
  const d = randomData(rng, 1500, 4);
  const ones = { ...d, weights: new Float64Array(d.n).fill(1) };
  const train = trainDistributionFromValues([300, 100, 30, 10], d.classes, 'trainCounts', config());
  const run = (data: typeof d) => {
    const prep = prepareClassification(data);
    const stats = aggregateClassification(prep).stats;
    const s = prepareEvolving(train, d.classes, Array.from(stats.support), { protocol: 'sampled', seed: 4 });
    if ('unavailable' in s) throw new Error();
    return {
      r: aggregateEvolving(s, stats, { prep, classRows: rowsByClass(prep) }),
      e: aggregateEvolving({ ...s, protocol: 'expected' }, stats),
    };
  };
  const a = run(d);
  const b = run(ones);
  for (let t = 0; t < a.r.V.length; t++) {
    assert.ok(Math.abs(a.r.V[t] - a.e.V[t]) < 0.03);
    assert.ok(Math.abs(b.r.V[t] - b.e.V[t]) < 0.03);
  }
  assert.notDeepEqual(a.r.V, b.r.V); // different paths (binomial vs row draws), same distribution
});

test('sampled protocol: shiftTestSize sets N_max (hand-computed N^tst and N_c), else the largest class count', () => {
  // C = 3, train counts 40/20/10 (ranks 1, 2, 3; ρ = 40/10 = 4), T = 3: α_t = 1, 2, 3.
  const classes = classNames(3);
  const train = trainDistributionFromValues([40, 20, 10], classes, 'trainCounts', config());
  const testRows = [7, 5, 3];
  const s = prepareEvolving(train, classes, testRows, { protocol: 'sampled', testSize: 10 });
  if ('unavailable' in s) throw new Error(s.unavailable);
  assert.equal(s.sampled!.nMax, 10);
  assert.equal(s.sampled!.nMaxConfigured, true);
  // N^tst = Σ_{r=1..3} N_max·4^{−(r−1)/2} = 10·(1 + 1/2 + 1/4) = 17.5
  close(s.sampled!.nTest, 17.5);
  // α = 1: weights 1, 1/2, 1/4 → q = 4/7, 2/7, 1/7 → N_c = round(10, 5, 2.5) = 10, 5, 3 (half up)
  // α = 2: weights 1/2, 1, 1/2 → q = 1/4, 1/2, 1/4 → round(4.375, 8.75, 4.375) = 4, 9, 4
  // α = 3: weights 1/4, 1/2, 1 → q = 1/7, 2/7, 4/7 → 3, 5, 10
  assert.deepEqual(Array.from(s.sampled!.sizes), [10, 5, 3, 4, 9, 4, 3, 5, 10]);
  // Without it: N_max = max test rows of a class = 7, N^tst = 7·1.75 = 12.25
  const d = prepareEvolving(train, classes, testRows, { protocol: 'sampled' });
  if ('unavailable' in d) throw new Error(d.unavailable);
  assert.equal(d.sampled!.nMax, 7);
  assert.equal(d.sampled!.nMaxConfigured, false);
  close(d.sampled!.nTest, 12.25);
});
