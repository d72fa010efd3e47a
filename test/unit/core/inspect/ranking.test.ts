/**
 * The row query over a ranking run: one row per user with the line of its list, filters on the
 * user, per-user metric ranges and train counts against a slow reference (recall@K and NDCG@K by
 * their textbook formulas), sorts by a metric (stable), and the user's view: top K with hits, the
 * relevant items missed, item train counts and cold marks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInspection, parseWhere, type RankingRowView } from '../../../../src/core/inspect/index';
import { createRng } from '../../../../src/core/stats/rng';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-rank-inspect-'));

interface RefUser {
  user: string;
  line: number;
  items: string[];
  relevant: string[];
  train: number;
}

function write(seed: number): { path: string; users: RefUser[]; itemCount: Map<string, number> } {
  const rng = createRng(seed);
  const items = Array.from({ length: 40 }, (_, i) => `i${i}`);
  const users: RefUser[] = [];
  const lines: string[] = [];
  const train: string[] = ['user,item'];
  const itemCount = new Map<string, number>();
  for (let u = 0; u < 60; u++) {
    if (rng.next() < 0.1) lines.push(''); // blank lines are counted
    const pool = [...items].sort(() => rng.next() - 0.5);
    const list = pool.slice(0, 12);
    const relevant =
      rng.next() < 0.1 ? [] : [...new Set(Array.from({ length: 1 + rng.int(4) }, () => items[rng.int(items.length)]))];
    const t = rng.int(8);
    const seen = new Set<string>();
    for (let k = 0; k < t; k++) {
      const it = items[rng.int(items.length)];
      train.push(`u${u},${it}`);
      seen.add(it);
      itemCount.set(it, (itemCount.get(it) ?? 0) + 1);
    }
    lines.push(JSON.stringify({ user: `u${u}`, items: list, relevant }));
    // The list as evaluated: the user's train items masked (maskSeen, on by default).
    const masked = list.filter((it) => !seen.has(it));
    users.push({ user: `u${u}`, line: lines.length, items: masked, relevant, train: t });
  }
  const path = join(dir, `run-${seed}.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  writeFileSync(join(dir, 'train.csv'), train.join('\n') + '\n');
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ task: 'ranking', k: [5, 10], train: 'train.csv', bootstrap: { n: 0 } }),
  );
  return { path, users, itemCount };
}

function recall(u: RefUser, K: number): number {
  return u.items.slice(0, K).filter((i) => u.relevant.includes(i)).length / u.relevant.length;
}

function ndcg(u: RefUser, K: number): number {
  let dcg = 0;
  u.items.slice(0, K).forEach((it, r) => {
    if (u.relevant.includes(it)) dcg += 1 / Math.log2(r + 2);
  });
  let idcg = 0;
  for (let r = 0; r < Math.min(u.relevant.length, K); r++) idcg += 1 / Math.log2(r + 2);
  return dcg / idcg;
}

test('ranking filters and sorts equal the reference', async () => {
  const { path, users, itemCount } = write(1);
  const ins = await openInspection(path);
  assert.equal(ins.task, 'ranking');
  assert.equal(ins.rowsInFile, users.length);
  const evaluated = (u: RefUser) => u.relevant.length > 0;
  const cases: [string, (u: RefUser) => boolean][] = [
    ['user=u7', (u) => u.user === 'u7'],
    ['recall@5<0.5', (u) => evaluated(u) && recall(u, 5) < 0.5],
    ['recall@10>=0.5 and ndcg@10<0.6', (u) => evaluated(u) && recall(u, 10) >= 0.5 && ndcg(u, 10) < 0.6],
    ['ndcg@5>0', (u) => evaluated(u) && ndcg(u, 5) > 0],
    ['trainCount>=4', (u) => u.train >= 4],
    ['evaluated=false', (u) => !evaluated(u)],
    ['relevant>2', (u) => u.relevant.length > 2],
  ];
  for (const [expr, keep] of cases) {
    const page = ins.query({ where: parseWhere(expr), offset: 0, limit: 1000 });
    assert.deepEqual(
      page.rows.map((r) => r.line),
      users.filter(keep).map((u) => u.line),
      expr,
    );
  }
  // sorted by recall@10, descending; ties by line; users without a value last
  const page = ins.query({ where: [], sort: { key: 'recall@10', dir: 'desc' }, offset: 0, limit: 1000 });
  const want = [
    ...users.filter(evaluated).sort((a, b) => recall(b, 10) - recall(a, 10) || a.line - b.line),
    ...users.filter((u) => !evaluated(u)),
  ];
  assert.deepEqual(
    page.rows.map((r) => (r as RankingRowView).user),
    want.map((u) => u.user),
  );

  // one user's view
  for (const u of users.slice(0, 20)) {
    const v = ins.query({ where: [{ key: 'user', op: '=', value: u.user }], offset: 0, limit: 1 })
      .rows[0] as RankingRowView;
    assert.equal(v.line, u.line);
    assert.equal(v.trainCount, u.train);
    assert.deepEqual(
      v.items.map((x) => [x.item, x.hit, x.trainCount, x.cold]),
      u.items.slice(0, 10).map((it) => {
        const c = itemCount.get(it) ?? 0;
        return [it, u.relevant.includes(it), c, c >= 1 && c < 5];
      }),
    );
    assert.deepEqual(v.missed.sort(), u.relevant.filter((it) => !u.items.slice(0, 10).includes(it)).sort());
    if (evaluated(u)) {
      for (const K of [5, 10]) {
        assert.ok(Math.abs(v.metrics[`recall@${K}`] - recall(u, K)) < 1e-12);
        assert.ok(Math.abs(v.metrics[`ndcg@${K}`] - ndcg(u, K)) < 1e-12);
      }
    } else assert.equal(v.metrics['recall@5'], undefined);
  }
});

test('ranking slices by the number of relevant items and by train interactions', async () => {
  const { evaluateFile } = await import('../../../../src/core/evaluate');
  const { path, users } = write(2);
  const res = await evaluateFile(path, {
    overrides: { slices: ['relevant', 'trainCount', 'colour'], minSliceSize: 3, sliceBins: 4 },
  });
  const table = res.tables.slices!;
  const evaluated = users.filter((u) => u.relevant.length > 0);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  for (const size of new Set(evaluated.map((u) => u.relevant.length))) {
    const sub = evaluated.filter((u) => u.relevant.length === size);
    const row = table.find((t) => t.slice === 'relevant' && t.value === String(size));
    if (sub.length < 3) {
      assert.equal(row, undefined);
      continue;
    }
    assert.ok(row, `relevant = ${size}`);
    assert.equal(row.n, sub.length);
    for (const K of [5, 10]) {
      const r = row[`recall@${K}`] as { value: number };
      const d = row[`ndcg@${K}`] as { value: number };
      assert.ok(Math.abs(r.value - mean(sub.map((u) => recall(u, K)))) < 1e-12);
      assert.ok(Math.abs(d.value - mean(sub.map((u) => ndcg(u, K)))) < 1e-12);
      assert.ok(Math.abs(row.diff[`recall@${K}`].value! - (r.value - res.metrics[`recall@${K}`].value!)) < 1e-12);
    }
  }
  // trainCount: the activity bins of the Ranking tab (one binning for both tabs), not `sliceBins`
  // quantile bins: by hand, the default boundaries are the evaluated users' train counts at the
  // 1/3 and 2/3 quantiles, b = ⌈x_(⌊pN⌋)⌉, giving [0, b1), [b1, b2), ≥ b2.
  const bins = table.filter((t) => t.slice === 'trainCount');
  const counts = evaluated.map((u) => u.train).sort((a, b) => a - b);
  const N = counts.length;
  const [b1, b2] = [counts[Math.floor(N / 3)]!, counts[Math.floor((2 * N) / 3)]!];
  assert.ok(0 < b1 && b1 < b2, `the fixture has three activity bins (${b1}, ${b2})`);
  const byHand = [
    [`[0, ${b1})`, evaluated.filter((u) => u.train < b1).length],
    [`[${b1}, ${b2})`, evaluated.filter((u) => u.train >= b1 && u.train < b2).length],
    [`≥ ${b2}`, evaluated.filter((u) => u.train >= b2).length],
  ] as const;
  assert.deepEqual(bins.map((b) => [b.value, b.n]).sort(), byHand.filter(([, n]) => n >= 3).sort());
  // …and the same bins as the activity table the Ranking tab draws.
  const activity = res.tables.activityBins!;
  assert.deepEqual(
    activity.map((a) => [a.bin, a.users]),
    byHand.map(([b, n]) => [b, n]),
  );
  // A slice's filter selects exactly its users (what a click on it evaluates).
  for (const b of bins) {
    const lo = Number(b.where[0]!.value);
    const hi = b.where[1] ? Number(b.where[1].value) : Infinity;
    assert.equal(evaluated.filter((u) => u.train >= lo && u.train < hi).length, b.n, b.value);
  }
  assert.ok(res.warnings.some((w) => w.code === 'slices-unavailable' && /"colour" is not one/.test(w.message)));
});

test('ranking subset: the users of a filter evaluate as a run file holding only their lines', async () => {
  const { evaluateFile } = await import('../../../../src/core/evaluate');
  const { readFileSync } = await import('node:fs');
  const { path, users } = write(3);
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [expr, keep] of [
    ['trainCount>=3', (u: RefUser) => u.train >= 3],
    ['recall@10<0.5', (u: RefUser) => u.relevant.length > 0 && recall(u, 10) < 0.5],
  ] as const) {
    const only = join(dir, 'only.jsonl');
    writeFileSync(
      only,
      users
        .filter(keep)
        .map((u) => lines[u.line - 1])
        .join('\n') + '\n',
    );
    const a = await evaluateFile(path, { subset: parseWhere(expr), overrides: { bootstrap: { n: 50 } } });
    const b = await evaluateFile(only, { overrides: { bootstrap: { n: 50 } } });
    assert.equal(a.source.rowsUsed, users.filter(keep).length, expr);
    assert.equal(a.source.filter?.where.length, 1);
    assert.deepEqual(Object.keys(a.metrics), Object.keys(b.metrics), expr);
    for (const k of Object.keys(b.metrics)) {
      assert.equal(a.metrics[k].value, b.metrics[k].value, `${expr}: ${k}`);
      assert.deepEqual(a.metrics[k].ci, b.metrics[k].ci, `${expr}: ci of ${k}`);
    }
    assert.deepEqual(a.baselines, b.baselines, expr);
  }
});
