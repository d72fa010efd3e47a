/**
 * 30 million rows end to end with the bundled CLI (opt-in: `EVAL_LENS_SCALE_TEST=1`, about 15
 * minutes and 5 GB of disk on 2 cores; skipped otherwise): two runs of one 10-class file (the same
 * ids and labels, different predictions) are generated into the git-ignored bench/data/scale/,
 * each is evaluated (`evaluate -o`), and the two results files are compared (`compare`, which reads
 * the prediction files again, checked by their SHA-256). Both must succeed, each results file must
 * stay under 5 MB, and the comparison must pair all 30 million rows.
 *
 *   EVAL_LENS_SCALE_TEST=1 node scripts/run-unit-tests.mjs thirtyMillion
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareResults } from '../../../src/core/compare/types';
import { createRng } from '../../../src/core/stats/rng';
import type { Results } from '../../../src/core/results/types';

const ON = process.env.EVAL_LENS_SCALE_TEST === '1';
const ROWS = 30_000_000;
const CLASSES = 10;
const DIR = join(process.cwd(), 'bench/data/scale');
const CLI = join(process.cwd(), 'dist/cli.js');

/** Writes both runs in one pass (seeded): labels long-tailed, A right 80% of the time, B 85%. */
function generate(a: string, b: string): void {
  const rng = createRng(12345);
  const rand = (): number => rng.next();
  const head = `id,label,pred,${Array.from({ length: CLASSES }, (_, c) => `prob_${c}`).join(',')}\n`;
  const fa = openSync(a, 'w');
  const fb = openSync(b, 'w');
  writeSync(fa, head);
  writeSync(fb, head);
  const row = (i: number, label: number, pred: number): string => {
    // the predicted class gets 0.5–0.9, the rest shares what is left (four decimals, summing to 1)
    const top = 5000 + Math.floor(rand() * 4000);
    const rest = Math.floor((10000 - top) / (CLASSES - 1));
    const last = 10000 - top - rest * (CLASSES - 2);
    const p: string[] = [];
    let k = 0;
    for (let c = 0; c < CLASSES; c++) {
      if (c === pred) p.push((top / 10000).toFixed(4));
      else p.push((k++ === CLASSES - 2 ? last : rest) / 10000 + '');
    }
    return `${i},${label},${pred},${p.join(',')}\n`;
  };
  let ca = '';
  let cb = '';
  for (let i = 0; i < ROWS; i++) {
    const label = Math.min(CLASSES - 1, Math.floor(-Math.log(1 - rand()) * 2));
    const wrong = (label + 1 + Math.floor(rand() * (CLASSES - 1))) % CLASSES;
    const u = rand();
    ca += row(i, label, u < 0.8 ? label : wrong);
    cb += row(i, label, u < 0.85 ? label : wrong);
    if ((i + 1) % 100_000 === 0) {
      writeSync(fa, ca);
      writeSync(fb, cb);
      ca = '';
      cb = '';
    }
  }
  writeSync(fa, ca);
  writeSync(fb, cb);
  closeSync(fa);
  closeSync(fb);
}

function run(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `eval-lens ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test(
  '30 million rows: two runs evaluated and compared end to end by the CLI',
  { skip: !ON, timeout: 3_600_000 },
  () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first');
    mkdirSync(DIR, { recursive: true });
    const a = join(DIR, 'rows-30000000-c10-a.csv');
    const b = join(DIR, 'rows-30000000-c10-b.csv');
    if (!existsSync(a) || !existsSync(b)) generate(a, b);
    const out = (f: string): string => f.replace(/\.csv$/, '.eval.json');
    for (const f of [a, b]) {
      run(['evaluate', f, '--bootstrap-n', '0', '-o', out(f)]);
      const size = statSync(out(f)).size;
      assert.ok(size < 5e6, `${out(f)}: ${size} bytes`);
      const r = JSON.parse(readFileSync(out(f), 'utf8')) as Results;
      assert.equal(r.source.rowsUsed, ROWS);
      assert.equal(r.perItem, undefined);
    }
    const cmp = JSON.parse(
      run(['compare', out(a), out(b), '--baseline', out(a), '--bootstrap-n', '0', '--format', 'json']),
    ) as CompareResults;
    const acc = cmp.tests.find((t) => t.metric === 'accuracy');
    assert.ok(acc, 'accuracy is tested');
    assert.equal(acc.n, ROWS);
    assert.ok((acc.mean ?? 0) > (acc.mean_baseline ?? 1), 'B (85% right) beats A (80%)');
  },
);
