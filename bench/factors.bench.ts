// Top-K lists from a factor model: 100,000 users × 50,000 items × 64 factors (float32 .npy files,
// seeded), each user's train items masked (a sparse mask, 20 items per user on average), K = 10:
// ≈ 3.2·10¹¹ multiply-adds. The data is written once under bench/data/factors (not committed):
// U.npy, V.npy, user_ids.txt, item_ids.txt, train.csv, relevant.csv and an eval-lens.json, so the
// same files can be evaluated end to end (`eval-lens evaluate bench/data/factors/U.npy`).
//
// Each measurement runs in its own Node process (so each peak RSS is its own) on the bundled code:
// reading the two .npy files, then scoring + top-K on 1 thread and on every available core. The
// line gives the wall time, the achieved multiply-adds per second, the peak RSS, and the CPU time
// of all threads.
//   node bench/run.mjs factors            (bundles this file; EVAL_LENS_REQUIRE_WORKERS=1)
//   FACTORS_BENCH_USERS=10000 node bench/run.mjs factors   (a smaller run)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { readFactorMatrix } from '../src/core/io/ranking/factors';
import { parallelFactorTopK } from '../src/core/factors/parallelTopK';
import { createRng } from '../src/core/stats/rng';

const USERS = Number(process.env.FACTORS_BENCH_USERS ?? 100_000);
const ITEMS = Number(process.env.FACTORS_BENCH_ITEMS ?? 50_000);
const D = 64;
const K = 10;
const TRAIN_PER_USER = 20;
const DIR = join('bench', 'data', USERS === 100_000 && ITEMS === 50_000 ? 'factors' : `factors-${USERS}x${ITEMS}`);

function npyFloat32(rows: number, cols: number, rnd: () => number): Buffer {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const data = new Float32Array(rows * cols);
  // Popularity-like structure: a shared direction plus noise, so lists are not uniform.
  for (let p = 0; p < data.length; p++) data[p] = (rnd() - 0.5) * 0.2 + (p % cols === 0 ? 0.5 : 0);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer)]);
}

/** The train mask and the ground truth: a few items per user, drawn with a seeded generator. */
function trainOf(users: number, items: number): Int32Array[] {
  const rnd = createRng(7).next;
  const out: Int32Array[] = [];
  for (let u = 0; u < users; u++) {
    const n = Math.floor(rnd() * 2 * TRAIN_PER_USER);
    const s = new Set<number>();
    while (s.size < n) s.add(Math.floor(rnd() * items));
    out.push(Int32Array.from(s));
  }
  return out;
}

function generate(): void {
  if (existsSync(join(DIR, 'eval-lens.json'))) return;
  mkdirSync(DIR, { recursive: true });
  console.log(`generating ${DIR} (${USERS} users × ${ITEMS} items × ${D} factors)`);
  writeFileSync(join(DIR, 'U.npy'), npyFloat32(USERS, D, createRng(1).next));
  writeFileSync(join(DIR, 'V.npy'), npyFloat32(ITEMS, D, createRng(2).next));
  writeFileSync(join(DIR, 'user_ids.txt'), Array.from({ length: USERS }, (_, u) => `u${u}\n`).join(''));
  writeFileSync(join(DIR, 'item_ids.txt'), Array.from({ length: ITEMS }, (_, i) => `i${i}\n`).join(''));
  const train = trainOf(USERS, ITEMS);
  const lines = ['user,item'];
  train.forEach((t, u) => t.forEach((i) => lines.push(`u${u},i${i}`)));
  writeFileSync(join(DIR, 'train.csv'), lines.join('\n') + '\n');
  const rnd = createRng(3).next;
  const rel = ['user,item'];
  for (let u = 0; u < USERS; u++) for (let j = 0; j < 3; j++) rel.push(`u${u},i${Math.floor(rnd() * ITEMS)}`);
  writeFileSync(join(DIR, 'relevant.csv'), [...new Set(rel)].join('\n') + '\n');
  writeFileSync(
    join(DIR, 'eval-lens.json'),
    JSON.stringify(
      {
        task: 'ranking',
        userFactors: 'U.npy',
        itemFactors: 'V.npy',
        userIds: 'user_ids.txt',
        itemIds: 'item_ids.txt',
        train: 'train.csv',
        relevant: 'relevant.csv',
        k: [K],
      },
      null,
      2,
    ) + '\n',
  );
}

async function measure(threads: number): Promise<void> {
  const t0 = performance.now();
  const U = (await readFactorMatrix(join(DIR, 'U.npy'), 'U.npy')).matrix;
  const V = (await readFactorMatrix(join(DIR, 'V.npy'), 'V.npy')).matrix;
  const train = trainOf(USERS, ITEMS);
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  const r = await parallelFactorTopK(U, V, { k: K, train, threads });
  const s = (performance.now() - t1) / 1000;
  // CPU time of every thread of the process: on a shared machine the wall time depends on the load,
  // the multiply-adds per CPU second much less.
  const c = process.cpuUsage(c1);
  const cpu = (c.user + c.system) / 1e6;
  const madds = USERS * ITEMS * D;
  const rss = process.resourceUsage().maxRSS / 1024;
  let listed = 0;
  for (const a of r.items) listed += a.length;
  console.log(
    `${`scoring + top-${K}, ${r.threads} thread${r.threads > 1 ? 's' : ''}`.padEnd(34)} ${s.toFixed(3).padStart(8)} s  ${(madds / s / 1e9).toFixed(2).padStart(6)} G multiply-adds/s  peak RSS ${rss.toFixed(0)} MB  (CPU ${cpu.toFixed(1)} s, ${(madds / cpu / 1e9).toFixed(2)} G/CPU-s; read ${((t1 - t0) / 1000).toFixed(2)} s; block ${r.blockUsers} users; blocks per thread ${r.blocksPerThread.join('/')}; ${listed} items listed)`,
  );
}

async function main(): Promise<void> {
  const arg = process.argv.indexOf('--threads');
  if (arg > 0) {
    await measure(Number(process.argv[arg + 1]));
  } else {
    generate();
    const cores = availableParallelism();
    console.log(
      `${USERS} users × ${ITEMS} items × ${D} factors = ${((USERS * ITEMS * D) / 1e9).toFixed(1)}·10⁹ multiply-adds; K = ${K}; ${cores} cores`,
    );
    for (const threads of [...new Set([1, cores])]) {
      const r = spawnSync(process.execPath, [process.argv[1], '--threads', String(threads)], { stdio: 'inherit' });
      if (r.status !== 0) process.exit(r.status ?? 1);
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
