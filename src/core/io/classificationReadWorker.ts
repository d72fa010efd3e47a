/**
 * Worker entry of the parallel classification reader (bundled as `dist/readWorker.js`): reads
 * pieces of a large CSV/TSV file into the shared row storage until none is left and posts what it
 * found in each.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { claimPieces, partError, type ReadPartsInput } from './classificationPart';

// Blocking reads: this thread has nothing else to do (see ReadBuffer).
claimPieces(workerData as ReadPartsInput, undefined, { buf: null, blocking: true }).then(
  (r) => parentPort!.postMessage(r),
  (e: unknown) => parentPort!.postMessage({ failed: partError(e) }),
);
