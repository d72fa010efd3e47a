/**
 * Per-user analysis (docs/metrics/ranking.md): histograms of per-user
 * metric values and metric means by bins of user activity (train interactions).
 *
 * References (the per-user metrics summarised here):
 * - C. D. Manning, P. Raghavan, H. Schütze (2008). Introduction to Information Retrieval, chapter 8: Evaluation in
 *   information retrieval. Cambridge University Press. https://nlp.stanford.edu/IR-book/
 * - K. Järvelin, J. Kekäläinen (2002). Cumulated gain-based evaluation of IR techniques. ACM Transactions on
 *   Information Systems 20(4):422–446. https://doi.org/10.1145/582415.582418
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
 */

export interface Histogram {
  /** Bin edges, length bins + 1; bins are [e_b, e_{b+1}), the last one closed. */
  edges: number[];
  counts: number[];
  /** Users whose value is undefined (not counted in a bin). */
  undefinedUsers: number;
  /** Mean of the defined values. */
  mean: number | null;
}

/** Bins of the per-user histograms the evaluation stores (`tables.perUserHistograms`). */
export const PER_USER_HISTOGRAM_BINS = 20;

/**
 * A histogram of `values` with `bins` equal-width bins over [min(0, min v), max(1, max v)]
 * (so rates in [0, 1] always get the same edges and can be compared between runs). NaN values
 * are counted apart.
 */
export function histogram(values: Float64Array, bins = PER_USER_HISTOGRAM_BINS): Histogram {
  const range = new Float64Array(4);
  definedRange(values, range);
  const lo = range[0];
  const hi = range[1];
  const n = range[2];
  const sum = range[3];
  const width = (hi - lo) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, b) => (b === bins ? hi : lo + b * width));
  const counts = new Int32Array(bins);
  countBins(values, lo, width, counts);
  return { edges, counts: Array.from(counts), undefinedUsers: values.length - n, mean: n ? sum / n : null };
}

// The two passes of histogram are two functions of one loop each: each is then compiled whole
// after its first calls, where one function with both loops, entered on-stack in its first loop,
// fell back to the interpreter at the second on every call (a boxed number per value).

/** Writes [min(0, min v), max(1, max v), count, sum] of the values that are not NaN into `out`. */
function definedRange(values: Float64Array, out: Float64Array): void {
  let lo = 0;
  let hi = 1;
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== v) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    n++;
    sum += v;
  }
  out[0] = lo;
  out[1] = hi;
  out[2] = n;
  out[3] = sum;
}

/** Adds each value that is not NaN to its bin of width `width` from `lo` (the last bin closed). */
function countBins(values: Float64Array, lo: number, width: number, counts: Int32Array): void {
  const bins = counts.length;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== v) continue;
    let b = Math.floor((v - lo) / width);
    if (b >= bins) b = bins - 1;
    if (b < 0) b = 0;
    counts[b]++;
  }
}

/**
 * The histogram of one metric counted from per-user values as a results file holds them (a JSON
 * array, where an undefined user's value is null), for results that do not store their histograms:
 * the same bins as {@link histogram} with {@link PER_USER_HISTOGRAM_BINS}, so the report and its
 * drill-down read the same edges either way. Non-finite values count as undefined users.
 */
export function countedHistogram(values: readonly (number | null)[]): Histogram {
  return histogram(Float64Array.from(values, (v) => (typeof v === 'number' && Number.isFinite(v) ? v : NaN)));
}

/**
 * Default activity-bin boundaries: the 1/3 and 2/3 quantiles of the users' train counts (low / medium /
 * high activity users), rounded up, distinct and > 0. Bins are then
 * [0, b1), [b1, b2), [b2, ∞).
 */
export function defaultActivityBoundaries(counts: ArrayLike<number>): number[] {
  const n = counts.length;
  if (n === 0) return [];
  const at = (p: number) => Math.min(n - 1, Math.floor(p * n));
  const values = new Float64Array(counts);
  const quantiles = new Float64Array(2);
  // Counts of interactions are small whole numbers: tallied, the two order statistics take two
  // passes, where a sort of every user's count took more time than the rest of the activity
  // table. Other values (a fraction, a NaN, a count beyond a few times the users) take the sort.
  const max = wholeNumbersMax(values, 4 * n + 64);
  if (max >= 0) tallyQuantiles(values, new Int32Array(max + 1), at(1 / 3), at(2 / 3), quantiles);
  else {
    values.sort();
    quantiles[0] = values[at(1 / 3)];
    quantiles[1] = values[at(2 / 3)];
  }
  const out = [...new Set([Math.ceil(quantiles[0]), Math.ceil(quantiles[1])])]
    .filter((b) => b > 0)
    .sort((a, b) => a - b);
  return out;
}

/** The largest value when every value is a whole number from 0 to `limit`; otherwise -1. */
function wholeNumbersMax(values: Float64Array, limit: number): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(v >= 0 && v <= limit) || Math.floor(v) !== v) return -1;
    if (v > max) max = v;
  }
  return max;
}

/**
 * Writes the values at positions `lower` ≤ `upper` of the sorted `values` (whole numbers below
 * `tally.length`) into `out[0]`, `out[1]`: the position p holds the least v with more than p
 * values ≤ v.
 */
function tallyQuantiles(
  values: Float64Array,
  tally: Int32Array,
  lower: number,
  upper: number,
  out: Float64Array,
): void {
  for (let i = 0; i < values.length; i++) tally[values[i]]++;
  let v = 0;
  let through = tally[0];
  while (through <= lower) through += tally[++v];
  out[0] = v;
  while (through <= upper) through += tally[++v];
  out[1] = v;
}

/**
 * The one binning of users by their train interactions, shared by the activity table
 * (`tables.activityBins`) and the ranking slices by `trainCount`, so both show the same bins: the
 * configured `activityBins` boundaries, or {@link defaultActivityBoundaries} of the evaluated
 * users' counts. Bin q holds lo_q ≤ count < hi_q; the last bin has no upper bound (hi null).
 */
export interface ActivityBin {
  label: string;
  lo: number;
  /** Exclusive upper bound, null for the last (open) bin. */
  hi: number | null;
}

export function activityBinEdges(counts: ArrayLike<number>, given?: readonly number[]): ActivityBin[] {
  const boundaries = given && given.length > 0 ? given : defaultActivityBoundaries(counts);
  const b = [...new Set(boundaries)].filter((x) => Number.isFinite(x)).sort((x, y) => x - y);
  const edges = [0, ...b.filter((x) => x > 0)];
  return edges.map((lo, q) => {
    const hi = q + 1 < edges.length ? edges[q + 1] : null;
    return { label: hi === null ? `≥ ${lo}` : `[${lo}, ${hi})`, lo, hi };
  });
}

/** The bin of each count (index into `bins`, as {@link activityBinEdges} made them). */
export function activityBinOf(counts: ArrayLike<number>, bins: readonly ActivityBin[]): Int32Array {
  const binOf = new Int32Array(counts.length);
  binsOfCounts(
    counts,
    Float64Array.from(bins, (b) => b.lo),
    binOf,
  );
  return binOf;
}

/**
 * The per-user loop of {@link activityBinOf} over arrays alone (the bins' lower bounds), so that
 * its optimised code, which reads no object of the run, survives the full collections between
 * evaluations.
 */
function binsOfCounts(counts: ArrayLike<number>, los: Float64Array, binOf: Int32Array): void {
  const last = los.length - 1;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i];
    let q = 0;
    while (q < last && c >= los[q + 1]) q++;
    binOf[i] = q;
  }
}

/**
 * Each evaluated user's train interactions: `userCounts` of the user of each evaluated list (0
 * for a user past its end). A function of arrays alone, for the reason of {@link binsOfCounts}.
 */
export function trainCountsOf(userCounts: Int32Array, listUser: Int32Array, evaluated: Int32Array): Int32Array {
  const out = new Int32Array(evaluated.length);
  for (let e = 0; e < out.length; e++) out[e] = userCounts[listUser[evaluated[e]]] ?? 0;
  return out;
}

export interface ActivityBinRow {
  bin: string;
  lo: number;
  /** Exclusive upper bound, null for the last (open) bin. */
  hi: number | null;
  users: number;
  [metric: string]: number | string | null;
}

/**
 * Means of each per-user metric within the activity bins of {@link activityBinEdges} (`boundaries`
 * as configured, or empty for the default). NaN values are left out of a bin's mean (null when none).
 */
export function activityBins(
  activity: ArrayLike<number>,
  perUser: Record<string, Float64Array>,
  boundaries?: readonly number[],
): ActivityBinRow[] {
  const bins = activityBinEdges(activity, boundaries);
  const rows: ActivityBinRow[] = bins.map(({ label, lo, hi }) => ({ bin: label, lo, hi, users: 0 }));
  const binOf = activityBinOf(activity, bins);
  for (let i = 0; i < binOf.length; i++) rows[binOf[i]].users++;
  for (const [key, vals] of Object.entries(perUser)) {
    const sum = new Float64Array(rows.length);
    const cnt = new Float64Array(rows.length);
    sumByBin(vals, binOf, sum, cnt);
    rows.forEach((r, q) => (r[key] = cnt[q] > 0 ? sum[q] / cnt[q] : null));
  }
  return rows;
}

/**
 * Adds each value that is not NaN to the sum and count of its bin. A function of its own, so that
 * it is compiled once for every metric, not entered on-stack anew in each (see histogram).
 */
function sumByBin(vals: Float64Array, binOf: Int32Array, sum: Float64Array, cnt: Float64Array): void {
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i];
    if (v !== v) continue;
    sum[binOf[i]] += v;
    cnt[binOf[i]]++;
  }
}
