/**
 * The shared engine of binary ranking curves (PR, ROC): one stable sort by score, tied scores
 * collapsed into blocks, float64 cumulative sums of the (weighted) positives and negatives at the
 * end of each block — scikit-learn's `_binary_clf_curve`. No per-threshold rescans.
 *
 * The sort order ({@link ScoreOrder}) depends only on the scores, so the bootstrap computes it once
 * and re-runs {@link blockCounts} with weights × multiplicities for every resample (O(n) each).
 *
 * Zero weights: a block whose rows all have weight 0 yields no curve point (scikit-learn drops
 * zero-weight samples before building its curves). Such a block still counts for the threshold
 * metrics, where it adds nothing.
 *
 * References:
 * - J. Davis, M. Goadrich (2006). The relationship between Precision-Recall and ROC curves. International Conference
 *   on Machine Learning (ICML), 233–240. https://doi.org/10.1145/1143844.1143874
 * - T. Fawcett (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8):861–874.
 *   https://doi.org/10.1016/j.patrec.2005.10.010
 * - F. Pedregosa et al. (2011). Scikit-learn: Machine Learning in Python. Journal of Machine Learning Research
 *   12:2825–2830. https://jmlr.org/papers/v12/pedregosa11a.html
 *
 * @see docs/metrics/importance.md — the definitions, conventions and worked examples.
 */

/** Rows sorted by score, descending, and the blocks of tied scores. */
export interface ScoreOrder {
  /** Row indices by score descending; ties in row order (explicit tie rule, so the order is deterministic). */
  order: Int32Array;
  /** Block b holds the sorted positions `blockStart[b] .. blockStart[b+1]-1`; length `nBlocks + 1`. */
  blockStart: Int32Array;
  /** The score shared by the rows of each block, strictly decreasing. */
  blockScore: Float64Array;
  nBlocks: number;
}

/** Cumulative weighted counts at the end of each block (block 0 = highest score). */
export interface BlockCounts {
  /** Σ w·1[y=1] over blocks 0..b. */
  tp: Float64Array;
  /** Σ w·1[y=0] over blocks 0..b. */
  fp: Float64Array;
  /** 1 when block b has a positive total weight (it becomes a curve point). */
  live: Uint8Array;
}

/** Sorts rows by score descending (ties by row index) and finds the blocks of equal scores. O(n log n). */
export function scoreOrder(scores: ArrayLike<number>): ScoreOrder {
  const n = scores.length;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  const starts = new Int32Array(n + 1);
  const blockScore = new Float64Array(n);
  let nBlocks = 0;
  for (let p = 0; p < n; p++) {
    const s = scores[order[p]];
    if (p === 0 || s !== blockScore[nBlocks - 1]) {
      starts[nBlocks] = p;
      blockScore[nBlocks] = s;
      nBlocks++;
    }
  }
  starts[nBlocks] = n;
  return { order, blockStart: starts.slice(0, nBlocks + 1), blockScore: blockScore.slice(0, nBlocks), nBlocks };
}

/** Number of blocks whose score is ≥ t: the rows predicted positive at threshold t form these blocks. */
export function blocksAtOrAbove(so: ScoreOrder, t: number): number {
  let lo = 0;
  let hi = so.nBlocks;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (so.blockScore[mid] >= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Allocates counts for `so` (reuse them across bootstrap resamples). */
export function allocBlockCounts(so: ScoreOrder): BlockCounts {
  return { tp: new Float64Array(so.nBlocks), fp: new Float64Array(so.nBlocks), live: new Uint8Array(so.nBlocks) };
}

/**
 * Cumulative weighted positives/negatives per block, summed sequentially in sorted order in
 * float64 (as numpy's `cumsum`). `weights` null means 1 per row.
 */
export function blockCounts(
  so: ScoreOrder,
  labels: ArrayLike<number>,
  weights: ArrayLike<number> | null,
  out: BlockCounts = allocBlockCounts(so),
): BlockCounts {
  const { order, blockStart, nBlocks } = so;
  let tp = 0;
  let fp = 0;
  for (let b = 0; b < nBlocks; b++) {
    let any = 0;
    for (let p = blockStart[b]; p < blockStart[b + 1]; p++) {
      const i = order[p];
      const w = weights ? weights[i] : 1;
      if (w === 0) continue;
      any = 1;
      if (labels[i] === 1) tp += w;
      else fp += w;
    }
    out.tp[b] = tp;
    out.fp[b] = fp;
    out.live[b] = any;
  }
  return out;
}

/** Total weight of positives and negatives. */
export function totals(c: BlockCounts): { pos: number; neg: number } {
  const k = c.tp.length;
  return k === 0 ? { pos: 0, neg: 0 } : { pos: c.tp[k - 1], neg: c.fp[k - 1] };
}

/** The areas under the PR and ROC curves that {@link curveAreas} computes. */
export interface CurveAreas {
  /**
   * Average precision `Σ_k (R_k − R_{k−1})·P_k` over the PR curve's points (scikit-learn's
   * `average_precision_score`: no interpolation); NaN when there is no positive weight.
   */
  averagePrecision: number;
  /**
   * The area under the PR curve by the trapezoidal rule over recall, from the start point (recall 0,
   * precision 1) through every curve point (scikit-learn's `auc(recall, precision)` on
   * `precision_recall_curve`); NaN when there is no positive weight.
   */
  trapezoid: number;
  /**
   * The area under the ROC curve by the trapezoidal rule from (0, 0); a block of tied scores is one
   * straight segment, so a tied positive–negative pair counts one half (scikit-learn's
   * `roc_auc_score`). NaN when either class has no weight.
   */
  rocAuc: number;
}

/** The three areas in one pass over the tied blocks (the points both curves share). */
export function curveAreas(c: BlockCounts): CurveAreas {
  const { pos, neg } = totals(c);
  if (!(pos > 0)) return { averagePrecision: NaN, trapezoid: NaN, rocAuc: NaN };
  let ap = 0;
  let area = 0;
  let prevR = 0;
  let prevP = 1;
  let roc = 0;
  let prevX = 0;
  for (let b = 0; b < c.tp.length; b++) {
    if (!c.live[b]) continue;
    const r = c.tp[b] / pos;
    const p = c.tp[b] / (c.tp[b] + c.fp[b]);
    ap += (r - prevR) * p;
    area += ((r - prevR) * (p + prevP)) / 2;
    // the ROC curve's y is the recall r
    const x = c.fp[b] / neg;
    roc += ((x - prevX) * (r + prevR)) / 2;
    prevR = r;
    prevP = p;
    prevX = x;
  }
  return { averagePrecision: ap, trapezoid: area, rocAuc: neg > 0 ? roc : NaN };
}

/** Points of a curve: x, y and the score threshold of each point (null for the start point). */
export interface CurvePoints {
  x: number[];
  y: number[];
  threshold: (number | null)[];
  /** PR curve only: F1 = 2TP/(2TP + FP + FN) at each point (null at the start point). */
  f1?: (number | null)[];
}

/**
 * PR curve in order of increasing recall: the start point (recall 0, precision 1), then one point
 * per block with positive weight (with its F1), threshold = the block's score (rows with `s ≥ threshold` are
 * predicted positive). Null when there is no positive weight (recall undefined).
 */
export function prPoints(so: ScoreOrder, c: BlockCounts): CurvePoints | null {
  const { pos } = totals(c);
  if (!(pos > 0)) return null;
  const out: CurvePoints = { x: [0], y: [1], threshold: [null], f1: [null] };
  for (let b = 0; b < so.nBlocks; b++) {
    if (!c.live[b]) continue;
    out.x.push(c.tp[b] / pos);
    out.y.push(c.tp[b] / (c.tp[b] + c.fp[b]));
    out.threshold.push(so.blockScore[b]);
    // the same float operations as the f1 metric (importance.ts thresholdRates), FN = pos − TP
    out.f1!.push((2 * c.tp[b]) / (2 * c.tp[b] + c.fp[b] + (pos - c.tp[b])));
  }
  return out;
}

/** ROC curve (x = FPR, y = TPR) from (0, 0), one point per block with positive weight. Null when a class has no weight. */
export function rocPoints(so: ScoreOrder, c: BlockCounts): CurvePoints | null {
  const { pos, neg } = totals(c);
  if (!(pos > 0) || !(neg > 0)) return null;
  const out: CurvePoints = { x: [0], y: [0], threshold: [null] };
  for (let b = 0; b < so.nBlocks; b++) {
    if (!c.live[b]) continue;
    out.x.push(c.fp[b] / neg);
    out.y.push(c.tp[b] / pos);
    out.threshold.push(so.blockScore[b]);
  }
  return out;
}

/** Weighted confusion counts at threshold t (positive iff s ≥ t), from the first `k` blocks. */
export interface ThresholdCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function countsAtBlocks(c: BlockCounts, k: number): ThresholdCounts {
  const { pos, neg } = totals(c);
  const tp = k > 0 ? c.tp[k - 1] : 0;
  const fp = k > 0 ? c.fp[k - 1] : 0;
  return { tp, fp, fn: pos - tp, tn: neg - fp };
}
