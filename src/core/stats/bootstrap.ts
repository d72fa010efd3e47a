/**
 * Percentile bootstrap (docs/comparisons.md). Every family uses this one module: a resample is
 * represented by a multiplicity vector `counts` (counts[i] = how many times row i was drawn), so a
 * statistic written over weighted rows (weights × counts) needs no copying and can keep a sort
 * order computed once on the full data.
 *
 * Conventions: resampling with replacement to the same size (per stratum when `strata` is given,
 * each stratum to its own size); the interval is the percentile interval with the linear
 * interpolation of numpy's default `percentile` (Hyndman–Fan type 7) at (1−c)/2 and (1+c)/2;
 * resamples whose statistic is undefined (NaN) are left out, and the interval is null when fewer
 * than half of them are defined. Same data, options and seed → the same interval. The binned
 * calibration errors are the exception: a basic bootstrap interval ({@link IntervalMethod}).
 */
import { checkCancelled, type Progress } from '../diagnostics';
import { dictionaryEncode } from '../data/textColumn';

/** Default number of resamples behind provisional intervals. */
export const PROVISIONAL_RESAMPLES = 200;

/** numpy's default percentile (linear, type 7) of `sorted` at q in [0, 1]. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const m = sorted.length;
  if (m === 0) return NaN;
  const h = (m - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, m - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** Percentile interval of a bootstrap distribution; null when fewer than half the values are defined. */
export function percentileInterval(values: ArrayLike<number>, confidence: number): [number, number] | null {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`Expected \`confidence\` in (0, 1), but got ${confidence}.`);
  // One typed sort of every value, the finite ones then the slice between −∞ (sorted first) and
  // +∞, NaN (sorted last): the same sorted values as sorting the finite ones alone, without
  // building them as an array first (a bootstrap's hundreds of keys × resamples on one thread).
  const all = Float64Array.from(values).sort();
  let lo = 0;
  let hi = all.length;
  while (lo < hi && all[lo] === -Infinity) lo++;
  while (hi > lo && !Number.isFinite(all[hi - 1])) hi--;
  const sorted = all.subarray(lo, hi);
  if (sorted.length === 0 || sorted.length * 2 < values.length) return null;
  const a = (1 - confidence) / 2;
  return [quantileSorted(sorted, a), quantileSorted(sorted, 1 - a)];
}

/**
 * How a key's interval is formed from its resamples: `percentile` (every metric's default) or
 * `basic` — the basic bootstrap interval of Davison & Hinkley (1997), *Bootstrap Methods and their
 * Application*, §5.2, eq. (5.6): `[2θ̂ − q(1−α/2), 2θ̂ − q(α/2)]` with θ̂ the point and q the
 * resamples' quantiles, the same as scipy.stats.bootstrap(method='basic').
 *
 * The binned calibration errors (`ece`, `mce`, `ece_adaptive`, slices' `ece`) take the basic interval:
 * they sum or max |acc − conf| over bins, so sampling noise only adds to them and a resample's value
 * sits above the sample's as the sample's sits above the population's. Their percentile interval
 * then lies above the point (in simulations with a known calibration error it covered it in 0–70% of
 * samples, MCE almost never); the basic interval reflects the resamples about the point and so
 * subtracts that bias (about 85–90% at 95%). The error is in [0, 1]: the bounds are clipped to it.
 */
export type IntervalMethod = 'percentile' | 'basic';

/**
 * Keys of binned calibration errors: their intervals are basic bootstrap intervals. A key qualified
 * by a prefix (`slice:ece`, a slice's value in the slice table's bootstrap) takes the method of the
 * metric after the last colon.
 */
const BASIC_INTERVAL_KEYS = /(^|:)(ece|mce|ece_adaptive)$/;

/** The interval method of a metric key (see {@link IntervalMethod}). */
export function intervalMethodOf(key: string): IntervalMethod {
  return BASIC_INTERVAL_KEYS.test(key) ? 'basic' : 'percentile';
}

/**
 * Basic bootstrap interval (see {@link IntervalMethod}) of a statistic whose value on the sample is
 * `point`: the percentile interval [q_lo, q_hi] reflected about it, `[2·point − q_hi, 2·point −
 * q_lo]`, clipped to `range`. Null when the percentile interval is, or the point is not finite.
 */
export function basicInterval(
  values: ArrayLike<number>,
  point: number,
  confidence: number,
  range: [number, number] = [-Infinity, Infinity],
): [number, number] | null {
  const q = percentileInterval(values, confidence);
  if (q === null || !Number.isFinite(point)) return null;
  const clip = (x: number): number => Math.min(range[1], Math.max(range[0], x));
  return [clip(2 * point - q[1]), clip(2 * point - q[0])];
}

/**
 * The interval of metric `key` from its resamples: the basic interval about `point` for the binned
 * calibration errors (clipped to [0, 1]), the percentile interval for every other key.
 */
export function intervalOf(
  key: string,
  values: ArrayLike<number>,
  point: number | null | undefined,
  confidence: number,
): [number, number] | null {
  if (intervalMethodOf(key) === 'basic') return basicInterval(values, point ?? NaN, confidence, [0, 1]);
  return percentileInterval(values, confidence);
}

/** Per statistic its values over resamples, from resample-major values (`values[b·K + k]`). */
export function resampleColumns(values: Float64Array, K: number, nResamples: number): Float64Array[] {
  const out = Array.from({ length: K }, () => new Float64Array(nResamples));
  for (let b = 0; b < nResamples; b++) for (let k = 0; k < K; k++) out[k][b] = values[b * K + k];
  return out;
}

/** Stratum index per row (0..S-1, in order of first appearance) from any per-row key. */
export function strataOf(values: ArrayLike<string | number>): Int32Array {
  return dictionaryEncode(values).codes;
}

/**
 * An `onResample` hook that reports progress (`stage`, done, total) about every 1% and checks
 * cancellation: when `isCancelled()` is true it throws {@link CancelledError}.
 */
export function resampleProgress(progress: Progress | undefined, stage: string): (done: number, total: number) => void {
  let next = 0;
  return (done, total) => {
    if (done < next && done !== total) return;
    next = done + Math.max(1, Math.floor(total / 100));
    progress?.report?.(stage, done, total);
    checkCancelled(progress);
  };
}
