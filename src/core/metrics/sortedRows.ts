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
import { float64Argsort, float64sOfKeys } from '../stats/radixArgsort';
import type { WalkTables } from './walkTables';
import { sharedZeros } from '../stats/sharedArrays';

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
  /**
   * Group index (0..nGroups-1) of the row's TRUE class, or -1 for no group; read only when
   * `nGroups` > 0, and empty when it is 0 (every row without a group: 4 bytes a row not held).
   */
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
  /**
   * The bootstrap walk's tables for these rows, made once for every bootstrap thread (see
   * walkTables.ts); absent when each walk makes its own.
   */
  walk?: WalkTables | null;
}

export interface SortRowsOptions {
  /** Group index per row (file order) of its true class, -1 for none. */
  groups?: Int32Array | null;
  nGroups?: number;
  weights?: ArrayLike<number> | null;
  groupWeights?: ArrayLike<number> | null;
  /** Keep only these rows (file order indices, increasing); default all rows. */
  rows?: Int32Array | null;
  /**
   * Make the per-position arrays (row numbers, scores, flags, groups, tied blocks, weights) over shared memory
   * (stats/sharedArrays.ts), for a bootstrap that hands them to its threads: made there once,
   * instead of copied there later and the ordinary arrays left to the garbage collector, which, with
   * little else allocated, may keep them until the process ends. The same values either way.
   */
  shared?: boolean;
  /**
   * `scores` (a Float64Array of every row) is the caller's to lose: its memory becomes the sorted
   * scores instead of a copy (8 bytes a row fewer), unless a score is −0 (the sorted keys do not
   * tell −0 from +0, which the copy restores from the rows) or `shared` asks for shared memory that
   * `scores` is not over. Afterwards `scores` holds the scores in sorted order.
   */
  consumeScores?: boolean;
  /**
   * Called with the bytes the sort let go (its keys and its second order) once the scores are
   * decoded, before the flags, groups and weights in sorted order are made: the caller's full
   * garbage collection (collectGarbage.ts) gives their memory back first.
   */
  collect?: (bytes: number) => void;
}

/** Whether `a` holds a −0. */
function hasNegativeZero(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] === 0 && 1 / a[i] < 0) return true;
  return false;
}

/**
 * Stable descending argsort of `scores` (restricted to `opts.rows`) with tied blocks.
 * O(n): a radix sort of the scores' descending 64-bit keys (stats/radixArgsort.ts), which keeps
 * equal scores in row order; the tied blocks are the runs of equal keys in the sorted keys.
 * `wrong[i]` is 1 when row i is misclassified. -0 and +0 are one value.
 */
export function sortRowsByScore(
  scores: ArrayLike<number>,
  wrong: ArrayLike<number>,
  opts: SortRowsOptions = {},
): SortedRows {
  const sel = opts.rows ?? null;
  const n = sel ? sel.length : scores.length;
  const shared = opts.shared === true;
  const own =
    opts.consumeScores === true &&
    sel === null &&
    scores instanceof Float64Array &&
    (!shared || typeof SharedArrayBuffer !== 'function' || scores.buffer instanceof SharedArrayBuffer) &&
    !hasNegativeZero(scores);
  const vals = own ? scores : shared ? sharedZeros(Float64Array, n) : new Float64Array(n);
  const nan = copyScores(scores, sel, own ? null : vals);
  if (nan >= 0) throw new RangeError(`Expected finite scores, but row ${nan} has NaN.`);
  const { order, score } = sortedScores(vals, shared);
  // the sort's keys and second order are garbage now: given back before the arrays below are made
  opts.collect?.(12 * n);
  const rowIndex = sel ? (shared ? sharedZeros(Int32Array, n) : new Int32Array(n)) : order;
  if (sel) for (let p = 0; p < n; p++) rowIndex[p] = sel[order[p]];
  const blockStart = tiedBlockStarts(score, shared);
  const wr = shared ? sharedZeros(Uint8Array, n) : new Uint8Array(n);
  const nGroups = opts.groups ? (opts.nGroups ?? maxPlusOne(opts.groups)) : 0;
  const groups = nGroups > 0 ? opts.groups! : null;
  const size = groups === null ? 0 : n;
  const group = shared ? sharedZeros(Int32Array, size) : new Int32Array(size);
  gatherRows(rowIndex, own ? null : scores, score, wrong, wr, groups, group);
  const f64 = (): Float64Array => (shared ? sharedZeros(Float64Array, n) : new Float64Array(n));
  const w = opts.weights ? gather(opts.weights, rowIndex, f64()) : null;
  const gw = opts.groupWeights ? gather(opts.groupWeights, rowIndex, f64()) : null;
  return {
    n,
    rowIndex,
    score,
    wrong: wr,
    group,
    nGroups,
    weight: w,
    groupWeight: gw,
    blockStart,
  };
}

/**
 * The descending order of `vals` and the scores in that order, decoded from the sorted keys into
 * `vals` (which the sort uses as scratch; a sequential read, not a gather), the zeros as +0 (the
 * caller takes them from the rows, so that −0 and +0 stay as given). Apart from
 * {@link sortRowsByScore} so that no variable holds the sort's keys once it returns: the collection
 * the caller takes next frees them (a local of the caller's frame kept them to its end), and the
 * tied blocks, found in the decoded scores, are made in their memory.
 */
function sortedScores(vals: Float64Array, shared: boolean): { order: Int32Array; score: Float64Array } {
  const sorted = float64Argsort(vals, true, {}, true, shared);
  return { order: sorted.order, score: float64sOfKeys(sorted, true, vals) };
}

/*
 * The loops over every row are in small functions of arrays and numbers only (copyScores,
 * gatherRows, gather), not in sortRowsByScore itself: the engine keeps their optimised code from
 * one call to the next, whereas that of sortRowsByScore, which reads the options and the sort's
 * result object, was discarded at each full garbage collection (which evaluations take between
 * stages, collectGarbage.ts, and the in-process benchmark before each call; node --trace-deopt),
 * so its loops ran unoptimised again until recompiled in the middle of the call.
 */

/**
 * `vals[j] = scores[sel ? sel[j] : j]` (no copy when `vals` is null: the scores are sorted in their
 * own memory); the row of the first NaN, or -1 when there is none (then every value is copied).
 */
function copyScores(scores: ArrayLike<number>, sel: Int32Array | null, vals: Float64Array | null): number {
  if (sel === null && scores instanceof Float64Array) {
    // every row in order: the NaN check alone, then a block copy
    for (let j = 0; j < scores.length; j++) if (Number.isNaN(scores[j])) return j;
    if (vals !== null) vals.set(scores);
    return -1;
  }
  const n = sel ? sel.length : scores.length;
  for (let j = 0; j < n; j++) {
    const i = sel ? sel[j] : j;
    const v = scores[i];
    if (Number.isNaN(v)) return i;
    if (vals !== null) vals[j] = v;
  }
  return -1;
}

/**
 * The per-position flags and groups of the sorted rows: `wr[p]` = `wrong[rowIndex[p]]` as 0/1,
 * `group[p]` = `groups[rowIndex[p]]` (when `groups`), and the zero scores taken from the rows
 * (`scores`, when not null) so that −0 and +0 stay as given.
 */
function gatherRows(
  rowIndex: Int32Array,
  scores: ArrayLike<number> | null,
  score: Float64Array,
  wrong: ArrayLike<number>,
  wr: Uint8Array,
  groups: Int32Array | null,
  group: Int32Array,
): void {
  const n = rowIndex.length;
  for (let p = 0; p < n; p++) {
    const i = rowIndex[p];
    if (scores !== null && score[p] === 0) score[p] = scores[i];
    wr[p] = wrong[i] ? 1 : 0;
    if (groups !== null) group[p] = groups[i];
  }
}

/** `out[p] = a[index[p]]`. */
function gather(
  a: ArrayLike<number>,
  index: Int32Array,
  out: Float64Array = new Float64Array(index.length),
): Float64Array {
  for (let p = 0; p < index.length; p++) out[p] = a[index[p]];
  return out;
}

/**
 * Start of each run of equal scores in the sorted scores (no NaN; −0 and +0 equal, as their sort
 * keys are), followed by their count (over shared memory with `shared`): the runs counted first,
 * then the array made at its final length, so that no n-long array of starts is held with the rows
 * (4 bytes a row).
 */
function tiedBlockStarts(score: Float64Array, shared: boolean): Int32Array {
  const n = score.length;
  const starts = shared ? sharedZeros(Int32Array, blockCount(score) + 1) : new Int32Array(blockCount(score) + 1);
  let b = 0;
  for (let p = 0; p < n; p++) if (p === 0 || score[p] !== score[p - 1]) starts[b++] = p;
  starts[b] = n;
  return starts;
}

/** The number of runs of equal values in sorted scores. */
function blockCount(score: Float64Array): number {
  let b = 0;
  for (let p = 0; p < score.length; p++) if (p === 0 || score[p] !== score[p - 1]) b++;
  return b;
}

/** The `group` of rows without groups (`nGroups` 0): nothing to read. */
const NO_GROUPS = new Int32Array(0);

function maxPlusOne(a: Int32Array): number {
  let m = -1;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  return m + 1;
}

/**
 * Sorted rows of subsets, cut from the sorted rows `whole` of a larger set instead of sorting
 * again. The returned function gives, for increasing `rows` (all held by `whole`), exactly
 * `sortRowsByScore(pick(scores, rows), wrong, { weights })`, where `whole` sorted `scores`,
 * `pick(a, rows)[j] = a[rows[j]]`, and `wrong` and `weights` are the subset's (indexed
 * 0..rows.length-1, as in that call). Restricting a stable descending order to some of its rows
 * keeps it stable and descending (ties stay in row order, as `rows` is increasing), and the
 * subset's tied blocks are the nonempty parts of `whole`'s blocks.
 *
 * The first call indexes `whole` (O(whole.n)); each call then costs O(whole.n) for a subset of at
 * least 1/16 of `whole` (one scan) and O(k log k) for a smaller one of k rows (a sort of its
 * integer positions), so many small slices of a large file stay cheap.
 */
export function sortedSubsets(
  whole: SortedRows,
): (rows: Int32Array, wrong: ArrayLike<number>, weights: ArrayLike<number> | null) => SortedRows {
  const N = whole.n;
  const order = whole.rowIndex;
  const wholeScore = whole.score;
  let index: { position: Int32Array; local: Int32Array } | null = null;
  /**
   * `position`: row → its position in whole, -1 when whole lacks it; `local`: row → its number in
   * the current subset, -1 otherwise (set at the start of each call and reset at its end).
   */
  const indexOf = (): { position: Int32Array; local: Int32Array } => {
    let size = 0;
    for (let p = 0; p < N; p++) if (order[p] >= size) size = order[p] + 1;
    const position = new Int32Array(size).fill(-1);
    for (let p = 0; p < N; p++) position[order[p]] = p;
    return { position, local: new Int32Array(size).fill(-1) };
  };
  return (rows, wrong, weights) => {
    index ??= indexOf();
    const { position, local } = index;
    const n = rows.length;
    let missing = 0;
    for (let j = 0; j < n; j++) {
      const i = rows[j];
      if (i < position.length && position[i] >= 0) local[i] = j;
      else missing++;
    }
    if (missing > 0) {
      for (let j = 0; j < n; j++) if (rows[j] < local.length) local[rows[j]] = -1;
      throw new RangeError(`sortedSubsets: ${missing} of the ${n} rows are not in the sorted rows.`);
    }
    // The subset's positions in whole, in order: a scan of whole for a large subset (O(whole.n)),
    // a sort of its positions for a small one (O(k log k)).
    const at = new Int32Array(n);
    if (n * 16 >= N) {
      let q = 0;
      for (let p = 0; p < N; p++) if (local[order[p]] >= 0) at[q++] = p;
    } else {
      for (let j = 0; j < n; j++) at[j] = position[rows[j]];
      at.sort();
    }
    const rowIndex = new Int32Array(n);
    const score = new Float64Array(n);
    const wr = new Uint8Array(n);
    const w = weights ? new Float64Array(n) : null;
    const starts: number[] = [];
    for (let q = 0; q < n; q++) {
      const p = at[q];
      const j = local[order[p]];
      const v = wholeScore[p];
      // a tied block of whole is a run of equal scores (−0 = +0), so the subset's blocks start where its score changes
      if (q === 0 || v !== score[q - 1]) starts.push(q);
      rowIndex[q] = j;
      score[q] = v;
      wr[q] = wrong[j] ? 1 : 0;
      if (w) w[q] = weights![j];
    }
    starts.push(n);
    for (let j = 0; j < n; j++) local[rows[j]] = -1;
    return {
      n,
      rowIndex,
      score,
      wrong: wr,
      group: NO_GROUPS,
      nGroups: 0,
      weight: w,
      groupWeight: null,
      blockStart: Int32Array.from(starts),
    };
  };
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
  return gather(counts, rows.rowIndex, out);
}
