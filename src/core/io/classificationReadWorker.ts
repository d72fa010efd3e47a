/**
 * Worker entry of the parallel classification reader (bundled as `dist/readWorker.js`): reads one
 * part of a large CSV/TSV file into the shared row storage and posts what it found.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { partError, readPart, type ReadPartInput } from './classificationPart';

readPart(workerData as ReadPartInput).then(
  (r) => parentPort!.postMessage(r),
  (e: unknown) => parentPort!.postMessage({ failed: partError(e) }),
);
