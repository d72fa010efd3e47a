/**
 * Risk–coverage curve and the areas under it (docs/metrics/selective.md), over {@link SortedRows}.
 *
 * Weighted form used throughout (so that a bootstrap resample, given as multiplicities, is the
 * same number as the resampled data set written out): every row p is `mult[p]` items (1 when
 * `mult` is absent), each of mass `w[p]` (1 without weights). A tied block with `m` items and mass
 * `W_b` is entered in `m` equal steps; after step j the block contributes the fraction j/m of every
 * one of its rows (the fractional-count rule). Each step has width `W_b/(m·W)` on the coverage
 * axis, and the AURC is the sum of width × risk after the step. With all weights and
 * multiplicities 1 this is `(1/n) Σ_{k=1..n} risk(top-k)`, and inside a tied block the standard
 * risk equals its expectation over the orders of the block.
 *
 * References:
 * - R. El-Yaniv, Y. Wiener (2010). On the Foundations of Noise-free Selective Classification. Journal of Machine
 *   Learning Research 11:1605–1641. https://jmlr.org/papers/v11/el-yaniv10a.html
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 * - Y. Geifman, G. Uziel, R. El-Yaniv (2019). Bias-Reduced Uncertainty Estimation for Deep Neural Classifiers.
 *   International Conference on Learning Representations (ICLR). https://arxiv.org/abs/1805.08206
 * - K. H. Brodersen, C. S. Ong, K. E. Stephan, J. M. Buhmann (2010). The balanced accuracy and its posterior
 *   distribution. Proc. 20th International Conference on Pattern Recognition (ICPR), 3121–3124.
 *   https://doi.org/10.1109/ICPR.2010.764
 * - S. Sagawa, P. W. Koh, T. B. Hashimoto, P. Liang (2020). Distributionally Robust Neural Networks for Group
 *   Shifts: On the Importance of Regularization for Worst-Case Generalization. International Conference on Learning
 *   Representations (ICLR). https://arxiv.org/abs/1911.08731
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
import { sharedZeros } from '../stats/sharedArrays';
import type { Multiplicities, SortedRows } from './sortedRows';

/** Error of a group with accepted mass `a` and error mass `e`; 1.0 for no accepted mass (nothing accepted counts as a total failure). */
export function groupError(e: number, a: number): number {
  return a > 0 ? e / a : 1.0;
}

/**
 * Point `k` of the balanced risk (the mean of the `G` groups' errors) and of the worst-group risk
 * (their maximum), from each group's error mass `gE` and accepted mass `gA`; NaN for both without groups.
 */
export function setGroupRisks(
  gE: Float64Array,
  gA: Float64Array,
  G: number,
  balanced: Float64Array,
  worst: Float64Array,
  k: number,
): void {
  if (G === 0) {
    balanced[k] = NaN;
    worst[k] = NaN;
    return;
  }
  let s = 0;
  let mx = -Infinity;
  for (let g = 0; g < G; g++) {
    const e = groupError(gE[g], gA[g]);
    s += e;
    if (e > mx) mx = e;
  }
  balanced[k] = s / G;
  worst[k] = mx;
}

export interface RiskCoverageCurve {
  /** The score of each point's block: accept every s ≥ threshold. */
  threshold: Float64Array;
  /** Accepted mass / total mass. */
  coverage: Float64Array;
  /** Error mass / accepted mass (NaN when the accepted mass is 0). */
  risk: Float64Array;
  /** Mean over groups of the group error (1.0 for a group with nothing accepted); NaN without groups. */
  riskBalanced: Float64Array;
  /** Max over groups of the group error; NaN without groups. */
  riskWorst: Float64Array;
}

/**
 * The exact risk–coverage curve: one point per distinct score (a tied block enters whole), in
 * order of decreasing threshold. O(n + blocks·G) after the sort. Blocks whose multiplicity is 0
 * are not points.
 *
 * With `points` (increasing point indices), only those points are returned, in that order, with
 * the same values as the whole curve has there: the results store a few thousand points of a curve
 * that has one per distinct score (about a million on a file of a million rows), and five arrays of
 * every point were the largest allocation after the sort.
 *
 * @example scores [0.9, 0.8, 0.8, 0.3], wrong [0, 1, 0, 1] →
 *   coverage [1/4, 3/4, 1], risk [0, 1/3, 2/4]; with points [0, 2]: coverage [1/4, 1], risk [0, 2/4].
 */
export function exactRiskCoverage(
  rows: SortedRows,
  mult: Multiplicities | null = null,
  points: ArrayLike<number> | null = null,
): RiskCoverageCurve {
  const { blockStart, wrong, group, nGroups: G } = rows;
  const w = rows.weight;
  const nb = blockStart.length - 1;
  let W = 0;
  for (let p = 0; p < rows.n; p++) W += (w ? w[p] : 1) * (mult ? mult[p] : 1);
  const len = points ? points.length : nb;
  const th = new Float64Array(len);
  const cov = new Float64Array(len);
  const risk = new Float64Array(len);
  const bal = new Float64Array(len);
  const worst = new Float64Array(len);
  let k = 0; // the curve's points so far
  let j = 0; // the points stored so far
  const gW = new Float64Array(G);
  const gE = new Float64Array(G);
  let W0 = 0;
  let E0 = 0;
  for (let b = 0; b < nb; b++) {
    let m = 0;
    for (let p = blockStart[b]; p < blockStart[b + 1]; p++) {
      const c = mult ? mult[p] : 1;
      if (c === 0) continue;
      m += c;
      const wm = (w ? w[p] : 1) * c;
      W0 += wm;
      if (wrong[p]) E0 += wm;
      const g = G > 0 ? group[p] : -1;
      if (g >= 0) {
        gW[g] += wm;
        if (wrong[p]) gE[g] += wm;
      }
    }
    if (m === 0) continue;
    if (!points || points[j] === k) {
      th[j] = rows.score[blockStart[b]];
      cov[j] = W0 / W;
      risk[j] = W0 > 0 ? E0 / W0 : NaN;
      setGroupRisks(gE, gW, G, bal, worst, j);
      j++;
    }
    k++;
  }
  return {
    threshold: th.subarray(0, j),
    coverage: cov.subarray(0, j),
    risk: risk.subarray(0, j),
    riskBalanced: bal.subarray(0, j),
    riskWorst: worst.subarray(0, j),
  };
}

export interface AurcValues {
  /** Mean standard risk over the steps (fractional counts in tied blocks). */
  aurc: number;
  /** `aurc*`: the AURC of the order that accepts every correct row first. */
  aurcOptimal: number;
  /** `aurc − aurc*`. */
  eaurc: number;
  /** The same area for the balanced risk (NaN without groups). */
  aurcBalanced: number;
  /** The same area for the worst-group risk (NaN without groups). */
  aurcWorst: number;
}

/**
 * `aurc`, `eaurc`, `aurc_balanced`, `aurc_worst` in one pass over the sorted rows. O(n·G) worst case
 * (O(n + blocks·G) when groups are few). NaN when the total mass is 0.
 *
 * `aurc* = (1/W) Σ_{j=1..m_w} (E/m_w)·(E·j/m_w)/(W − E + E·j/m_w)`, with E the wrong mass and m_w the
 * wrong items: the correct rows first (risk 0), then the wrong rows as one block. Unweighted this is
 * `(1/n) Σ_{k=1..n} max(0, k − (n − r))/k` (Geifman, Uziel & El-Yaniv 2019), whatever order the wrong rows take.
 *
 * @example scores [0.9, 0.8, 0.8, 0.3], wrong [0, 1, 0, 1]:
 *   aurc = (0/1 + (0 + 1/2)/2 + 1/3 + 2/4)/4 = 13/48; aurc* = (1/3 + 2/4)/4 = 5/24; eaurc = 1/16.
 */
export function aurcValues(rows: SortedRows, mult: Multiplicities | null = null): AurcValues {
  const G = rows.nGroups;
  if (G === 0 && rows.weight === null && mult !== null) return aurcUnitMass(rows, mult);
  const acc = new AurcAccumulator(G);
  const st = new Float64Array(7);
  // Hot loop kept small and monomorphic: V8 deoptimises a function mid-loop when it first meets a
  // branch it has never run, so the rare tied-block path lives in its own method.
  const bs = rows.blockStart;
  const wrong = rows.wrong;
  const group = rows.group;
  const w = rows.weight;
  const gW = acc.gW;
  const gE = acc.gE;
  const gErr = acc.gErr;
  const nb = bs.length - 1;
  let W0 = 0;
  let E0 = 0;
  let aurc = 0;
  let aBal = 0;
  let aWorst = 0;
  let sumErr = G;
  let wrongItems = 0;
  for (let b = 0; b < nb; b++) {
    const p0 = bs[b];
    const c = mult === null ? 1 : mult[p0];
    if (bs[b + 1] - p0 !== 1) {
      // state through a Float64Array: reading object fields back would box the loop's doubles
      st[0] = W0;
      st[1] = E0;
      st[2] = aurc;
      st[3] = aBal;
      st[4] = aWorst;
      st[5] = sumErr;
      st[6] = wrongItems;
      acc.block(rows, mult, p0, bs[b + 1], st);
      W0 = st[0];
      E0 = st[1];
      aurc = st[2];
      aBal = st[3];
      aWorst = st[4];
      sumErr = st[5];
      wrongItems = st[6];
      continue;
    }
    if (c === 0) continue;
    // one row drawn c times: c items of mass wm each (a tie of c copies: steps j/c of the row)
    const wm = w === null ? 1 : w[p0];
    const isWrong = wrong[p0] === 1;
    const em = isWrong ? wm : 0;
    if (isWrong) wrongItems += c;
    const g = G > 0 ? group[p0] : -1;
    if (wm > 0) {
      for (let j = 1; j <= c; j++) {
        const Wj = W0 + wm * j;
        aurc += (wm * (E0 + em * j)) / Wj;
        if (G > 0) {
          if (g >= 0) {
            const e = (gE[g] + em * j) / (gW[g] + wm * j);
            sumErr += e - gErr[g];
            gErr[g] = e;
          }
          let mx = gErr[0];
          for (let k = 1; k < G; k++) if (gErr[k] > mx) mx = gErr[k];
          aBal += (wm * sumErr) / G;
          aWorst += wm * mx;
        }
      }
    }
    W0 += wm * c;
    E0 += em * c;
    if (g >= 0) {
      gW[g] += wm * c;
      gE[g] += em * c;
      if (gW[g] > 0) {
        const e = gE[g] / gW[g];
        sumErr += e - gErr[g];
        gErr[g] = e;
      }
    }
  }
  const W = W0;
  if (!(W > 0)) return { aurc: NaN, aurcOptimal: NaN, eaurc: NaN, aurcBalanced: NaN, aurcWorst: NaN };
  const opt = optimalAurc(W, E0, wrongItems);
  const a = aurc / W;
  return {
    aurc: a,
    aurcOptimal: opt,
    eaurc: a - opt,
    aurcBalanced: G > 0 ? aBal / W : NaN,
    aurcWorst: G > 0 ? aWorst / W : NaN,
  };
}

let harmonicTable = new Float64Array(1);

/**
 * H[k] = Σ_{j=1..k} 1/j for k = 0..size (memoised; only grows). In shared memory, so that the
 * bootstrap threads can read this thread's table (walkTables.ts) instead of making their own.
 */
export function harmonic(size: number): Float64Array {
  if (harmonicTable.length <= size) {
    const h = sharedZeros(Float64Array, size + 1);
    h.set(harmonicTable);
    for (let k = harmonicTable.length; k <= size; k++) h[k] = h[k - 1] + 1 / k;
    harmonicTable = h;
  }
  return harmonicTable;
}

/**
 * `aurc` / `aurc*` / `eaurc` with unit masses (no sample weights, integer multiplicities, no groups),
 * the common bootstrap case, without a per-item loop or data-dependent branch: a block of m items
 * with e wrong entered after K items with E wrong adds Σ_{j=1..m} (E + e·j/m)/(K + j) =
 * E·ΔH + (e/m)·(m − K·ΔH), ΔH = H[K+m] − H[K]. Agrees with the general loop to about 1e-10
 * (the harmonic differences lose a few digits), which is far below any bootstrap interval's width.
 */
function aurcUnitMass(rows: SortedRows, mult: Multiplicities): AurcValues {
  const bs = rows.blockStart;
  const wrong = rows.wrong;
  const nb = bs.length - 1;
  let N = 0;
  for (let p = 0; p < rows.n; p++) N += mult[p];
  if (!(N > 0)) return { aurc: NaN, aurcOptimal: NaN, eaurc: NaN, aurcBalanced: NaN, aurcWorst: NaN };
  const H = harmonic(N);
  let K = 0;
  let E = 0;
  let sum = 0;
  for (let b = 0; b < nb; b++) {
    const p0 = bs[b];
    let m: number;
    let e: number;
    if (bs[b + 1] - p0 === 1) {
      m = mult[p0];
      e = wrong[p0] * m;
    } else {
      m = 0;
      e = 0;
      for (let p = p0; p < bs[b + 1]; p++) {
        m += mult[p];
        e += wrong[p] * mult[p];
      }
      if (m === 0) continue;
    }
    const dH = H[K + m] - H[K];
    sum += E * dH + (m > 0 ? (e / m) * (m - K * dH) : 0);
    K += m;
    E += e;
  }
  const a = sum / N;
  const opt = optimalAurc(N, E, E);
  return { aurc: a, aurcOptimal: opt, eaurc: a - opt, aurcBalanced: NaN, aurcWorst: NaN };
}

/** Running sums of {@link aurcValues}, and the general step: a tied block, or a row drawn c > 1 times. */
class AurcAccumulator {
  readonly gW: Float64Array;
  readonly gE: Float64Array;
  readonly gErr: Float64Array;
  readonly bW: Float64Array;
  readonly bE: Float64Array;
  readonly touchedFlag: Uint8Array;
  readonly touched: Int32Array;
  /** [items, mass, wrong mass] of the block being entered (see {@link tiedBlockSteps}). */
  private readonly sums = new Float64Array(3);

  constructor(readonly G: number) {
    this.gW = new Float64Array(G);
    this.gE = new Float64Array(G);
    this.gErr = new Float64Array(G).fill(1);
    this.bW = new Float64Array(G);
    this.bE = new Float64Array(G);
    this.touchedFlag = new Uint8Array(G);
    this.touched = new Int32Array(G);
  }

  /**
   * Enters sorted positions [from, to) as one tied block with the fractional-count rule; `st` holds
   * [W0, E0, aurc, aBal, aWorst, sumErr, wrongItems] and is updated.
   */
  block(rows: SortedRows, mult: Multiplicities | null, from: number, to: number, st: Float64Array): void {
    const { G, gW, gE, gErr, bW, bE, touchedFlag, touched, sums } = this;
    const nTouched = tiedBlockSteps(rows, mult, from, to, st, this, true, sums);
    if (sums[0] === 0) return;
    const Wb = sums[1];
    const Eb = sums[2];
    st[0] += Wb;
    st[1] += Eb;
    for (let t = 0; t < nTouched; t++) {
      const g = touched[t];
      gW[g] += bW[g];
      gE[g] += bE[g];
      gErr[g] = groupError(gE[g], gW[g]);
      bW[g] = 0;
      bE[g] = 0;
      touchedFlag[g] = 0;
    }
    if (nTouched > 0) {
      let s = 0;
      for (let g = 0; g < G; g++) s += gErr[g];
      st[5] = s; // re-anchor: no drift
    }
  }
}

/** Per-group running sums and the scratch of the block being entered, as {@link tiedBlockSteps} uses them. */
export interface TiedBlockScratch {
  /** Accepted mass and wrong mass per group before the block. */
  readonly gW: Float64Array;
  readonly gE: Float64Array;
  /** Error per group, updated in place step by step. */
  readonly gErr: Float64Array;
  /** The block's mass and wrong mass per group; left filled for the caller, which clears them. */
  readonly bW: Float64Array;
  readonly bE: Float64Array;
  /** The groups the block touches, `touchedFlag[g]` = 1 for each; left set for the caller. */
  readonly touched: Int32Array;
  readonly touchedFlag: Uint8Array;
}

/**
 * The AURC steps of one tied block [from, to) by the fractional-count rule: the block's m items enter
 * as m equal steps of mass Wb/m whose risk is read at the fractions f = j/m of the block's sums. The
 * one implementation behind the plain metric ({@link aurcValues}) and the resampling fast path.
 * `st` holds [W0, E0, aurc, aBal, aWorst, sumErr, wrongItems] at the block's start; aurc, aBal,
 * aWorst, sumErr and wrongItems are updated, W0 and E0 are left for the caller to advance. With
 * `balancedPerStep` each balanced step is divided by the group count as it is added (the plain
 * metric's order of operations); without, the caller divides the total once (the fast path's order).
 * Writes [m, Wb, Eb] into `sums` and returns how many groups the block touches.
 */
export function tiedBlockSteps(
  rows: SortedRows,
  mult: Multiplicities | Uint8Array | null,
  from: number,
  to: number,
  st: Float64Array,
  scratch: TiedBlockScratch,
  balancedPerStep: boolean,
  sums: Float64Array,
): number {
  const { wrong, group, nGroups: G } = rows;
  const w = rows.weight;
  const { gW, gE, gErr, bW, bE, touchedFlag, touched } = scratch;
  let nTouched = 0;
  let m = 0;
  let Wb = 0;
  let Eb = 0;
  for (let p = from; p < to; p++) {
    const c = mult === null ? 1 : mult[p];
    if (c === 0) continue;
    m += c;
    const wm = (w === null ? 1 : w[p]) * c;
    Wb += wm;
    const isWrong = wrong[p] === 1;
    if (isWrong) {
      Eb += wm;
      st[6] += c;
    }
    const g = G > 0 ? group[p] : -1;
    if (g >= 0) {
      if (!touchedFlag[g]) {
        touchedFlag[g] = 1;
        touched[nTouched++] = g;
      }
      bW[g] += wm;
      if (isWrong) bE[g] += wm;
    }
  }
  sums[0] = m;
  sums[1] = Wb;
  sums[2] = Eb;
  if (m === 0) return nTouched;
  const step = Wb / m;
  if (step > 0) {
    const W0 = st[0];
    const E0 = st[1];
    // the running sums in locals (registers) through the steps, written back once
    let aurc = st[2];
    let aBal = st[3];
    let aWorst = st[4];
    let sumErr = st[5];
    for (let j = 1; j <= m; j++) {
      const f = j / m;
      aurc += (step * (E0 + Eb * f)) / (W0 + Wb * f);
      if (G > 0) {
        for (let t = 0; t < nTouched; t++) {
          const g = touched[t];
          const e = groupError(gE[g] + bE[g] * f, gW[g] + bW[g] * f);
          sumErr += e - gErr[g];
          gErr[g] = e;
        }
        aBal += balancedPerStep ? (step * sumErr) / G : step * sumErr;
        aWorst += step * maxOf(gErr);
      }
    }
    st[2] = aurc;
    st[3] = aBal;
    st[4] = aWorst;
    st[5] = sumErr;
  }
  return nTouched;
}

/** `aurc*` for total mass W, wrong mass E spread over `wrongItems` equal steps (see {@link aurcValues}). */
export function optimalAurc(W: number, E: number, wrongItems: number): number {
  if (!(W > 0)) return NaN;
  if (wrongItems === 0 || E === 0) return 0;
  const step = E / wrongItems;
  const Wc = W - E;
  let s = 0;
  for (let j = 1; j <= wrongItems; j++) {
    const e = step * j;
    s += e / (Wc + e);
  }
  return (s * step) / W;
}

function maxOf(a: Float64Array): number {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  return m;
}

export interface Grid101Values {
  /** Trapezoid of the standard risk over the accepted fraction, 101 grid points. */
  standard: number;
  /** Points with x ≥ 0.2 only, divided by 0.8. */
  standardFrom02: number;
  balanced: number;
  balancedFrom02: number;
  worst: number;
  worstFrom02: number;
}

/** Number of evenly spaced coverages of the grid AURC keys (`*_grid101`). */
export const GRID_POINTS = 101;

/**
 * The 101-point grid AURC, the discretisation common in selective-classification code:
 * for i = 1..101 accept the first `int(N·(i/101))` items of the stable descending sort (computed in
 * floating point as `int(N * (i/101))`, which for some N, i is one
 * less than the exact floor(N·i/101), e.g. N = 101, i = 29 → 28), x = accepted mass / total mass,
 * risk on the accepted items (a group with nothing accepted has error 1.0), `np.trapz(risk, x)`;
 * the `_0.2_1` variant keeps the points with x ≥ 0.2 and divides by 0.8.
 * A row with multiplicity c is c consecutive items (so a cut may take part of its copies).
 * Returns null when N < 101 (the first grid points would accept no row). Balanced/worst are NaN
 * without groups.
 */
export function aurcGrid101(rows: SortedRows, mult: Multiplicities | null = null): Grid101Values | null {
  const g = grid101Points(rows, mult);
  if (!g) return null;
  const { xs, rStd, rBal, rWorst } = g;
  return {
    standard: trapz(rStd, xs, 0),
    standardFrom02: trapzFrom(rStd, xs, 0.2),
    balanced: trapz(rBal, xs, 0),
    balancedFrom02: trapzFrom(rBal, xs, 0.2),
    worst: trapz(rWorst, xs, 0),
    worstFrom02: trapzFrom(rWorst, xs, 0.2),
  };
}

/** The 101 points of the grid AURC (see {@link aurcGrid101}). */
export interface Grid101Points {
  /** Items accepted at each point: int(N·(i/101)), i = 1..101. */
  accepted: Float64Array;
  /** Accepted mass / total mass. */
  xs: Float64Array;
  /** Standard, balanced and worst-group risk (NaN: nothing accepted, or no groups). */
  rStd: Float64Array;
  rBal: Float64Array;
  rWorst: Float64Array;
}

/** The grid points behind {@link aurcGrid101} (null when N < 101). */
export function grid101Points(rows: SortedRows, mult: Multiplicities | null = null): Grid101Points | null {
  const { wrong, group, nGroups: G } = rows;
  const w = rows.weight;
  const n = rows.n;
  let N = 0;
  let W = 0;
  for (let p = 0; p < n; p++) {
    const c = mult ? mult[p] : 1;
    N += c;
    W += (w ? w[p] : 1) * c;
  }
  if (N < GRID_POINTS) return null;
  const accepted = new Float64Array(GRID_POINTS);
  const xs = new Float64Array(GRID_POINTS);
  const rStd = new Float64Array(GRID_POINTS);
  const rBal = new Float64Array(GRID_POINTS);
  const rWorst = new Float64Array(GRID_POINTS);
  const gW = new Float64Array(G);
  const gE = new Float64Array(G);
  let cumN = 0;
  let cumW = 0;
  let cumE = 0;
  let p = 0;
  for (let i = 1; i <= GRID_POINTS; i++) {
    const k = Math.floor(N * (i / GRID_POINTS));
    accepted[i - 1] = k;
    // take whole rows while they fit
    while (p < n) {
      const c = mult ? mult[p] : 1;
      if (cumN + c > k) break;
      if (c > 0) {
        const wm = (w ? w[p] : 1) * c;
        cumN += c;
        cumW += wm;
        const g = G > 0 ? group[p] : -1;
        if (wrong[p]) cumE += wm;
        if (g >= 0) {
          gW[g] += wm;
          if (wrong[p]) gE[g] += wm;
        }
      }
      p++;
    }
    // a part of the next row's copies
    const part = k - cumN;
    let aW = cumW;
    let aE = cumE;
    let pg = -1;
    let pW = 0;
    let pE = 0;
    if (part > 0) {
      pW = (w ? w[p] : 1) * part;
      pE = wrong[p] ? pW : 0;
      aW += pW;
      aE += pE;
      pg = G > 0 ? group[p] : -1;
    }
    xs[i - 1] = aW / W;
    rStd[i - 1] = aW > 0 ? aE / aW : NaN;
    if (G > 0) {
      let s = 0;
      let mx = -Infinity;
      for (let g = 0; g < G; g++) {
        const e = g === pg ? groupError(gE[g] + pE, gW[g] + pW) : groupError(gE[g], gW[g]);
        s += e;
        if (e > mx) mx = e;
      }
      rBal[i - 1] = s / G;
      rWorst[i - 1] = mx;
    } else {
      rBal[i - 1] = NaN;
      rWorst[i - 1] = NaN;
    }
  }
  return { accepted, xs, rStd, rBal, rWorst };
}

/** `np.trapz(y[from:], x[from:])`. */
export function trapz(y: ArrayLike<number>, x: ArrayLike<number>, from: number): number {
  let s = 0;
  for (let i = from + 1; i < x.length; i++) s += ((x[i] - x[i - 1]) * (y[i] + y[i - 1])) / 2;
  return s;
}

/** The grid AURC restricted to coverage ≥ lo, on a monotone x: trapz over the points with x ≥ lo, / (1 − lo). */
export function trapzFrom(y: Float64Array, x: Float64Array, lo: number): number {
  let from = 0;
  while (from < x.length && !(x[from] >= lo)) from++;
  return trapz(y, x, from) / (1 - lo);
}
