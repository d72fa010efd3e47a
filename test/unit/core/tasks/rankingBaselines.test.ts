// The random baseline scored on a worker thread gives exactly what scoring it on the calling thread
// gives (every value, every curve point, bit for bit, keys in the same order), on random inputs:
// graded and binary relevance, users without train items or without relevant items, users who saw
// nearly every item (short lists), depths above the pool, cutoffs above the depth, catalogs with
// and without members. A worker that cannot start, dies or fails leaves the baseline to the calling
// thread with a note (an error when workers are required), and a stopped thread raises nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Warnings } from '../../../../src/core/diagnostics';
import type { EvaluateListsOptions, ScoringData } from '../../../../src/core/metrics/ranking/evaluateLists';
import { evaluateRecommender } from '../../../../src/core/metrics/ranking/evaluateLists';
import { randomRecommender } from '../../../../src/core/metrics/ranking/baselines';
import { BaselineThread } from '../../../../src/core/tasks/rankingBaselines';
import {
  scoreRandomBaseline,
  type BaselineScores,
  type RandomBaselineJob,
} from '../../../../src/core/tasks/rankingBaselineJob';
import { createRng, type Rng } from '../../../../src/core/stats/rng';
import { tmpFile } from '../../helpers/io';
import { bundledWorker } from '../../helpers/bundledWorker';

const workerFile = bundledWorker('src/core/tasks/rankingBaselineWorker.ts');
const onThread = { minSlots: 0, threads: 2, workerFile };

/** `n` distinct integers below `m` (n ≤ m), in random order. */
function distinct(rng: Rng, n: number, m: number): number[] {
  const all = Array.from({ length: m }, (_, i) => i);
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(m - i);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, n);
}

function randomJob(rng: Rng): RandomBaselineJob {
  const nItems = 1 + rng.int(80);
  const nUsers = 1 + rng.int(150);
  const binary = rng.next() < 0.5;
  const relOffsets = new Int32Array(nUsers + 1);
  const relItems: number[] = [];
  const relGrades: number[] = [];
  for (let u = 0; u < nUsers; u++) {
    // about one user in six has no relevant item (not evaluated, but still served a list)
    const n = rng.next() < 0.15 ? 0 : 1 + rng.int(Math.min(nItems, 10));
    for (const it of distinct(rng, n, nItems)) {
      relItems.push(it);
      relGrades.push(binary ? 1 : 1 + rng.int(4));
    }
    relOffsets[u + 1] = relItems.length;
  }
  // Train covers only the first users (the others have no train item at all).
  const trainUsers = rng.int(nUsers + 1);
  const seenOffsets = new Int32Array(trainUsers + 1);
  const seenItems: number[] = [];
  const itemCounts = new Int32Array(nItems);
  for (let u = 0; u < trainUsers; u++) {
    const r = rng.next();
    // none, a few, or nearly all of the items (the list is then shorter than the depth)
    const n = r < 0.2 ? 0 : r < 0.35 ? Math.max(0, nItems - rng.int(3)) : rng.int(Math.min(nItems, 8) + 1);
    for (const it of distinct(rng, n, nItems)) {
      seenItems.push(it);
      itemCounts[it] += 1 + rng.int(3);
    }
    seenOffsets[u + 1] = seenItems.length;
  }
  let total = 0;
  for (let it = 0; it < nItems; it++) total += itemCounts[it];
  const depth = 1 + rng.int(rng.next() < 0.3 ? 2 * nItems + 5 : 30);
  const ks = [...new Set(Array.from({ length: 1 + rng.int(4) }, () => 1 + rng.int(depth + 10)))].sort((a, b) => a - b);
  const withMembers = rng.next() < 0.5;
  const members = withMembers ? Uint8Array.from({ length: nItems }, () => (rng.next() < 0.8 ? 1 : 0)) : null;
  let size = nItems + rng.int(20);
  if (members) size = members.reduce((s, x) => s + x, 0);
  const opts: EvaluateListsOptions = {
    ks,
    gain: rng.next() < 0.5 ? 'linear' : 'exp',
    mapNormaliser: (['min', 'all', 'hits'] as const)[rng.int(3)],
    coldThreshold: 1 + rng.int(5),
    catalog: { size, members, note: 'catalog of the test' },
  };
  const data: ScoringData = {
    items: { size: nItems },
    relOffsets,
    relItems: Int32Array.from(relItems),
    relGrades: Float64Array.from(relGrades),
    binary,
    train: { itemCounts, total, seenOffsets, seenItems: Int32Array.from(seenItems) },
    itemEmbeddings: null,
    userEmbeddings: null,
  };
  // The run's users, in a random order, each once (some runs leave users out).
  const users = Int32Array.from(distinct(rng, 1 + rng.int(nUsers), nUsers));
  const idRank = Int32Array.from(distinct(rng, nItems, nItems));
  return { users, depth, seed: rng.int(1 << 30), idRank, data, opts };
}

/** True when some user has fewer unseen train items than the depth (a list shorter than the depth). */
function hasShortList(job: RandomBaselineJob): boolean {
  const t = job.data.train!;
  const pool = new Set<number>();
  for (let it = 0; it < t.itemCounts.length; it++) if (t.itemCounts[it] > 0) pool.add(it);
  return Array.from(job.users).some((u) => {
    let seen = 0;
    if (u + 1 < t.seenOffsets.length)
      for (let p = t.seenOffsets[u]; p < t.seenOffsets[u + 1]; p++) if (pool.has(t.seenItems[p])) seen++;
    return pool.size - seen < job.depth;
  });
}

/** Values and curves as bits: NaN, −0 and every last digit count. */
function bits(s: BaselineScores): unknown {
  const word = (x: number | null): string =>
    x === null ? 'null' : Buffer.from(new Float64Array([x]).buffer).toString('hex');
  return {
    values: [...s.values].map(([k, v]) => [k, word(v)]),
    curves: Object.keys(s.curves)
      .sort()
      .map((k) => [k, Buffer.from(s.curves[k].buffer, s.curves[k].byteOffset, s.curves[k].byteLength).toString('hex')]),
  };
}

test('the random baseline on a worker thread equals the calling thread, bit for bit, on random inputs', async () => {
  const rng = createRng(1311);
  let short = 0;
  let graded = 0;
  for (let c = 0; c < 40; c++) {
    const job = randomJob(rng);
    const here = scoreRandomBaseline(job);
    // (the same as the recommender scored directly, as the evaluation did before it had a thread)
    const direct = evaluateRecommender(
      job.users,
      randomRecommender(job.data.train!, job.idRank, job.depth, job.seed),
      job.depth,
      job.data,
      { ...job.opts, keepPerUser: false },
    );
    assert.deepEqual(bits(here), bits(direct), `case ${c}: direct`);
    const thread = BaselineThread.start(job.users.length * job.depth, onThread);
    assert.ok(thread, 'started');
    const lengths = [job.users, job.idRank, job.data.relItems, job.data.relGrades, job.data.train!.seenItems].map(
      (a) => a.length,
    );
    thread.send(job);
    // the worker got copies: the calling thread's arrays are whole still
    assert.deepEqual(
      [job.users, job.idRank, job.data.relItems, job.data.relGrades, job.data.train!.seenItems].map((a) => a.length),
      lengths,
    );
    const warnings = new Warnings();
    const there = await thread.result(warnings);
    assert.ok(there, `case ${c}: the worker answered`);
    assert.deepEqual(warnings.list, []);
    assert.deepEqual(bits(there), bits(here), `case ${c}`);
    if (hasShortList(job)) short++;
    if (!job.data.binary) graded++;
  }
  assert.ok(short > 0 && graded > 0 && graded < 40, `short ${short}, graded ${graded}`);
});

test('a baseline thread: hand-made case — one user, two unseen items, depth 3 gives a list of two', async () => {
  // Items 0..2; user 0 saw item 1; relevant: item 2 (grade 1). The pool (train items) is {0, 1, 2}
  // minus the seen item 1: both remaining items are drawn, so recall@3 = 1 and precision@3 = 1/3.
  const job: RandomBaselineJob = {
    users: Int32Array.of(0),
    depth: 3,
    seed: 42,
    idRank: Int32Array.of(0, 1, 2),
    data: {
      items: { size: 3 },
      relOffsets: Int32Array.of(0, 1),
      relItems: Int32Array.of(2),
      relGrades: Float64Array.of(1),
      binary: true,
      train: {
        itemCounts: Int32Array.of(1, 2, 1),
        total: 4,
        seenOffsets: Int32Array.of(0, 1),
        seenItems: Int32Array.of(1),
      },
      itemEmbeddings: null,
      userEmbeddings: null,
    },
    opts: {
      ks: [3],
      gain: 'linear',
      mapNormaliser: 'min',
      coldThreshold: 2,
      catalog: { size: 3, members: null, note: 'three items' },
    },
  };
  const thread = BaselineThread.start(3, onThread)!;
  thread.send(job);
  const r = (await thread.result(new Warnings()))!;
  assert.equal(r.values.get('recall@3'), 1);
  assert.equal(r.values.get('precision@3'), 1 / 3);
  assert.equal(r.values.get('hit_rate@3'), 1);
  // coverage: 2 distinct items recommended / 3 in the catalog
  assert.equal(r.values.get('coverage@3'), 2 / 3);
  assert.deepEqual(bits(r), bits(scoreRandomBaseline(job)));
});

test('a baseline thread that cannot start, dies or fails leaves the baseline to the calling thread, with a note', async () => {
  const job = randomJob(createRng(5));
  const broken = tmpFile('broken.js', 'throw new Error("no such module");');
  const dies = tmpFile('dies.js', 'require("node:worker_threads").parentPort.once("message", () => process.exit(3));');
  for (const [file, why] of [
    [broken, /no such module/],
    [dies, /exited with code 3/],
  ] as const) {
    const thread = BaselineThread.start(1, { ...onThread, workerFile: file })!;
    assert.ok(thread);
    thread.send(job);
    const warnings = new Warnings();
    assert.equal(await thread.result(warnings), null);
    assert.deepEqual(
      warnings.list.map((w) => w.code),
      ['baseline-worker-fallback'],
    );
    assert.match(warnings.list[0].message, why);
    assert.match(warnings.list[0].message, /the values are the same/);
  }
  // A job the worker cannot score (no train data): its message comes back, the calling thread is left to say it.
  const noTrain: RandomBaselineJob = { ...job, data: { ...job.data, train: null } };
  const thread = BaselineThread.start(1, onThread)!;
  thread.send(noTrain);
  const warnings = new Warnings();
  assert.equal(await thread.result(warnings), null);
  assert.match(warnings.list[0].message, /the random baseline needs train data/);
  assert.throws(() => scoreRandomBaseline(noTrain), /the random baseline needs train data/);
});

test('with workers required, a failing or missing baseline worker is an error, not a fallback', async () => {
  const before = process.env.EVAL_LENS_REQUIRE_WORKERS;
  process.env.EVAL_LENS_REQUIRE_WORKERS = '1';
  try {
    const broken = tmpFile('broken.js', 'throw new Error("no such module");');
    const thread = BaselineThread.start(1, { ...onThread, workerFile: broken })!;
    thread.send(randomJob(createRng(6)));
    await assert.rejects(thread.result(new Warnings()), /baseline worker failed: .*no such module/);
    assert.throws(
      () => BaselineThread.start(1, { ...onThread, workerFile: broken + '.none' }),
      /baseline worker script not found/,
    );
    assert.throws(() => BaselineThread.start(1, { ...onThread, workerFile: null }), /baseline worker script not found/);
  } finally {
    if (before === undefined) delete process.env.EVAL_LENS_REQUIRE_WORKERS;
    else process.env.EVAL_LENS_REQUIRE_WORKERS = before;
  }
});

test('a baseline thread: not started for small jobs, one core or no script; stopped at once without an uncaught error', async () => {
  assert.equal(BaselineThread.start(999_999, { threads: 2, workerFile }), null);
  const large = BaselineThread.start(1_000_000, { threads: 2, workerFile });
  assert.ok(large);
  await large.stop();
  assert.equal(BaselineThread.start(1, { ...onThread, threads: 1 }), null);
  assert.equal(BaselineThread.start(1, { ...onThread, workerFile: null }), null);
  assert.equal(BaselineThread.start(1, { ...onThread, workerFile: workerFile + '.none' }), null);
  // Stopped while it starts (the evaluation failed before its baselines), twice: nothing raised.
  let uncaught = 0;
  const count = (): void => void uncaught++;
  process.on('uncaughtException', count);
  try {
    for (const file of [workerFile, tmpFile('broken.js', 'throw new Error("no such module");')]) {
      const thread = BaselineThread.start(1, { ...onThread, workerFile: file })!;
      const first = thread.stop();
      await thread.stop();
      await first;
      assert.throws(() => thread.send(randomJob(createRng(7))), /already given its job/);
    }
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    process.off('uncaughtException', count);
  }
  assert.equal(uncaught, 0);
});
