/**
 * `eval-lens compare … --against BASELINE` end to end: the baseline runs made from the first run's
 * input, compared like any run; the flag's errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompareResults } from '../../../src/core/compare/types';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-compare-against-'));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'compare', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// 20 rows: 12 of class a, 8 of b; the model is wrong on 3 rows.
const rows = Array.from({ length: 20 }, (_, i) => {
  const y = i < 12 ? 'a' : 'b';
  const pred = [2, 13, 17].includes(i) ? (y === 'a' ? 'b' : 'a') : y;
  return `r${i},${y},${pred}`;
});
const model = join(dir, 'model.csv');
writeFileSync(model, `id,label,pred\n${rows.join('\n')}\n`);

test('compare MODEL --against majority: one run and a baseline, tested against it; nothing else written', () => {
  const r = cli([model, '--against', 'majority', '--format', 'json', '--bootstrap-n', '200']);
  assert.equal(r.status, 0, r.stderr);
  const c = JSON.parse(r.stdout) as CompareResults;
  assert.deepEqual(c.runs, [`baseline:majority (of ${model})`, model]);
  assert.equal(c.baseline, `baseline:majority (of ${model})`);
  assert.equal(c.table[`baseline:majority (of ${model})`]!.accuracy, 12 / 20);
  assert.equal(c.table[model]!.accuracy, 17 / 20);
  const t = c.tests.find((x) => x.metric === 'accuracy')!;
  // majority right, model wrong: rows 2 (b = 1); model right, majority wrong: the b rows but 13, 17 (c = 6)
  assert.deepEqual([t.mcnemar_b, t.mcnemar_c], [1, 6]);
  assert.ok(Math.abs(t.delta! - 0.25) < 1e-12);
  assert.deepEqual(readdirSync(dir), ['model.csv']);
});

test('the table names the baseline runs; --against repeated and comma-separated', () => {
  const r = cli([model, '--against', 'majority,prior', '--against', 'prior']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /baseline:majority \(of model\) \(baseline\)/);
  assert.match(r.stdout, /baseline:prior \(of model\)/);
});

test('--against: an unknown name is a usage error (exit 2); a baseline of another task is refused (exit 1)', () => {
  const bad = cli([model, '--against', 'popular']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /invalid value for --against: expected majority, prior, popularity, random .*got "popular"/);
  const wrong = cli([model, '--against', 'popularity']);
  assert.equal(wrong.status, 1);
  assert.match(
    wrong.stderr,
    /popularity baseline does not fit a classification run; a classification run has majority and prior/,
  );
});

test('a results file: the baseline is made from the prediction file it names, and refused once that file changed', () => {
  const sub = join(dir, 'results');
  mkdirSync(sub);
  const preds = join(sub, 'model.csv');
  writeFileSync(preds, `id,label,pred\n${rows.join('\n')}\n`);
  const results = join(sub, 'model.eval.json');
  const ev = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'evaluate', preds, '--out', results],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(ev.status, 0, ev.stderr);
  const ok = cli([results, '--against', 'majority', '--format', 'json', '--metrics', 'accuracy']);
  assert.equal(ok.status, 0, ok.stderr);
  const c = JSON.parse(ok.stdout) as CompareResults;
  assert.equal(c.table[`baseline:majority (of ${results})`]!.accuracy, 12 / 20);
  writeFileSync(preds, `id,label,pred\n${rows.slice(1).join('\n')}\n`);
  const changed = cli([results, '--against', 'majority']);
  assert.equal(changed.status, 1);
  assert.match(
    changed.stderr,
    /the majority baseline is made from the input of the prediction file .* has changed since/,
  );
});
