/**
 * The body of a bootstrap worker thread (see stats/parallelBootstrap.ts): builds the statistic
 * from the job in `workerData` — or, for a worker started before its job existed, in its first
 * message — once, then answers every range of resamples it is sent with their
 * values (resample-major Float64Array, transferred), and every shared block by computing the
 * chunks it claims into the block's shared values, until the pool terminates it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  BLOCK_DONE,
  computeSharedBlock,
  rangeEvaluator,
  type ResampleWorkerInput,
  type SharedBlock,
} from './parallelBootstrap';
import { resampleEvaluator, type ResampleEvaluator, type ResampleRange } from './resampleDraws';

export function serveResampleRanges<J>(makeStat: (job: J) => (counts: Int32Array, out: Float64Array) => void): void {
  // Started before its job existed (stats/parallelBootstrap.ts `StartedResampleWorkers`): the job is the first message.
  if (workerData === null) parentPort!.once('message', (input: ResampleWorkerInput<J>) => serve(input, makeStat));
  else serve(workerData as ResampleWorkerInput<J>, makeStat);
}

function serve<J>(
  input: ResampleWorkerInput<J>,
  makeStat: (job: J) => (counts: Int32Array, out: Float64Array) => void,
): void {
  const stat = makeStat(input.job);
  const evaluate = rangeEvaluator(input, stat);
  let shared: ResampleEvaluator | null = null;
  parentPort!.on('message', (m: ResampleRange | SharedBlock) => {
    if ('chunk' in m) {
      shared ??= resampleEvaluator(input.nRows, input.K, stat, input.seed, input.strata);
      computeSharedBlock(m, input.K, shared);
      parentPort!.postMessage(BLOCK_DONE);
      return;
    }
    const values = evaluate(m);
    parentPort!.postMessage(values, [values.buffer as ArrayBuffer]);
  });
}
