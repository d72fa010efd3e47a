/**
 * `eval-lens diff` with a split column: it compares the test rows (the rows evaluate and compare
 * measure), says so, and `--metrics-on all` compares every row. Reference values counted from the
 * files here: examples/selective-protocol (split values tunev / test, ids, a pred column).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const DIR = join(ROOT, 'examples/selective-protocol');

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: DIR,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** id → { split, correct } from the file (no quoted cells in these files). */
function rowsOf(file: string): Map<string, { split: string; correct: boolean }> {
  const [head, ...lines] = readFileSync(join(DIR, file), 'utf8').trimEnd().split('\n');
  const cols = head!.split(',');
  const [id, label, pred, split] = ['id', 'label', 'pred', 'split'].map((c) => cols.indexOf(c));
  return new Map(
    lines.map((l) => {
      const c = l.split(',');
      return [c[id!]!, { split: c[split!]!, correct: c[label!] === c[pred!] }];
    }),
  );
}

function expected(onlyTest: boolean) {
  const a = rowsOf('logreg.csv');
  const b = rowsOf('logreg_balanced.csv');
  let n = 0;
  let sumA = 0;
  let sumB = 0;
  const cells = { bothRight: 0, lost: 0, gained: 0, bothWrong: 0 };
  for (const [id, ra] of a) {
    if (onlyTest && ra.split !== 'test') continue;
    const rb = b.get(id)!;
    n++;
    sumA += ra.correct ? 1 : 0;
    sumB += rb.correct ? 1 : 0;
    if (ra.correct && rb.correct) cells.bothRight++;
    else if (ra.correct) cells.lost++;
    else if (rb.correct) cells.gained++;
    else cells.bothWrong++;
  }
  return { n, all: a.size, delta: (sumB - sumA) / n, cells };
}

test('diff with a split compares the test rows and says so; --metrics-on all compares every row', () => {
  const e = expected(true);
  assert.ok(e.n > 0 && e.n < e.all);
  const r = cli(['diff', 'logreg.csv', 'logreg_balanced.csv', '--format', 'json', '--limit', '1000']);
  assert.equal(r.status, 0, r.stderr);
  const d = JSON.parse(r.stdout) as {
    n: number;
    delta: number;
    cells: typeof e.cells;
    changed: number;
    measured: { testRows: number; rowsInFile: number } | null;
  };
  assert.equal(d.n, e.n);
  assert.ok(Math.abs(d.delta - e.delta) < 1e-12, `${d.delta} vs ${e.delta}`);
  assert.deepEqual(d.cells, e.cells);
  assert.equal(d.changed, e.cells.lost + e.cells.gained);
  assert.deepEqual(d.measured, { testRows: e.n, rowsInFile: e.all });
  const text = cli(['diff', 'logreg.csv', 'logreg_balanced.csv', '--limit', '0']);
  assert.equal(text.status, 0, text.stderr);
  const sign = e.delta > 0 ? '+' : '';
  assert.match(
    text.stdout.split('\n')[0]!,
    new RegExp(
      `the split's test rows: ${e.n} of ${e.all}; ${e.n} matched rows; accuracy Δ = \\${sign}${e.delta.toFixed(4)}`,
    ),
  );

  const w = expected(false);
  const all = cli(['diff', 'logreg.csv', 'logreg_balanced.csv', '--format', 'json', '--metrics-on', 'all']);
  assert.equal(all.status, 0, all.stderr);
  const da = JSON.parse(all.stdout) as { n: number; delta: number; cells: typeof w.cells; measured: unknown };
  assert.equal(da.n, w.all);
  assert.ok(Math.abs(da.delta - w.delta) < 1e-12);
  assert.deepEqual(da.cells, w.cells);
  assert.equal(da.measured, null);
});

test('diff --find-slices with a split: the finder covers the same test rows', () => {
  const e = expected(true);
  const r = cli(['diff', 'logreg.csv', 'logreg_balanced.csv', '--format', 'json', '--find-slices']);
  assert.equal(r.status, 0, r.stderr);
  const d = JSON.parse(r.stdout) as { foundSlices: { n: number; whole: { delta: number } } };
  assert.equal(d.foundSlices.n, e.n);
  assert.ok(Math.abs(d.foundSlices.whole.delta - e.delta) < 1e-12);
});
