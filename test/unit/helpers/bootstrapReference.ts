/**
 * Reference forms of the bootstrap used only by tests: intervals of a statistic over file-order
 * multiplicities on one thread, as the tasks computed them before every task resampled through its
 * plan (stats/planIntervals.ts). The tests compare the plans' intervals and the engines' draws with
 * these slow, obvious loops.
 */
import {
  intervalOf,
  PROVISIONAL_RESAMPLES,
  percentileInterval,
  resampleColumns,
} from '../../../src/core/stats/bootstrap';
import { ResamplePool, threadsFor, type ParallelResamplesOptions } from '../../../src/core/stats/parallelBootstrap';
import { planIntervals } from '../../../src/core/stats/planIntervals';
import { evaluateResamples, stratumPositions, type ResampleRange } from '../../../src/core/stats/resampleDraws';
import { ResampleStream } from '../../../src/core/stats/resampleStream';
import {
  rankingCiWorkerFile,
  streamPlan,
  userMeanJob,
  userMeanStat,
  type UserMeanPlanOptions,
} from '../../../src/core/tasks/rankingCi';
import type { ResamplingPlan } from '../../../src/core/stats/resamplingPlan';

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
  /**
   * Called once, after the first `at` resamples when `n` > `at`, with each statistic's values over
   * those resamples: the same values as a run of `at` resamples with the same seed, so intervals
   * from them are provisional intervals that the remaining resamples refine.
   */
  provisional?: ProvisionalHook;
}

export interface ProvisionalHook {
  at: number;
  onDistribution: (dist: Float64Array[]) => void;
}

/**
 * A bootstrap on the calling thread with the fast draws (stats/resampleDraws.ts): the
 * resampling definition (with replacement to the same size; per stratum, each stratum to its own
 * size, when `strata` is given) drawn by the inlined xoshiro128** + Lemire kernel straight into
 * Int32 multiplicities, with a generator per resample (resample b depends only on (seed, b,
 * strata)). Another stream than the sequential one of stats/resampleStream.ts (which reproduces
 * `createRng(seed).int`); the seed still fixes every value.
 *
 * `stat(counts, out)` writes its `K` values into `out` (pre-filled with NaN; NaN = undefined) and
 * must not keep `counts` (a reused buffer). Returns, per statistic, the values over resamples.
 */
export function fastBootstrapDistribution(
  nRows: number,
  K: number,
  stat: (counts: Int32Array, out: Float64Array) => void,
  opts: BootstrapOptions,
): Float64Array[] {
  if (!Number.isInteger(opts.n) || opts.n < 1)
    throw new RangeError(`Expected \`n\` to be a positive integer, but got ${opts.n}.`);
  const B = opts.n;
  const onResample = opts.onResample;
  const strata = stratumPositions(nRows, opts.strata ?? null);
  // Resample b depends only on (seed, b): with a provisional hook the resamples run in two
  // ranges, and the values are the same as in one.
  const at = opts.provisional && opts.provisional.at < B ? opts.provisional.at : B;
  const run = (from: number, to: number): Float64Array =>
    evaluateResamples(nRows, K, stat, {
      seed: opts.seed,
      strata,
      range: { from, to },
      onResample: onResample ? (done) => onResample(from + done, B) : undefined,
    });
  const columns = (values: Float64Array, nb: number): Float64Array[] => resampleColumns(values, K, nb);
  const head = run(0, at);
  if (at === B) return columns(head, B);
  opts.provisional!.onDistribution(columns(head, at));
  const values = new Float64Array(B * K);
  values.set(head);
  values.set(run(at, B), at * K);
  return columns(values, B);
}

/**
 * The sequential stream's bootstrap, resample by resample on one thread (the reference of the
 * 'stream' draws of stats/planIntervals.ts, which the ranking plans and the slice table use):
 * draws `opts.n` multiplicity vectors over `nRows` rows and evaluates `stat` on each. `stat`
 * returns one number or a fixed-length array of numbers (several metrics from one resample).
 * Returns, per statistic, the values over resamples (NaN where undefined).
 */
export function bootstrapDistribution(
  nRows: number,
  stat: (counts: Float64Array) => number | ArrayLike<number>,
  opts: BootstrapOptions,
): Float64Array[] {
  if (!Number.isInteger(opts.n) || opts.n < 1)
    throw new RangeError(`Expected \`n\` to be a positive integer, but got ${opts.n}.`);
  const stream = new ResampleStream(opts.seed, nRows, stratumPositions(nRows, opts.strata ?? null));
  const counts = new Float64Array(nRows);
  let out: Float64Array[] | null = null;
  // Draws are counted in an Int32Array (half the memory of the Float64Array handed to `stat`, so
  // the random increments miss the cache less), then copied over.
  const tally = new Int32Array(nRows);
  for (let b = 0; b < opts.n; b++) {
    stream.draw(tally);
    for (let i = 0; i < nRows; i++) counts[i] = tally[i];
    const v = stat(counts);
    const arr = typeof v === 'number' ? [v] : v;
    out ??= Array.from({ length: arr.length }, () => new Float64Array(opts.n));
    for (let s = 0; s < arr.length; s++) out[s][b] = arr[s];
    opts.onResample?.(b + 1, opts.n);
    if (opts.provisional && b + 1 === opts.provisional.at && opts.n > b + 1) {
      const at = b + 1;
      opts.provisional.onDistribution(out.map((d) => d.subarray(0, at)));
    }
  }
  return out ?? [];
}

/**
 * The interval of `key` from its resamples: by {@link intervalOf} when `points` gives the key's
 * point, else the percentile interval (callers without points ask for percentile intervals).
 */
function keyInterval(
  key: string,
  values: ArrayLike<number>,
  points: Readonly<Record<string, number | null>> | undefined,
  confidence: number,
): [number, number] | null {
  return points ? intervalOf(key, values, points[key], confidence) : percentileInterval(values, confidence);
}

/** A {@link ProvisionalHook} handing over intervals per key (as {@link ciForStatistics} computes them). */
export function provisionalIntervals(
  keys: readonly string[],
  confidence: number,
  onIntervals: (cis: Record<string, [number, number] | null>, done: number) => void,
  at = PROVISIONAL_RESAMPLES,
  points?: Readonly<Record<string, number | null>>,
): ProvisionalHook {
  return {
    at,
    onDistribution: (dist) => {
      const out: Record<string, [number, number] | null> = {};
      keys.forEach((key, k) => {
        out[key] = dist[k] ? keyInterval(key, dist[k], points, confidence) : null;
      });
      onIntervals(out, at);
    },
  };
}

/**
 * Intervals for several statistics computed from the same resamples. `stat(counts)`
 * returns one value per key (NaN/null where undefined in that resample); the result maps each key
 * to its interval, or null when fewer than half the resamples define it. Percentile intervals;
 * with `points` (each key's value on the sample), each key's own method ({@link intervalOf}). This is the entry point
 * for every family: build the per-row data once, write the statistics as functions of the
 * multiplicities, call this.
 *
 * @example ciForStatistics(n, (c) => [weightedMean(x, c)], ['mean'], { n: 1000, confidence: 0.95, seed: 0 })
 */
export function ciForStatistics(
  nRows: number,
  stat: (counts: Float64Array) => ArrayLike<number | null>,
  keys: readonly string[],
  opts: BootstrapOptions,
  points?: Readonly<Record<string, number | null>>,
): Record<string, [number, number] | null> {
  const buf = new Float64Array(keys.length);
  const dist = bootstrapDistribution(
    nRows,
    (counts) => {
      const v = stat(counts);
      if (v.length !== keys.length)
        throw new RangeError(`Expected the statistic to return ${keys.length} values, but got ${v.length}.`);
      for (let k = 0; k < keys.length; k++) {
        const x = v[k];
        buf[k] = x === null ? NaN : x;
      }
      return buf;
    },
    opts,
  );
  const out: Record<string, [number, number] | null> = {};
  keys.forEach((key, k) => {
    out[key] = dist[k] ? keyInterval(key, dist[k], points, opts.confidence) : null;
  });
  return out;
}

/**
 * {@link ciForStatistics} on the fast engine ({@link fastBootstrapDistribution}): one percentile
 * interval per key (null when fewer than half the resamples define it), the statistic reading
 * Int32 multiplicities and writing `keys.length` values into `out`.
 */
export function fastCiForStatistics(
  nRows: number,
  stat: (counts: Int32Array, out: Float64Array) => void,
  keys: readonly string[],
  opts: BootstrapOptions,
): Record<string, [number, number] | null> {
  const dist = fastBootstrapDistribution(nRows, keys.length, stat, opts);
  const out: Record<string, [number, number] | null> = {};
  keys.forEach((key, k) => {
    out[key] = percentileInterval(dist[k], opts.confidence);
  });
  return out;
}

export interface UserMeanCiOptions {
  /** Number of resamples. */
  n: number;
  confidence: number;
  seed: number;
  /** Progress (done of n); throw to stop. */
  onResample?: (done: number, total: number) => void;
  /** Intervals from the first resamples (stats/planIntervals.ts), when there are more. */
  onProvisional?: (cis: Record<string, [number, number] | null>, done: number) => void;
  /** Resamples behind the provisional intervals (default: stats/bootstrap.ts `PROVISIONAL_RESAMPLES`). */
  provisionalAt?: number;
  /** Threads to use (default: available cores, capped by the work). */
  threads?: number;
  /** Worker script (default: the one next to this module), or null for one thread. */
  workerFile?: string | null;
  /** A worker's resamples were computed on the calling thread (same values, slower). */
  onWorkerFallback?: (range: ResampleRange, why: string) => void;
}

/**
 * The {@link ResamplingPlan} of user means alone (`keys` of `perUser`): the units are the evaluated
 * users, each key's statistic the mean of its users' values weighted by their multiplicities
 * (users with an undefined value left out), drawn from the one sequential stream
 * (stats/resampleStream.ts), on the ranking bootstrap threads (whose worker serves a plain
 * `UserMeanJob` for it). The task's own plan, `rankingPlan` (tasks/rankingCi.ts), runs the same
 * kernel under its families' statistics.
 */
export function userMeanPlan(
  perUser: Record<string, Float64Array>,
  keys: readonly string[],
  n: number,
  opts: UserMeanPlanOptions,
): ResamplingPlan {
  const job = userMeanJob(perUser, keys, n, opts.shared);
  return {
    ...streamPlan(n, opts.ids, [...keys], keys.length),
    build: () => userMeanStat(job),
    worker: { file: rankingCiWorkerFile(), job },
  };
}

/**
 * Percentile intervals of the user means of `keys` (n users each in `perUser`; NaN = undefined
 * for that user, left out of that key's mean): one per key, null when fewer than half the
 * resamples define it — the plan of {@link userMeanPlan} run by `planIntervals`
 * (stats/planIntervals.ts), with `threads` and `workerFile` as given.
 */
export async function userMeanCis(
  perUser: Record<string, Float64Array>,
  keys: string[],
  n: number,
  opts: UserMeanCiOptions,
): Promise<Record<string, [number, number] | null>> {
  if (!Number.isInteger(opts.n) || opts.n < 1)
    throw new RangeError(`Expected \`n\` to be a positive integer, but got ${opts.n}.`);
  const workerFile = opts.workerFile === undefined ? rankingCiWorkerFile() : opts.workerFile;
  const shared = workerFile !== null && threadsFor(n, opts.n, opts.threads) > 1;
  const plan = userMeanPlan(perUser, keys, n, { ids: null, shared });
  if (plan.worker) plan.worker.file = workerFile;
  return planIntervals(plan, {
    n: opts.n,
    confidence: opts.confidence,
    seed: opts.seed,
    onResample: opts.onResample,
    onProvisional: opts.onProvisional,
    provisionalAt: opts.provisionalAt,
    threads: opts.threads,
    onWorkerFallback: opts.onWorkerFallback,
  });
}

/**
 * Values of resamples first..first+nResamples-1, resample-major (`values[(b − first)·K + k]`): a
 * {@link ResamplePool} used for one block and closed (the evaluation keeps one pool for all its
 * blocks: stats/planIntervals.ts).
 */
export async function parallelResamples<J>(opts: ParallelResamplesOptions<J>): Promise<Float64Array> {
  const pool = new ResamplePool({ ...opts, totalResamples: opts.nResamples });
  try {
    return await pool.run(opts.first ?? 0, opts.nResamples, opts.onResample);
  } finally {
    await pool.close();
  }
}
