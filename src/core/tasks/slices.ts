/**
 * Metrics per slice value (`tables.slices`): for each value of each `slices` column (rows/sliceValues.ts),
 * n, the task's headline metrics with bootstrap intervals, and the difference to the whole file
 * with its interval.
 *
 * A generic service over the family contract (taskFamily.ts): the headline metrics are the keys
 * the task's families declare for slices (`sliceKeys`), and every value — slice and whole file —
 * is those families' own statistic on the task's statistic restricted to the slice's rows
 * ({@link RestrictedStatistic}; each task's in sliceStatistics.ts), as if the slice were a file of
 * its own; the whole-file values are computed the same way over all rows (or taken from the
 * evaluation's metrics, the same values). No metric is named here: a family's new key is sliced by
 * listing it in its `sliceKeys`.
 *
 * Intervals: one bootstrap of the whole file (the configured resamples, confidence and seed; per
 * stratum for iw-binary files and for a `stratified` classification bootstrap with a group column).
 * In each resample the slice's metric is computed on the resampled rows that fall in the slice,
 * and the difference is taken to the whole file's metric of the same resample (a paired
 * bootstrap), so the interval of the difference accounts for the slice being part of the file.
 * Percentile intervals (Efron & Tibshirani, "An Introduction to the Bootstrap", 1993).
 */
import { Warnings } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import { CONFIG_DEFAULTS } from '../config/types';
import type { TextColumn } from '../data/textColumn';
import { directionOf } from '../results/directions';
import type { Direction, SliceMetricValue, SliceRow } from '../results/types';
import { strataOf } from '../stats/bootstrap';
import { planIntervals, type Intervals } from '../stats/planIntervals';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import { sliceValues, type SliceValues } from '../rows/sliceValues';
import type { FilterTerm } from '../rows/types';
import { familyKeyValues, familySliceKeys, type TaskFamily } from './taskFamily';

export type { SliceMetricValue, SliceRow };

/**
 * A task's headline metrics over a set of rows ({@link familySliceMetrics}). `prepare(rows)` gets
 * the rows of a slice (file order) and returns a function of their multiplicities (null = each row
 * once) that writes one value per key into `out` (NaN = undefined): the bootstrap calls it for
 * every slice in every resample, into buffers made once.
 */
export interface SliceMetrics {
  /** What the bootstrap resamples: the file's rows, or a ranking run's users. */
  unit: 'row' | 'user';
  keys: string[];
  directions: Direction[];
  prepare(rows: Int32Array): (mult: Float64Array | null, out: Float64Array) => void;
  /** Stratum per row for the bootstrap, or null. */
  strata: Int32Array | null;
}

/** `a` at `rows` (`out[j] = a[rows[j]]`), an array of the same kind; null stays null. */
export function pick<T extends ArrayLike<number> | null>(a: T, rows: Int32Array): T {
  if (a === null) return a;
  const out = new (a as unknown as { constructor: new (n: number) => T & { [i: number]: number } }).constructor(
    rows.length,
  );
  for (let j = 0; j < rows.length; j++) out[j] = (a as ArrayLike<number>)[rows[j]];
  return out;
}

/**
 * A task's statistic restricted to some of its units: what its resampling plan computes for the
 * whole run, computed as if the run held only those units. `restrict(units, keys)` (units:
 * increasing indices, in the units' own order) gives the families' shared run of those units and
 * a function of their multiplicities (null = each unit once, the point estimate) giving the
 * resample's shared sums, from which every family's statistic writes its keys. The sums need only
 * serve `keys`, the keys the table reads: a part of them that none of those keys comes from is left
 * out (each task's parts: sliceStatistics.ts), so a slice costs what its keys cost, not what every
 * key of its families costs. A key the sums do not know is taken for a value a family derives from
 * them, and gets all of them. The sums of one call are read before the next call, so a restriction
 * may reuse its buffers.
 */
export interface RestrictedStatistic<Sums, Shared> {
  /** What the bootstrap resamples: the file's rows, or a ranking run's users. */
  unit: 'row' | 'user';
  /** Stratum per unit for the bootstrap, or null. */
  strata: Int32Array | null;
  restrict(units: Int32Array, keys: readonly string[]): { shared: Shared; sums: (mult: Float64Array | null) => Sums };
}

/**
 * The slice metrics of a task's families: the keys they declare for slices (`sliceKeys`), each
 * slice's values those families' own statistic on the task's statistic restricted to the slice's
 * units. A family's new key is sliced by listing it in its `sliceKeys`.
 */
export function familySliceMetrics<Run, Sums, Shared>(
  families: readonly TaskFamily<Run, Sums, Shared>[],
  run: Run,
  statistic: RestrictedStatistic<Sums, Shared>,
): SliceMetrics {
  const sliced = families.filter((f) => f.resample && f.sliceKeys);
  const keys = familySliceKeys(sliced, run);
  // one record for every slice of the table: each call writes and reads it before the next
  const values = familyKeyValues(sliced, keys);
  return {
    unit: statistic.unit,
    keys,
    directions: keys.map(directionOf),
    strata: statistic.strata,
    prepare(units) {
      const { shared, sums } = statistic.restrict(units, keys);
      return (mult, out) => values(shared, sums(mult), out);
    },
  };
}

/** The K values of a prepared slice (`ev`, {@link SliceMetrics.prepare}) with each row once: its point estimates. */
export function pointOf(ev: (mult: Float64Array | null, out: Float64Array) => void, K: number): Float64Array {
  const out = new Float64Array(K);
  ev(null, out);
  return out;
}

export interface SliceOptions {
  bins: number;
  minSize: number;
  bootstrap: ResolvedConfig['bootstrap'];
  /**
   * The whole file's values of `metrics.keys` when the evaluation already has them over the same
   * rows by the same code (NaN = undefined); computed here otherwise.
   */
  wholePoint?: number[];
  /** Progress of the bootstrap (done of n); throw to stop. */
  onResample?: (done: number, total: number) => void;
}

export function sliceOptions(config: ResolvedConfig): SliceOptions {
  return {
    bins: config.sliceBins ?? CONFIG_DEFAULTS.sliceBins,
    minSize: config.minSliceSize ?? CONFIG_DEFAULTS.minSliceSize,
    bootstrap: config.bootstrap,
  };
}

const nul = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** The rows 0…n−1 of each code (code c's rows in file order at index c), by one counting pass. */
export function rowsByCode(codes: ArrayLike<number>, nCodes: number, n: number): Int32Array[] {
  const size = new Int32Array(nCodes);
  for (let i = 0; i < n; i++) size[codes[i]]++;
  const members = Array.from({ length: nCodes }, (_, c) => new Int32Array(size[c]));
  const fill = new Int32Array(nCodes);
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    members[c][fill[c]++] = i;
  }
  return members;
}

interface Slice {
  column: string;
  label: string;
  where: FilterTerm[];
  rows: Int32Array;
  ev: (mult: Float64Array | null, out: Float64Array) => void;
  /** The slice's rows' multiplicities of a resample. */
  buf: Float64Array;
}

// Plan keys: a slice's value takes its metric's interval method by the name after the colon; a
// difference (`Δ`) is never a calibration error's own value and takes the percentile interval.
const valueKey = (q: number, key: string): string => `${q}:${key}`;
const diffKey = (q: number, key: string): string => `${q}:Δ${key}`;

/**
 * The slices' bootstrap as a plan for the one bootstrap engine (stats/planIntervals.ts): the units
 * are the file's rows (a ranking run's users), and one resample yields, per slice, its K values then
 * their K differences to the whole file's values in the same resample. A slice's value takes the
 * interval method of its metric (basic about the point for `ece`, see stats/bootstrap.ts
 * `IntervalMethod`); a difference from the whole file, the percentile interval. The draws are the
 * sequential stream the slice table has always used, so a seed gives the intervals it gave before.
 */
function slicePlan(
  slices: readonly Slice[],
  whole: (mult: Float64Array | null, out: Float64Array) => void,
  metrics: SliceMetrics,
  n: number,
  point: readonly ArrayLike<number>[],
): ResamplingPlan & { points: Record<string, number> } {
  const K = metrics.keys.length;
  const keys: string[] = [];
  const points: Record<string, number> = {};
  slices.forEach((_, q) => {
    metrics.keys.forEach((key, k) => {
      keys.push(valueKey(q, key));
      points[valueKey(q, key)] = point[q][k];
    });
    for (const key of metrics.keys) keys.push(diffKey(q, key));
  });
  return {
    unit: metrics.unit,
    n,
    ids: null,
    truth: null,
    strata: metrics.strata,
    keys,
    points,
    position: null,
    build: () => {
      // the metric functions take Float64 multiplicities
      const counts = new Float64Array(n);
      // the whole file's values and a slice's, of the resample: made once, written by every call
      const w = new Float64Array(K);
      const v = new Float64Array(K);
      return (mult, out) => {
        for (let i = 0; i < n; i++) counts[i] = mult[i];
        whole(counts, w);
        for (let q = 0; q < slices.length; q++) {
          const s = slices[q];
          for (let j = 0; j < s.rows.length; j++) s.buf[j] = counts[s.rows[j]];
          s.ev(s.buf, v);
          for (let k = 0; k < K; k++) {
            out[q * 2 * K + k] = v[k];
            out[q * 2 * K + K + k] = v[k] - w[k];
          }
        }
      };
    },
    worker: null,
    draws: 'stream',
  };
}

/**
 * The slice table: every slice value of every column with at least `minSize` rows, worst first by
 * the first headline metric (nulls last; ties by column, then value order). Values of smaller
 * slices are left out and counted in one warning.
 */
export async function computeSlices(
  columns: (TextColumn | SliceValues)[],
  metrics: SliceMetrics,
  n: number,
  opts: SliceOptions,
  warnings: Warnings,
  file: string,
): Promise<SliceRow[]> {
  const slices: Slice[] = [];
  const small: string[] = [];
  for (const col of columns) {
    // A column is cut here; slice values already cut (the ranking activity bins) are taken as they are.
    const sv = 'labels' in col ? col : sliceValues(col, opts.bins);
    const members = rowsByCode(sv.codes, sv.labels.length, n);
    sv.labels.forEach((label, s) => {
      const rows = members[s];
      if (rows.length === 0) return;
      if (rows.length < opts.minSize) {
        small.push(`${sv.column} = ${label} (${rows.length})`);
        return;
      }
      slices.push({
        column: sv.column,
        label,
        where: sv.where[s],
        rows,
        ev: metrics.prepare(rows),
        buf: new Float64Array(rows.length),
      });
    });
  }
  if (small.length > 0) {
    warnings.note(
      'small-slices',
      `${file}: ${small.length} slice value${small.length === 1 ? ' has' : 's have'} fewer than ${opts.minSize} rows (minSliceSize) and ${small.length === 1 ? 'is' : 'are'} left out of the slice table: ${small.slice(0, 10).join(', ')}${small.length > 10 ? ', …' : ''}.`,
      { count: small.length },
    );
  }
  const B = opts.bootstrap.n;
  // The whole file again only when the evaluation's values cannot serve or the bootstrap needs it.
  const whole = B > 0 || !opts.wholePoint ? metrics.prepare(Int32Array.from({ length: n }, (_, i) => i)) : null;
  const K = metrics.keys.length;
  const wholePoint = opts.wholePoint ?? pointOf(whole!, K);
  const point = slices.map((s) => pointOf(s.ev, K));

  let cis: Intervals | null = null;
  if (whole && B > 0 && slices.length > 0) {
    const plan = slicePlan(slices, whole, metrics, n, point);
    cis = await planIntervals(plan, {
      n: B,
      confidence: opts.bootstrap.confidence,
      seed: opts.bootstrap.seed,
      points: plan.points,
      onResample: opts.onResample,
    });
  }
  const rows: SliceRow[] = slices.map((s, q) => {
    const row: SliceRow = { slice: s.column, value: s.label, n: s.rows.length, where: s.where, diff: {} };
    metrics.keys.forEach((key, k) => {
      const v: SliceMetricValue = { value: nul(point[q][k]) };
      const d: SliceMetricValue = { value: nul(point[q][k] - wholePoint[k]) };
      const ci = cis?.[valueKey(q, key)];
      const dci = cis?.[diffKey(q, key)];
      if (ci && v.value !== null && Number.isFinite(ci[0]) && Number.isFinite(ci[1])) v.ci = ci;
      if (dci && d.value !== null && Number.isFinite(dci[0]) && Number.isFinite(dci[1])) d.ci = dci;
      row[key] = v;
      row.diff[key] = d;
    });
    return row;
  });
  // Worst first by the primary metric; stable, so ties keep column and value order.
  const primary = metrics.keys[0];
  const sign = metrics.directions[0] === 'higher' ? 1 : -1;
  const val = (r: SliceRow): number => (r[primary] as SliceMetricValue).value ?? NaN;
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      const x = val(a.r);
      const y = val(b.r);
      if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
      return (Number.isNaN(x) ? 0 : sign * (x - y)) || a.i - b.i;
    })
    .map((e) => e.r);
}

/**
 * Strata of the classification bootstrap, as the evaluation's intervals use them: with
 * `stratified`, the group column when the file has one, else the true class; otherwise none.
 */
export function classificationStrata(
  config: ResolvedConfig,
  groupColumn: string[] | null,
  labels: ArrayLike<number>,
): Int32Array | null {
  if (!config.bootstrap.stratified) return null;
  return groupColumn ? strataOf(groupColumn) : Int32Array.from(labels);
}
