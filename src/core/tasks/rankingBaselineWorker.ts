/**
 * Worker entry of the ranking task's random baseline (bundled as `dist/rankingBaselineWorker.js`):
 * scores the one {@link RandomBaselineJob} it is sent and posts its values and curves
 * (./rankingBaselines.ts, ./rankingBaselineJob.ts).
 */
import { parentPort } from 'node:worker_threads';
import { scoreRandomBaseline, type BaselineWorkerMessage, type RandomBaselineJob } from './rankingBaselineJob';

parentPort!.once('message', (job: RandomBaselineJob) => {
  let m: BaselineWorkerMessage;
  try {
    m = { scored: scoreRandomBaseline(job) };
  } catch (e) {
    m = { failed: e instanceof Error ? e.message : String(e) };
  }
  // The curves are a few kilobytes: copied.
  parentPort!.postMessage(m);
});
