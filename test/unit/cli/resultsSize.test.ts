/**
 * The results file does not grow with the rows: `evaluate --out` on files of 10,000 and 80,000 rows
 * (the same generator, seeded) writes files of about the same size (both past the 2,001 points the
 * exact risk–coverage curve is capped at), with no per-row values; a
 * comparison of the two results files still pairs the runs by reading their prediction files
 * again, and a run whose prediction file is gone is compared by its stored values with a warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareFiles } from '../../../src/core/compare/files';
import { evaluateFile } from '../../../src/core/evaluate';
import { createRng } from '../../../src/core/stats/rng';
import type { Results } from '../../../src/core/results/types';

const ROOT = process.cwd();
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-results-size-'));

/** n rows of a 3-class file with ids and probabilities, about 80% right; the labels drawn from `labelSeed`. */
function writeRun(name: string, n: number, seed: number, labelSeed = seed): string {
  const rng = createRng(seed);
  const labels = createRng(labelSeed);
  const lines = ['id,label,pred,prob_0,prob_1,prob_2'];
  for (let i = 0; i < n; i++) {
    const label = labels.int(3);
    const pred = rng.next() < 0.8 ? label : (label + 1 + rng.int(2)) % 3;
    const p = [0.1, 0.1, 0.1];
    p[pred] = 0.5 + 0.3 * rng.next();
    const rest = (1 - p[pred]!) / 2;
    for (let c = 0; c < 3; c++) if (c !== pred) p[c] = rest;
    lines.push(`r${i},${label},${pred},${p.map((x) => x.toFixed(6)).join(',')}`);
  }
  const path = join(dir, `${name}.csv`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

function evaluateOut(path: string): { out: string; bytes: number; results: Results } {
  const out = path.replace(/\.csv$/, '.eval.json');
  const r = spawnSync(
    process.execPath,
    ['--import', TSX, join(ROOT, 'src/cli/main.ts'), 'evaluate', path, '--bootstrap-n', '50', '--out', out],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  assert.equal(r.status, 0, r.stderr);
  return { out, bytes: statSync(out).size, results: JSON.parse(readFileSync(out, 'utf8')) as Results };
}

test('evaluate --out: no per-row values, and a file of 8 times the rows gives a results file of about the same size', () => {
  const small = evaluateOut(writeRun('small', 10_000, 1));
  const large = evaluateOut(writeRun('large', 80_000, 2));
  for (const f of [small, large]) assert.equal(f.results.perItem, undefined);
  assert.equal(large.results.source.rowsUsed, 80_000);
  // the curves are capped in points and the tables do not grow with rows: only digits differ
  assert.ok(large.bytes < 1.05 * small.bytes, `${large.bytes} bytes for 80,000 rows vs ${small.bytes} for 10,000`);
});

test('the API keeps per-row values only when asked (a comparison asks)', async () => {
  const path = writeRun('api', 200, 3);
  const kept = await evaluateFile(path, { overrides: { bootstrap: { n: 0 } } });
  assert.equal(kept.perItem?.values.accuracy?.length, 200);
  const dropped = await evaluateFile(path, { overrides: { bootstrap: { n: 0 } }, perItem: false });
  assert.equal(dropped.perItem, undefined);
  assert.deepEqual(dropped.metrics, kept.metrics);
});

test('two results files are paired through their prediction files; a missing one is compared by its stored values', async () => {
  const a = evaluateOut(writeRun('pair-a', 500, 4));
  const b = evaluateOut(writeRun('pair-b', 500, 5, 4));
  const cmp = await compareFiles([a.out, b.out], { baseline: a.out, bootstrap: { n: 200, confidence: 0.95, seed: 0 } });
  const acc = cmp.tests.find((t) => t.metric === 'accuracy');
  assert.ok(acc, 'accuracy is tested');
  assert.equal(acc.n, 500);
  assert.ok(
    cmp.tests.some((t) => t.metric === 'macro_f1' && t.ci_diff),
    'a paired interval of a metric without per-row values',
  );
  rmSync(join(dir, 'pair-b.csv'));
  const gone = await compareFiles([a.out, b.out], {
    baseline: a.out,
    bootstrap: { n: 200, confidence: 0.95, seed: 0 },
  });
  assert.equal(gone.tests.length, 0);
  assert.equal(gone.table[b.out]?.accuracy, b.results.metrics.accuracy!.value);
  const w = gone.warnings.find((x) => x.code === 'compare-no-predictions');
  assert.ok(w);
  assert.match(w.message, /compared as stored, without a paired test or interval/);
});
