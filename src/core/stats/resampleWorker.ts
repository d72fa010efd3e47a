/**
 * The body of a bootstrap worker thread (see stats/parallelBootstrap.ts): builds the statistic
 * from the job in `workerData` once, then answers every range of resamples it is sent with their
 * values (resample-major Float64Array, transferred), until the pool terminates it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { rangeEvaluator, type ResampleWorkerInput } from './parallelBootstrap';
import type { ResampleRange } from './resampleDraws';

export function serveResampleRanges<J>(makeStat: (job: J) => (counts: Int32Array, out: Float64Array) => void): void {
  const input = workerData as ResampleWorkerInput<J>;
  const evaluate = rangeEvaluator(input, makeStat(input.job));
  parentPort!.on('message', (range: ResampleRange) => {
    const values = evaluate(range);
    parentPort!.postMessage(values, [values.buffer as ArrayBuffer]);
  });
}
