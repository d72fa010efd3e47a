/**
 * `eval-lens rows --sample N --stratify KEY --seed S`: a stratified random sample of the rows for
 * reading (e.g. 30 head + 20 tail rows): sizes per stratum, proportional allocation by largest
 * remainder, rows drawn without replacement from their own stratum, the same rows for the same seed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInspection } from '../../../../src/core/inspect/index';
import type { ClassificationRowView } from '../../../../src/core/inspect/index';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-sample-'));
// 10 rows of class a, 6 of b (head: ranks 1–2), 4 of c (tail)
const lines = ['label,pred'];
for (let i = 0; i < 10; i++) lines.push(`a,${i % 3 === 0 ? 'b' : 'a'}`);
for (let i = 0; i < 6; i++) lines.push('b,b');
for (let i = 0; i < 4; i++) lines.push(`c,${i === 0 ? 'c' : 'a'}`);
const file = join(dir, 'p.csv');
writeFileSync(file, lines.join('\n'));
writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ trainCounts: [50, 30, 5], groups: [2] }));
const cls = (r: unknown) => r as ClassificationRowView;

test('VALUE=N per stratum: that many rows of each, each from its stratum, distinct, in line order', async () => {
  const insp = await openInspection(file, { configPath: join(dir, 'eval-lens.json') });
  const s = insp.sample({ where: [], stratify: 'class_group', sizes: { head: 5, tail: 3 }, seed: 7 });
  assert.deepEqual(s.strata, [
    { value: 'head', rows: 16, drawn: 5 },
    { value: 'tail', rows: 4, drawn: 3 },
  ]);
  const head = s.rows.slice(0, 5).map(cls);
  const tail = s.rows.slice(5).map(cls);
  assert.ok(head.every((r) => r.label === 'a' || r.label === 'b'));
  assert.ok(tail.every((r) => r.label === 'c'));
  const ls = s.rows.map((r) => r.line);
  assert.equal(new Set(ls).size, 8);
  assert.deepEqual(
    head.map((r) => r.line),
    [...head.map((r) => r.line)].sort((a, b) => a - b),
  );
  // the same seed: the same rows; another seed: another sample of the 16 head rows
  const again = insp.sample({ where: [], stratify: 'class_group', sizes: { head: 5, tail: 3 }, seed: 7 });
  assert.deepEqual(
    again.rows.map((r) => r.line),
    ls,
  );
  const other = insp.sample({ where: [], stratify: 'class_group', sizes: { head: 5, tail: 3 }, seed: 8 });
  assert.notDeepEqual(
    other.rows.map((r) => r.line),
    ls,
  );
  // more than a stratum has: all of it
  const all = insp.sample({ where: [], stratify: 'class_group', sizes: { tail: 9 }, seed: 0 });
  assert.deepEqual(
    all.rows.map((r) => r.line),
    [18, 19, 20, 21],
  );
  assert.throws(
    () => insp.sample({ where: [], stratify: 'class_group', sizes: { middle: 2 }, seed: 0 }),
    /no matching row has class_group = "middle"; its values are "head", "tail"/,
  );
});

test('a total N is allocated in proportion by largest remainder; with a filter, over the matching rows', async () => {
  const insp = await openInspection(file, { configPath: join(dir, 'eval-lens.json') });
  // labels a 10, b 6, c 4 of 20; N = 7: quotas 3.5, 2.1, 1.4 → floors 3, 2, 1 (6), one more to the
  // largest remainder, a (0.5) → 4, 2, 1
  const s = insp.sample({ where: [], stratify: 'label', sizes: 7, seed: 1 });
  assert.deepEqual(
    s.strata.map((x) => [x.value, x.drawn]),
    [
      ['a', 4],
      ['b', 2],
      ['c', 1],
    ],
  );
  // correct = false: a rows 1, 4, 7, 10 (pred b) and c rows 2–4: 4 + 3; N = 2 → 8/7 ≈ 1.14, 6/7 ≈ 0.86 → 1, 0, then c
  const w = insp.sample({ where: [{ key: 'correct', op: '=', value: 'false' }], stratify: 'label', sizes: 2, seed: 1 });
  assert.equal(w.total, 7);
  assert.deepEqual(
    w.strata.map((x) => [x.value, x.rows, x.drawn]),
    [
      ['a', 4, 1],
      ['c', 3, 1],
    ],
  );
  assert.ok(w.rows.every((r) => cls(r).correct === false));
});

test('the CLI: --sample head=2,tail=1 --stratify class_group --seed 3 prints the sample and says so; usage errors', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/main.ts'), 'rows', file, ...args], {
      encoding: 'utf8',
    });
  const a = run(['--sample', 'head=2,tail=1', '--stratify', 'class_group', '--seed', '3', '--format', 'json']);
  assert.equal(a.status, 0, a.stderr);
  const rows = JSON.parse(a.stdout).rows as { line: number; label: string }[];
  assert.equal(rows.length, 3);
  assert.equal(rows[2]!.label, 'c');
  const b = run(['--sample', 'head=2,tail=1', '--stratify', 'class_group', '--seed', '3', '--format', 'json']);
  assert.equal(b.stdout, a.stdout);
  const t = run(['--sample', 'head=2,tail=1', '--stratify', 'class_group', '--seed', '3']);
  assert.match(t.stdout, /random sample of 3 of 20 matching rows \(20 in the file\): head 2 of 16, tail 1 of 4/);
  assert.equal(run(['--sample', 'head=2']).status, 2);
  assert.match(run(['--sample', 'head=2']).stderr, /add --stratify KEY/);
  assert.equal(run(['--stratify', 'label']).status, 2);
});
