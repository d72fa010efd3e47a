/**
 * The radix argsort against a comparator sort of the indices (the slow obvious reference) on random
 * values with many ties, both zeros, infinities, NaN, negative and subnormal values, at sizes on
 * both sides of the switch from 8-bit to 16-bit digits; the sorted keys decode to the sorted values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { float64Argsort, float64sOfKeys } from '../../../../src/core/stats/radixArgsort';
import { createRng, type Rng } from '../../../../src/core/stats/rng';

/** Indices sorted by value (ascending or descending), −0 = +0, NaN last either way, ties by index. */
function referenceOrder(values: Float64Array, descending: boolean): Int32Array {
  const idx = Array.from({ length: values.length }, (_, i) => i);
  idx.sort((a, b) => {
    const x = values[a];
    const y = values[b];
    const nx = Number.isNaN(x);
    const ny = Number.isNaN(y);
    if (nx || ny) return nx === ny ? a - b : nx ? 1 : -1;
    if (x !== y) return x < y === descending ? 1 : -1;
    return a - b;
  });
  return Int32Array.from(idx);
}

const SPECIAL = [
  0,
  -0,
  Infinity,
  -Infinity,
  NaN,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1,
  -1,
];

function valuesOf(rng: Rng, n: number): Float64Array {
  const levels = 1 + rng.int(Math.max(n, 1)); // from all ties to nearly all distinct
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    if (r < 0.1) v[i] = SPECIAL[rng.int(SPECIAL.length)];
    else if (r < 0.2)
      v[i] = (rng.next() - 0.5) * 1e-300; // tiny and subnormal-range values of both signs
    else v[i] = (rng.int(levels) - levels / 3) / levels; // ties, negative and positive
  }
  return v;
}

test('float64Argsort equals the comparator sort (random values, both directions, both digit widths)', () => {
  const rng = createRng(5);
  for (const n of [0, 1, 2, 3, 17, 255, 256, 1000, 16383, 16384, 40000]) {
    for (const descending of [false, true]) {
      const v = valuesOf(rng, n);
      const got = float64Argsort(v, descending);
      assert.deepEqual(got.order, referenceOrder(v, descending), `n ${n}, descending ${descending}`);
      for (const sizes of [{ bucketsFrom: 0 }, { bucketsFrom: 0, secondLevelFrom: 64 }]) {
        const b = float64Argsort(v, descending, sizes);
        assert.deepEqual(b.order, got.order, `n ${n}, descending ${descending}, ${JSON.stringify(sizes)}`);
        assert.deepEqual([b.hi, b.lo], [got.hi, got.lo]);
      }
      // the returned keys are the values' keys in sorted order: they decode to the sorted values
      const back = float64sOfKeys(got, descending, new Float64Array(n));
      for (let p = 0; p < n; p++) {
        const x = v[got.order[p]];
        assert.ok(Object.is(back[p], Object.is(x, -0) ? 0 : x), `n ${n}, position ${p}: ${back[p]} for ${x}`);
      }
    }
  }
});

test('float64Argsort when only some digits differ (passes skipped, low words carried or gathered)', () => {
  const rng = createRng(8);
  const kinds: ((i: number) => number)[] = [
    () => rng.int(50), // small integers: the low words are all 0
    () => 1 + rng.int(4) * 2 ** -40, // only the low words differ
    () => 0.5 + rng.int(1 << 20) * 2 ** -52, // only the lowest digits differ
    () => (rng.int(3) - 1) * (1 + rng.int(1 << 30) * 2 ** -52), // a few high digits and the low word
    () => (rng.next() - 0.5) * 2 ** (rng.int(200) - 100), // many top-16-bit buckets, most of them small
    () => 2 ** (rng.int(40) - 20) * (1 + rng.int(64) / 64), // buckets of every size, with ties
    () => (rng.next() < 0.97 ? 1 + rng.int(1 << 30) * 2 ** -52 : -rng.next()), // one bucket of 65,536 keys and more, and others
  ];
  for (const n of [300, 20000, 70000]) {
    for (const make of kinds) {
      for (const descending of [false, true]) {
        const v = Float64Array.from({ length: n }, (_, i) => make(i));
        const want = referenceOrder(v, descending);
        // the one sort, the bucketed sort, and buckets bucketed again (sizes lowered to reach them)
        for (const sizes of [{}, { bucketsFrom: 0 }, { bucketsFrom: 0, secondLevelFrom: 100 }])
          assert.deepEqual(float64Argsort(v, descending, sizes).order, want, JSON.stringify(sizes));
        const got = float64Argsort(v, descending, { bucketsFrom: 0 });
        const back = float64sOfKeys(got, descending, new Float64Array(n));
        for (let p = 0; p < n; p++) assert.equal(back[p], v[got.order[p]] === 0 ? 0 : v[got.order[p]]);
      }
    }
  }
});

test('float64Argsort of a bucket of 2^18 keys and more (distributed again by the next 16 bits, or not when they agree)', () => {
  const rng = createRng(9);
  const kinds: (() => number)[] = [
    () => 1 + rng.int(1 << 28) * 2 ** -40, // one top bucket, many second-level buckets, ties
    () => 1 + rng.int(1 << 20) * 2 ** -52, // one top bucket and one second-level bucket
    () => (rng.next() < 0.9 ? 0.5 + rng.int(1 << 30) * 2 ** -50 : rng.next()), // a large bucket among others
  ];
  for (const make of kinds) {
    for (const descending of [false, true]) {
      const v = Float64Array.from({ length: 300_000 }, make);
      assert.deepEqual(float64Argsort(v, descending, { bucketsFrom: 0 }).order, referenceOrder(v, descending));
    }
  }
});

test('keys of 4 MiB and more (views of one buffer the allocator maps on its own): the same order and keys on both paths', () => {
  const rng = createRng(11);
  const n = 600_000; // 8 bytes a key: 4.8 MB
  for (const descending of [false, true]) {
    const v = valuesOf(rng, n);
    const got = float64Argsort(v, descending);
    assert.deepEqual(got.order, referenceOrder(v, descending), `descending ${descending}`);
    // the two words of the keys share one buffer of more than 32 MiB, the largest mapping threshold
    assert.equal(got.hi.buffer, got.lo.buffer);
    assert.ok(got.hi.buffer.byteLength > 32 * 2 ** 20, `${got.hi.buffer.byteLength} bytes`);
    assert.deepEqual([got.hi.length, got.lo.length], [n, n]);
    const b = float64Argsort(v, descending, { bucketsFrom: 0 });
    assert.deepEqual(b.order, got.order);
    assert.deepEqual([b.hi, b.lo], [got.hi, got.lo]);
    const back = float64sOfKeys(got, descending, new Float64Array(n));
    for (let p = 0; p < n; p++) {
      const x = v[got.order[p]];
      if (!Object.is(back[p], Object.is(x, -0) ? 0 : x)) assert.fail(`position ${p}: ${back[p]} for ${x}`);
    }
  }
});

test('a worked example: ascending and descending orders with ties, both zeros, infinities and NaN', () => {
  //            0    1   2    3    4   5   6         7
  const v = [0.5, -1, 0.5, NaN, -0, 0, Infinity, -Infinity];
  // ascending: −∞ (7), −1 (1), the zeros in index order (4, 5), 0.5 twice (0, 2), +∞ (6), NaN (3)
  assert.deepEqual(Array.from(float64Argsort(Float64Array.from(v), false).order), [7, 1, 4, 5, 0, 2, 6, 3]);
  // descending: +∞, 0.5 twice in index order, the zeros in index order, −1, −∞, NaN still last
  assert.deepEqual(Array.from(float64Argsort(Float64Array.from(v), true).order), [6, 0, 2, 4, 5, 1, 7, 3]);
});

test('the input values are not modified', () => {
  const v = Float64Array.from([3, -0, NaN, 1, 1]);
  const copy = Float64Array.from(v);
  float64Argsort(v, true);
  for (let i = 0; i < v.length; i++) assert.ok(Object.is(v[i], copy[i]));
});

test('overwriteValues: the values serve as scratch room; order and keys as without, on every path', () => {
  const rng = createRng(11);
  for (const n of [0, 1, 3, 255, 16384, 40000]) {
    for (const descending of [false, true]) {
      const v = valuesOf(rng, n);
      // every path: one sort, bucketed (one bucket or distributed), a bucket bucketed again
      for (const sizes of [{}, { bucketsFrom: 0 }, { bucketsFrom: 0, secondLevelFrom: 64 }]) {
        const want = float64Argsort(v, descending, sizes);
        const room = Float64Array.from(v);
        const got = float64Argsort(room, descending, sizes, true);
        const what = `n ${n}, descending ${descending}, ${JSON.stringify(sizes)}`;
        assert.deepEqual(got.order, want.order, what);
        assert.deepEqual([got.hi, got.lo], [want.hi, want.lo], what);
        // the keys returned never share the scratch: decoding into it gives the sorted values
        const back = float64sOfKeys(got, descending, room);
        for (let p = 0; p < n; p++) {
          const x = v[want.order[p]];
          assert.ok(Object.is(back[p], Object.is(x, -0) ? 0 : x), `${what}, position ${p}`);
        }
      }
    }
  }
  // all values in one bucket of their top 16 bits (nothing distributed)
  const same = Float64Array.from({ length: 5000 }, (_, i) => 0.5 + (i % 97) * 1e-9);
  const want = float64Argsort(same, true, { bucketsFrom: 0 });
  assert.deepEqual(float64Argsort(Float64Array.from(same), true, { bucketsFrom: 0 }, true).order, want.order);
});
