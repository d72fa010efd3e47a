// Seen-item masking (`maskSeen`, default true): each user's train items are dropped from the list
// before the cut at K, so the list is refilled from below. Hand-computed cases, the warning that
// counts the users affected, `maskSeen: false`, and golden values of a Python reference
// (scripts/golden/ranking.py → test/golden/ranking_masked.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../../src/core/evaluate';
import { maskSeenItems } from '../../../../../src/core/metrics/ranking/maskSeen';
import { VOID_ITEM, type TrainData } from '../../../../../src/core/data/rankingData';
import type { EvalConfig } from '../../../../../src/core/config/types';

type User = { user: string; items: string[]; relevant: string[] };

function close(a: number | null | undefined, b: number, what = '', tol = 1e-12): void {
  assert.ok(typeof a === 'number' && Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
}

async function evaluate(users: User[], train: [string, string][], o: EvalConfig = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ranking-mask-'));
  writeFileSync(join(dir, 'run.jsonl'), users.map((u) => JSON.stringify(u)).join('\n') + '\n');
  writeFileSync(join(dir, 'train.csv'), ['user,item', ...train.map((r) => r.join(','))].join('\n') + '\n');
  return evaluateFile(join(dir, 'run.jsonl'), {
    overrides: { task: 'ranking', train: 'train.csv', bootstrap: { n: 0 }, ...o } as EvalConfig,
  });
}

function trainOf(seen: number[][]): TrainData {
  const seenOffsets = new Int32Array(seen.length + 1);
  seen.forEach((s, u) => (seenOffsets[u + 1] = seenOffsets[u] + s.length));
  return {
    file: 'train.csv',
    rows: seenOffsets[seen.length],
    itemCounts: new Int32Array(0),
    total: 0,
    seenOffsets,
    seenItems: Int32Array.from(seen.flat()),
    userCounts: new Int32Array(seen.length),
  };
}

test('maskSeenItems: compacts the slots in place, repeats of a seen item go with it, repeats renumbered', () => {
  // user 0 saw item 0; user 1 saw nothing. Lists: [0, 2, VOID(0), 3] and [4, VOID(4), 5].
  const lists = {
    user: Int32Array.from([0, 1]),
    offsets: Int32Array.from([0, 4, 7]),
    items: Int32Array.from([0, 2, VOID_ITEM, 3, 4, VOID_ITEM, 5]),
    repeats: new Map([
      [2, 0],
      [5, 4],
    ]),
  };
  const r = maskSeenItems(lists, trainOf([[0], []]), 6);
  assert.deepEqual([...r.perList], [2, 0]);
  assert.equal(r.items, 2);
  assert.equal(r.lists, 1);
  assert.deepEqual([...lists.offsets], [0, 2, 5]);
  assert.deepEqual([...lists.items], [2, 3, 4, VOID_ITEM, 5]);
  assert.deepEqual([...lists.repeats], [[3, 4]]);
});

test('maskSeen (default): seen items dropped before the cut at K, the list refilled from below', async () => {
  // u1 saw a, b; list [a, x, b, y, z], relevant {y}. Masked: [x, y, z] → y at rank 2:
  //   recall@2 = 1, precision@2 = 1/2, ndcg@2 = (1/log2 3) / 1, mrr = 1/2.
  // Unmasked: y at rank 4 → recall@2 = 0, precision@2 = 0, ndcg@2 = 0, mrr = 1/4.
  // u2 saw s; list [s, t], relevant {t}: masked [t] (one item left, fewer than K = 2):
  //   recall@2 = 1, precision@2 = 1/2 (divides by K), ndcg@2 = 1, mrr = 1. Unmasked: t at rank 2 →
  //   recall@2 = 1, precision@2 = 1/2, ndcg@2 = 1/log2 3, mrr = 1/2.
  // u3 saw nothing; list [c, e], relevant {e}: rank 2 either way → recall 1, precision 1/2, ndcg 1/log2 3, mrr 1/2.
  const users: User[] = [
    { user: 'u1', items: ['a', 'x', 'b', 'y', 'z'], relevant: ['y'] },
    { user: 'u2', items: ['s', 't'], relevant: ['t'] },
    { user: 'u3', items: ['c', 'e'], relevant: ['e'] },
  ];
  const train: [string, string][] = [
    ['u1', 'a'],
    ['u1', 'b'],
    ['u2', 's'],
    ['u9', 'c'],
  ];
  const l3 = 1 / Math.log2(3);
  const masked = await evaluate(users, train, { k: [2] });
  close(masked.metrics['recall@2']!.value, (1 + 1 + 1) / 3, 'recall masked');
  close(masked.metrics['precision@2']!.value, (1 / 2 + 1 / 2 + 1 / 2) / 3, 'precision masked');
  close(masked.metrics['ndcg@2']!.value, (l3 + 1 + l3) / 3, 'ndcg masked');
  close(masked.metrics.mrr!.value, (1 / 2 + 1 + 1 / 2) / 3, 'mrr masked');
  // The warning counts the users affected (2), its message the items (3) and the list left short (u2).
  const w = masked.warnings.find((x) => x.code === 'seen-items-masked');
  assert.ok(w, 'seen-items-masked warning');
  assert.equal(w.count, 2);
  assert.match(w.message, /3 recommended item\(s\) in 2 user\(s\)' lists/);
  assert.match(w.message, /1 of these lists had 2 items or more and now have fewer/);
  assert.deepEqual(w.lines, [1, 2]);
  assert.ok(!masked.warnings.some((x) => x.code === 'seen-items-recommended'));
  const summary = masked.tables.rankingSummary!;
  assert.equal(summary.maskSeen, 'on');
  assert.equal(summary.seenItemsMasked, 3);
  assert.equal(summary.usersMasked, 2);

  const kept = await evaluate(users, train, { k: [2], maskSeen: false });
  close(kept.metrics['recall@2']!.value, (0 + 1 + 1) / 3, 'recall kept');
  close(kept.metrics['precision@2']!.value, (0 + 1 / 2 + 1 / 2) / 3, 'precision kept');
  close(kept.metrics['ndcg@2']!.value, (0 + l3 + l3) / 3, 'ndcg kept');
  close(kept.metrics.mrr!.value, (1 / 4 + 1 / 2 + 1 / 2) / 3, 'mrr kept');
  const wk = kept.warnings.find((x) => x.code === 'seen-items-recommended');
  assert.ok(wk, 'seen-items-recommended warning');
  assert.equal(wk.count, 2);
  assert.match(wk.message, /maskSeen: false/);
  assert.equal(kept.tables.rankingSummary!.maskSeen, 'off');
  assert.equal(kept.tables.rankingSummary!.usersMasked, 0);
});

test('maskSeen equals the Python reference on random lists with repeats (golden)', async () => {
  const g = JSON.parse(readFileSync(join(__dirname, '../../../../golden/ranking_masked.json'), 'utf8')) as {
    ks: number[];
    users: User[];
    train: [string, string][];
    masked: Record<string, number>;
    unmasked: Record<string, number>;
    usersMasked: number;
    itemsMasked: number;
  };
  const masked = await evaluate(g.users, g.train, { k: g.ks });
  for (const [key, want] of Object.entries(g.masked)) close(masked.metrics[key]?.value, want, `masked ${key}`);
  assert.equal(masked.tables.rankingSummary!.usersMasked, g.usersMasked);
  assert.equal(masked.tables.rankingSummary!.seenItemsMasked, g.itemsMasked);
  const kept = await evaluate(g.users, g.train, { k: g.ks, maskSeen: false });
  for (const [key, want] of Object.entries(g.unmasked)) close(kept.metrics[key]?.value, want, `unmasked ${key}`);
});
