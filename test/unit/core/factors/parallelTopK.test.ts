// Top-K lists on worker threads equal the single-thread lists exactly: random integer factors with
// many tied scores, train masks, several block sizes; a worker that fails is recomputed on the
// calling thread (or is an error when workers are required).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FactorMatrix } from '../../../../src/core/factors/topK';
import { factorTopK } from '../../helpers/factors';
import { parallelFactorTopK } from '../../../../src/core/factors/parallelTopK';
import { CancelledError } from '../../../../src/core/diagnostics';
import { bundledWorker } from '../../helpers/bundledWorker';

// The worker runs the bundled script, as in the extension and the CLI (a .ts worker does not load
// under tsx).
const workerFile = bundledWorker('src/core/factors/factorsWorker.ts');

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Integer factors in {-1, 0, 1, 2}: many users have many exactly tied scores. */
function tieHeavy(seed: number, nU: number, nI: number, d: number) {
  const rnd = lcg(seed);
  const m = (rows: number, label: string): FactorMatrix => ({
    rows,
    cols: d,
    data: Float32Array.from({ length: rows * d }, () => Math.floor(rnd() * 4) - 1),
    label,
  });
  const U = m(nU, 'U.npy');
  const V = m(nI, 'V.npy');
  const train = Array.from({ length: nU }, () =>
    Int32Array.from(Array.from({ length: nI }, (_, i) => i).filter(() => rnd() < 0.1)),
  );
  return { U, V, train };
}

const lists = (r: { items: Int32Array[]; scores: Float64Array[] }) => ({
  items: r.items.map((a) => [...a]),
  scores: r.scores.map((a) => [...a]),
});

for (const [seed, nU, nI, d, k, blockUsers] of [
  [1, 300, 400, 3, 10, 7],
  [2, 257, 120, 2, 25, 16],
  [3, 64, 50, 1, 60, 1],
] as const) {
  test(`1 vs 2 and 3 threads: identical lists (seed ${seed}, ${nU} users × ${nI} items × ${d}, k ${k})`, async () => {
    const { U, V, train } = tieHeavy(seed, nU, nI, d);
    const one = factorTopK(U, V, { k, train, blockUsers });
    const single = await parallelFactorTopK(U, V, { k, train, blockUsers, threads: 1 });
    assert.equal(single.threads, 1);
    assert.deepEqual(lists(single), lists(one));
    for (const threads of [2, 3]) {
      // The workers take every block, so the comparison is never of the calling thread with itself.
      const par = await parallelFactorTopK(U, V, { k, train, blockUsers, threads, workersOnly: true, workerFile });
      assert.equal(par.threads, threads);
      assert.equal(par.blocksPerThread[0], 0);
      assert.equal(
        par.blocksPerThread.reduce((a, b) => a + b, 0),
        Math.ceil(nU / blockUsers),
      );
      assert.deepEqual(lists(par), lists(one));
      // All threads taking blocks.
      const mixed = await parallelFactorTopK(U, V, { k, train, blockUsers, threads, workerFile });
      assert.deepEqual(lists(mixed), lists(one));
    }
  });
}

test('data already in shared memory is used as is; no train', async () => {
  const { U, V } = tieHeavy(9, 50, 80, 4);
  const sharedU = new Float32Array(new SharedArrayBuffer(U.data.byteLength));
  sharedU.set(U.data);
  const par = await parallelFactorTopK({ ...U, data: sharedU }, V, {
    k: 5,
    blockUsers: 3,
    threads: 2,
    workersOnly: true,
    workerFile,
  });
  assert.equal(par.blocksPerThread[1], 17);
  assert.deepEqual(lists(par), lists(factorTopK(U, V, { k: 5 })));
});

test('a failing worker: its blocks are recomputed here, or an error when workers are required', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'factors-worker-'));
  const bad = join(dir, 'bad.js');
  writeFileSync(bad, "throw new Error('no luck');\n");
  const { U, V, train } = tieHeavy(4, 40, 30, 2);
  const want = lists(factorTopK(U, V, { k: 4, train }));
  const r = await parallelFactorTopK(U, V, {
    k: 4,
    train,
    blockUsers: 2,
    threads: 2,
    workersOnly: true,
    workerFile: bad,
  });
  assert.deepEqual(lists(r), want);
  assert.equal(r.blocksPerThread[0], 20);
  const before = process.env.EVAL_LENS_REQUIRE_WORKERS;
  process.env.EVAL_LENS_REQUIRE_WORKERS = '1';
  try {
    await assert.rejects(
      parallelFactorTopK(U, V, { k: 4, train, blockUsers: 2, threads: 2, workerFile: bad }),
      /factor scoring worker failed: no luck/,
    );
    await assert.rejects(
      parallelFactorTopK(U, V, { k: 4, train, threads: 2, workerFile: join(dir, 'missing.js') }),
      /factor scoring worker script not found/,
    );
  } finally {
    if (before === undefined) delete process.env.EVAL_LENS_REQUIRE_WORKERS;
    else process.env.EVAL_LENS_REQUIRE_WORKERS = before;
  }
});

test('cancellation stops every thread', async () => {
  const { U, V } = tieHeavy(5, 200, 100, 2);
  await assert.rejects(
    parallelFactorTopK(U, V, { k: 3, blockUsers: 4, threads: 2, workerFile, progress: { isCancelled: () => true } }),
    CancelledError,
  );
});
