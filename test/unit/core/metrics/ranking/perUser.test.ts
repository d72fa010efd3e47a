import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  activityBinEdges,
  activityBinOf,
  defaultActivityBoundaries,
  trainCountsOf,
} from '../../../../../src/core/metrics/ranking/perUser';
import { createRng } from '../../../../../src/core/stats/rng';

/** The tertile boundaries as a full sort gives them (the definition the selection must match). */
function boundariesBySort(counts: number[]): number[] {
  const sorted = new Float64Array(counts).sort();
  if (sorted.length === 0) return [];
  const q = (p: number) => Math.ceil(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
  return [...new Set([q(1 / 3), q(2 / 3)])].filter((b) => b > 0).sort((a, b) => a - b);
}

test('the default activity boundaries are the tertiles of a sort of the counts', () => {
  const rng = createRng(3);
  assert.deepEqual(defaultActivityBoundaries([]), []);
  assert.deepEqual(defaultActivityBoundaries([0, 0, 0]), []);
  assert.deepEqual(defaultActivityBoundaries([1, 2, 3, 4, 5, 6, 7, 8, 9]), [4, 7]);
  // Skewed counts with many ties, as train interactions are; fractional ones are rounded up.
  for (const n of [1, 2, 4, 30, 1000, 20000]) {
    const counts = Array.from({ length: n }, () => Math.floor(rng.next() * rng.next() * 60));
    assert.deepEqual(defaultActivityBoundaries(counts), boundariesBySort(counts), `n=${n}`);
    const fractions = Array.from({ length: n }, () => rng.next() * 9);
    assert.deepEqual(defaultActivityBoundaries(fractions), boundariesBySort(fractions), `n=${n}`);
  }
  // Values that are not tallied: a NaN (the sort puts it last), negative numbers, counts far above
  // the number of users, and -0.
  for (const counts of [
    [5, NaN, 1, 9, NaN, 3],
    [-4, 2, 7, -1, 0, 12],
    [1e9, 3, 3, 1e8, 2, 1],
    [-0, 0, -0, 2, 5, 5],
    [0, 0, 0, 0, 0, 1],
  ])
    assert.deepEqual(defaultActivityBoundaries(counts), boundariesBySort(counts), JSON.stringify(counts));
  // Whole counts up to the tally's limit and just past it.
  const n = 30;
  for (const top of [4 * n + 64, 4 * n + 65]) {
    const counts = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? top : i));
    assert.deepEqual(defaultActivityBoundaries(counts), boundariesBySort(counts), `top ${top}`);
  }
  // From an Int32Array, as the activity table passes them.
  const typed = Int32Array.from({ length: 5000 }, () => Math.floor(rng.next() * 300));
  assert.deepEqual(defaultActivityBoundaries(typed), boundariesBySort([...typed]));
});

test('trainCountsOf: the train count of the user of each evaluated list, 0 past the counts', () => {
  const userCounts = Int32Array.from([7, 0, 3]);
  const listUser = Int32Array.from([2, 0, 5, 1]);
  assert.deepEqual([...trainCountsOf(userCounts, listUser, Int32Array.from([0, 2, 3, 1]))], [3, 0, 0, 7]);
  // and the bins of those counts, from arrays and from typed arrays alike
  const counts = trainCountsOf(userCounts, listUser, Int32Array.from([0, 1, 2, 3]));
  const bins = activityBinEdges([], [1, 5]);
  assert.deepEqual([...activityBinOf(counts, bins)], [1, 2, 0, 0]);
  assert.deepEqual([...activityBinOf([...counts], bins)], [1, 2, 0, 0]);
});
