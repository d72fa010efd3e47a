/**
 * Calibration of the top-label confidence (docs/metrics/selective.md): `ece`, `mce`, `ece_adaptive` and
 * the reliability-diagram bins. The confidence is the score used for selection, sorted once in a
 * {@link SortedRows} (descending); a row is correct when `wrong` is 0.
 *
 * Weighted form (sample weight × bootstrap multiplicity = mass): a bin's accuracy and confidence
 * are mass-weighted means and its share is its mass over the total mass, so
 * `ECE = Σ_b |Σ_{i∈b} m_i (1[correct_i] − conf_i)| / Σ_i m_i`. With unit masses this is
 * `Σ_b |B_b|/n · |acc(B_b) − conf(B_b)|`.
 *
 * References:
 * - M. P. Naeini, G. F. Cooper, M. Hauskrecht (2015). Obtaining Well Calibrated Probabilities Using Bayesian
 *   Binning. Proc. AAAI Conference on Artificial Intelligence 29(1):2901–2907.
 *   https://doi.org/10.1609/aaai.v29i1.9602
 * - C. Guo, G. Pleiss, Y. Sun, K. Q. Weinberger (2017). On Calibration of Modern Neural Networks. International
 *   Conference on Machine Learning (ICML), PMLR 70:1321–1330. https://arxiv.org/abs/1706.04599
 * - J. Nixon, M. W. Dusenberry, L. Zhang, G. Jerfel, D. Tran (2019). Measuring Calibration in Deep Learning. CVPR
 *   Workshops. https://arxiv.org/abs/1904.01685
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
import type { Multiplicities, SortedRows } from './sortedRows';

/** One bin of the reliability table (`tables.reliability`). */
export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  accuracy: number | null;
  confidence: number | null;
}

/**
 * Equal-width bin of a confidence: bin b holds (b/B, (b+1)/B], so a value exactly on an edge k/B
 * goes to the LOWER bin (`conf > lo & conf <= hi`, as Guo et al. 2017's reference code bins). Edges are k/B in float64.
 * Returns -1 for a confidence ≤ 0 (in no bin); a confidence above 1 goes to the last bin.
 *
 * @example B = 15: 0.4 (= 6/15) → bin 5, i.e. (5/15, 6/15]; 0.41 → bin 6; 1 → bin 14; 0 → -1.
 */
export function eceBinIndex(conf: number, B: number): number {
  if (!(conf > 0)) return -1;
  if (conf >= 1) return B - 1;
  let b = Math.ceil(conf * B) - 1;
  if (b < 0) b = 0;
  if (b > B - 1) b = B - 1;
  while (b > 0 && conf <= b / B) b--;
  while (b < B - 1 && conf > (b + 1) / B) b++;
  return b;
}

/**
 * Bin index per sorted position (see {@link eceBinIndex}), with B (an extra, ignored bin) for a
 * confidence in no bin, so the per-resample loop has no branch. Written into `out` when given
 * (e.g. an array over shared memory for a bootstrap's threads).
 */
export function binIndices(rows: SortedRows, B: number, out: Int32Array = new Int32Array(rows.n)): Int32Array {
  binsOfScores(rows.score, rows.n, B, out);
  return out;
}

/**
 * The loop of {@link binIndices}, over arrays and numbers only: the engine keeps its optimised code
 * from call to call, whereas that of a loop reading the rows object was discarded after each full
 * garbage collection (collectGarbage.ts takes some in each evaluation) and ran unoptimised again
 * until recompiled.
 */
function binsOfScores(score: Float64Array, n: number, B: number, out: Int32Array): void {
  for (let p = 0; p < n; p++) {
    const b = eceBinIndex(score[p], B);
    out[p] = b < 0 ? B : b;
  }
}

export interface CalibrationValues {
  ece: number;
  /** Max |acc − conf| over non-empty bins; NaN when every bin is empty. */
  mce: number;
  eceAdaptive: number;
}

/**
 * `ece`, `mce`, `ece_adaptive` over `rows` with `B` bins. O(n). Pass `bins` (from
 * {@link binIndices}) to avoid recomputing them per bootstrap resample. NaN when the total mass is 0.
 *
 * `ece_adaptive`: the rows in a stable ascending sort by confidence (ties in row order) are cut into
 * B contiguous chunks of N div B items, the first N mod B chunks one larger (N = items); a row with
 * multiplicity c is c consecutive items and may straddle two chunks. Empty chunks (N < B) are skipped.
 *
 * @example conf [0.9, 0.9, 0.6, 0.2], correct [1, 0, 1, 0], B = 2: bins (0, .5] = {0.2}, (.5, 1] = the
 *   rest: ece = (|0 − 0.2| + |2 − 2.4|)/4 = 0.15, mce = max(0.2, |2/3 − 0.8|) = 0.2; adaptive
 *   chunks {0.2, 0.6}, {0.9, 0.9}: (|1 − 0.8| + |1 − 1.8|)/4 = 0.25.
 */
export function calibrationValues(
  rows: SortedRows,
  B: number,
  mult: Multiplicities | null = null,
  bins: Int32Array | null = null,
): CalibrationValues {
  if (!Number.isInteger(B) || B < 1)
    throw new RangeError(`Expected \`eceBins\` to be a positive integer, but got ${B}.`);
  const n = rows.n;
  const w = rows.weight;
  const conf = rows.score;
  const wrong = rows.wrong;
  const bin = bins ?? binIndices(rows, B);
  // bin B collects the confidences in no bin (0); it counts in W but not in the ECE
  const diff = new Float64Array(B + 1);
  const mass = new Float64Array(B + 1);
  let W = 0;
  let N = 0;
  for (let p = 0; p < n; p++) {
    const c = mult === null ? 1 : mult[p];
    const m = (w === null ? 1 : w[p]) * c;
    W += m;
    N += c;
    const b = bin[p];
    mass[b] += m;
    diff[b] += m * (1 - wrong[p] - conf[p]);
  }
  const out: CalibrationValues = { ece: NaN, mce: NaN, eceAdaptive: NaN };
  if (!(W > 0)) return out;
  binnedCalibration(diff, mass, B, W, out);
  out.eceAdaptive = adaptiveEce(rows, B, N, W, mult);
  return out;
}

/**
 * The end-of-pass sums over the B confidence bins, shared by {@link calibrationValues} and the
 * resampling fast path: `ece` = Σ_b |diff_b| / W and `mce` = the largest |diff_b| / mass_b over the
 * bins with mass (NaN when none has), where diff_b = Σ m·(correct − confidence) and mass_b = Σ m in
 * bin b. Writes into `out` so a resample loop allocates nothing. Requires W > 0.
 */
export function binnedCalibration(
  diff: Float64Array,
  mass: Float64Array,
  B: number,
  W: number,
  out: { ece: number; mce: number },
): void {
  let ece = 0;
  let mce = NaN;
  for (let b = 0; b < B; b++) {
    ece += Math.abs(diff[b]);
    if (mass[b] > 0) {
      const gap = Math.abs(diff[b]) / mass[b];
      if (!(gap <= mce)) mce = gap;
    }
  }
  out.ece = ece / W;
  out.mce = mce;
}

function adaptiveEce(rows: SortedRows, B: number, N: number, W: number, mult: Multiplicities | null): number {
  const bs = rows.blockStart;
  const w = rows.weight;
  const conf = rows.score;
  const wrong = rows.wrong;
  const base = Math.floor(N / B);
  const extra = N - base * B;
  // chunk k holds items [start_k, end_k), end_k = (k+1)·base + min(k+1, extra)
  const endOf = (k: number): number => (k + 1) * base + Math.min(k + 1, extra);
  let chunk = 0;
  let chunkEnd = endOf(0);
  let K = 0;
  let acc = 0;
  let total = 0;
  // ascending stable order: blocks from the last (lowest score) to the first, rows in order inside
  for (let b = bs.length - 2; b >= 0; b--) {
    const end = bs[b + 1];
    for (let p = bs[b]; p < end; p++) {
      let c = mult === null ? 1 : mult[p];
      const unit = (w === null ? 1 : w[p]) * (1 - wrong[p] - conf[p]);
      if (K + c <= chunkEnd) {
        acc += unit * c;
        K += c;
        continue;
      }
      // the row's items cross one or more chunk ends
      while (c > 0) {
        while (K === chunkEnd && chunk < B - 1) {
          total += Math.abs(acc);
          acc = 0;
          chunk++;
          chunkEnd = endOf(chunk);
        }
        const take = Math.min(c, chunkEnd - K);
        acc += unit * take;
        K += take;
        c -= take;
      }
    }
  }
  total += Math.abs(acc);
  return total / W;
}

/**
 * The reliability-diagram bins: for each of the B equal-width bins, its edges, row count,
 * (weighted) accuracy and mean confidence — null for an empty bin.
 */
export function reliabilityBins(rows: SortedRows, B: number): ReliabilityBin[] {
  const count = new Float64Array(B);
  const mass = new Float64Array(B);
  const corr = new Float64Array(B);
  const cs = new Float64Array(B);
  const w = rows.weight;
  for (let p = 0; p < rows.n; p++) {
    const b = eceBinIndex(rows.score[p], B);
    if (b < 0) continue;
    const m = w ? w[p] : 1;
    count[b]++;
    mass[b] += m;
    if (!rows.wrong[p]) corr[b] += m;
    cs[b] += m * rows.score[p];
  }
  const out: ReliabilityBin[] = [];
  for (let b = 0; b < B; b++) {
    const has = mass[b] > 0;
    out.push({
      lo: b / B,
      hi: (b + 1) / B,
      count: count[b],
      accuracy: has ? corr[b] / mass[b] : null,
      confidence: has ? cs[b] / mass[b] : null,
    });
  }
  return out;
}
