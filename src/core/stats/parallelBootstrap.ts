/**
 * Resamples split across threads (Node `worker_threads`). Either resample b depends only on
 * (seed, b) (stats/resampleDraws.ts): then the threads — the calling one and the workers — claim
 * a few resamples at a time from a counter in shared memory until none is left (a
 * {@link SharedBlock}), so they finish together; or all resamples come from one sequential
 * generator and a thread steps through the draws before its range (stats/resampleStream.ts): then
 * the calling thread computes the first range itself and each worker one further range. Either
 * way the values — and the intervals — are the same whatever the number of threads or their
 * timing. The job's data reaches each worker once, by structured clone when the pool starts it or
 * takes it already started ({@link StartedResampleWorkers}: a worker started before its job, whose
 * thread start and script load then overlap the caller's own work) — a copy per worker of what is
 * in ordinary memory, none of what is over a SharedArrayBuffer: the classification job's per-row
 * arrays and its walk's tables are (stats/sharedArrays.ts), so every thread reads the one copy; the
 * n×C probability matrix is never sent; the blocks of a staged report reuse the same workers.
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
import type { Warnings } from '../diagnostics';
import { evaluateResamples, resampleEvaluator, type ResampleEvaluator, type ResampleRange } from './resampleDraws';
import { evaluateStreamResamples, ResampleStream } from './resampleStream';

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
  /**
   * How resamples are drawn: 'per-resample' (default), a generator per resample
   * (stats/resampleDraws.ts); 'stream', the one sequential generator
   * (stats/resampleStream.ts), each thread stepping through the draws before its range.
   */
  draws?: ResampleDraws;
  /** The statistic on this thread. */
  stat: ResampleFn;
  /** Data a worker needs to build the same statistic (structured-cloneable). */
  job: J;
  /** Worker script (absolute path; .js when bundled, .ts under tsx) or null for one thread. */
  workerFile: string | null;
  /** Threads to use (default: available cores, capped by the work). */
  threads?: number;
  /**
   * Progress (done of nResamples): of all threads when they share the resamples out (per-resample
   * draws), this thread's range scaled to the whole otherwise; throw to stop. Heard as this thread
   * finishes each of its own resamples.
   */
  onResample?: (done: number, total: number) => void;
  /**
   * A worker could not do its part of `range` — with per-resample draws the whole shared block,
   * otherwise the worker's own range — and what it left undone was computed on the calling thread
   * (same values, slower). A worker that failed is heard again for each later block it is not used for.
   */
  onWorkerFallback?: (range: ResampleRange, why: string) => void;
}

/**
 * What a worker receives in `workerData` (or, when it was started before its job existed, as its
 * first message); it then receives by message either a {@link ResampleRange}
 * (answered with its values) or a {@link SharedBlock} (answered with {@link BLOCK_DONE} once no
 * resample of it is left to claim).
 */
export interface ResampleWorkerInput<J> {
  job: J;
  nRows: number;
  K: number;
  seed: number;
  strata: Int32Array[] | null;
  draws?: ResampleDraws;
}

export type ResampleDraws = 'per-resample' | 'stream';

/** A statistic of one resample's multiplicities into `out` (resampleDraws.ts's `ResampleStat` may add a batch form). */
export type ResampleFn = (counts: Int32Array, out: Float64Array) => void;

/**
 * A block of resamples that the threads share out among themselves as they go (per-resample
 * draws only, where resample b depends on nothing before it): each thread claims the next
 * `chunk` resamples from a counter in shared memory until none is left, and writes their values
 * straight into `values`, shared too. The threads then finish together (within a chunk) however
 * fast each one runs: a worker starts later than the calling thread, and on a shared machine
 * either may get less of a core.
 */
export interface SharedBlock {
  first: number;
  count: number;
  chunk: number;
  /** [0]: chunks claimed so far; [1]: resamples done (for progress). */
  counters: Int32Array;
  /** Per chunk: 1 once its values are written. */
  done: Int32Array;
  /** Resample-major over the block: resample b's values at (b − first)·K. */
  values: Float64Array;
}

/** A worker's answer to a {@link SharedBlock}: it found no chunk left to claim. */
export const BLOCK_DONE = 'block-done';

/** Computes chunks of `block` claimed one after the other until none is left; `onChunk` after each. */
export function computeSharedBlock(
  block: SharedBlock,
  K: number,
  evaluate: ResampleEvaluator,
  onChunk?: () => void,
): void {
  const nChunks = Math.ceil(block.count / block.chunk);
  for (;;) {
    const c = Atomics.add(block.counters, 0, 1);
    if (c >= nChunks) return;
    const from = block.first + c * block.chunk;
    const to = Math.min(block.first + block.count, from + block.chunk);
    evaluate(from, to, block.values, (from - block.first) * K);
    Atomics.store(block.done, c, 1);
    Atomics.add(block.counters, 1, to - from);
    onChunk?.();
  }
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

/** The computation of a range of resamples on one thread (the calling thread or a worker). */
export type RangeEvaluator = (range: ResampleRange, onResample?: (done: number) => void) => Float64Array;

/**
 * The evaluator of `input`'s resamples with `stat`. With `draws: 'stream'` it keeps its position
 * in the stream, so consecutive ranges of one thread only step through the draws in between.
 */
export function rangeEvaluator(
  input: Pick<ResampleWorkerInput<unknown>, 'nRows' | 'K' | 'seed' | 'strata' | 'draws'>,
  stat: (counts: Int32Array, out: Float64Array) => void,
): RangeEvaluator {
  const { nRows, K, seed, strata } = input;
  if (input.draws === 'stream') {
    const stream = new ResampleStream(seed, nRows, strata);
    return (range, onResample) => evaluateStreamResamples(nRows, K, stat, { stream, range, onResample });
  }
  return (range, onResample) => evaluateResamples(nRows, K, stat, { seed, strata, range, onResample });
}

/** One worker of a pool: its thread, the range it is computing, and why it stopped (if it did). */
interface PoolWorker {
  w: Worker | null;
  running: boolean;
  why: string | null;
  pending: {
    range: ResampleRange;
    /** Waiting for {@link BLOCK_DONE} (a shared block), not for the range's values. */
    shared: boolean;
    resolve: (v: Float64Array | typeof BLOCK_DONE | null) => void;
    reject: (e: Error) => void;
  } | null;
}

export interface ResamplePoolOptions<J> extends Omit<
  ParallelResamplesOptions<J>,
  'nResamples' | 'first' | 'onResample' | 'stat'
> {
  /**
   * The statistic on this thread, or `{ build }` to build it once the workers are started: they
   * load their script and build their own copy meanwhile.
   */
  stat: ResampleFn | { build: () => ResampleFn };
  /** Resamples the pool computes over all its blocks (sets the number of threads worth starting). */
  totalResamples: number;
  /**
   * With `draws: 'stream'`: the time to step through one resample's draws relative to computing
   * one resample (draws and statistic). A thread whose range starts further on then gets fewer
   * resamples, so that the threads finish together (default 0: equal ranges).
   */
  seekCost?: number;
  /**
   * Worker threads started earlier with this pool's `workerFile` ({@link StartedResampleWorkers}):
   * the pool uses those it needs instead of starting new ones, and stops the others.
   */
  started?: StartedResampleWorkers | null;
}

/**
 * Worker threads of a bootstrap started before its job exists, e.g. while the calling thread
 * still computes the point estimates the job is built from: their thread start and script load
 * then happen on an otherwise idle core. Each waits for its {@link ResampleWorkerInput} as its
 * first message (sent by the {@link ResamplePool} that takes it). Whoever starts them stops them
 * ({@link stop}) when the evaluation ends, however it ends; a pool stops those it took.
 */
export class StartedResampleWorkers {
  private idle: PoolWorker[] = [];
  /** Every worker started here, taken or not. */
  private readonly all: PoolWorker[] = [];

  private constructor(readonly file: string) {}

  /**
   * `count` waiting workers of `file`, or null when none can start here (no script, no threads);
   * the pool then starts its own, or reports why it cannot, as without them.
   */
  static start(file: string | null, count: number): StartedResampleWorkers | null {
    if (!file || count < 1 || typeof Worker !== 'function' || !existsSync(file)) return null;
    const started = new StartedResampleWorkers(file);
    for (let t = 0; t < count; t++) {
      const p: PoolWorker = { w: null, running: false, why: null, pending: null };
      try {
        p.w = new Worker(file, { workerData: null });
        p.running = true;
      } catch (e) {
        p.why = `the worker could not start (${e instanceof Error ? e.message : String(e)})`;
        started.idle.push(p);
        started.all.push(p);
        continue;
      }
      // Until a pool takes it: a failure is kept for the pool to report (or, with workers required, to throw).
      p.w.on('error', (e: Error) => {
        if (p.why === null) p.why = `the worker failed (${e.message})`;
      });
      p.w.on('exit', (code: number) => {
        p.running = false;
        if (p.why === null) p.why = `the worker failed (exited with code ${code})`;
      });
      started.idle.push(p);
      started.all.push(p);
    }
    return started;
  }

  /** Threads started here that have not exited (taken by a pool or not). */
  get running(): number {
    return this.all.filter((p) => p.running).length;
  }

  /** Thread ids of the workers started here (for tests). */
  get threadIds(): number[] {
    return this.all.flatMap((p) => (p.w ? [p.w.threadId] : []));
  }

  /** Up to `n` of the waiting workers, now the caller's: their listeners so far are removed. */
  take(n: number): PoolWorker[] {
    const taken = this.idle.splice(0, n);
    for (const p of taken) {
      p.w?.removeAllListeners('error');
      p.w?.removeAllListeners('exit');
    }
    return taken;
  }

  private stopping: Promise<void> = Promise.resolve();

  /**
   * Stops the workers no pool has taken; resolves when they, and those of every earlier call, have
   * exited.
   */
  stop(): Promise<void> {
    const rest = this.take(this.idle.length);
    const now = Promise.all(
      rest.map(async (p) => {
        // A worker that failed before its message was handled has that error delivered as it
        // exits: heard here, it is not an uncaught exception (nothing of this worker is used).
        p.w?.on('error', () => {});
        if (p.w && p.running) await p.w.terminate();
        p.running = false;
      }),
    );
    this.stopping = Promise.all([this.stopping, now]).then(() => undefined);
    return this.stopping;
  }
}

/**
 * Splits resamples first..first+count-1 into one range per thread, thread t's stream standing at
 * `cursors[t]` (≤ first): with seek cost σ a range starting at f costs σ·(f − cursor) + its length,
 * and the boundaries make these costs equal (σ = 0: equal ranges). The ranges are consecutive and
 * cover the block whatever σ, so the values do not depend on it.
 */
export function splitBlock(first: number, count: number, cursors: number[], seekCost: number): ResampleRange[] {
  const T = cursors.length;
  const sigma = Math.min(Math.max(seekCost, 0), 0.9);
  if (sigma === 0)
    return Array.from({ length: T }, (_, t) => ({
      from: first + Math.floor((t * count) / T),
      to: first + Math.floor(((t + 1) * count) / T),
    }));
  // f(t+1) = W + f(t)·(1 − σ) + σ·cursor(t) is linear in the common cost W: solve f(T) = first + count.
  const ends = (W: number): number[] => {
    const f = [first];
    for (let t = 0; t < T; t++) f.push(W + f[t] * (1 - sigma) + sigma * Math.min(cursors[t], first));
    return f;
  };
  const f0 = ends(0)[T];
  const f1 = ends(1)[T];
  const W = (first + count - f0) / (f1 - f0);
  const f = ends(W);
  const ranges: ResampleRange[] = [];
  let from = first;
  for (let t = 0; t < T; t++) {
    const to = t === T - 1 ? first + count : Math.min(first + count, Math.max(from, Math.round(f[t + 1])));
    ranges.push({ from, to });
    from = to;
  }
  return ranges;
}

/**
 * Worker threads started once and sent the job once (structured clone in `workerData`, or as the
 * first message to a worker started earlier, see {@link StartedResampleWorkers}), then given
 * ranges of resamples by message, block after block (e.g. the first resamples behind provisional
 * intervals, then the rest). Each {@link run} shares its block out (per-resample draws: every
 * thread claims chunks as it goes) or splits it (stream draws: the calling thread computes the
 * first range, each worker one further range). A worker that fails is not used again; what it
 * left undone is computed on the calling thread (the same values; `onWorkerFallback` hears of
 * it), or, with EVAL_LENS_REQUIRE_WORKERS=1, the run fails. {@link close} terminates the workers; a run that
 * throws (cancellation, a failure) closes the pool itself.
 */
export class ResamplePool<J> {
  private readonly workers: PoolWorker[] = [];
  private readonly local: RangeEvaluator;
  /** The statistic on this thread (with its `batch`, when it has one). */
  private readonly stat: ResampleFn;
  /** With per-resample draws and workers: this thread's evaluator of a {@link SharedBlock}'s chunks. */
  private readonly shared: ResampleEvaluator | null = null;
  private closed = false;
  /** Per thread (0 = the calling one) where its stream stands: the end of its last range. */
  private readonly cursors: number[];

  constructor(private readonly opts: ResamplePoolOptions<J>) {
    const { nRows, K, seed, strata, workerFile } = opts;
    if (workersRequired() && workerFile && !existsSync(workerFile))
      throw new Error(`bootstrap worker script not found: ${workerFile}`);
    this.cursors = [0];
    const T = workerFile && existsSync(workerFile) ? threadsFor(nRows, opts.totalResamples, opts.threads) : 1;
    if (T > 1 && typeof Worker === 'function') {
      const input: ResampleWorkerInput<J> = { job: opts.job, nRows, K, seed, strata, draws: opts.draws };
      const ready = opts.started && opts.started.file === workerFile ? opts.started.take(T - 1) : [];
      for (let t = 1; t < T; t++) {
        const early = ready[t - 1];
        this.workers.push(early ? this.adopt(early, input) : this.start(workerFile!, input));
        this.cursors.push(0);
      }
    }
    void opts.started?.stop(); // those the pool does not use
    try {
      this.stat = typeof opts.stat === 'function' ? opts.stat : opts.stat.build();
    } catch (e) {
      void this.close(); // the workers started above would otherwise keep the process alive
      throw e;
    }
    this.local = rangeEvaluator({ nRows, K, seed, strata, draws: opts.draws }, this.stat);
    if (this.workers.length > 0 && opts.draws !== 'stream' && typeof SharedArrayBuffer === 'function')
      this.shared = resampleEvaluator(nRows, K, this.stat, seed, strata);
  }

  /** Worker threads started and not yet exited. */
  get threadsRunning(): number {
    return this.workers.filter((p) => p.running).length;
  }

  private start(file: string, input: ResampleWorkerInput<J>): PoolWorker {
    const p: PoolWorker = { w: null, running: false, why: null, pending: null };
    try {
      p.w = new Worker(file, { workerData: input });
      p.running = true;
    } catch (e) {
      if (workersRequired()) throw e;
      p.why = `the worker could not start (${e instanceof Error ? e.message : String(e)})`;
      return p; // e.g. no threads in this host: its ranges are computed here
    }
    this.listen(p);
    return p;
  }

  /** A worker started before its job existed ({@link StartedResampleWorkers}): sent its job now. */
  private adopt(p: PoolWorker, input: ResampleWorkerInput<J>): PoolWorker {
    if (!p.w || p.why !== null) {
      // it failed while waiting: its ranges are computed here; `take` removed the listener that
      // would have seen it exit
      p.w?.on('error', () => {});
      if (p.running) p.w?.once('exit', () => (p.running = false));
      return p;
    }
    this.listen(p);
    p.w.postMessage(input);
    return p;
  }

  private listen(p: PoolWorker): void {
    const w = p.w!;
    const fail = (reason: string): void => {
      if (p.why === null) p.why = `the worker failed (${reason})`;
      void p.w?.terminate();
      const pending = p.pending;
      p.pending = null;
      if (!pending) return;
      if (workersRequired()) pending.reject(new Error(`bootstrap worker failed: ${reason}`));
      else pending.resolve(null);
    };
    w.on('message', (m: unknown) => {
      const pending = p.pending;
      const expected = pending?.shared
        ? m === BLOCK_DONE
        : m instanceof Float64Array && pending && m.length === (pending.range.to - pending.range.from) * this.opts.K;
      if (pending && expected) {
        p.pending = null;
        pending.resolve(m as Float64Array | typeof BLOCK_DONE);
      } else fail('unexpected message');
    });
    w.on('error', (e: Error) => fail(e.message));
    w.on('exit', (code: number) => {
      p.running = false;
      if (!this.closed) fail(`exited with code ${code}`);
    });
  }

  /**
   * A worker's values for `range`, or its {@link BLOCK_DONE} for a shared block (over `range`), or
   * null when it cannot compute them (then they are computed here).
   */
  private ask(
    p: PoolWorker,
    range: ResampleRange,
    block?: SharedBlock,
  ): Promise<Float64Array | typeof BLOCK_DONE | null> {
    if (!p.w || p.why !== null) {
      if (workersRequired()) return Promise.reject(new Error(`bootstrap worker failed: ${p.why ?? 'not started'}`));
      return Promise.resolve(null);
    }
    const result = new Promise<Float64Array | typeof BLOCK_DONE | null>((resolve, reject) => {
      p.pending = { range, shared: block !== undefined, resolve, reject };
    });
    p.w.postMessage(block ?? range);
    return result;
  }

  /**
   * Values of resamples first..first+nResamples-1, resample-major (`values[(b − first)·K + k]`).
   * `onResample` hears the progress (done of nResamples: of all threads for a shared block, the
   * calling thread's scaled to the block otherwise);
   * throw from it to stop (the pool is then closed).
   */
  async run(
    first: number,
    nResamples: number,
    onResample?: (done: number, total: number) => void,
  ): Promise<Float64Array> {
    if (this.closed) throw new Error('the resampling threads were already stopped');
    if (this.shared !== null && nResamples > 0) return this.runShared(first, nResamples, onResample);
    const K = this.opts.K;
    const T = Math.min(1 + this.workers.length, Math.max(1, nResamples));
    const ranges = splitBlock(first, nResamples, this.cursors.slice(0, T), this.opts.seekCost ?? 0);
    ranges.forEach((r, t) => (this.cursors[t] = r.to));
    const values = new Float64Array(nResamples * K);
    try {
      const asked = ranges.slice(1).map((range, t) => {
        const result = this.ask(this.workers[t], range);
        result.catch(() => undefined); // awaited below; avoids an unhandled rejection before then
        return { range, result, worker: this.workers[t] };
      });
      const share = ranges[0].to - ranges[0].from;
      const v0 = this.local(ranges[0], (d) =>
        onResample?.(Math.min(nResamples - 1, Math.round((d * nResamples) / Math.max(1, share))), nResamples),
      );
      values.set(v0, (ranges[0].from - first) * K);
      for (const a of asked) {
        let v = await a.result;
        if (!(v instanceof Float64Array)) {
          this.opts.onWorkerFallback?.(a.range, a.worker.why ?? 'the worker failed');
          v = this.local(a.range);
        }
        values.set(v, (a.range.from - first) * K);
      }
    } catch (e) {
      await this.close();
      throw e;
    }
    onResample?.(nResamples, nResamples);
    return values;
  }

  /**
   * {@link run} with per-resample draws: the block is a {@link SharedBlock}, its chunks claimed by
   * this thread and the workers as they go. A worker that fails leaves its unfinished chunks to
   * this thread; the values are the same whoever computes them.
   */
  private async runShared(
    first: number,
    nResamples: number,
    onResample?: (done: number, total: number) => void,
  ): Promise<Float64Array> {
    const K = this.opts.K;
    const local = this.shared!;
    const batch = this.stat as { batch?: { lanes: number } };
    const chunk = Math.max(1, batch.batch?.lanes ?? 1);
    const nChunks = Math.ceil(nResamples / chunk);
    const block: SharedBlock = {
      first,
      count: nResamples,
      chunk,
      counters: new Int32Array(new SharedArrayBuffer(8)),
      done: new Int32Array(new SharedArrayBuffer(4 * nChunks)),
      values: new Float64Array(new SharedArrayBuffer(8 * nResamples * K)),
    };
    const range = { from: first, to: first + nResamples };
    try {
      const asked = this.workers.map((worker) => {
        const result = this.ask(worker, range, block);
        result.catch(() => undefined); // awaited below; avoids an unhandled rejection before then
        return { result, worker };
      });
      computeSharedBlock(block, K, local, () =>
        onResample?.(Math.min(nResamples - 1, Atomics.load(block.counters, 1)), nResamples),
      );
      for (const a of asked)
        if ((await a.result) === null) this.opts.onWorkerFallback?.(range, a.worker.why ?? 'the worker failed');
      // chunks a failed worker claimed and did not finish
      for (let c = 0; c < nChunks; c++) {
        if (Atomics.load(block.done, c) === 1) continue;
        const from = first + c * chunk;
        local(from, Math.min(first + nResamples, from + chunk), block.values, c * chunk * K);
      }
    } catch (e) {
      await this.close();
      throw e;
    }
    onResample?.(nResamples, nResamples);
    return new Float64Array(block.values);
  }

  /** Terminates the workers (resolves when they have exited); the pool cannot run again. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.workers.map(async (p) => {
        const pending = p.pending;
        p.pending = null;
        pending?.resolve(null);
        if (p.w && p.running) await p.w.terminate();
        p.running = false;
      }),
    );
  }
}

/** The `bootstrap-worker-fallback` warning: a worker's resamples were computed on the calling thread. */
export function workerFallbackNote(warnings: Pick<Warnings, 'note'>): (range: ResampleRange, why: string) => void {
  return (range, why) =>
    warnings.note(
      'bootstrap-worker-fallback',
      `Resamples ${range.from + 1}–${range.to} were finished on the main thread because ${why}: the intervals are the same, the evaluation was slower.`,
    );
}
