/**
 * Worker entry of the classification bootstrap (bundled as `dist/ciWorker.js`): computes one range
 * of resamples of a {@link CiJob} and posts their values (resample-major Float64Array).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { evaluateResamples } from '../stats/resampleDraws';
import type { ResampleWorkerInput } from '../stats/parallelBootstrap';
import { ciResampleStat, type CiJob } from './classificationCi';

const input = workerData as ResampleWorkerInput<CiJob>;
const values = evaluateResamples(input.nRows, input.K, ciResampleStat(input.job), {
  seed: input.seed,
  strata: input.strata,
  range: input.range,
});
parentPort!.postMessage(values, [values.buffer as ArrayBuffer]);
