// Best / second / third: competition ranking with a relative tie tolerance; the last place (and
// so an all-way tie, and the worse of two runs) is never marked; counts are never marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markTable, placesOf, ties } from '../../../../src/core/compare/marks';

test('higher is better: 1, 2, 3 and the rest unmarked', () => {
  assert.deepEqual(placesOf([0.5, 0.9, 0.7, 0.8], 'higher'), [null, 1, 3, 2]);
});

test('lower is better', () => {
  assert.deepEqual(placesOf([0.5, 0.9, 0.7, 0.8], 'lower'), [1, null, 2, 3]);
});

test('all runs tie: nobody is best', () => {
  assert.deepEqual(placesOf([2, 2, 2], 'higher'), [null, null, null]);
  assert.deepEqual(placesOf([0.25, 0.25], 'lower'), [null, null]);
  // Equal up to summation order: 0.1 + 0.2 and 0.3 differ by one ulp, and tie.
  assert.notEqual(0.1 + 0.2, 0.3);
  assert.deepEqual(placesOf([0.1 + 0.2, 0.3, 0.3], 'higher'), [null, null, null]);
});

test('two runs: only the better one is marked (bold), never the other', () => {
  assert.deepEqual(placesOf([0.7, 0.8], 'higher'), [null, 1]);
  assert.deepEqual(placesOf([0.7, 0.8], 'lower'), [1, null]);
  // Two values among nulls count as two runs.
  assert.deepEqual(placesOf([null, 0.3, null, 0.1], 'higher'), [null, 1, null, null]);
});

test('three runs with a tie for second: the best is marked, the two tied last are not', () => {
  assert.deepEqual(placesOf([0.9, 0.8, 0.8], 'higher'), [1, null, null]);
  // With a fourth, worse run the tied pair beat someone: both 2nd.
  assert.deepEqual(placesOf([0.9, 0.8, 0.8, 0.6], 'higher'), [1, 2, 2, null]);
});

test('three runs, all different: best and second; the last is plain', () => {
  assert.deepEqual(placesOf([0.7, 0.9, 0.8], 'higher'), [null, 1, 2]);
});

test('a tie for best: both 1st, no 2nd, the next is 3rd ("1224")', () => {
  assert.deepEqual(placesOf([0.5, 0.7, 0.7, 0.6, 0.4], 'higher'), [null, 1, 1, 3, null]);
  assert.deepEqual(placesOf([0.7, 0.7, 0.6], 'higher'), [1, 1, null]);
});

test('a tie for third among five', () => {
  assert.deepEqual(placesOf([1, 2, 3, 3, 4], 'lower'), [1, 2, 3, 3, null]);
});

test('tie tolerance is relative: 1e-12 of the larger magnitude', () => {
  assert.equal(ties(1000, 1000 * (1 + 5e-13)), true);
  assert.equal(ties(1000, 1000 * (1 + 5e-12)), false);
  assert.equal(ties(0, 0), true);
  assert.equal(ties(0, 1e-300), false);
  assert.equal(ties(1e-20, 1e-20 * (1 + 1e-13)), true);
});

test('nulls and NaN are never placed and do not push others down', () => {
  assert.deepEqual(placesOf([null, 0.3], 'higher'), [null, null]);
  assert.deepEqual(placesOf([NaN, 0.3, 0.2, 0.4], 'lower'), [null, 2, 1, null]);
});

test('markTable: mixed directions per column; no direction or a count: unmarked', () => {
  const marks = markTable({
    runs: ['a', 'b', 'c', 'd'],
    metrics: ['accuracy', 'ece', 'factors', 'users_evaluated', 'users_skipped'],
    directions: { accuracy: 'higher', ece: 'lower', users_evaluated: 'higher', users_skipped: 'lower' },
    table: {
      a: { accuracy: 0.8, ece: 0.05, factors: 64, users_evaluated: 100, users_skipped: 1 },
      b: { accuracy: 0.9, ece: 0.05, factors: 32, users_evaluated: 90, users_skipped: 2 },
      c: { accuracy: 0.9, ece: 0.02, factors: 16, users_evaluated: 80, users_skipped: 3 },
      d: { accuracy: 0.7, ece: null, factors: 8, users_evaluated: 70, users_skipped: 4 },
    },
  });
  assert.deepEqual(marks, {
    accuracy: { b: 1, c: 1, a: 3 },
    ece: { c: 1 },
  });
});
