/**
 * Worker entry of the factor scoring (bundled as `dist/factorsWorker.js`): claims blocks of users
 * from the shared counter and writes their top-K lists into the shared output (factors/parallelTopK.ts),
 * then posts one message when no block is left.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { claimBlocks, type FactorWorkerInput } from './parallelTopK';
import { TopKScorer } from './topK';

const input = workerData as FactorWorkerInput;
claimBlocks(input, new TopKScorer(input.U, input.V, input.k, Math.min(input.blockUsers, input.nUsers)));
parentPort!.postMessage('done');
