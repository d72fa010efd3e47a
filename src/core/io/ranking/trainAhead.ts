/**
 * The train file read ahead on a worker thread while the calling thread reads the run: the two
 * reads overlap. The worker numbers the ids in the order the train file first mentions them
 * (./pieceIds.ts, without a string per id); the join, at the point where one thread would read the train file (after the run and the ground
 * truth), interns them in that order into the evaluation's indices, so every id gets the integer
 * it gets when one thread reads everything. Warnings come in the same order, and a bad train file
 * gives the same error (file, line, what was expected), at the same point.
 *
 * Used for a CSV/TSV train file of at least {@link TRAIN_AHEAD_MIN_BYTES} on a machine with two or
 * more cores when the bundle's worker script is there. A worker that cannot start or fails leaves
 * the file to the calling thread (same result, with a note); with the environment variable
 * EVAL_LENS_REQUIRE_WORKERS=1 (set by the benchmarks) that is an error.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EvalWarning } from '../../diagnostics';
import { workersRequired } from '../../stats/parallelBootstrap';
import { errorOfPart, type PartError } from '../classificationPart';
import { defaultThreads } from '../parallelClassification';
import { KeyRuns } from './builders';
import { isParquetPath } from './idTableParquet';
import type { IdTableSpec } from './idColumns';
import type { RankingReadContext } from './jsonl';
import { globalIds, type PieceIdList } from './pieceIds';
import type { TrainRows } from './trainRows';

/** Smaller train files are read by the calling thread (a worker costs tens of milliseconds to start). */
export const TRAIN_AHEAD_MIN_BYTES = 8 * 2 ** 20;

export interface TrainAheadInput {
  path: string;
  label: string;
  spec: IdTableSpec;
  /** A file the worker hashes once the train file is read (the run, so that its reader need not). */
  hashAfter?: string;
}

export type TrainAheadMessage =
  | {
      read: {
        rows: number;
        size?: number;
        sha256?: string;
        /** Users as runs (worker numbering): key and rows of each run. */
        keys: Int32Array;
        lengths: Int32Array;
        /** Item of each row (worker numbering). */
        items: Int32Array;
        userIds: PieceIdList;
        itemIds: PieceIdList;
        warnings: EvalWarning[];
        /** Size and SHA-256 of `hashAfter`; absent when it could not be read (it is hashed later). */
        after?: { size: number; sha256: string };
      };
    }
  | { failed: PartError };

export interface TrainAheadOptions {
  minBytes?: number;
  threads?: number;
  /** Worker script (default: the bundle's `trainReadWorker.js`); null: none. */
  workerFile?: string | null;
}

/** The worker script next to this module (the bundle's); none when run from the TypeScript sources. */
export function trainReadWorkerFile(): string | null {
  const f = join(__dirname, 'trainReadWorker.js');
  return existsSync(f) ? f : null;
}

export class TrainAhead {
  /** Size and SHA-256 of the input's `hashAfter` file, once joined (null: not hashed here). */
  afterHash: { size: number; sha256: string } | null = null;

  private constructor(
    private readonly input: TrainAheadInput,
    private readonly worker: Worker,
    private readonly result: Promise<TrainAheadMessage | { crashed: string }>,
  ) {}

  /** Starts reading `path` on a worker thread; null when the calling thread is to read it. */
  static async start(input: TrainAheadInput, opts: TrainAheadOptions = {}): Promise<TrainAhead | null> {
    if (isParquetPath(input.path)) return null;
    const size = await stat(input.path).then(
      (s) => s.size,
      () => -1,
    );
    if (size < (opts.minBytes ?? TRAIN_AHEAD_MIN_BYTES)) return null; // (a missing file: the calling thread says so)
    if ((opts.threads ?? defaultThreads()) < 2) return null;
    const workerFile = opts.workerFile === undefined ? trainReadWorkerFile() : opts.workerFile;
    if (workersRequired() && (!workerFile || !existsSync(workerFile)))
      throw new Error(`train read worker script not found: ${workerFile ?? '(none)'}`);
    if (!workerFile || !existsSync(workerFile) || typeof Worker !== 'function') return null;
    let w: Worker;
    try {
      // A small young generation: the worker's garbage is small; this keeps the process's peak memory lower.
      w = new Worker(workerFile, { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    } catch (e) {
      if (workersRequired()) throw e;
      return null;
    }
    // The evaluation may stop before it joins (a bad run file): the worker must not keep the process alive.
    w.unref();
    const result = new Promise<TrainAheadMessage | { crashed: string }>((resolve) => {
      w.once('message', (m: TrainAheadMessage) => resolve(m));
      w.once('error', (e: Error) => resolve({ crashed: e.message }));
      w.once('exit', (code: number) => resolve({ crashed: `exited with code ${code}` }));
    });
    return new TrainAhead(input, w, result);
  }

  /**
   * The rows, their ids interned into `ctx`'s indices in the order the file first mentions them;
   * throws the train file's error; null when the worker failed (the calling thread reads the file).
   */
  async join(ctx: RankingReadContext): Promise<TrainRows | null> {
    ctx.progress?.report?.(`reading ${this.input.spec.what}`, 0);
    const m = await this.result;
    this.stop();
    if ('crashed' in m) {
      if (workersRequired()) throw new Error(`train read worker failed: ${m.crashed}`);
      ctx.warnings.note(
        'read-worker-fallback',
        `${basename(this.input.path)} was read on the calling thread because the worker failed (${m.crashed}): the data are the same, the reading was slower.`,
        { file: this.input.path },
      );
      return null;
    }
    if ('failed' in m) throw errorOfPart(m.failed);
    const r = m.read;
    const users = globalIds(r.userIds, ctx.users);
    const items = globalIds(r.itemIds, ctx.items);
    const rowItems = r.items;
    for (let i = 0; i < rowItems.length; i++) rowItems[i] = items[rowItems[i]];
    for (const w of r.warnings) ctx.warnings.add(w);
    this.afterHash = r.after ?? null;
    ctx.progress?.report?.(`reading ${this.input.spec.what}`, 1);
    return {
      rows: r.rows,
      users: KeyRuns.fromRuns(r.keys, r.lengths, users),
      items: rowItems,
      size: r.size,
      sha256: r.sha256,
    };
  }

  stop(): void {
    void this.worker.terminate();
  }
}
