/**
 * StringIndex against a Map (the slow obvious reference) on random texts with repeats, and its
 * edge cases: the empty list, the empty text, texts that differ only past a shared prefix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StringIndex } from '../../../../src/core/data/stringIndex';
import { createRng } from '../../../../src/core/stats/rng';

test('the first position of every text, -1 for an absent one, the repeats in order: as a Map gives them', () => {
  const rng = createRng(3);
  for (const n of [1, 7, 1000, 50_000]) {
    const keys = Array.from({ length: n }, () => `r${rng.int(Math.max(1, Math.floor(n * 0.8)))}`);
    const index = new StringIndex(keys);
    const first = new Map<string, number>();
    const repeats: number[] = [];
    keys.forEach((k, i) => (first.has(k) ? repeats.push(i) : first.set(k, i)));
    assert.equal(index.size, first.size, `n = ${n}`);
    assert.deepEqual(index.repeats, repeats);
    for (const [k, i] of first) assert.equal(index.indexOf(k), i, k);
    for (const k of ['', 'r', `r${n}`, 'x0']) assert.equal(index.indexOf(k), first.get(k) ?? -1, k);
  }
});

test('edge cases: no texts; the empty text; shared prefixes; non-ASCII texts', () => {
  const none = new StringIndex([]);
  assert.equal(none.size, 0);
  assert.equal(none.indexOf('a'), -1);
  const keys = ['', 'ab', 'abc', 'a', 'ab', '', 'é', 'e\u0301', '😀'];
  const index = new StringIndex(keys);
  assert.deepEqual(
    ['', 'ab', 'abc', 'a', 'é', 'e\u0301', '😀', 'abcd'].map((k) => index.indexOf(k)),
    [0, 1, 2, 3, 6, 7, 8, -1],
  );
  assert.deepEqual(index.repeats, [4, 5]);
  assert.equal(index.size, 7);
  assert.equal(index.has('abc'), true);
  assert.equal(index.has('abcd'), false);
});
