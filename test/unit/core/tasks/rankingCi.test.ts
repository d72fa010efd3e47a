// The ranking task's user-mean intervals on threads: the values of every resample equal, bit for
// bit, those of a plain sequential reference (bootstrapDistribution's stream, the user mean summed
// in four running sums written out plainly), on 1, 2 or 3 threads, in one block or two; the
// provisional intervals equal a shorter run's; a pool's workers are gone after a cancellation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { bootstrapDistribution } from '../../helpers/bootstrapReference';
import { ResamplePool } from '../../../../src/core/stats/parallelBootstrap';
import { evaluateStreamResamples, ResampleStream } from '../../../../src/core/stats/resampleStream';
import { bundledWorker } from '../../helpers/bundledWorker';
import { rankingCiWorkerFile, userMeanJob, userMeanStat } from '../../../../src/core/tasks/rankingCi';
import { userMeanCis } from '../../helpers/bootstrapReference';

// 203 users (203 mod 4 = 3: the last three go to the first running sum); b and c are undefined for
// the same users (one shared mask), d for others; five keys: two pairs and one key alone.
const n = 203;
const perUser: Record<string, Float64Array> = {
  a: Float64Array.from({ length: n }, (_, i) => ((i * 37) % 101) / 101),
  b: Float64Array.from({ length: n }, (_, i) => (i % 7 === 3 ? NaN : Math.cos(i) + 0.1 * i)),
  c: Float64Array.from({ length: n }, (_, i) => (i % 7 === 3 ? NaN : 1 / (1 + i))),
  d: Float64Array.from({ length: n }, (_, i) => (i % 5 === 0 ? NaN : (i % 3) - 1)),
  e: Float64Array.from({ length: n }, (_, i) => Math.sqrt(i) * 1e-3),
};
const keys = Object.keys(perUser);
// the worker entry bundled (a .ts entry cannot run in a worker under the test runner); any range
// computed on the calling thread instead fails the test
const workerFile = bundledWorker('src/core/tasks/rankingCiWorker.ts');
const noFallback = (range: { from: number; to: number }, why: string): never =>
  assert.fail(`resamples ${range.from}–${range.to} were not computed by a worker: ${why}`);

/** Σ c·v / Σ c over the users where v is defined, the sums in the documented order. */
function referenceMean(c: ArrayLike<number>, v: Float64Array): number {
  const lanes = [0, 0, 0, 0];
  let den = 0;
  const n4 = n - (n % 4);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(v[i])) continue;
    lanes[i < n4 ? i % 4 : 0] += c[i] * v[i];
    den += c[i];
  }
  return den > 0 ? (lanes[0] + lanes[1] + (lanes[2] + lanes[3])) / den : NaN;
}

function referenceDistribution(B: number, seed: number): Float64Array[] {
  return bootstrapDistribution(n, (c) => keys.map((k) => referenceMean(c, perUser[k])), {
    n: B,
    confidence: 0.9,
    seed,
  });
}

test('the masks: keys undefined for the same users share one', () => {
  const job = userMeanJob(perUser, keys, n, true);
  assert.equal(job.masks.length, 2);
  assert.deepEqual(Array.from(job.maskOf), [-1, 0, 0, 1, -1]);
  assert.ok(job.values[0].buffer instanceof SharedArrayBuffer);
  for (const m of job.masks) assert.ok(m.buffer instanceof SharedArrayBuffer);
  assert.deepEqual(Array.from(job.masks[1].subarray(0, 6)), [0, 1, 1, 1, 1, 0]);
  assert.equal(job.values[1][3], 0);
});

test('one thread: every resample value equals the plain reference, bit for bit', () => {
  const B = 40;
  const ref = referenceDistribution(B, 3);
  const stat = userMeanStat(userMeanJob(perUser, keys, n, false));
  const values = evaluateStreamResamples(n, keys.length, stat, {
    stream: new ResampleStream(3, n, null),
    range: { from: 0, to: B },
  });
  for (let b = 0; b < B; b++)
    for (let q = 0; q < keys.length; q++) assert.ok(Object.is(values[b * keys.length + q], ref[q][b]), `${b} ${q}`);
});

test('threads: 1, 2 and 3 threads, one block or two, equal or cost-balanced ranges, give the values of one thread', async () => {
  assert.ok(rankingCiWorkerFile(), 'the worker script next to the module');
  const job = userMeanJob(perUser, keys, n, true);
  const common = {
    nRows: n,
    K: keys.length,
    totalResamples: 50,
    seed: 8,
    strata: null,
    draws: 'stream' as const,
    stat: userMeanStat(job),
    job,
    workerFile,
    onWorkerFallback: noFallback,
  };
  const one = evaluateStreamResamples(n, keys.length, common.stat, {
    stream: new ResampleStream(8, n, null),
    range: { from: 0, to: 50 },
  });
  for (const threads of [1, 2, 3]) {
    for (const [split, seekCost] of [
      [50, 0],
      [13, 0],
      [13, 0.3],
    ]) {
      const pool = new ResamplePool({ ...common, threads, seekCost });
      assert.equal(pool.threadsRunning, threads - 1);
      try {
        const head = await pool.run(0, split);
        const tail = split < 50 ? await pool.run(split, 50 - split) : new Float64Array(0);
        const joined = new Float64Array(50 * keys.length);
        joined.set(head);
        joined.set(tail, split * keys.length);
        assert.deepEqual(joined, one, `${threads} threads, blocks of ${split}, seek cost ${seekCost}`);
      } finally {
        await pool.close();
      }
      assert.equal(pool.threadsRunning, 0);
    }
  }
});

test('userMeanCis: the same intervals on 1 and 2 threads, the reference intervals, provisional = a shorter run', async () => {
  const B = 120;
  const ref = referenceDistribution(B, 5);
  const expected = Object.fromEntries(keys.map((k, q) => [k, percentileInterval(ref[q], 0.9)]));
  const provisional: Record<string, [number, number] | null>[] = [];
  const hook = {
    provisionalAt: 30,
    onProvisional: (cis: Record<string, [number, number] | null>) => provisional.push(cis),
  };
  const opts = { n: B, confidence: 0.9, seed: 5 };
  const one = await userMeanCis(perUser, keys, n, { ...opts, threads: 1 });
  const two = await userMeanCis(perUser, keys, n, {
    ...opts,
    threads: 2,
    ...hook,
    workerFile,
    onWorkerFallback: noFallback,
  });
  assert.deepEqual(one, expected);
  assert.deepEqual(two, expected);
  const ref30 = referenceDistribution(30, 5);
  assert.deepEqual(provisional, [Object.fromEntries(keys.map((k, q) => [k, percentileInterval(ref30[q], 0.9)]))]);
});

test('a cancelled run stops the pool: its workers are terminated', async () => {
  const job = userMeanJob(perUser, keys, n, true);
  const pool = new ResamplePool({
    nRows: n,
    K: keys.length,
    totalResamples: 400,
    seed: 1,
    strata: null,
    draws: 'stream',
    stat: userMeanStat(job),
    job,
    workerFile,
    threads: 3,
  });
  assert.equal(pool.threadsRunning, 2);
  await assert.rejects(
    pool.run(0, 400, (done) => {
      if (done >= 20) throw new Error('cancelled by the test');
    }),
    /cancelled by the test/,
  );
  assert.equal(pool.threadsRunning, 0);
  await assert.rejects(pool.run(0, 10), /already stopped/);
});
