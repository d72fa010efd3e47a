import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Warnings } from '../../../../../src/core/diagnostics';
import { resolveConfig } from '../../../../../src/core/config/load';
import { KeyRuns, nonDecreasing, RelBuilder } from '../../../../../src/core/io/ranking/builders';
import { loadRanking } from '../../../../../src/core/io/ranking/load';
import { createRng, type Rng } from '../../../../../src/core/stats/rng';

interface Fact {
  user: number;
  item: number;
  grade: number;
  line: number;
}

/** Random (user, item, grade) facts: repeated pairs, grades 0 and negative among them. */
function randomFacts(rng: Rng, nUsers: number, nItems: number, n: number): Fact[] {
  return Array.from({ length: n }, (_, i) => ({
    user: rng.int(nUsers),
    item: rng.int(nItems),
    grade: [1, 1, 2, 0, -1, 0.5][rng.int(6)],
    line: i + 1,
  }));
}

/**
 * The obvious definition: per user, in file order, the first grade of each item; positive grades
 * are relevant; repeats (listed user by user) and negative grades counted with their lines.
 */
function slowCsr(facts: Fact[], nUsers: number) {
  const perUser: [number, number][][] = Array.from({ length: nUsers }, () => []);
  const first = new Map<string, boolean>();
  const dupLines: number[] = [];
  let negatives = 0;
  for (const f of [...facts].sort((a, b) => a.user - b.user)) {
    if (f.grade < 0) {
      negatives++;
      continue;
    }
    if (f.grade === 0) continue;
    const key = `${f.user},${f.item}`;
    if (first.has(key)) {
      dupLines.push(f.line);
      continue;
    }
    first.set(key, true);
    perUser[f.user].push([f.item, f.grade]);
  }
  const firstLine = new Int32Array(nUsers);
  for (const f of facts) if (firstLine[f.user] === 0) firstLine[f.user] = f.line;
  return { perUser, dupLines, negatives, firstLine };
}

function finishFacts(facts: Fact[], nUsers: number, nItems: number) {
  const b = new RelBuilder();
  for (const f of facts) b.add(f.user, f.item, f.grade, f.line);
  const warnings = new Warnings();
  const r = b.finish(nUsers, nItems, 'gt.csv', warnings);
  const perUser: [number, number][][] = [];
  for (let u = 0; u < nUsers; u++) {
    const l: [number, number][] = [];
    for (let p = r.relOffsets[u]; p < r.relOffsets[u + 1]; p++) l.push([r.relItems[p], r.relGrades[p]]);
    perUser.push(l);
  }
  return { r, perUser, warnings: warnings.list };
}

test('ground truth: facts in user order (grouped in place) and in any order (grouped by a copy) equal the obvious definition', () => {
  const rng = createRng(17);
  for (let trial = 0; trial < 60; trial++) {
    const nUsers = 1 + rng.int(30);
    const nItems = 1 + rng.int(20);
    // around the builder's first capacity (1,024) the arrays are kept in place
    const n = rng.int(2) === 0 ? rng.int(400) : 896 + rng.int(129);
    const facts = randomFacts(rng, nUsers, nItems, n);
    // user order (stable: file order within a user), the JSONL shape; and as drawn
    const ordered = [...facts].sort((a, b) => a.user - b.user).map((f, i) => ({ ...f, line: i + 1 }));
    for (const fs of [ordered, facts]) {
      const want = slowCsr(fs, nUsers);
      const got = finishFacts(fs, nUsers, nItems);
      assert.deepEqual(got.perUser, want.perUser, `trial ${trial}`);
      assert.equal(got.r.relItems.length, want.perUser.flat().length);
      assert.equal(got.r.relGrades.length, got.r.relItems.length);
      assert.deepEqual(Array.from(got.r.relLine), Array.from(want.firstLine));
      assert.equal(
        got.r.binary,
        want.perUser.flat().every(([, g]) => g === 1),
      );
      const dup = got.warnings.find((w) => w.code === 'duplicate-relevance');
      assert.equal(dup?.count ?? 0, want.dupLines.length);
      if (dup) assert.deepEqual(dup.lines, [...new Set(want.dupLines)].slice(0, 20));
      assert.equal(got.warnings.find((w) => w.code === 'negative-relevance')?.count ?? 0, want.negatives);
    }
  }
});

test("ground truth in user order: kept in the builder's arrays when they fit, else copied to exact arrays", () => {
  const facts = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ user: i >> 2, item: i & 3, grade: 1, line: i + 1 }));
  // 1,000 facts: the builder's arrays (room for 1,024) are used as they are
  const kept = finishFacts(facts(1000), 250, 4);
  assert.equal(kept.r.relItems.length, 1000);
  assert.equal(kept.r.relItems.buffer.byteLength, 1024 * 4);
  assert.deepEqual(kept.perUser, slowCsr(facts(1000), 250).perUser);
  // 1,025 facts: room for 2,048, too much to keep, so they are copied
  const copied = finishFacts(facts(1025), 257, 4);
  assert.equal(copied.r.relItems.length, 1025);
  assert.equal(copied.r.relItems.buffer.byteLength, 1025 * 4);
  assert.deepEqual(copied.perUser, slowCsr(facts(1025), 257).perUser);
});

test('nonDecreasing: only the first n keys count', () => {
  assert.equal(nonDecreasing(Int32Array.of(0, 0, 1, 3, 3), 5), true);
  assert.equal(nonDecreasing(Int32Array.of(0, 2, 1), 3), false);
  assert.equal(nonDecreasing(Int32Array.of(0, 2, 1), 2), true);
  assert.equal(nonDecreasing(new Int32Array(0), 0), true);
});

test('key runs: the keys pushed row by row come back row by row, with per-key counts and the order check', () => {
  const rng = createRng(23);
  for (let trial = 0; trial < 100; trial++) {
    const n = rng.int(3) === 0 ? rng.int(5) : rng.int(6000); // past the first 4,096 runs too
    const sorted = rng.int(2) === 0;
    const keys: number[] = [];
    let k = rng.int(3);
    for (let i = 0; i < n; i++) {
      // runs of equal keys of random lengths; in key order or not
      if (rng.int(3) === 0) k = sorted ? k + rng.int(3) : rng.int(50);
      keys.push(k);
    }
    const runs = new KeyRuns();
    for (const key of keys) runs.push(key);
    assert.equal(runs.length, n);
    assert.deepEqual(Array.from(runs.toArray()), keys);
    assert.equal(
      runs.nonDecreasing(),
      keys.every((x, i) => i === 0 || x >= keys[i - 1]),
    );
    const counts = new Map<number, number>();
    runs.forEachRun((key, rows) => counts.set(key, (counts.get(key) ?? 0) + rows));
    const want = new Map<number, number>();
    for (const key of keys) want.set(key, (want.get(key) ?? 0) + 1);
    assert.deepEqual(counts, want);
  }
});

test('train: rows grouped by user (kept in place) and interleaved across users give the same seen items', async () => {
  const rng = createRng(5);
  const dir = mkdtempSync(join(tmpdir(), 'rank-train-'));
  const nUsers = 40;
  const nItems = 25;
  // every user and item is in the run first, so that both train files meet no new id
  const run = Array.from({ length: nUsers }, (_, u) =>
    JSON.stringify({
      user: `u${u}`,
      items: Array.from({ length: nItems }, (_, i) => `i${(i + u) % nItems}`),
      relevant: [`i${u % nItems}`],
    }),
  );
  writeFileSync(join(dir, 'run.jsonl'), run.join('\n') + '\n');
  // per user, items in file order, with repeats
  const rows = Array.from({ length: nUsers }, () => Array.from({ length: rng.int(12) }, () => rng.int(nItems)));
  const grouped = rows.flatMap((l, u) => l.map((it) => `u${u},i${it}`));
  // round robin across users: the same order within each user, users interleaved
  const interleaved: string[] = [];
  for (let q = 0; q < 12; q++) rows.forEach((l, u) => q < l.length && interleaved.push(`u${u},i${l[q]}`));
  writeFileSync(join(dir, 'grouped.csv'), 'user,item\n' + grouped.join('\n') + '\n');
  writeFileSync(join(dir, 'interleaved.csv'), 'user,item\n' + interleaved.join('\n') + '\n');
  const load = (train: string) =>
    loadRanking({
      path: join(dir, 'run.jsonl'),
      baseDir: dir,
      config: resolveConfig([{ task: 'ranking', train }]),
      warnings: new Warnings(),
    });
  const a = (await load('grouped.csv')).train!;
  const b = (await load('interleaved.csv')).train!;
  for (const t of [a, b]) {
    for (let u = 0; u < nUsers; u++) {
      const seen = Array.from(t.seenItems.subarray(t.seenOffsets[u], t.seenOffsets[u + 1]));
      // user u is index u and item `i${k}` is index k: the run met them in that order
      assert.deepEqual(seen, [...new Set(rows[u])], `user ${u}`);
      assert.equal(t.userCounts[u], rows[u].length);
    }
    const counts = new Array<number>(nItems).fill(0);
    for (const l of rows) for (const it of l) counts[it]++;
    assert.deepEqual(Array.from(t.itemCounts), counts);
  }
});
