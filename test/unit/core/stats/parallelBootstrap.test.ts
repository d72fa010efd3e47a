// EVAL_LENS_REQUIRE_WORKERS=1 (set by the benchmarks): a bootstrap worker that cannot do its range
// is an error, not a silent recomputation on the calling thread; without it the values are the same
// as on one thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledWorker } from '../../helpers/bundledWorker';
import { parallelResamples } from '../../helpers/bootstrapReference';
import {
  ResamplePool,
  splitBlock,
  StartedResampleWorkers,
  type ResamplePoolOptions,
} from '../../../../src/core/stats/parallelBootstrap';

// statistic: mean of the row values under the resample counts
const data = Float64Array.from({ length: 50 }, (_, i) => (i * 7) % 11);
const stat = (counts: Int32Array, out: Float64Array): void => {
  let s = 0;
  let n = 0;
  for (let i = 0; i < counts.length; i++) {
    s += counts[i] * data[i];
    n += counts[i];
  }
  out[0] = s / n;
};
const common = { nRows: data.length, K: 1, nResamples: 20, seed: 3, strata: null, stat, job: {} };
/** A pool over `data` whose worker tags its resamples (value 1 = thread id · 10^6 + its count); this thread's tag is 0. */
const tagged = {
  ...common,
  K: 2,
  totalResamples: 20,
  threads: 2,
  job: { data: Array.from(data) },
  workerFile: bundledWorker('test/unit/helpers/taggedResampleWorker.ts'),
};
const untagged = (counts: Int32Array, out: Float64Array): void => {
  stat(counts, out);
  out[1] = 0;
};

async function withRequired<T>(f: () => Promise<T>): Promise<T> {
  const before = process.env.EVAL_LENS_REQUIRE_WORKERS;
  process.env.EVAL_LENS_REQUIRE_WORKERS = '1';
  try {
    return await f();
  } finally {
    if (before === undefined) delete process.env.EVAL_LENS_REQUIRE_WORKERS;
    else process.env.EVAL_LENS_REQUIRE_WORKERS = before;
  }
}

test('a missing worker script is an error when workers are required', async () => {
  await assert.rejects(
    withRequired(() => parallelResamples({ ...common, threads: 2, workerFile: '/nonexistent/worker.js' })),
    /bootstrap worker script not found/,
  );
});

test('a worker that fails is an error when workers are required, recomputed here otherwise', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-worker-'));
  const bad = join(dir, 'bad.js');
  writeFileSync(bad, 'throw new Error("cannot start");\n');
  await assert.rejects(
    withRequired(() => parallelResamples({ ...common, threads: 2, workerFile: bad })),
    /bootstrap worker failed: cannot start/,
  );
  const one = await parallelResamples({ ...common, threads: 1, workerFile: null });
  const heard: string[] = [];
  const fallback = await parallelResamples({
    ...common,
    threads: 2,
    workerFile: bad,
    onWorkerFallback: (range, why) => heard.push(`${range.from}-${range.to}: ${why}`),
  });
  assert.deepEqual(fallback, one);
  // The threads share the block [0, 20) out as they go: the worker failed, this thread finished it.
  assert.equal(heard.length, 1);
  assert.match(heard[0]!, /^0-20: the worker failed \(cannot start\)$/);
});

for (const [draws, expected] of [
  // blocks [0, 8) and [8, 20), shared out as the threads go: each finished here
  ['per-resample', ['0-8: the worker failed (broken range)', '8-20: the worker failed (broken range)']],
  // blocks [0, 8) and [8, 20), each split in two: the worker's halves were computed here
  ['stream', ['4-8: the worker failed (broken range)', '14-20: the worker failed (broken range)']],
] as const)
  test(`a pool whose worker fails on its first range: that block and the next are computed here, or an error (${draws} draws)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-worker-'));
    const broken = join(dir, 'broken.js');
    writeFileSync(
      broken,
      "require('node:worker_threads').parentPort.on('message', () => { throw new Error('broken range'); });\n",
    );
    const one = await parallelResamples({ ...common, draws, threads: 1, workerFile: null });
    const heard: string[] = [];
    const pool = new ResamplePool({
      ...common,
      draws,
      totalResamples: 20,
      threads: 2,
      workerFile: broken,
      onWorkerFallback: (range, why) => heard.push(`${range.from}-${range.to}: ${why}`),
    });
    try {
      const head = await pool.run(0, 8);
      const tail = await pool.run(8, 12);
      assert.deepEqual(Float64Array.from([...head, ...tail]), one);
    } finally {
      await pool.close();
    }
    assert.deepEqual(heard, expected);
    assert.equal(pool.threadsRunning, 0);

    const required = new ResamplePool({ ...common, draws, totalResamples: 20, threads: 2, workerFile: broken });
    await assert.rejects(
      withRequired(() => required.run(0, 20)),
      /bootstrap worker failed: broken range/,
    );
    assert.equal(required.threadsRunning, 0);
  });

test('a worker that dies holding claimed resamples of a shared block: this thread computes them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-worker-'));
  const dying = join(dir, 'dying.js');
  // Claims every chunk left in the block, says how many, and dies without computing one.
  writeFileSync(
    dying,
    `const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (m) => {
  const nChunks = Math.ceil(m.count / m.chunk);
  let claimed = 0;
  while (Atomics.add(m.counters, 0, 1) < nChunks) claimed++;
  Atomics.store(workerData.job.claimed, 0, claimed);
  Atomics.notify(workerData.job.claimed, 0);
  throw new Error('died holding chunks');
});
`,
  );
  const claimed = new Int32Array(new SharedArrayBuffer(4));
  let first = true;
  // This thread's first resample waits until the worker has claimed the rest of the block.
  const waiting = (counts: Int32Array, out: Float64Array): void => {
    if (first) {
      first = false;
      Atomics.wait(claimed, 0, 0, 10_000);
    }
    stat(counts, out);
  };
  const one = await parallelResamples({ ...common, threads: 1, workerFile: null });
  const heard: string[] = [];
  const pool = new ResamplePool({
    ...common,
    stat: waiting,
    job: { claimed },
    totalResamples: 20,
    threads: 2,
    workerFile: dying,
    onWorkerFallback: (range, why) => heard.push(`${range.from}-${range.to}: ${why}`),
  });
  try {
    assert.deepEqual(await pool.run(0, 20), one);
  } finally {
    await pool.close();
  }
  assert.equal(claimed[0], 19); // one resample a chunk: this thread held the first, the worker the other 19
  assert.deepEqual(heard, ['0-20: the worker failed (died holding chunks)']);
});

test('splitBlock: consecutive ranges covering the block; with a seek cost the costs are equal (to rounding)', () => {
  assert.deepEqual(splitBlock(10, 20, [0, 0], 0), [
    { from: 10, to: 20 },
    { from: 20, to: 30 },
  ]);
  for (const [first, count, cursors, sigma] of [
    [0, 1000, [0, 0], 0.2],
    [0, 1000, [0, 0, 0, 0, 0], 0.15],
    [200, 800, [109, 200], 0.2],
    [0, 3, [0, 0, 0, 0], 0.5],
  ] as [number, number, number[], number][]) {
    const ranges = splitBlock(first, count, cursors, sigma);
    assert.equal(ranges.length, cursors.length);
    assert.equal(ranges[0].from, first);
    assert.equal(ranges[ranges.length - 1].to, first + count);
    for (let t = 1; t < ranges.length; t++) assert.equal(ranges[t].from, ranges[t - 1].to);
    for (const r of ranges) assert.ok(r.to >= r.from);
    // cost of thread t: σ·(from − cursor) + length, equal for all threads up to rounding (±1 resample each side)
    const costs = ranges.map((r, t) => sigma * (r.from - cursors[t]) + r.to - r.from);
    if (count >= 100) assert.ok(Math.max(...costs) - Math.min(...costs) <= 2 + sigma, JSON.stringify(costs));
  }
  // two threads from 0, σ = 0.2: costs f and σ·f + 1000 − f are equal at f = 1000 / (2 − σ) = 555.6
  assert.deepEqual(splitBlock(0, 1000, [0, 0], 0.2), [
    { from: 0, to: 556 },
    { from: 556, to: 1000 },
  ]);
});

test('a pool starts its workers once: the second block is computed by the same worker thread (stream draws)', async () => {
  let calls = 0;
  const pool = new ResamplePool({
    ...common,
    draws: 'stream',
    totalResamples: 20,
    threads: 2,
    stat: (_c: Int32Array, out: Float64Array) => {
      out[0] = ++calls;
    },
    workerFile: bundledWorker('test/unit/helpers/countingResampleWorker.ts'),
  });
  try {
    const head = await withRequired(() => pool.run(0, 8));
    const tail = await withRequired(() => pool.run(8, 12));
    // blocks [0, 8) and [8, 20), each split in two: this thread [0, 4) then [8, 14), the worker
    // [4, 8) then [14, 20), each counting on from its first block
    assert.deepEqual(Array.from(head), [1, 2, 3, 4, 1, 2, 3, 4]);
    assert.deepEqual(Array.from(tail), [5, 6, 7, 8, 9, 10, 5, 6, 7, 8, 9, 10]);
  } finally {
    await pool.close();
  }
});

test('a shared block: the threads claim its resamples as they go, a worker stays for the next block, the values are those of one thread', async () => {
  const one = await parallelResamples({ ...common, threads: 1, workerFile: null });
  const computed = new Int32Array(new SharedArrayBuffer(4));
  let mine = 0; // resamples this thread has computed
  let seen = 0; // the worker's count when this thread last went on
  const pool = new ResamplePool({
    ...tagged,
    job: { ...tagged.job, computed },
    // Before each of its resamples this thread lets the worker compute two (while any are left in
    // the block: 8, then 20 in all), so that the worker claims some of every block whatever the
    // machine's load (a fixed 25 ms pause let a slow worker miss them).
    stat: (counts: Int32Array, out: Float64Array) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const c = Atomics.load(computed, 0);
        const end = mine + c < 8 ? 8 : 20;
        if (c >= seen + 2 || mine + c + 1 >= end || Date.now() > deadline) break;
        Atomics.wait(computed, 0, c, 1000);
      }
      seen = Atomics.load(computed, 0);
      mine++;
      untagged(counts, out);
    },
  });
  let head: Float64Array;
  let tail: Float64Array;
  try {
    head = await withRequired(() => pool.run(0, 8));
    tail = await withRequired(() => pool.run(8, 12));
  } finally {
    await pool.close();
  }
  const values = [...head, ...tail];
  assert.deepEqual(
    values.filter((_, i) => i % 2 === 0),
    Array.from(one),
  );
  // the worker's resamples: one thread, its count going on from block to block in claim order
  const tags = values.filter((v, i) => i % 2 === 1 && v > 0);
  const inTail = tail.filter((v, i) => i % 2 === 1 && v > 0);
  // a fixed split would give it 6 of the 12; sharing, the worker that is let compute two for each
  // of this thread's takes at least 8
  assert.ok(inTail.length > 6, `the worker computed ${inTail.length} of the second block's 12 resamples`);
  assert.equal(new Set(tags.map((t) => Math.floor(t / 1e6))).size, 1);
  assert.deepEqual(
    tags.map((t) => t % 1e6),
    Array.from({ length: tags.length }, (_, i) => i + 1),
  );
});

test('a pool given `{ build }` builds its statistic on this thread once and gives the same values', async () => {
  const one = await parallelResamples({ ...common, threads: 1, workerFile: null });
  let builds = 0;
  const pool = new ResamplePool({
    ...tagged,
    stat: {
      build: () => {
        builds++;
        return untagged;
      },
    },
  });
  try {
    const head = await withRequired(() => pool.run(0, 8));
    const tail = await withRequired(() => pool.run(8, 12));
    assert.deepEqual(
      [...head, ...tail].filter((_, i) => i % 2 === 0),
      Array.from(one),
    );
  } finally {
    await pool.close();
  }
  assert.equal(builds, 1);
});

test('a statistic that cannot be built: the pool throws, and the workers it started are stopped', () => {
  // a worker left running would keep this test file's process from exiting
  assert.throws(
    () =>
      new ResamplePool({
        ...tagged,
        stat: {
          build: () => {
            throw new Error('no statistic');
          },
        },
      }),
    /no statistic/,
  );
});

/** Waits (up to 10 s) until `ok()` holds. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), 'timed out');
}

test('workers started before their job: the pool takes those it needs, sends them the job and stops the rest; the values are those of one thread', async () => {
  const one = await parallelResamples({ ...common, threads: 1, workerFile: null });
  const started = StartedResampleWorkers.start(tagged.workerFile, 2)!;
  assert.equal(started.running, 2);
  const ids = started.threadIds;
  const computed = new Int32Array(new SharedArrayBuffer(4));
  const pool = new ResamplePool({
    ...tagged,
    job: { ...tagged.job, computed },
    started,
    // This thread's first resample waits until the worker has computed one, so that the worker
    // takes part whatever the machine's load (a fixed pause let a slow worker miss them all).
    stat: (counts: Int32Array, out: Float64Array) => {
      Atomics.wait(computed, 0, 0, 60_000);
      untagged(counts, out);
    },
  });
  let values: Float64Array;
  try {
    values = await withRequired(() => pool.run(0, 20));
    // the second started worker was not needed (two threads: this one and one worker)
    await until(() => started.running === 1);
  } finally {
    await pool.close();
  }
  assert.equal(started.running, 0);
  assert.deepEqual(
    values.filter((_, i) => i % 2 === 0),
    one,
  );
  const tags = values.filter((v, i) => i % 2 === 1 && v > 0);
  assert.ok(tags.length > 0, 'the worker computed none of the resamples');
  // computed by the first worker started early, not by one the pool started itself
  assert.deepEqual([...new Set(tags.map((t) => Math.floor(t / 1e6)))], [ids[0]]);
});

test('workers started before their job that never gets one are stopped by `stop`, and the process can exit', async () => {
  const started = StartedResampleWorkers.start(tagged.workerFile, 2)!;
  assert.equal(started.running, 2);
  await started.stop();
  // a worker left running would keep this test file's process from exiting
  assert.equal(started.running, 0);
  assert.equal(StartedResampleWorkers.start(null, 1), null);
  assert.equal(StartedResampleWorkers.start('/nonexistent/worker.js', 1), null);
});

test('a second `stop` resolves only once the workers of the first have exited', async () => {
  const started = StartedResampleWorkers.start(tagged.workerFile, 2)!;
  assert.equal(started.running, 2);
  void started.stop();
  await started.stop();
  assert.equal(started.running, 0);
});

test('workers stopped at once after they fail to start: their errors are not uncaught exceptions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-worker-'));
  const bad = join(dir, 'bad.js');
  writeFileSync(bad, 'throw new Error("cannot start");\n');
  const uncaught: unknown[] = [];
  const heard = (e: unknown): void => void uncaught.push(e);
  process.on('uncaughtException', heard);
  try {
    for (let i = 0; i < 5; i++) {
      const started = StartedResampleWorkers.start(bad, 2)!;
      // let the workers run their script and fail, without a turn of the event loop for their errors
      const until = Date.now() + 300;
      while (Date.now() < until);
      await started.stop();
    }
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    process.off('uncaughtException', heard);
  }
  assert.deepEqual(uncaught, []);
});

test('a worker started early that dies while it waits: its resamples are computed here, or an error when workers are required', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-worker-'));
  const bad = join(dir, 'bad.js');
  writeFileSync(bad, 'throw new Error("cannot start");\n');
  const one = await parallelResamples({ ...common, threads: 1, workerFile: null });
  const dies = async (): Promise<StartedResampleWorkers> => {
    const started = StartedResampleWorkers.start(bad, 1)!;
    await until(() => started.running === 0);
    return started;
  };
  const pooled = async (opts: Partial<ResamplePoolOptions<unknown>>): Promise<Float64Array> => {
    const pool = new ResamplePool({ ...common, totalResamples: 20, threads: 2, workerFile: bad, ...opts });
    try {
      return await pool.run(0, 20);
    } finally {
      await pool.close();
    }
  };
  const heard: string[] = [];
  const fallback = await pooled({
    started: await dies(),
    onWorkerFallback: (range, why) => heard.push(`${range.from}-${range.to}: ${why}`),
  });
  assert.deepEqual(fallback, one);
  assert.deepEqual(heard, ['0-20: the worker failed (cannot start)']);
  const started = await dies();
  await assert.rejects(
    withRequired(() => pooled({ started })),
    /bootstrap worker failed: the worker failed \(cannot start\)/,
  );
});
