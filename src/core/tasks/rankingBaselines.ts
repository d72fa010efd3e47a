/**
 * The ranking task's two baselines scored side by side: the random baseline on a worker thread
 * (its one seeded generator serves the users in list order, so it stays one sequential stream
 * there too) while the calling thread scores the popularity baseline. The baselines stage then
 * takes about the longer of the two instead of their sum.
 *
 * The thread is started before the run's own metrics, so that its start-up (the thread and its
 * script, tens of milliseconds) is over when the baselines begin; it is sent the job then (a copy
 * of the ground truth, the train counts and seen items, the users and the options: about 20 MB for
 * 100,000 users) and answers with the baseline's values and curves, computed by the same code
 * ({@link scoreRandomBaseline}) on the same inputs, so they are the same numbers, bit for bit.
 *
 * Used when the run has at least {@link BASELINE_THREAD_MIN_SLOTS} list slots to score (users ×
 * evaluation depth), on a machine with two or more cores, without item embeddings (their vectors
 * would have to be copied as well) and when the bundle's worker script is there (not when running
 * from the TypeScript sources). A worker that cannot start or fails leaves the baseline to the
 * calling thread (same values, with a note); with the environment variable
 * EVAL_LENS_REQUIRE_WORKERS=1 (set by the benchmarks) that is an error. The thread is stopped
 * however the evaluation ends.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Warnings } from '../diagnostics';
import { defaultThreads } from '../io/parallelClassification';
import { workersRequired } from '../stats/parallelBootstrap';
import type { BaselineScores, BaselineWorkerMessage, RandomBaselineJob } from './rankingBaselineJob';

/**
 * Fewer slots are scored on the calling thread. Measured on the benchmark machine: scoring the
 * random baseline costs about 13 ns a slot (0.13 s for 100,000 users × 100), and sending the job
 * and its answer a few milliseconds, so below about a million slots (13 ms) a second thread
 * saves less than it costs the machine.
 */
export const BASELINE_THREAD_MIN_SLOTS = 1_000_000;

export interface BaselineThreadOptions {
  minSlots?: number;
  threads?: number;
  /** Worker script (default: the bundle's `rankingBaselineWorker.js`); null: none. */
  workerFile?: string | null;
}

/** The worker script next to this module (the bundle's); none when run from the TypeScript sources. */
export function rankingBaselineWorkerFile(): string | null {
  const f = join(__dirname, 'rankingBaselineWorker.js');
  return existsSync(f) ? f : null;
}

/** A worker thread that scores one random baseline, started ahead of its job. */
export class BaselineThread {
  private sent = false;
  private stopping: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly outcome: Promise<BaselineWorkerMessage | { crashed: string }>,
  ) {}

  /**
   * Starts the thread for a baseline of `slots` list slots (users × depth); null when the
   * calling thread is to score it.
   */
  static start(slots: number, opts: BaselineThreadOptions = {}): BaselineThread | null {
    if (slots < (opts.minSlots ?? BASELINE_THREAD_MIN_SLOTS)) return null;
    if ((opts.threads ?? defaultThreads()) < 2) return null;
    const workerFile = opts.workerFile === undefined ? rankingBaselineWorkerFile() : opts.workerFile;
    if (workersRequired() && (!workerFile || !existsSync(workerFile)))
      throw new Error(`baseline worker script not found: ${workerFile ?? '(none)'}`);
    if (!workerFile || !existsSync(workerFile) || typeof Worker !== 'function') return null;
    let w: Worker;
    try {
      // A small young generation: scoring makes little garbage; this keeps the process's peak memory lower.
      w = new Worker(workerFile, {
        resourceLimits: { maxYoungGenerationSizeMb: 4 },
      });
    } catch (e) {
      if (workersRequired()) throw e;
      return null;
    }
    // Until its job is awaited the thread must not keep the process alive (the evaluation may stop first).
    w.unref();
    const outcome = new Promise<BaselineWorkerMessage | { crashed: string }>((resolve) => {
      w.once('message', (m: BaselineWorkerMessage) => resolve(m));
      w.once('error', (e: Error) => resolve({ crashed: e.message }));
      w.once('exit', (code: number) => resolve({ crashed: `exited with code ${code}` }));
    });
    return new BaselineThread(w, outcome);
  }

  /**
   * Sends the job: its arrays are copied here and the copies moved to the worker (one copy, made
   * at memory speed; a plain message would copy them twice, into the message and out of it, both
   * copies alive at once). The calling thread keeps its own arrays.
   */
  send(job: RandomBaselineJob): void {
    if (this.stopping || this.sent) throw new Error('the baseline thread was already given its job');
    this.sent = true;
    const moved: ArrayBuffer[] = [];
    const copy = <A extends Int32Array | Float64Array | Uint8Array>(a: A): A => {
      const c = a.slice() as A;
      moved.push(c.buffer as ArrayBuffer);
      return c;
    };
    const d = job.data;
    const t = d.train;
    const members = job.opts.catalog.members;
    const copied: RandomBaselineJob = {
      ...job,
      users: copy(job.users),
      idRank: copy(job.idRank),
      data: {
        ...d,
        relOffsets: copy(d.relOffsets),
        relItems: copy(d.relItems),
        relGrades: copy(d.relGrades),
        train: t
          ? {
              itemCounts: copy(t.itemCounts),
              total: t.total,
              seenOffsets: copy(t.seenOffsets),
              seenItems: copy(t.seenItems),
            }
          : null,
      },
      opts: { ...job.opts, catalog: { ...job.opts.catalog, members: members ? copy(members) : null } },
    };
    this.worker.postMessage(copied, moved);
  }

  /**
   * The baseline's values and curves; null when the worker failed (the caller then scores it on
   * its own thread) after a note in `warnings`. The thread is stopped once it has answered.
   */
  async result(warnings: Pick<Warnings, 'note'>): Promise<BaselineScores | null> {
    if (!this.sent) throw new Error('the baseline thread was not given its job');
    this.worker.ref();
    const m = await this.outcome;
    // Waited for: the thread's memory (its copy of the job) is given back before the next stages allocate.
    await this.stop();
    if ('scored' in m) return m.scored;
    const why = 'failed' in m ? m.failed : m.crashed;
    if (workersRequired()) throw new Error(`baseline worker failed: ${why}`);
    warnings.note(
      'baseline-worker-fallback',
      `The random baseline was scored on the calling thread because its worker failed (${why}): the values are the same, the evaluation was slower.`,
    );
    return null;
  }

  /** Stops the thread (a second call waits for the first); its late errors are ignored. */
  stop(): Promise<void> {
    if (!this.stopping) {
      // A thread terminated while it starts may still raise an error: heard here, not as an uncaught exception.
      this.worker.on('error', () => {});
      this.worker.unref();
      this.stopping = this.worker.terminate().then(
        () => undefined,
        () => undefined,
      );
    }
    return this.stopping;
  }
}
