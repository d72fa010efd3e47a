// The whole ranking evaluation as the command line and the extension run it — bundled, with the
// random baseline's worker script beside the bundle — gives the same results file, byte for byte
// (apart from its creation time and timings), as the evaluation from the TypeScript sources, where
// both baselines are scored on the calling thread; and the bundle did start the baseline's thread.
// Graded and binary relevance, users without train items, lists shorter than the largest K.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import type { EvalConfig } from '../../../../src/core/config/types';
import { evaluateFile } from '../../../../src/core/evaluate';
import type { Results } from '../../../../src/core/results/types';
import { createRng } from '../../../../src/core/stats/rng';
import { bundledWorker } from '../../helpers/bundledWorker';

const ROOT = join(__dirname, '../../../..');

/** 10,000 users × lists of up to 100 items (1,000,000 slots: the thread's threshold). */
function writeInputs(dir: string, graded: boolean, seed: number): string {
  const rng = createRng(seed);
  const nItems = 3000;
  const run: string[] = [];
  const train = ['user,item'];
  for (let u = 0; u < 10_000; u++) {
    const len = rng.next() < 0.05 ? 1 + rng.int(60) : 100;
    const items = new Set<number>();
    while (items.size < len) items.add(rng.int(nItems));
    const relevant: Record<string, number> = {};
    const nRel = rng.next() < 0.05 ? 0 : 1 + rng.int(8);
    for (let q = 0; q < nRel; q++) relevant[`i${rng.int(nItems)}`] = graded ? 1 + rng.int(3) : 1;
    run.push(JSON.stringify({ user: `u${u}`, items: [...items].map((i) => `i${i}`), relevant }));
    if (rng.next() < 0.1) continue; // no train interactions
    for (let r = 1 + rng.int(6); r > 0; r--) train.push(`u${u},i${Math.floor(nItems * rng.next() ** 2)}`);
  }
  writeFileSync(join(dir, 'run.jsonl'), run.join('\n') + '\n');
  writeFileSync(join(dir, 'train.csv'), train.join('\n') + '\n');
  return join(dir, 'run.jsonl');
}

/** A driver bundled beside the worker: evaluates argv[2] with the overrides in argv[3], counts the baseline threads. */
function bundledDriver(): string {
  const out = dirname(bundledWorker('src/core/tasks/rankingBaselineWorker.ts'));
  const src = join(out, 'driver.src.js');
  // The module object itself is patched (each bundled import reads its properties through getters).
  writeFileSync(
    src,
    `const threads = require('node:worker_threads');
const { evaluateFile } = require(${JSON.stringify(join(ROOT, 'src/core/evaluate'))});
let started = 0;
const Original = threads.Worker;
threads.Worker = class extends Original {
  constructor(file, options) {
    if (String(file).endsWith('rankingBaselineWorker.js')) started++;
    super(file, options);
  }
};
evaluateFile(process.argv[2], { overrides: JSON.parse(process.argv[3]) }).then((results) => {
  process.stdout.write(JSON.stringify({ started, results }));
});
`,
  );
  const driver = join(out, 'driver.js');
  buildSync({ entryPoints: [src], outfile: driver, bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
  return driver;
}

function comparable(r: Results): string {
  const copy = { ...r } as Partial<Results>;
  delete copy.createdAt;
  delete copy.timings;
  return JSON.stringify(copy);
}

test('a ranking evaluation with the baseline thread (the bundle) gives the same results as one thread', async () => {
  const driver = bundledDriver();
  for (const [graded, seed] of [
    [true, 1],
    [false, 2],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-baselines-'));
    const run = writeInputs(dir, graded, seed);
    const overrides: EvalConfig = { task: 'ranking', k: [5, 20, 100, 150], train: 'train.csv', bootstrap: { n: 0 } };
    const r = spawnSync(process.execPath, [driver, run, JSON.stringify(overrides)], {
      encoding: 'utf8',
      env: { ...process.env, EVAL_LENS_REQUIRE_WORKERS: '1' },
      maxBuffer: 1 << 28,
    });
    assert.equal(r.status, 0, r.stderr);
    const bundled = JSON.parse(r.stdout) as { started: number; results: Results };
    assert.equal(bundled.started, 1, 'the bundle scored the random baseline on its thread');
    const here = await evaluateFile(run, { overrides });
    assert.equal(comparable(bundled.results), comparable(here), graded ? 'graded' : 'binary');
    assert.ok((here.baselines?.random['ndcg@20'].value ?? 0) > 0);
    assert.ok(here.warnings.some((w) => w.code === 'list-shorter-than-k'));
  }
});
