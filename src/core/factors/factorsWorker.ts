/**
 * Worker entry of the factor scoring (bundled as `dist/factorsWorker.js`): claims blocks of users
 * from the shared counter and writes their top-K lists into the shared output (factors/parallelTopK.ts),
 * then posts one message when no block is left (with the reason its SIMD kernel could not start, if so).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { claimBlocks, type FactorWorkerInput } from './parallelTopK';
import { SimdScorer } from './simdKernel';
import { TopKScorer } from './topK';

const input = workerData as FactorWorkerInput;
const scorer = new TopKScorer(input.U, input.V, input.k, Math.min(input.blockUsers, input.nUsers));
claimBlocks(input, scorer);
// Done; with the reason when this thread's SIMD kernel could not start (the JavaScript loop scored).
parentPort!.postMessage({ simdFallback: scorer.kernel === 'js' ? SimdScorer.fallback : undefined });
