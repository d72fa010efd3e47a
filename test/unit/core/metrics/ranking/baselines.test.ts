import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TrainData } from '../../../../../src/core/data/rankingData';
import { idOrderRank, popularityOrder, trainItemsInIdOrder } from '../../../../../src/core/metrics/ranking/baselines';
import { createRng } from '../../../../../src/core/stats/rng';

/** Train data with only the item counts filled (all that the orders read). */
function countsOnly(itemCounts: Int32Array): TrainData {
  const e = new Int32Array(0);
  let total = 0;
  for (const c of itemCounts) total += c;
  return { file: 't', rows: total, itemCounts, total, seenOffsets: e, seenItems: e, userCounts: e };
}

/** The obvious definitions: train items sorted by comparisons on their id strings and counts. */
function slowPopularity(ids: string[], counts: Int32Array): number[] {
  const items = ids.map((_, i) => i).filter((i) => counts[i] > 0);
  return items.sort((a, b) => counts[b] - counts[a] || (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
}
function slowPool(ids: string[], counts: Int32Array): number[] {
  return ids
    .map((_, i) => i)
    .filter((i) => counts[i] > 0)
    .sort((a, b) => (ids[a] < ids[b] ? -1 : 1));
}

test('popularity order and the random pool: the counting sorts equal the comparison sorts on random inputs', () => {
  const rng = createRng(7);
  for (let trial = 0; trial < 200; trial++) {
    const n = 1 + rng.int(60);
    // distinct ids in a shuffled order, some sharing prefixes, some non-ASCII
    const ids = Array.from({ length: n }, (_, i) => ['i', 'I', 'é', '10', ''][i % 5] + String(rng.int(1000)) + '#' + i);
    // few distinct counts (many ties), zeros (items not in train), and now and then a huge count
    const counts = Int32Array.from(ids, () => (rng.next() < 0.2 ? 0 : 1 + rng.int(trial % 3 === 0 ? 4 : 30)));
    if (trial % 10 === 0) counts[rng.int(n)] = 1_000_000 + rng.int(5); // the comparison-sort branch
    const train = countsOnly(counts);
    const rank = idOrderRank(ids);
    assert.deepEqual(Array.from(popularityOrder(train, rank)), slowPopularity(ids, counts), `trial ${trial}`);
    assert.deepEqual(Array.from(trainItemsInIdOrder(train, rank)), slowPool(ids, counts), `trial ${trial}`);
  }
});

test('popularity order: hand-made example with ties, a zero count and the comparison-sort branch', () => {
  const ids = ['b', 'a', 'c', 'd', 'e'];
  const ord = (counts: number[]) =>
    Array.from(popularityOrder(countsOnly(Int32Array.from(counts)), idOrderRank(ids))).map((i) => ids[i]);
  // b 2, a 2, c 3, d 1, e 0 → c (3), then a and b (2, id order), then d; e is not in train
  assert.deepEqual(ord([2, 2, 3, 1, 0]), ['c', 'a', 'b', 'd']);
  // a count above 4 × items + 1024 takes the comparison sort: the same rule
  assert.deepEqual(ord([2, 2, 5000, 1, 0]), ['c', 'a', 'b', 'd']);
  assert.deepEqual(ord([0, 0, 0, 0, 0]), []);
});
