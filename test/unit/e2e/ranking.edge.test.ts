// Edge cases of the ranking family, all in test/fixtures/ranking/edge/edge.jsonl (one user a line):
// an empty list, a user without relevant items, a list of one item repeated, integer ids, a blank
// line, unicode ids, unsorted scores, a repeated user, a user whose relevant item is never listed,
// a negative grade; and a train file with quoted cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';
import { closeAbs as close } from '../helpers/numericClose';

const EDGE = join(__dirname, '../../fixtures/ranking/edge');

test('edge cases: values', async () => {
  // The lists as written (maskSeen: false): the masked ones are checked below.
  const r = await evaluateFile(join(EDGE, 'edge.jsonl'), {
    overrides: { task: 'ranking', k: [1, 2, 5], train: 'train.csv', maskSeen: false, bootstrap: { n: 0 } },
  });
  const m = r.metrics;
  // evaluated: empty-list, all-dups, 7, ünï, miss, neg; skipped: no-relevant
  assert.equal(m.users_evaluated.value, 6);
  assert.equal(m.users_skipped.value, 1);
  const ids = r.perItem!.ids!;
  assert.deepEqual(ids, ['empty-list', 'all-dups', '7', 'ünï', 'miss', 'neg']);
  const v = (key: string, user: string) => r.perItem!.values[key][ids.indexOf(user)];
  // empty list: every metric 0
  for (const key of ['recall@5', 'precision@5', 'ndcg@5', 'map@5', 'hit_rate@5', 'mrr'])
    assert.equal(v(key, 'empty-list'), 0);
  // [a, a, a] with R = {a}: the repeats are void slots
  assert.equal(v('recall@1', 'all-dups'), 1);
  assert.equal(v('precision@2', 'all-dups'), 1 / 2);
  assert.equal(v('precision@5', 'all-dups'), 1 / 5);
  assert.equal(v('ndcg@5', 'all-dups'), 1);
  assert.equal(v('map@5', 'all-dups'), 1);
  // integer ids: [1, 2, "3"] with {"3": 2, "4": 0}: DCG@5 = 2/log2 4, IDCG = 2
  close(v('ndcg@5', '7'), 2 / Math.log2(4) / 2);
  close(v('mrr', '7'), 1 / 3);
  // unicode ids; the second line of the same user is ignored
  assert.equal(v('recall@1', 'ünï'), 1);
  // never-listed relevant item
  assert.equal(v('mrr', 'miss'), 0);
  // negative grade = not relevant
  assert.equal(v('mrr', 'neg'), 1 / 2);
  close(m['recall@1'].value, 2 / 6);
  close(m.mrr.value, (0 + 1 + 1 / 3 + 1 + 0 + 1 / 2) / 6);
  // catalog = train {a, b, 1} ∪ relevant {a, 3, 日本, q, b} = 6 items; top 1 holds a, 1, 日本, x (outside)
  close(m['coverage@1'].value, 3 / 6);
  // every train item is cold (count 1 < 5): top 1 has a and 1; top 2 adds b
  close(m['cold_start_coverage@1'].value, 2 / 3);
  close(m['cold_start_coverage@2'].value, 3 / 3);
  // novelty: each train item has share 1/3
  close(m['novelty@1'].value, -Math.log2(1 / 3));
  // popularity baseline order: ties by id → "1", "a", "b" (minus seen)
  assert.ok(r.baselines!.popularity['recall@5'].value! > 0);
});

test('edge cases: seen items masked (the default): a list of one seen item repeated becomes empty', async () => {
  const r = await evaluateFile(join(EDGE, 'edge.jsonl'), {
    overrides: { task: 'ranking', k: [1, 2, 5], train: 'train.csv', bootstrap: { n: 0 } },
  });
  const p = r.perItem!;
  assert.ok(p.kind === 'user');
  const ids = p.ids!;
  const v = (key: string, user: string) => r.perItem!.values[key][ids.indexOf(user)];
  // all-dups saw a: [a, a, a] → [] (the repeats go with it); 7 saw 1: [1, 2, "3"] → [2, "3"]:
  // DCG@5 = 2/log2 3, IDCG = 2, mrr = 1/2.
  assert.equal(v('recall@5', 'all-dups'), 0);
  assert.equal(v('mrr', 'all-dups'), 0);
  close(v('ndcg@5', '7'), 2 / Math.log2(3) / 2);
  close(v('mrr', '7'), 1 / 2);
  // unchanged: users without a seen item in their list
  close(v('mrr', 'neg'), 1 / 2);
  close(r.metrics.mrr.value, (0 + 0 + 1 / 2 + 1 + 0 + 1 / 2) / 6);
  const w = r.warnings.find((x) => x.code === 'seen-items-masked')!;
  assert.equal(w.count, 2); // users: all-dups and 7
  assert.deepEqual(w.lines, [3, 4]);
  assert.match(w.message, /4 recommended item\(s\) in 2 user\(s\)' lists/);
});

test('edge cases: warnings', async () => {
  const r = await evaluateFile(join(EDGE, 'edge.jsonl'), {
    overrides: { task: 'ranking', k: [1, 2, 5], train: 'train.csv', maskSeen: false, bootstrap: { n: 0 } },
  });
  const w = new Map(r.warnings.map((x) => [x.code, x]));
  assert.deepEqual([w.get('duplicate-items-in-list')!.count, w.get('duplicate-items-in-list')!.lines], [2, [3]]);
  assert.deepEqual(w.get('duplicate-user')!.lines, [7]);
  assert.deepEqual(w.get('scores-not-sorted')!.lines, [6]);
  assert.deepEqual(w.get('negative-relevance')!.lines, [9]);
  assert.deepEqual(w.get('users-without-relevant-items')!.lines, [2]);
  assert.equal(w.get('list-shorter-than-k')!.count, 6);
  assert.equal(w.get('seen-items-recommended')!.count, 2);
  assert.ok(w.get('novelty-items-without-train-count')!.count! > 0);
  assert.equal(w.get('items-outside-catalog')!.count, 4); // 2, x, y, z: neither in train nor relevant to anyone
});
