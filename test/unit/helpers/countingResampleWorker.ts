// A bootstrap worker for tests: its statistic is the number of resamples this thread has computed
// so far (1, 2, …), so a second block answered by the same thread continues the count.
import { serveResampleRanges } from '../../../src/core/stats/resampleWorker';

serveResampleRanges(() => {
  let calls = 0;
  return (_counts: Int32Array, out: Float64Array) => {
    out[0] = ++calls;
  };
});
