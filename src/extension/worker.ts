/**
 * The evaluation worker (`dist/worker.js`): runs one job of the metric core off the extension
 * host's thread and posts progress, then the results or the error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { evaluateFile } from '../core';
import { compareFiles } from '../core';
import type { Progress } from '../core';
import type { WorkerInput, WorkerMessage } from './workerProtocol';
import { serializeError } from './serializeError';

const input = workerData as WorkerInput;
const cancelFlag = new Int32Array(input.cancel);
const post = (m: WorkerMessage): void => parentPort!.postMessage(m);

let last = 0;
const progress: Progress = {
  report(stage, done, total) {
    const now = Date.now();
    if (now - last < 100 && done !== 0) return;
    last = now;
    post({ type: 'progress', stage, done, ...(total !== undefined ? { total } : {}) });
  },
  isCancelled: () => Atomics.load(cancelFlag, 0) === 1,
};

async function main(): Promise<void> {
  const job = input.job;
  try {
    if (job.type === 'evaluate') {
      const results = await evaluateFile(job.path, {
        configPath: job.configPath,
        ...(job.root ? { root: job.root } : {}),
        defaults: job.defaults,
        ...(job.root ? { root: job.root } : {}),
        // written to the results file, which never holds per-row values
        perItem: false,
        progress,
        onStage: job.stages
          ? (stage, r, info) => stage !== 'final' && post({ type: 'stage', stage, results: r, ...info })
          : undefined,
      });
      post({ type: 'evaluated', results });
    } else {
      const compare = await compareFiles(job.paths, {
        configPath: job.configPath,
        defaults: job.defaults,
        baseline: job.baseline,
        against: job.against,
        againstLabel: job.againstLabel,
        progress,
        onMismatch: 'intersect',
      });
      post({ type: 'compared', compare });
    }
  } catch (err) {
    post({ type: 'failed', error: serializeError(err) });
  }
}

void main();
