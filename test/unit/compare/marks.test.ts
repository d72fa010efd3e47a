// Best / second / third: competition ranking, ties share a place, nulls never placed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markTable, placesOf } from '../../../src/core/compare/marks';

test('higher is better: 1, 2, 3 and the rest unmarked', () => {
  assert.deepEqual(placesOf([0.5, 0.9, 0.7, 0.8], 'higher'), [null, 1, 3, 2]);
});

test('lower is better', () => {
  assert.deepEqual(placesOf([0.5, 0.9, 0.7, 0.8], 'lower'), [1, null, 2, 3]);
});

test('a tie for best: both 1st, no 2nd, the next is 3rd ("1224")', () => {
  assert.deepEqual(placesOf([0.5, 0.7, 0.7, 0.6, 0.4], 'higher'), [null, 1, 1, 3, null]);
});

test('a tie for second: both 2nd, nobody 3rd', () => {
  assert.deepEqual(placesOf([0.9, 0.7, 0.7, 0.6], 'higher'), [1, 2, 2, null]);
});

test('a tie for third: both 3rd', () => {
  assert.deepEqual(placesOf([1, 2, 3, 3, 4], 'lower'), [1, 2, 3, 3, null]);
});

test('all equal: all best; three tied for best plus one: the fourth is unplaced', () => {
  assert.deepEqual(placesOf([2, 2, 2], 'higher'), [1, 1, 1]);
  assert.deepEqual(placesOf([2, 2, 2, 1], 'higher'), [1, 1, 1, null]);
});

test('nulls are never placed and do not push others down; fewer than two values: no marks', () => {
  assert.deepEqual(placesOf([null, 0.3, null, 0.1], 'higher'), [null, 1, null, 2]);
  assert.deepEqual(placesOf([null, 0.3], 'higher'), [null, null]);
  assert.deepEqual(placesOf([NaN, 0.3, 0.2], 'lower'), [null, 2, 1]);
});

test('markTable: mixed directions per column, columns without a direction unmarked', () => {
  const marks = markTable({
    runs: ['a', 'b', 'c', 'd'],
    metrics: ['accuracy', 'ece', 'factors'],
    directions: { accuracy: 'higher', ece: 'lower' },
    table: {
      a: { accuracy: 0.8, ece: 0.05, factors: 64 },
      b: { accuracy: 0.9, ece: 0.05, factors: 32 },
      c: { accuracy: 0.9, ece: 0.02, factors: 16 },
      d: { accuracy: 0.7, ece: null, factors: 8 },
    },
  });
  assert.deepEqual(marks, {
    accuracy: { b: 1, c: 1, a: 3 },
    ece: { c: 1, a: 2, b: 2 },
  });
});
