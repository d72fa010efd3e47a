/**
 * Percentile bootstrap (METRICS.md section 5). Every family uses this one module: a resample is
 * represented by a multiplicity vector `counts` (counts[i] = how many times row i was drawn), so a
 * statistic written over weighted rows (weights × counts) needs no copying and can keep a sort
 * order computed once on the full data.
 *
 * Conventions: resampling with replacement to the same size (per stratum when `strata` is given,
 * each stratum to its own size); the interval is the percentile interval with the linear
 * interpolation of numpy's default `percentile` (Hyndman–Fan type 7) at (1−c)/2 and (1+c)/2;
 * resamples whose statistic is undefined (NaN) are left out, and the interval is null when fewer
 * than half of them are defined. Same data, options and seed → the same interval.
 */
import { createRng } from './rng';

export interface BootstrapOptions {
  /** Number of resamples (≥ 1). */
  n: number;
  /** Confidence level in (0, 1), e.g. 0.95. */
  confidence: number;
  seed: number;
  /** Stratum index per row (0..S-1): each stratum is resampled to its own size. */
  strata?: Int32Array | null;
  /** Called after each resample (for progress and cancellation; throw to stop). */
  onResample?: (done: number, total: number) => void;
}

/**
 * Draws `opts.n` multiplicity vectors over `nRows` rows and evaluates `stat` on each. `stat`
 * returns one number or a fixed-length array of numbers (several metrics from one resample).
 * Returns, per statistic, the values over resamples (NaN where undefined).
 */
export function bootstrapDistribution(
  nRows: number,
  stat: (counts: Float64Array) => number | ArrayLike<number>,
  opts: BootstrapOptions,
): Float64Array[] {
  if (!Number.isInteger(opts.n) || opts.n < 1) throw new RangeError(`Expected \`n\` to be a positive integer, but got ${opts.n}.`);
  const rng = createRng(opts.seed);
  const counts = new Float64Array(nRows);
  const members = strataMembers(nRows, opts.strata ?? null);
  let out: Float64Array[] | null = null;
  for (let b = 0; b < opts.n; b++) {
    counts.fill(0);
    for (const rows of members) {
      const m = rows.length;
      for (let j = 0; j < m; j++) counts[rows[rng.int(m)]] += 1;
    }
    const v = stat(counts);
    const arr = typeof v === 'number' ? [v] : v;
    out ??= Array.from({ length: arr.length }, () => new Float64Array(opts.n));
    for (let s = 0; s < arr.length; s++) out[s][b] = arr[s];
    opts.onResample?.(b + 1, opts.n);
  }
  return out ?? [];
}

function strataMembers(nRows: number, strata: Int32Array | null): Int32Array[] {
  if (!strata) {
    const all = new Int32Array(nRows);
    for (let i = 0; i < nRows; i++) all[i] = i;
    return [all];
  }
  if (strata.length !== nRows) throw new RangeError(`Expected \`strata\` to have ${nRows} entries, but got ${strata.length}.`);
  const sizes = new Map<number, number>();
  for (let i = 0; i < nRows; i++) sizes.set(strata[i], (sizes.get(strata[i]) ?? 0) + 1);
  const keys = [...sizes.keys()].sort((a, b) => a - b);
  const lists = new Map<number, Int32Array>(keys.map((k) => [k, new Int32Array(sizes.get(k)!)]));
  const fill = new Map<number, number>(keys.map((k) => [k, 0]));
  for (let i = 0; i < nRows; i++) {
    const k = strata[i];
    const at = fill.get(k)!;
    lists.get(k)![at] = i;
    fill.set(k, at + 1);
  }
  return keys.map((k) => lists.get(k)!);
}

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
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`Expected \`confidence\` in (0, 1), but got ${confidence}.`);
  const finite = Array.from(values).filter((v) => Number.isFinite(v));
  if (finite.length === 0 || finite.length * 2 < values.length) return null;
  const sorted = Float64Array.from(finite).sort();
  const a = (1 - confidence) / 2;
  return [quantileSorted(sorted, a), quantileSorted(sorted, 1 - a)];
}
