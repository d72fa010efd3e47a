/**
 * Evolving test distributions (docs/metrics/classification.md; Fang et al. 2023,
 * arXiv:2302.01507).
 *
 * A series of T synthetic test distributions q^tst(α_t) peaked at class rank α_t; the accuracy V_t
 * under each, its shift δ_t from the train distribution, and summaries: `shift_avg`, `shift_std`,
 * `shift_max`, `shift_min`, `shift_dr`, `shift_auc`, `btd` = `acc_uniform`, `acc_forward`,
 * `acc_backward`.
 *
 * Split for the bootstrap: {@link prepareEvolving} fixes everything that does not depend on the test
 * rows (q^tst, δ, JS, sample sizes); {@link aggregateEvolving} takes per-class sums (expected
 * protocol, O(T·C)) or, for the `sampled` protocol, the prepared rows and multiplicities.
 *
 * References:
 * - C. Fang, D. Zhang, W. Zheng, X. Li, L. Yang, L. Cheng, J. Han (2023). Revisiting Long-tailed Image
 *   Classification: Survey and Benchmarks with New Evaluation Metrics. arXiv preprint 2302.01507.
 *   https://arxiv.org/abs/2302.01507
 *
 * @see docs/metrics/classification.md — the definitions, conventions and worked examples.
 */
import type { ClassStats, PreparedClassification } from './classification';
import type { TrainDistribution } from './trainDistribution';
import { createRng, type Rng } from '../stats/rng';

export type ShiftProtocol = 'expected' | 'sampled';

/** Draws per synthetic test set under the `sampled` protocol (the paper's "five replaceable samplings"). */
export const SAMPLED_DRAWS = 5;

export interface EvolvingOptions {
  /** `imbalanceRatio` ρ (a value below 1 means 1/ρ). Default: the train ratio max n_c / min n_c. */
  imbalanceRatio?: number;
  /** Number of synthetic test sets T. Default C. */
  T?: number;
  protocol?: ShiftProtocol;
  /** Seed of the `sampled` protocol (`config.bootstrap.seed`). Default 0. */
  seed?: number;
  /**
   * `N_max` of the `sampled` protocol (`shiftTestSize`): rows of the class at the peak of the
   * test distribution before scaling. Default: the largest number of test rows of a class.
   */
  testSize?: number;
}

export interface EvolvingSetup {
  C: number;
  T: number;
  /** ρ ≥ 1 as used. */
  rho: number;
  protocol: ShiftProtocol;
  seed: number;
  /** Train share q^trn per class (class order). */
  qTrain: Float64Array;
  /** 1-based train rank per class. */
  rank: Int32Array;
  /** Class at each rank (order[r-1]). */
  order: Int32Array;
  /** α_t, t = 1..T. */
  alpha: Float64Array;
  /** q^tst_c(α_t), row-major T×C in class order. */
  qTest: Float64Array;
  /** δ_t: symmetric KL divergence between q^trn and q^tst(α_t) (Fang et al. call it a JS divergence; their formula has a stray minus sign). */
  delta: Float64Array;
  /** The true Jensen–Shannon divergence (natural log) between the same two distributions. */
  js: Float64Array;
  /** Indices t (0-based) sorted by δ ascending, stable. */
  byDelta: Int32Array;
  /**
   * Sampled protocol only: N^tst, N_max (and whether it was configured: `shiftTestSize`), and N_c
   * per test set (row-major T×C, class order).
   */
  sampled?: { nTest: number; nMax: number; nMaxConfigured: boolean; sizes: Int32Array };
}

/** Why the family cannot be computed (a class with no test rows or n_c = 0, C < 2). */
export interface EvolvingUnavailable {
  unavailable: string;
}

/** ρ as used: `imbalanceRatio` (1/ρ when below 1), else max n_c / min n_c of the train distribution. */
export function effectiveRho(train: TrainDistribution, imbalanceRatio?: number): number {
  if (imbalanceRatio !== undefined) return imbalanceRatio < 1 ? 1 / imbalanceRatio : imbalanceRatio;
  let max = -Infinity;
  let min = Infinity;
  for (const q of train.shares) {
    if (q > max) max = q;
    if (q < min) min = q;
  }
  return max / min;
}

/**
 * q^tst over ranks 1..C for peak α: `q_r ∝ ρ^{−|r−α|/(C−1)}`, normalised.
 * @example C = 3, ρ = 4, α = 1: weights 1, 1/2, 1/4 → q = [4/7, 2/7, 1/7].
 */
export function testDistributionByRank(C: number, rho: number, alpha: number): Float64Array {
  const q = new Float64Array(C);
  let z = 0;
  for (let r = 1; r <= C; r++) {
    q[r - 1] = Math.pow(rho, -Math.abs(r - alpha) / (C - 1));
    z += q[r - 1];
  }
  for (let r = 0; r < C; r++) q[r] /= z;
  return q;
}

/** Σ_c (p_c − q_c)·ln(p_c/q_c) = KL(p‖q) + KL(q‖p); p, q > 0. */
export function symmetricKL(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let s = 0;
  for (let c = 0; c < p.length; c++) s += (p[c] - q[c]) * Math.log(p[c] / q[c]);
  return s;
}

/** Jensen–Shannon divergence with natural logs: ½KL(p‖m) + ½KL(q‖m), m = (p+q)/2 (terms with p_c = 0 are 0). */
export function jensenShannon(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let s = 0;
  for (let c = 0; c < p.length; c++) {
    const m = (p[c] + q[c]) / 2;
    if (p[c] > 0) s += 0.5 * p[c] * Math.log(p[c] / m);
    if (q[c] > 0) s += 0.5 * q[c] * Math.log(q[c] / m);
  }
  return s;
}

/**
 * Everything that does not depend on the test rows. Returns {@link EvolvingUnavailable} when the
 * family cannot be computed: C < 2, a class with n_c = 0, or a class without test rows
 * (`testRows[c]` = number of rows whose true class is c).
 *
 * Sampled protocol: `N_max` = `opts.testSize` (`shiftTestSize`; Fang et al. use 1,000 for CIFAR-10
 * and 100 for CIFAR-100), else the largest number of test rows of a class in the file (the paper's
 * N^tst_max is the per-class size of its source test set), `N^tst = Σ_{r=1..C} N_max·ρ^{−(r−1)/(C−1)}`
 * (the sampled test-set size), `N_c = round(N^tst·q^tst_c)` (half up).
 */
export function prepareEvolving(
  train: TrainDistribution,
  classes: string[],
  testRows: ArrayLike<number>,
  opts: EvolvingOptions = {},
): EvolvingSetup | EvolvingUnavailable {
  const C = classes.length;
  if (C < 2) return { unavailable: `it needs at least 2 classes, got ${C}` };
  const zeroTrain = classes.filter((_, c) => !(train.shares[c] > 0));
  if (zeroTrain.length > 0)
    return {
      unavailable: `class${zeroTrain.length > 1 ? 'es' : ''} ${names(zeroTrain)} ha${zeroTrain.length > 1 ? 've' : 's'} train count 0`,
    };
  const noRows = classes.filter((_, c) => !(testRows[c] > 0));
  if (noRows.length > 0)
    return {
      unavailable: `class${noRows.length > 1 ? 'es' : ''} ${names(noRows)} ha${noRows.length > 1 ? 've' : 's'} no test rows`,
    };
  const T = opts.T ?? C;
  const rho = effectiveRho(train, opts.imbalanceRatio);
  const protocol = opts.protocol ?? 'expected';
  const qTrain = train.shares;
  const alpha = new Float64Array(T);
  const qTest = new Float64Array(T * C);
  const delta = new Float64Array(T);
  const js = new Float64Array(T);
  const qt = new Float64Array(C);
  for (let t = 0; t < T; t++) {
    const a = (t * C) / T + 1;
    alpha[t] = a;
    const byRank = testDistributionByRank(C, rho, a);
    for (let c = 0; c < C; c++) qt[c] = byRank[train.rank[c] - 1];
    qTest.set(qt, t * C);
    delta[t] = symmetricKL(qTrain, qt);
    js[t] = jensenShannon(qTrain, qt);
  }
  const byDelta = Int32Array.from(Array.from({ length: T }, (_, t) => t).sort((a, b) => delta[a] - delta[b] || a - b));
  const setup: EvolvingSetup = {
    C,
    T,
    rho,
    protocol,
    seed: opts.seed ?? 0,
    qTrain,
    rank: train.rank,
    order: train.order,
    alpha,
    qTest,
    delta,
    js,
    byDelta,
  };
  if (protocol === 'sampled') {
    let nMax = 0;
    for (let c = 0; c < C; c++) nMax = Math.max(nMax, testRows[c]);
    const nMaxConfigured = opts.testSize !== undefined;
    if (nMaxConfigured) nMax = opts.testSize!;
    let nTest = 0;
    for (let r = 1; r <= C; r++) nTest += nMax * Math.pow(rho, -(r - 1) / (C - 1));
    const sizes = new Int32Array(T * C);
    for (let k = 0; k < T * C; k++) sizes[k] = Math.round(nTest * qTest[k]);
    setup.sampled = { nTest, nMax, nMaxConfigured, sizes };
  }
  return setup;
}

function names(xs: string[]): string {
  const q = xs.map((x) => `"${x}"`);
  return q.length <= 8 ? q.join(', ') : `${q.slice(0, 8).join(', ')}, … (${q.length} in all)`;
}

/** Rows of each true class, for the sampled protocol. */
export function rowsByClass(prep: PreparedClassification): Int32Array[] {
  const sizes = new Int32Array(prep.C);
  for (let i = 0; i < prep.n; i++) sizes[prep.labels[i]]++;
  const out = Array.from(sizes, (s) => new Int32Array(s));
  const fill = new Int32Array(prep.C);
  for (let i = 0; i < prep.n; i++) {
    const y = prep.labels[i];
    out[y][fill[y]++] = i;
  }
  return out;
}

/** Row-level input of the sampled protocol. */
export interface SampledInput {
  prep: PreparedClassification;
  /** From {@link rowsByClass}(prep); pass it to avoid recomputing it per resample. */
  classRows: Int32Array[];
  /** Multiplicities of a bootstrap resample (null = each row once). */
  counts?: ArrayLike<number> | null;
}

export interface EvolvingAggregate {
  values: Record<string, number | null>;
  /** V_t, t = 1..T (NaN where undefined). */
  V: Float64Array;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; relative error ~1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  x -= 1;
  let a = c[0];
  const t = x + g + 0.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/**
 * One draw of Binomial(N, p) by inversion, searching outward from the mode (expected O(√(Np(1−p)))
 * steps); Bernoulli trials for N < 30. Uses `rng.next()` only.
 */
export function binomialDraw(rng: Rng, N: number, p: number): number {
  if (N <= 0 || p <= 0) return 0;
  if (p >= 1) return N;
  if (N < 30) {
    let k = 0;
    for (let j = 0; j < N; j++) if (rng.next() < p) k++;
    return k;
  }
  const mode = Math.min(N, Math.floor((N + 1) * p));
  const pm = Math.exp(
    logGamma(N + 1) - logGamma(mode + 1) - logGamma(N - mode + 1) + mode * Math.log(p) + (N - mode) * Math.log1p(-p),
  );
  const r = p / (1 - p);
  let u = rng.next() - pm;
  if (u < 0) return mode;
  let lo = mode;
  let hi = mode;
  let plo = pm;
  let phi = pm;
  for (;;) {
    if (hi < N) {
      phi = ((phi * (N - hi)) / (hi + 1)) * r;
      hi++;
      u -= phi;
      if (u < 0) return hi;
    }
    if (lo > 0) {
      plo = (plo * lo) / ((N - lo + 1) * r);
      lo--;
      u -= plo;
      if (u < 0) return lo;
    }
    if (hi >= N && lo <= 0) return mode; // rounding left u ≥ 0 after the whole support
  }
}

/**
 * V_t under the sampled protocol: for each t, {@link SAMPLED_DRAWS} draws; each draws N_c rows with
 * replacement from the rows of class c (a row's chance ∝ its multiplicity), and its accuracy is
 * Σ w·correct / Σ w over the drawn rows; V_t is the mean of the draws. The generator is
 * `createRng(seed)`, consumed in the order t, draw, class (class order), row.
 *
 * Without a weight column only the number of correct rows among the N_c drawn matters, and it is
 * Binomial(N_c, acc_c) with acc_c the (multiplicity-weighted) class accuracy: it is drawn directly
 * ({@link binomialDraw}), the same distribution at O(√N_c) instead of O(N_c) per class.
 */
function sampledV(setup: EvolvingSetup, input: SampledInput, stats: ClassStats): Float64Array {
  const { prep, classRows, counts } = input;
  const rng = createRng(setup.seed);
  if (!prep.weights) {
    const p = Array.from(stats.support, (s, c) => (s > 0 ? stats.correct[c] / s : NaN));
    return meanOfDraws(setup, (c, m, sums) => {
      if (Number.isNaN(p[c])) return false;
      sums[0] += binomialDraw(rng, m, p[c]);
      sums[1] += m;
      return true;
    });
  }
  // Cumulative multiplicities per class, for drawing a row ∝ its multiplicity.
  const cum: (Float64Array | null)[] = counts
    ? classRows.map((rows) => {
        const cs = new Float64Array(rows.length);
        let s = 0;
        for (let j = 0; j < rows.length; j++) {
          s += counts[rows[j]];
          cs[j] = s;
        }
        return cs;
      })
    : classRows.map(() => null);
  const weights = prep.weights;
  return meanOfDraws(setup, (c, m, sums) => {
    const rows = classRows[c];
    const cs = cum[c];
    const totalMult = cs ? cs[cs.length - 1] : rows.length;
    if (!(totalMult > 0)) return false;
    for (let j = 0; j < m; j++) {
      let i: number;
      if (cs) {
        const u = rng.next() * totalMult;
        let lo = 0;
        let hi = cs.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (cs[mid] > u) hi = mid;
          else lo = mid + 1;
        }
        i = rows[lo];
      } else i = rows[rng.int(rows.length)];
      sums[1] += weights[i];
      if (prep.correct[i]) sums[0] += weights[i];
    }
    return true;
  });
}

/**
 * V_t = the mean over {@link SAMPLED_DRAWS} draws of Σ num / Σ den, the sums over the classes (in
 * class order) with N_c > 0: `drawClass(c, N_c, sums)` adds class c's drawn rows to `sums[0]` (num)
 * and `sums[1]` (den), or returns false when the class has nothing to draw from (that draw's
 * accuracy is then NaN).
 */
function meanOfDraws(
  setup: EvolvingSetup,
  drawClass: (c: number, m: number, sums: Float64Array) => boolean,
): Float64Array {
  const { C, T } = setup;
  const sizes = setup.sampled!.sizes;
  const V = new Float64Array(T);
  const sums = new Float64Array(2);
  for (let t = 0; t < T; t++) {
    let sumAcc = 0;
    for (let d = 0; d < SAMPLED_DRAWS; d++) {
      sums[0] = 0;
      sums[1] = 0;
      for (let c = 0; c < C; c++) {
        const m = sizes[t * C + c];
        if (m === 0) continue;
        if (!drawClass(c, m, sums)) {
          sums[0] = NaN;
          break;
        }
      }
      sumAcc += sums[1] > 0 ? sums[0] / sums[1] : NaN;
    }
    V[t] = sumAcc / SAMPLED_DRAWS;
  }
  return V;
}

/**
 * Every evolving-distribution scalar. Expected protocol: `V_t = Σ_c q^tst_c(α_t)·acc_c` from the
 * per-class sums. Sampled protocol: needs `sampled` (rows and multiplicities).
 *
 * `shift_auc`: the V_t sorted by δ_t (stable), trapezoid over δ, divided by δ_last − δ_first
 * (null when that is 0, e.g. T = 1 or ρ = 1). `shift_dr` = (max − min)/max (null when max = 0).
 * `shift_std` is the population SD (divide by T). `btd` = `acc_uniform` = mean acc_c;
 * `acc_forward` = Σ q^trn_c acc_c; `acc_backward` = Σ q^trn_{c'} acc_c with c' the class at the
 * mirrored rank C + 1 − rank(c).
 */
export function aggregateEvolving(setup: EvolvingSetup, stats: ClassStats, sampled?: SampledInput): EvolvingAggregate {
  const { C, T, qTest, qTrain } = setup;
  const acc = new Float64Array(C);
  let accDefined = true;
  for (let c = 0; c < C; c++) {
    acc[c] = stats.support[c] > 0 ? stats.correct[c] / stats.support[c] : NaN;
    if (Number.isNaN(acc[c])) accDefined = false;
  }
  let V: Float64Array;
  if (setup.protocol === 'sampled') {
    if (!sampled) throw new Error('aggregateEvolving: the sampled protocol needs the prepared rows.');
    V = sampledV(setup, sampled, stats);
  } else {
    V = new Float64Array(T);
    for (let t = 0; t < T; t++) {
      let v = 0;
      for (let c = 0; c < C; c++) v += qTest[t * C + c] * acc[c];
      V[t] = v;
    }
  }
  const values: Record<string, number | null> = {};
  const finite = V.every((v) => Number.isFinite(v));
  if (finite) {
    let sum = 0;
    let max = -Infinity;
    let min = Infinity;
    for (const v of V) {
      sum += v;
      if (v > max) max = v;
      if (v < min) min = v;
    }
    const avg = sum / T;
    let ss = 0;
    for (const v of V) ss += (v - avg) * (v - avg);
    values.shift_auc = shiftAuc(setup, V);
    values.shift_avg = avg;
    values.shift_std = Math.sqrt(ss / T);
    values.shift_max = max;
    values.shift_min = min;
    values.shift_dr = max > 0 ? (max - min) / max : null;
  } else {
    for (const k of ['shift_auc', 'shift_avg', 'shift_std', 'shift_max', 'shift_min', 'shift_dr']) values[k] = null;
  }
  if (accDefined) {
    let uni = 0;
    let fwd = 0;
    let bwd = 0;
    for (let c = 0; c < C; c++) {
      uni += acc[c];
      fwd += qTrain[c] * acc[c];
      bwd += qTrain[setup.order[C - setup.rank[c]]] * acc[c];
    }
    values.btd = uni / C;
    values.acc_forward = fwd;
    values.acc_uniform = uni / C;
    values.acc_backward = bwd;
  } else {
    for (const k of ['btd', 'acc_forward', 'acc_uniform', 'acc_backward']) values[k] = null;
  }
  return { values, V };
}

/** shift_auc: trapezoid of V over δ (sorted ascending, stable) divided by δ_last − δ_first; null when that is 0. */
export function shiftAuc(setup: Pick<EvolvingSetup, 'delta' | 'byDelta'>, V: ArrayLike<number>): number | null {
  const o = setup.byDelta;
  const T = o.length;
  const span = setup.delta[o[T - 1]] - setup.delta[o[0]];
  if (!(span > 0)) return null;
  let area = 0;
  for (let k = 0; k + 1 < T; k++) area += ((V[o[k]] + V[o[k + 1]]) * (setup.delta[o[k + 1]] - setup.delta[o[k]])) / 2;
  return area / span;
}
