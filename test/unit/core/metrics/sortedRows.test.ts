/**
 * sortRowsByScore against the slow obvious reference: the row indices sorted by (−score, index)
 * with a comparator, the tied blocks read off as the runs of equal scores, every per-row array
 * gathered in that order. Random inputs with many ties, −0 and +0, ±Infinity, subsets of rows,
 * weights, groups and group weights.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRowsByScore, type SortedRows, type SortRowsOptions } from '../../../../src/core/metrics/sortedRows';
import { createRng, type Rng } from '../../../../src/core/stats/rng';

function referenceSort(scores: Float64Array, wrong: Uint8Array, opts: SortRowsOptions): SortedRows {
  const rows = opts.rows ? Array.from(opts.rows) : Array.from({ length: scores.length }, (_, i) => i);
  // stable descending: higher score first, equal scores (−0 = +0) in the order of `rows`
  const order = rows
    .map((row, j) => ({ row, j }))
    .sort((a, b) => (scores[a.row] !== scores[b.row] ? scores[b.row] - scores[a.row] : a.j - b.j) || 0)
    .map((e) => e.row);
  const n = order.length;
  const blockStart: number[] = [];
  for (let p = 0; p < n; p++) if (p === 0 || scores[order[p]] !== scores[order[p - 1]]) blockStart.push(p);
  blockStart.push(n);
  const pick = (a: ArrayLike<number>) => Float64Array.from(order, (i) => a[i]);
  let nGroups = 0;
  if (opts.groups) nGroups = opts.nGroups ?? Math.max(-1, ...opts.groups) + 1;
  return {
    n,
    rowIndex: Int32Array.from(order),
    score: pick(scores),
    wrong: Uint8Array.from(order, (i) => (wrong[i] ? 1 : 0)),
    // rows without groups hold no group array (nothing to read: every row has none)
    group: nGroups > 0 ? Int32Array.from(order, (i) => opts.groups![i]) : new Int32Array(0),
    nGroups,
    weight: opts.weights ? pick(opts.weights) : null,
    groupWeight: opts.groupWeights ? pick(opts.groupWeights) : null,
    blockStart: Int32Array.from(blockStart),
  };
}

/** Scores on a few levels or nearly all distinct, with −0, +0, ±Infinity and negative values. */
function scoresOf(rng: Rng, n: number): Float64Array {
  const levels = 1 + rng.int(Math.max(1, rng.next() < 0.5 ? 8 : n));
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    s[i] =
      r < 0.05
        ? Infinity
        : r < 0.1
          ? -Infinity
          : r < 0.2
            ? rng.next() < 0.5
              ? -0
              : 0
            : rng.next() < 0.5
              ? rng.int(levels) / levels - 0.3
              : rng.next();
  }
  return s;
}

function assertSame(got: SortedRows, expected: SortedRows, what: string): void {
  assert.deepEqual(got, expected, what);
  // −0 and +0 kept per row
  for (let p = 0; p < got.n; p++) assert.ok(Object.is(got.score[p], expected.score[p]), `${what}: position ${p}`);
}

test('sortRowsByScore equals the comparator-sort reference (ties, ±0, ±Infinity, subsets, weights, groups)', () => {
  const rng = createRng(21);
  for (let trial = 0; trial < 120; trial++) {
    const n = trial < 100 ? rng.int(400) : 16384 + rng.int(20000); // both digit widths of the radix sort
    const scores = scoresOf(rng, n);
    const wrong = Uint8Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
    const opts: SortRowsOptions = {};
    if (trial % 2 === 0) opts.weights = Float64Array.from({ length: n }, () => rng.next() * 2);
    if (trial % 3 === 0) {
      opts.groups = Int32Array.from({ length: n }, () => rng.int(4) - 1);
      if (trial % 6 === 0) opts.nGroups = 3;
      opts.groupWeights = Array.from({ length: n }, () => rng.next());
    }
    if (trial % 4 === 1) {
      const rows: number[] = [];
      const p = rng.next();
      for (let i = 0; i < n; i++) if (rng.next() < p) rows.push(i);
      opts.rows = Int32Array.from(rows);
    }
    assertSame(sortRowsByScore(scores, wrong, opts), referenceSort(scores, wrong, opts), `trial ${trial}, n ${n}`);
  }
});

test('a worked example: descending, ties in row order, −0 and +0 one block, each kept as given', () => {
  const scores = Float64Array.from([0.5, -0, Infinity, 0.5, 0, -Infinity, 0.9]);
  const rows = sortRowsByScore(scores, [0, 1, 0, 1, 0, 1, 0]);
  assert.deepEqual(Array.from(rows.rowIndex), [2, 6, 0, 3, 1, 4, 5]);
  assert.deepEqual(Array.from(rows.blockStart), [0, 1, 2, 4, 6, 7]);
  assert.deepEqual(Array.from(rows.wrong), [0, 0, 0, 1, 1, 0, 1]);
  assert.ok(Object.is(rows.score[4], -0) && Object.is(rows.score[5], 0));
});

test('a NaN score is rejected with the row that holds it', () => {
  assert.throws(() => sortRowsByScore([0.2, NaN], [0, 0]), /row 1 has NaN/);
  assert.throws(() => sortRowsByScore([0.2, 0.1, NaN], [0, 0, 0], { rows: Int32Array.from([0, 2]) }), /row 2 has NaN/);
  // a Float64Array of every row: checked, then copied as a block (or, consumed, not copied at all)
  const scores = Float64Array.from([0.2, 0.4, NaN, NaN]);
  assert.throws(() => sortRowsByScore(scores, [0, 0, 0, 0]), /row 2 has NaN/);
  assert.throws(() => sortRowsByScore(scores, [0, 0, 0, 0], { shared: true }), /row 2 has NaN/);
  assert.throws(() => sortRowsByScore(scores, [0, 0, 0, 0], { consumeScores: true }), /row 2 has NaN/);
  assert.throws(() => sortRowsByScore(scores, [0, 0, 0, 0], { rows: Int32Array.from([1, 3]) }), /row 3 has NaN/);
});

test('the caller’s scores are not modified', () => {
  const scores = Float64Array.from([0.3, -0, 0.7, 0.3]);
  const copy = Float64Array.from(scores);
  sortRowsByScore(scores, [0, 0, 0, 0]);
  for (let i = 0; i < scores.length; i++) assert.ok(Object.is(scores[i], copy[i]));
});

test('with `shared`, the per-position arrays are over shared memory and hold the same values', () => {
  const rng = createRng(23);
  const plain = (a: { buffer: ArrayBufferLike }) => !(a.buffer instanceof SharedArrayBuffer);
  for (const n of [0, 7, 400, 20000]) {
    const scores = scoresOf(rng, n);
    const wrong = Uint8Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
    const opts: SortRowsOptions = {
      weights: Float64Array.from({ length: n }, () => rng.next() * 2),
      groups: Int32Array.from({ length: n }, () => rng.int(4) - 1),
      groupWeights: Array.from({ length: n }, () => rng.next()),
    };
    const shared = sortRowsByScore(scores, wrong, { ...opts, shared: true });
    const expected = sortRowsByScore(scores, wrong, opts);
    for (const a of [shared.score, shared.wrong, shared.group, shared.blockStart, shared.weight!, shared.groupWeight!])
      assert.ok(a.buffer instanceof SharedArrayBuffer, `n ${n}`);
    for (const a of [expected.score, expected.wrong, expected.group, expected.blockStart, expected.weight!])
      assert.ok(plain(a), `n ${n}: ordinary arrays without \`shared\``);
    assertSame(shared, expected, `n ${n}`);
    assertSame(shared, referenceSort(scores, wrong, opts), `n ${n}, reference`);
  }
});

test('with `consumeScores`, the scores become the sorted scores (no copy), the same rows as without', () => {
  const rng = createRng(29);
  for (const n of [1, 9, 400, 20000]) {
    // no −0 here: every score of these rows may be consumed
    const scores = scoresOf(rng, n).map((v) => (v === 0 ? 0 : v));
    const wrong = Uint8Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
    const opts: SortRowsOptions = { weights: Float64Array.from({ length: n }, () => rng.next() * 2) };
    const original = Float64Array.from(scores);
    const expected = referenceSort(original, wrong, opts);
    const got = sortRowsByScore(scores, wrong, { ...opts, consumeScores: true });
    assert.equal(got.score, scores, `n ${n}: the caller's array holds the sorted scores`);
    assertSame(got, expected, `n ${n}`);
    // with `shared`, scores over ordinary memory are copied into shared memory and left as they were
    const kept = Float64Array.from(original);
    const sharedRows = sortRowsByScore(kept, wrong, { ...opts, shared: true, consumeScores: true });
    assert.ok(sharedRows.score !== kept && sharedRows.score.buffer instanceof SharedArrayBuffer, `n ${n}`);
    assert.deepEqual(kept, original, `n ${n}: not consumed`);
    assertSame(sharedRows, expected, `n ${n}, shared`);
  }
});

test('with `consumeScores`, scores holding a −0 are copied, so that −0 and +0 stay as given', () => {
  const scores = Float64Array.from([0.5, -0, 0.2, 0]);
  const copy = Float64Array.from(scores);
  const rows = sortRowsByScore(scores, [0, 0, 0, 0], { consumeScores: true });
  assert.notEqual(rows.score, scores);
  for (let i = 0; i < scores.length; i++) assert.ok(Object.is(scores[i], copy[i]));
  assert.ok(Object.is(rows.score[2], -0) && Object.is(rows.score[3], 0));
});
