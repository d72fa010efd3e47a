/**
 * Resamples split across threads (Node `worker_threads`): the calling thread computes the first
 * range itself and each worker one further range. Resample b depends only on (seed, b)
 * (stats/resampleDraws.ts), so the values — and the intervals — are the same whatever the number
 * of threads or their timing. The job's data reaches each worker by structured clone (one copy of
 * the prepared per-row arrays per worker, tens of MB at most; the n×C probability matrix is never
 * sent).
 *
 * One thread is used when `Worker` is unavailable, the work is small (worker start-up costs tens
 * of milliseconds), the machine has one core, or the worker script is not found; a worker that
 * fails is recomputed on the calling thread, so the result never depends on the threads; the
 * caller hears of it through `onWorkerFallback` (the results then carry a warning saying so).
 *
 * With the environment variable EVAL_LENS_REQUIRE_WORKERS=1 (set by the benchmarks) a worker that
 * cannot start, fails, or whose script is missing is an error instead: a measurement that claims
 * two threads must not quietly run on one.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { evaluateResamples, type ResampleRange } from './resampleDraws';

/** Below this many row-draws (rows × resamples) the resamples stay on the calling thread. */
export const PARALLEL_MIN_WORK = 20_000_000;

export interface ParallelResamplesOptions<J> {
  nRows: number;
  /** Values per resample. */
  K: number;
  nResamples: number;
  /** Index of the first resample (default 0): resamples first..first+nResamples-1 are computed. */
  first?: number;
  seed: number;
  strata: Int32Array[] | null;
  /** The statistic on this thread. */
  stat: (counts: Int32Array, out: Float64Array) => void;
  /** Data a worker needs to build the same statistic (structured-cloneable). */
  job: J;
  /** Worker script (absolute path; .js when bundled, .ts under tsx) or null for one thread. */
  workerFile: string | null;
  /** Threads to use (default: available cores, capped by the work). */
  threads?: number;
  /** Progress on this thread's range, scaled to the whole (done of nResamples); throw to stop. */
  onResample?: (done: number, total: number) => void;
  /** A worker could not compute its range, which was then computed on the calling thread (same values, slower). */
  onWorkerFallback?: (range: ResampleRange, why: string) => void;
}

/** Message a worker receives in `workerData`. */
export interface ResampleWorkerInput<J> {
  job: J;
  nRows: number;
  K: number;
  seed: number;
  strata: Int32Array[] | null;
  range: ResampleRange;
}

/** Number of threads worth using for this much work. */
export function threadsFor(nRows: number, nResamples: number, requested?: number): number {
  const cores = Math.max(1, typeof availableParallelism === 'function' ? availableParallelism() : 1);
  if (requested !== undefined) return Math.max(1, Math.min(requested, nResamples));
  if (nRows * nResamples < PARALLEL_MIN_WORK) return 1;
  return Math.max(1, Math.min(cores, nResamples));
}

/** True when a worker that cannot do its range must be an error (benchmarks), not recomputed here. */
export function workersRequired(): boolean {
  return typeof process !== 'undefined' && process.env.EVAL_LENS_REQUIRE_WORKERS === '1';
}

/** Values of resamples first..first+nResamples-1, resample-major (`values[(b − first)·K + k]`). */
export async function parallelResamples<J>(opts: ParallelResamplesOptions<J>): Promise<Float64Array> {
  const { nRows, K, nResamples, seed, strata } = opts;
  const first = opts.first ?? 0;
  if (workersRequired() && opts.workerFile && !existsSync(opts.workerFile)) {
    throw new Error(`bootstrap worker script not found: ${opts.workerFile}`);
  }
  const T = opts.workerFile && existsSync(opts.workerFile) ? threadsFor(nRows, nResamples, opts.threads) : 1;
  const ranges: ResampleRange[] = [];
  for (let t = 0; t < T; t++)
    ranges.push({ from: first + Math.floor((t * nResamples) / T), to: first + Math.floor(((t + 1) * nResamples) / T) });
  const WorkerCtor = T > 1 && typeof Worker === 'function' ? Worker : null;
  const pending: {
    range: ResampleRange;
    result: Promise<Float64Array | null>;
    stop: () => void;
    why: () => string;
  }[] = [];
  if (WorkerCtor) {
    for (const range of ranges.slice(1)) {
      const input: ResampleWorkerInput<J> = { job: opts.job, nRows, K, seed, strata, range };
      let w: Worker | null;
      let why = '';
      try {
        w = new WorkerCtor(opts.workerFile!, { workerData: input });
      } catch (e) {
        if (workersRequired()) throw e;
        w = null; // e.g. no threads in this host: the range is computed here
        why = `the worker could not start (${e instanceof Error ? e.message : String(e)})`;
      }
      const result = new Promise<Float64Array | null>((resolve, reject) => {
        if (!w) return resolve(null);
        const fail = (reason: string) => {
          if (workersRequired()) return reject(new Error(`bootstrap worker failed: ${reason}`));
          why = `the worker failed (${reason})`;
          resolve(null);
        };
        w.once('message', (m: unknown) =>
          m instanceof Float64Array && m.length === (range.to - range.from) * K
            ? resolve(m)
            : fail('unexpected message'),
        );
        w.once('error', (e: Error) => fail(e.message));
        w.once('exit', (code: number) => fail(`exited with code ${code}`));
      });
      result.catch(() => undefined); // awaited below; avoids an unhandled rejection before then
      pending.push({ range, result, stop: () => void w?.terminate(), why: () => why });
    }
  }
  const local = WorkerCtor ? [ranges[0]] : ranges;
  const values = new Float64Array(nResamples * K);
  const share = local.reduce((s, r) => s + r.to - r.from, 0);
  try {
    let done = 0;
    for (const range of local) {
      const v = evaluateResamples(nRows, K, opts.stat, {
        seed,
        strata,
        range,
        onResample: (d) =>
          opts.onResample?.(Math.min(nResamples - 1, Math.round(((done + d) * nResamples) / share)), nResamples),
      });
      values.set(v, (range.from - first) * K);
      done += range.to - range.from;
    }
    for (const p of pending) {
      let v = await p.result;
      if (!v) {
        opts.onWorkerFallback?.(p.range, p.why());
        v = evaluateResamples(nRows, K, opts.stat, { seed, strata, range: p.range });
      }
      values.set(v, (p.range.from - first) * K);
      p.stop();
    }
  } catch (e) {
    for (const p of pending) p.stop();
    throw e;
  }
  opts.onResample?.(nResamples, nResamples);
  return values;
}
