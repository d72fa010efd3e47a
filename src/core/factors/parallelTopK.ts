/**
 * Top-K lists from a factor model on several threads (Node `worker_threads`). The calling thread
 * and each worker take blocks of users from a shared counter until none is left, so a thread that
 * gets less CPU simply takes fewer blocks. A user's list depends only on its own row of U, V and its
 * train items, so the lists are identical whatever the number of threads or their timing.
 *
 * Nothing is copied per block: U, V and the train items are placed once in SharedArrayBuffers
 * (no copy at all when they already are), and every thread writes its users' lists straight into
 * shared output buffers, marking each finished block in a shared flag array.
 *
 * One thread is used when `Worker` is unavailable, the work is small (worker start-up costs tens of
 * milliseconds), the machine has one core, or the worker script is not found. A block whose worker
 * failed is recomputed on the calling thread, so the result never depends on the threads. With the
 * environment variable EVAL_LENS_REQUIRE_WORKERS=1 (set by the benchmarks) a worker that cannot
 * start or fails, or a missing worker script, is an error instead.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { checkCancelled, type Progress } from '../diagnostics';
import { workersRequired } from '../stats/parallelBootstrap';
import {
  checkFactors,
  defaultBlockUsers,
  topKBuffers,
  topKLists,
  TopKScorer,
  type FactorMatrix,
  type TopKBuffers,
  type TopKResult,
  type TrainOf,
} from './topK';
import { SimdScorer } from './simdKernel';

/** Below this many multiply-adds (users × items × factors) the scoring stays on the calling thread. */
export const FACTOR_PARALLEL_MIN_WORK = 200_000_000;

export interface ParallelTopKOptions {
  k: number;
  /** Per user row, the item rows never recommended to that user (e.g. its train items). */
  train?: ReadonlyArray<ArrayLike<number> | undefined>;
  blockUsers?: number;
  /** Threads to use, the calling one included (default: the available cores when the work is large). */
  threads?: number;
  /** Worker script (absolute path of the bundled .js); default: the one next to this module. */
  workerFile?: string | null;
  /** The calling thread only waits and the workers score every block (tests; needs threads ≥ 2). */
  workersOnly?: boolean;
  /** Reported as blocks finish (stage "scoring", users claimed of all users); cancellation is checked between blocks. */
  progress?: Progress;
}

/** What a worker receives in `workerData`: views on shared memory, never a copy of the data. */
export interface FactorWorkerInput {
  U: FactorMatrix;
  V: FactorMatrix;
  k: number;
  blockUsers: number;
  nUsers: number;
  /** CSR train items: user u's items are trainItems[trainStart[u] .. trainStart[u + 1]). */
  trainStart: Int32Array | null;
  trainItems: Int32Array | null;
  /** [0]: the next block to claim (Atomics.add). */
  next: Int32Array;
  /** Once block b is written: 1 + the index of the thread that wrote it (0 = the calling thread). */
  done: Uint8Array;
  /** This thread's index. */
  thread: number;
  out: TopKBuffers;
}

/**
 * The worker script next to this module: the bundle's `factorsWorker.js` (under tsx a .ts worker
 * does not load, so unbundled code runs on one thread unless a script is given).
 */
export function factorsWorkerFile(): string | null {
  const f = join(__dirname, 'factorsWorker.js');
  return existsSync(f) ? f : null;
}

/** Threads worth using: 1 for small work, else the available cores (never more than the blocks). */
export function factorThreads(work: number, blocks: number, requested?: number): number {
  const cores = Math.max(1, typeof availableParallelism === 'function' ? availableParallelism() : 1);
  if (requested !== undefined) return Math.max(1, Math.min(requested, blocks));
  if (work < FACTOR_PARALLEL_MIN_WORK) return 1;
  return Math.max(1, Math.min(cores, blocks));
}

function shareTyped<T extends Float64Array | Float32Array | Int32Array | Uint8Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const Ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  const s = new Ctor(new SharedArrayBuffer(a.byteLength));
  s.set(a as never);
  return s;
}

function csrTrainOf({ trainStart, trainItems }: FactorWorkerInput): TrainOf | undefined {
  return trainStart && trainItems ? (u) => trainItems.subarray(trainStart[u], trainStart[u + 1]) : undefined;
}

/** The worker's loop, also run by the calling thread: claim blocks until none is left. */
export function claimBlocks(input: FactorWorkerInput, scorer: TopKScorer, onBlock?: (claimed: number) => void): void {
  const { blockUsers: B, nUsers } = input;
  const trainOf = csrTrainOf(input);
  const blocks = Math.ceil(nUsers / B);
  for (;;) {
    const b = Atomics.add(input.next, 0, 1);
    if (b >= blocks) return;
    scorer.scoreBlock(b * B, Math.min(nUsers, (b + 1) * B), trainOf, input.out);
    Atomics.store(input.done, b, input.thread + 1);
    onBlock?.(Math.min(blocks, b + 1));
  }
}

export async function parallelFactorTopK(
  U: FactorMatrix,
  V: FactorMatrix,
  opts: ParallelTopKOptions,
): Promise<TopKResult & { threads: number; blocksPerThread: number[]; simdFallback?: string }> {
  if (U.cols !== V.cols) checkFactors(U, V);
  const nUsers = U.rows;
  const B = Math.max(1, opts.blockUsers ?? defaultBlockUsers(V.rows));
  const blocks = Math.ceil(nUsers / B);
  const workerFile = opts.workerFile === undefined ? factorsWorkerFile() : opts.workerFile;
  if (workersRequired() && (!workerFile || !existsSync(workerFile)))
    throw new Error(`factor scoring worker script not found: ${workerFile ?? '(none)'}`);
  const usable = workerFile !== null && existsSync(workerFile) && typeof Worker === 'function';
  const T = usable ? factorThreads(nUsers * V.rows * U.cols, blocks, opts.threads) : 1;
  const progress = opts.progress;

  let trainStart: Int32Array | null = null;
  let trainItems: Int32Array | null = null;
  if (opts.train) {
    const train = opts.train;
    let total = 0;
    for (let u = 0; u < nUsers; u++) total += train[u]?.length ?? 0;
    trainStart = new Int32Array(new (T > 1 ? SharedArrayBuffer : ArrayBuffer)((nUsers + 1) * 4));
    trainItems = new Int32Array(new (T > 1 ? SharedArrayBuffer : ArrayBuffer)(total * 4));
    let p = 0;
    for (let u = 0; u < nUsers; u++) {
      trainStart[u] = p;
      const t = train[u];
      if (t) for (let j = 0; j < t.length; j++) trainItems[p++] = t[j];
    }
    trainStart[nUsers] = p;
  }
  const k = Math.max(0, Math.min(opts.k, V.rows));
  const shared = T > 1;
  const input: FactorWorkerInput = {
    U: shared ? { ...U, data: shareTyped(U.data) } : U,
    V: shared ? { ...V, data: shareTyped(V.data) } : V,
    k,
    blockUsers: B,
    nUsers,
    trainStart,
    trainItems,
    next: new Int32Array(new (shared ? SharedArrayBuffer : ArrayBuffer)(4)),
    done: new Uint8Array(new (shared ? SharedArrayBuffer : ArrayBuffer)(Math.max(1, blocks))),
    thread: 0,
    out: topKBuffers(nUsers, k, 0, shared),
  };

  const workers: { w: Worker; finished: Promise<void> }[] = [];
  // Why a thread's SIMD kernel could not start (the JavaScript loop scored its blocks), for a note.
  let workerFallback: string | undefined;
  for (let t = 1; t < T; t++) {
    let w: Worker;
    try {
      w = new Worker(workerFile!, { workerData: { ...input, thread: t } });
    } catch (e) {
      if (workersRequired()) throw e;
      continue; // e.g. no threads in this host: its blocks are taken by the others
    }
    const finished = new Promise<void>((resolve, reject) => {
      const failed = (why: string) =>
        workersRequired() ? reject(new Error(`factor scoring worker failed: ${why}`)) : resolve();
      w.once('message', (m: unknown) => {
        const why = (m as { simdFallback?: unknown } | null)?.simdFallback;
        if (typeof why === 'string') workerFallback ??= why;
        resolve();
      });
      w.once('error', (e: Error) => failed(e.message));
      w.once('exit', (code: number) => (code === 0 ? resolve() : failed(`exited with code ${code}`)));
    });
    finished.catch(() => undefined); // awaited below; avoids an unhandled rejection before then
    workers.push({ w, finished });
  }
  const stopAll = () => {
    for (const x of workers) void x.w.terminate();
  };
  SimdScorer.fallback = undefined;
  const scorer = new TopKScorer(input.U, input.V, k, Math.min(B, nUsers));
  const simdFallback = scorer.kernel === 'js' ? SimdScorer.fallback : undefined;
  try {
    checkCancelled(progress);
    if (!(opts.workersOnly && workers.length > 0))
      claimBlocks(input, scorer, (claimed) => {
        progress?.report?.('scoring', Math.min(nUsers, claimed * B), nUsers);
        checkCancelled(progress);
      });
    for (const x of workers) await x.finished;
  } catch (e) {
    stopAll();
    throw e;
  }
  stopAll();
  // Blocks claimed by a worker that failed are recomputed here.
  const trainOf = csrTrainOf(input);
  for (let b = 0; b < blocks; b++) {
    if (input.done[b]) continue;
    checkCancelled(progress);
    scorer.scoreBlock(b * B, Math.min(nUsers, (b + 1) * B), trainOf, input.out);
    input.done[b] = 1;
  }
  progress?.report?.('scoring', nUsers, nUsers);
  const blocksPerThread = new Array<number>(T).fill(0);
  for (let b = 0; b < blocks; b++) blocksPerThread[input.done[b] - 1]++;
  const fallback = simdFallback ?? workerFallback;
  return {
    ...topKLists(input.out, k, nUsers),
    blockUsers: B,
    threads: T,
    blocksPerThread,
    ...(fallback !== undefined ? { simdFallback: fallback } : {}),
  };
}
