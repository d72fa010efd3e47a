/**
 * The prepared input of every selective and calibration metric (docs/metrics/selective.md): the rows
 * sorted ONCE by score, descending and stable (ties in row order), with the tied blocks marked.
 * Every metric then runs over these arrays in one pass, optionally with a multiplicity per sorted
 * position (`mult`, a bootstrap resample's counts), so resampling never sorts again.
 *
 * References (the metrics computed over these rows):
 * - R. El-Yaniv, Y. Wiener (2010). On the Foundations of Noise-free Selective Classification. Journal of Machine
 *   Learning Research 11:1605–1641. https://jmlr.org/papers/v11/el-yaniv10a.html
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 * - M. P. Naeini, G. F. Cooper, M. Hauskrecht (2015). Obtaining Well Calibrated Probabilities Using Bayesian
 *   Binning. Proc. AAAI Conference on Artificial Intelligence 29(1):2901–2907.
 *   https://doi.org/10.1609/aaai.v29i1.9602
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */

/**
 * A bootstrap resample's multiplicity per sorted position: Float64 (gathered from file-order counts)
 * or Int32 (drawn directly in sorted order by stats/resampleDraws.ts, the fast path).
 */
export type Multiplicities = Float64Array | Int32Array;

export interface SortedRows {
  /** Rows held (positions 0..n-1). */
  n: number;
  /** Sorted position → row index in the caller's numbering (file order). */
  rowIndex: Int32Array;
  /** Scores in sorted order (non-increasing). */
  score: Float64Array;
  /** 1 when the row's prediction is wrong. */
  wrong: Uint8Array;
  /** Group index (0..nGroups-1) of the row's TRUE class, or -1 for no group. */
  group: Int32Array;
  nGroups: number;
  /** Sample weight per sorted position, or null for all 1. */
  weight: Float64Array | null;
  /**
   * Per-row weights for the group errors when `reweight` is on (train-frequency reweighting e_g(w)), in sorted
   * order, or null (then `weight` is used).
   */
  groupWeight: Float64Array | null;
  /** Start position of each tied block (equal scores), followed by n; length = blocks + 1. */
  blockStart: Int32Array;
}

export interface SortRowsOptions {
  /** Group index per row (file order) of its true class, -1 for none. */
  groups?: Int32Array | null;
  nGroups?: number;
  weights?: ArrayLike<number> | null;
  groupWeights?: ArrayLike<number> | null;
  /** Keep only these rows (file order indices, increasing); default all rows. */
  rows?: Int32Array | null;
}

/**
 * Stable descending argsort of `scores` (restricted to `opts.rows`) with tied blocks.
 * O(n log n): one native numeric sort of the values, a binary search per row for its distinct-value
 * rank, then a counting sort by rank — which is stable and yields the blocks directly.
 * `wrong[i]` is 1 when row i is misclassified. -0 and +0 are one value.
 */
export function sortRowsByScore(
  scores: ArrayLike<number>,
  wrong: ArrayLike<number>,
  opts: SortRowsOptions = {},
): SortedRows {
  const sel = opts.rows ?? null;
  const n = sel ? sel.length : scores.length;
  const rowAt = (j: number): number => (sel ? sel[j] : j);
  const vals = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const v = scores[rowAt(j)];
    if (Number.isNaN(v)) throw new RangeError(`Expected finite scores, but row ${rowAt(j)} has NaN.`);
    vals[j] = v;
  }
  const asc = Float64Array.from(vals).sort();
  // distinct values, descending
  const uniq: number[] = [];
  for (let j = n - 1; j >= 0; j--) {
    const v = asc[j];
    if (uniq.length === 0 || uniq[uniq.length - 1] !== v) uniq.push(v);
  }
  const u = Float64Array.from(uniq);
  const nb = u.length;
  const rank = new Int32Array(n);
  const blockSize = new Int32Array(nb);
  for (let j = 0; j < n; j++) {
    const v = vals[j];
    let lo = 0;
    let hi = nb - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (u[mid] > v) lo = mid + 1;
      else hi = mid;
    }
    rank[j] = lo;
    blockSize[lo]++;
  }
  const blockStart = new Int32Array(nb + 1);
  for (let b = 0; b < nb; b++) blockStart[b + 1] = blockStart[b] + blockSize[b];
  const fill = blockStart.slice(0, nb);
  const rowIndex = new Int32Array(n);
  for (let j = 0; j < n; j++) rowIndex[fill[rank[j]]++] = rowAt(j);

  const score = new Float64Array(n);
  const wr = new Uint8Array(n);
  const group = new Int32Array(n).fill(-1);
  const w = opts.weights ? new Float64Array(n) : null;
  const gw = opts.groupWeights ? new Float64Array(n) : null;
  for (let p = 0; p < n; p++) {
    const i = rowIndex[p];
    score[p] = scores[i];
    wr[p] = wrong[i] ? 1 : 0;
    if (opts.groups) group[p] = opts.groups[i];
    if (w) w[p] = opts.weights![i];
    if (gw) gw[p] = opts.groupWeights![i];
  }
  return {
    n,
    rowIndex,
    score,
    wrong: wr,
    group,
    nGroups: opts.groups ? (opts.nGroups ?? maxPlusOne(opts.groups)) : 0,
    weight: w,
    groupWeight: gw,
    blockStart,
  };
}

function maxPlusOne(a: Int32Array): number {
  let m = -1;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  return m + 1;
}

/**
 * Multiplicities in sorted order from a bootstrap count vector over the caller's rows:
 * `out[p] = counts[rowIndex[p]]`.
 */
export function gatherCounts(
  rows: SortedRows,
  counts: ArrayLike<number>,
  out: Float64Array = new Float64Array(rows.n),
): Float64Array {
  const idx = rows.rowIndex;
  for (let p = 0; p < rows.n; p++) out[p] = counts[idx[p]];
  return out;
}
