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
  const sorted = new Float64Array(counts).sort();
  if (sorted.length === 0) return [];
  const q = (p: number) => Math.ceil(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
  const out = [...new Set([q(1 / 3), q(2 / 3)])].filter((b) => b > 0).sort((a, b) => a - b);
  return out;
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
  for (let i = 0; i < counts.length; i++) {
    let q = 0;
    while (q + 1 < bins.length && counts[i] >= bins[q + 1].lo) q++;
    binOf[i] = q;
  }
  return binOf;
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
