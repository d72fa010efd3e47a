/**
 * The engine behind every interval of a run: a {@link ResamplingPlan} resampled `n` times and each
 * key's interval formed from its resamples. It owns the resampling pool (the plan's worker script
 * on the bootstrap threads, or the calling thread), the draws the plan asks for, the provisional
 * block and the interval rule of each key; the tasks only build plans (tasks/bootstrapService.ts
 * places the intervals in the results), and the paired comparison runs two plans on the same
 * draws (compare/pairedBootstrap.ts).
 *
 * Conventions: percentile intervals (numpy's default linear interpolation) at `confidence`, the
 * basic interval about the key's point for the binned calibration errors ({@link intervalOf});
 * null when fewer than half the resamples define the key. With `onProvisional` and more than
 * {@link PROVISIONAL_RESAMPLES} resamples, the first block is computed on its own and its
 * intervals handed over first: they are those of a run of that many resamples with the same seed,
 * and the final values do not depend on the split (nor on the number of threads).
 */
import { intervalOf, PROVISIONAL_RESAMPLES } from './bootstrap';
import { ResamplePool, type StartedResampleWorkers } from './parallelBootstrap';
import { stratumPositions, type ResampleRange } from './resampleDraws';
import type { ResamplingPlan } from './resamplingPlan';

export type Intervals = Record<string, [number, number] | null>;

export interface PlanIntervalOptions {
  /** Number of resamples (≥ 1). */
  n: number;
  confidence: number;
  seed: number;
  /** Each key's value on the sample (the basic intervals are reflected about it); absent = NaN. */
  points?: Readonly<Record<string, number | null>>;
  /** Progress (done of n); throw to stop. */
  onResample?: (done: number, total: number) => void;
  /** Intervals from the first `provisionalAt` resamples (when n is larger). */
  onProvisional?: (cis: Intervals, done: number) => void;
  /** Resamples behind the provisional intervals (default {@link PROVISIONAL_RESAMPLES}). */
  provisionalAt?: number;
  /** Bootstrap threads started before the plan existed (the pool takes those it needs). */
  started?: StartedResampleWorkers | null;
  /** Threads to use (default: available cores, capped by the work). */
  threads?: number;
  /** A worker's resamples were computed on the calling thread (same values, slower). */
  onWorkerFallback?: (range: ResampleRange, why: string) => void;
}

/** Each unit's stratum in the order the plan's statistic walks its units (`position`). */
export function strataInPositionOrder(plan: Pick<ResamplingPlan, 'n' | 'strata' | 'position'>): Int32Array | null {
  const strata = plan.strata;
  if (!strata) return null;
  const position = plan.position; // read only with strata: a plan may make it when first read
  if (!position) return strata;
  const out = new Int32Array(plan.n);
  for (let i = 0; i < plan.n; i++) out[position[i]] = strata[i];
  return out;
}

/** The intervals of every key of `plan` (see the module's doc). */
export async function planIntervals(plan: ResamplingPlan, opts: PlanIntervalOptions): Promise<Intervals> {
  if (!Number.isInteger(opts.n) || opts.n < 1)
    throw new RangeError(`Expected \`n\` to be a positive integer, but got ${opts.n}.`);
  const B = opts.n;
  const K = plan.keys.length;
  if (!plan.worker?.file) void opts.started?.stop(); // this plan runs on the calling thread
  const pool = new ResamplePool({
    nRows: plan.n,
    K,
    totalResamples: B,
    seed: opts.seed,
    strata: stratumPositions(plan.n, strataInPositionOrder(plan)),
    draws: plan.draws,
    seekCost: plan.seekCost,
    // built once the worker threads are started: they load and build their own meanwhile
    stat: { build: plan.build },
    job: plan.worker?.job ?? null,
    workerFile: plan.worker?.file ?? null,
    started: plan.worker?.file ? opts.started : null,
    threads: opts.threads,
    onWorkerFallback: opts.onWorkerFallback,
  });
  try {
    const block = (first: number, count: number): Promise<Float64Array> =>
      pool.run(first, count, (done) => opts.onResample?.(Math.min(first + done, B), B));
    const first = opts.provisionalAt ?? PROVISIONAL_RESAMPLES;
    const at = opts.onProvisional && B > first ? first : B;
    const head = await block(0, at);
    if (at === B) return intervalsOfValues(head, plan.keys, B, opts);
    opts.onProvisional!(intervalsOfValues(head, plan.keys, at, opts), at);
    const values = new Float64Array(B * K);
    values.set(head);
    values.set(await block(at, B - at), at * K);
    return intervalsOfValues(values, plan.keys, B, opts);
  } finally {
    await pool.close();
  }
}

/**
 * Interval per key from resample-major values (`values[b·K + k]`), each by its own rule
 * ({@link intervalOf}: basic about its point for the binned calibration errors, else percentile).
 */
export function intervalsOfValues(
  values: Float64Array,
  keys: readonly string[],
  nResamples: number,
  opts: Pick<PlanIntervalOptions, 'confidence' | 'points'>,
): Intervals {
  const K = keys.length;
  const col = new Float64Array(nResamples);
  const out: Intervals = {};
  keys.forEach((key, k) => {
    for (let b = 0; b < nResamples; b++) col[b] = values[b * K + k];
    out[key] = intervalOf(key, col, opts.points?.[key], opts.confidence);
  });
  return out;
}
