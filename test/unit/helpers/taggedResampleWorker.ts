// A bootstrap worker for tests: value 0 is the weighted mean of the job's row values under the
// resample's counts (as the calling thread computes it), value 1 tags who computed the resample:
// this thread's id · 10^6 + the number of resamples it has computed so far (1, 2, …). With a
// `computed` counter in the job (shared memory), it counts them there too and wakes its waiters.
import { threadId } from 'node:worker_threads';
import { serveResampleRanges } from '../../../src/core/stats/resampleWorker';

serveResampleRanges((job: { data: number[]; computed?: Int32Array }) => {
  let calls = 0;
  const computed = job.computed;
  return (counts: Int32Array, out: Float64Array) => {
    let s = 0;
    let n = 0;
    for (let i = 0; i < counts.length; i++) {
      s += counts[i] * job.data[i];
      n += counts[i];
    }
    out[0] = s / n;
    out[1] = threadId * 1e6 + ++calls;
    if (computed) {
      Atomics.add(computed, 0, 1);
      Atomics.notify(computed, 0);
    }
  };
});
