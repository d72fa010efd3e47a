import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Embeddings, RankedLists, TrainData } from '../../../../../src/core/data/rankingData';
import { catalogMetrics } from '../../../../../src/core/metrics/ranking/catalog';
import { meanDefined } from '../../../../../src/core/metrics/ranking/evaluateLists';
import { EmbeddingAccumulator, type EmbeddingMetricsResult } from '../../../../../src/core/metrics/ranking/embedding';
import { idOrderRank, popularityOrder } from '../../../../../src/core/metrics/ranking/baselines';
import { popularityLists, randomLists } from '../../../helpers/baselineLists';
import {
  activityBinEdges,
  activityBinOf,
  activityBins,
  defaultActivityBoundaries,
  histogram,
} from '../../../../../src/core/metrics/ranking/perUser';
import { createRng } from '../../../../../src/core/stats/rng';
import { closeAbs as close } from '../../../helpers/numericClose';

/** The embedding metrics of the evaluated lists, added one by one as the evaluation adds them. */
function embeddingMetrics(
  lists: RankedLists,
  evaluated: Int32Array,
  opts: ConstructorParameters<typeof EmbeddingAccumulator>[1],
): EmbeddingMetricsResult {
  const acc = new EmbeddingAccumulator(evaluated.length, opts);
  for (const j of evaluated)
    acc.add(lists.user[j]!, lists.items, lists.offsets[j]!, lists.offsets[j + 1]! - lists.offsets[j]!);
  return acc.result();
}

function listsOf(rows: number[][]): RankedLists {
  const offsets = [0];
  const items: number[] = [];
  for (const r of rows) {
    items.push(...r);
    offsets.push(items.length);
  }
  return {
    user: Int32Array.from(rows.map((_, i) => i)),
    offsets: Int32Array.from(offsets),
    items: Int32Array.from(items),
  };
}

function trainOf(perUser: number[][], nItems: number): TrainData {
  const itemCounts = new Int32Array(nItems);
  const offsets = [0];
  const seen: number[] = [];
  for (const row of perUser) {
    for (const it of row) itemCounts[it]++;
    seen.push(...new Set(row));
    offsets.push(seen.length);
  }
  const total = perUser.reduce((s, r) => s + r.length, 0);
  return {
    file: 't',
    rows: total,
    itemCounts,
    total,
    seenOffsets: Int32Array.from(offsets),
    seenItems: Int32Array.from(seen),
    userCounts: Int32Array.from(perUser.map((r) => r.length)),
  };
}

function embeddingsOf(vecs: (number[] | null)[]): Embeddings {
  const dim = vecs.find((v) => v)!.length;
  const unit = new Float64Array(vecs.length * dim);
  const present = new Uint8Array(vecs.length);
  vecs.forEach((v, i) => {
    if (!v) return;
    const n = Math.hypot(...v);
    if (n === 0) return;
    v.forEach((x, q) => (unit[i * dim + q] = x / n));
    present[i] = 1;
  });
  return { file: 'e', dim, unit, present };
}

test('coverage@K with catalogSize and with a derived catalog; void slots never count', () => {
  // items 0..5; lists: [0, 1, 2], [0, 3, -1(void), 4]
  const lists = listsOf([
    [0, 1, 2],
    [0, 3, -1, 4],
  ]);
  const ev = Int32Array.from([0, 1]);
  const base = { ks: [1, 2, 4], nItems: 6, trainCounts: null, trainTotal: 0, coldThreshold: 5 };
  const a = catalogMetrics(lists, ev, { ...base, catalogSize: 10, inCatalog: null });
  assert.deepEqual(a.coverage, [1 / 10, 3 / 10, 5 / 10]);
  // derived catalog {0, 1, 3, 5}: recommended 2 and 4 are outside → not counted
  const inCat = Uint8Array.from([1, 1, 0, 1, 0, 1]);
  const b = catalogMetrics(lists, ev, { ...base, catalogSize: 4, inCatalog: inCat });
  assert.deepEqual(b.coverage, [1 / 4, 3 / 4, 3 / 4]);
  assert.equal(b.outsideCatalog, 2);
  assert.equal(b.recommended, 5);
  assert.equal(b.coldCoverage, null);
  assert.equal(b.novelty, null);
  // only evaluated users count
  const c = catalogMetrics(lists, Int32Array.from([0]), { ...base, catalogSize: 10, inCatalog: null });
  assert.deepEqual(c.coverage, [1 / 10, 2 / 10, 3 / 10]);
});

test('cold-start coverage and novelty (TSDoc example)', () => {
  // train counts: item0: 3, item1: 1, item2: 0 (never in train), item3: 6
  const train = trainOf(
    [
      [0, 0, 0, 1, 3, 3, 3],
      [3, 3, 3],
    ],
    4,
  );
  const lists = listsOf([
    [0, 1],
    [2, 3],
  ]);
  const r = catalogMetrics(lists, Int32Array.from([0, 1]), {
    ks: [1, 2],
    nItems: 4,
    catalogSize: 4,
    inCatalog: null,
    trainCounts: train.itemCounts,
    trainTotal: train.total,
    coldThreshold: 5,
  });
  // cold = 1 ≤ count < 5 → {0, 1}; top 1 holds 0 (and 2, not cold); top 2 holds 0 and 1
  assert.equal(r.coldItems, 2);
  assert.deepEqual(r.coldCoverage, [1 / 2, 2 / 2]);
  const N = 10;
  close(r.novelty!['novelty@2'][0], (-Math.log2(3 / N) - Math.log2(1 / N)) / 2);
  close(r.novelty!['novelty@1'][0], -Math.log2(3 / N));
  // user 2: item 2 has no train count → left out; top 1 has nothing else → NaN
  assert.ok(Number.isNaN(r.novelty!['novelty@1'][1]));
  close(r.novelty!['novelty@2'][1], -Math.log2(6 / N));
  assert.equal(r.unknownSlots, 1);
  // TSDoc example: counts a:3, b:1, L = [a, b]
  const t2 = trainOf([[0, 0, 0, 1]], 2);
  const e = catalogMetrics(listsOf([[0, 1]]), Int32Array.from([0]), {
    ks: [2],
    nItems: 2,
    catalogSize: 2,
    inCatalog: null,
    trainCounts: t2.itemCounts,
    trainTotal: t2.total,
    coldThreshold: 5,
  });
  close(e.novelty!['novelty@2'][0], 1.207518749639422, 1e-12);
});

test('diversity: TSDoc example and the O(K·d) identity against the pairwise definition', () => {
  const emb = embeddingsOf([
    [1, 0],
    [0, 1],
    [1, 1],
  ]);
  const r = embeddingMetrics(listsOf([[0, 1, 2]]), Int32Array.from([0]), {
    ks: [2, 3],
    items: emb,
    users: null,
    train: null,
  });
  close(r.diversity['diversity@3'][0], 1 - (0 + 2 / Math.SQRT2) / 3);
  close(r.diversity['diversity@3'][0], 0.528595479208968, 1e-12);
  close(r.diversity['diversity@2'][0], 1);
  assert.equal(r.alignment, null);
  // random: pairwise reference
  const rng = createRng(5);
  const nItems = 30;
  const dim = 6;
  const vecs = Array.from({ length: nItems }, (_, i) =>
    i % 7 === 3 ? null : Array.from({ length: dim }, () => rng.next() * 2 - 1),
  );
  const e2 = embeddingsOf(vecs);
  const rows = Array.from({ length: 40 }, () => Array.from({ length: rng.int(12) }, () => rng.int(nItems)));
  const ks = [1, 3, 8];
  const got = embeddingMetrics(listsOf(rows), Int32Array.from(rows.map((_, i) => i)), {
    ks,
    items: e2,
    users: null,
    train: null,
  });
  const cos = (a: number, b: number) => {
    let s = 0;
    for (let q = 0; q < dim; q++) s += e2.unit[a * dim + q] * e2.unit[b * dim + q];
    return s;
  };
  rows.forEach((row, u) => {
    for (const k of ks) {
      const top = row.slice(0, k).filter((it) => e2.present[it]);
      let s = 0;
      let n = 0;
      for (let i = 0; i < top.length; i++)
        for (let j = i + 1; j < top.length; j++) {
          s += cos(top[i], top[j]);
          n++;
        }
      const v = got.diversity[`diversity@${k}`][u];
      if (top.length < 2) assert.ok(Number.isNaN(v));
      else close(v, 1 - s / n, 1e-9);
    }
  });
});

test('alignment: user embedding, else the mean of train item embeddings', () => {
  const items = embeddingsOf([[1, 0], [0, 1], [1, 1], null]);
  const users = embeddingsOf([[1, 0], null]);
  const train = trainOf([[], [0, 1]], 4);
  const lists = listsOf([
    [0, 2, 3],
    [1, 2],
  ]);
  const r = embeddingMetrics(lists, Int32Array.from([0, 1]), { ks: [1, 3], items, users, train });
  // user 0: profile (1, 0): cos(item0) = 1, cos(item2) = 1/√2, item3 has no embedding
  close(r.alignment!['alignment@1'][0], 1);
  close(r.alignment!['alignment@3'][0], (1 + 1 / Math.SQRT2) / 2);
  // user 1: no user vector → profile = unit mean of items 0 and 1 = (1, 1)/√2
  close(r.alignment!['alignment@1'][1], 1 / Math.SQRT2);
  close(r.alignment!['alignment@3'][1], (1 / Math.SQRT2 + 1) / 2);
  assert.deepEqual(r.profiles, { given: 1, fromTrain: 1, none: 0 });
  assert.equal(r.missingSlots, 1);
});

test('popularity baseline: count desc, id asc on ties, seen items excluded', () => {
  const ids = ['b', 'a', 'c', 'd', 'e'];
  // counts: b 2, a 2, c 3, d 1, e 0
  const train = trainOf(
    [
      [0, 2, 2],
      [1, 1, 0, 2, 3],
    ],
    5,
  );
  const order = popularityOrder(train, idOrderRank(ids));
  assert.deepEqual(
    Array.from(order).map((i) => ids[i]),
    ['c', 'a', 'b', 'd'],
  );
  const l = popularityLists(Int32Array.from([0, 1]), train, order, 3, 5);
  const listOf = (j: number) => Array.from(l.items.subarray(l.offsets[j], l.offsets[j + 1])).map((i) => ids[i]);
  assert.deepEqual(listOf(0), ['a', 'd']); // user 0 saw b, c
  assert.deepEqual(listOf(1), []); // user 1 saw everything
});

test('random baseline: seeded, distinct, unseen train items only, same for any item order', () => {
  const nItems = 50;
  const ids = Array.from({ length: nItems }, (_, i) => `it${String(i).padStart(2, '0')}`);
  const rows = Array.from({ length: 20 }, (_, u) =>
    Array.from({ length: 3 + (u % 5) }, (_, q) => (u * 7 + q * 3) % 45),
  );
  const train = trainOf(rows, nItems);
  const users = Int32Array.from(rows.map((_, i) => i));
  const rank = idOrderRank(ids);
  const a = randomLists(users, train, rank, 10, 42);
  const b = randomLists(users, train, rank, 10, 42);
  assert.deepEqual(a, b);
  const c = randomLists(users, train, rank, 10, 43);
  assert.notDeepEqual(a.items, c.items);
  for (let j = 0; j < rows.length; j++) {
    const l = Array.from(a.items.subarray(a.offsets[j], a.offsets[j + 1]));
    assert.equal(new Set(l).size, l.length);
    for (const it of l) {
      assert.ok(!rows[j].includes(it), 'seen item drawn');
      assert.ok(train.itemCounts[it] > 0, 'non-train item drawn');
    }
    const available = [...new Set(rows.flat())].filter((it) => !rows[j].includes(it)).length;
    assert.equal(l.length, Math.min(10, available));
  }
  // a user who has seen almost the whole pool gets the rest (Fisher–Yates branch)
  const t2 = trainOf(
    [
      [0, 1, 2, 3, 4, 5, 6, 7],
      [0, 1, 2, 3, 4, 5],
    ],
    8,
  );
  const l2 = randomLists(Int32Array.from([1]), t2, idOrderRank(ids.slice(0, 8)), 10, 1);
  assert.deepEqual(Array.from(l2.items).sort(), [6, 7]);
});

test('histogram and activity bins', () => {
  const h = histogram(Float64Array.from([0, 0.05, 0.5, 1, NaN]), 20);
  assert.equal(h.edges.length, 21);
  assert.equal(h.edges[0], 0);
  assert.equal(h.edges[20], 1);
  assert.equal(h.counts[0], 1);
  assert.equal(h.counts[1], 1);
  assert.equal(h.counts[10], 1);
  assert.equal(h.counts[19], 1); // 1 falls into the last, closed bin
  assert.equal(h.undefinedUsers, 1);
  close(h.mean, (0 + 0.05 + 0.5 + 1) / 4);
  const rows = activityBins(
    Int32Array.from([1, 4, 5, 20, 30]),
    { m: Float64Array.from([1, 0, 0.5, NaN, 0.25]) },
    [5, 20],
  );
  assert.deepEqual(
    rows.map((r) => [r.bin, r.users, r.m]),
    [
      ['[0, 5)', 2, 0.5],
      ['[5, 20)', 1, 0.5],
      ['≥ 20', 2, 0.25],
    ],
  );
  assert.deepEqual(defaultActivityBoundaries([1, 2, 3, 4, 5, 6, 7, 8, 9]), [4, 7]);
});

test('activity bins: one set of edges (configured or the tertiles) with their labels, and the bin of each count', () => {
  // Default: the counts 1…9 at the 1/3 and 2/3 quantiles, x_(⌊9/3⌋) = 4 and x_(⌊18/3⌋) = 7.
  const counts = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const bins = activityBinEdges(counts);
  assert.deepEqual(bins, [
    { label: '[0, 4)', lo: 0, hi: 4 },
    { label: '[4, 7)', lo: 4, hi: 7 },
    { label: '≥ 7', lo: 7, hi: null },
  ]);
  assert.deepEqual([...activityBinOf(counts, bins)], [0, 0, 0, 1, 1, 1, 2, 2, 2]);
  // Configured boundaries: sorted, repeated and non-positive ones dropped; an empty list is the default.
  assert.deepEqual(
    activityBinEdges(counts, [20, 5, 5, 0]).map((b) => b.label),
    ['[0, 5)', '[5, 20)', '≥ 20'],
  );
  assert.deepEqual(activityBinEdges(counts, []), bins);
  assert.deepEqual([...activityBinOf([0, 4, 5, 19, 20, 1000], activityBinEdges([], [5, 20]))], [0, 0, 1, 1, 2, 2]);
  // The activity table counts its users in the same bins.
  const rows = activityBins(counts, {});
  assert.deepEqual(
    rows.map((r) => [r.bin, r.users]),
    [
      ['[0, 4)', 3],
      ['[4, 7)', 3],
      ['≥ 7', 3],
    ],
  );
});

test('novelty means: summed as they are computed, the same numbers as the mean of the per-user vectors, with or without keeping them', () => {
  const rng = createRng(29);
  for (let trial = 0; trial < 50; trial++) {
    const nItems = 2 + rng.int(40);
    // some items never in train (their slots are left out; a list of only those has no novelty)
    const train = trainOf(
      Array.from({ length: 1 + rng.int(10) }, () =>
        Array.from({ length: rng.int(20) }, () => rng.int(Math.max(1, nItems - 3))),
      ),
      nItems,
    );
    const lists = listsOf(
      Array.from({ length: 1 + rng.int(30) }, () =>
        Array.from({ length: rng.int(12) }, () => (rng.int(8) === 0 ? -1 : rng.int(nItems))),
      ),
    );
    const evaluated = Int32Array.from(lists.user.filter(() => rng.int(4) > 0));
    const opts = {
      ks: [1, 3, 10],
      nItems,
      catalogSize: nItems,
      inCatalog: null,
      trainCounts: train.itemCounts,
      trainTotal: train.total,
      coldThreshold: 3,
    };
    const kept = catalogMetrics(lists, evaluated, opts);
    const lean = catalogMetrics(lists, evaluated, { ...opts, keepPerUser: false });
    assert.equal(lean.novelty, null);
    opts.ks.forEach((k, kj) => {
      const want = meanDefined(kept.novelty![`novelty@${k}`]);
      assert.equal(kept.noveltyMeans![kj], want, `trial ${trial}, K = ${k}`);
      assert.equal(lean.noveltyMeans![kj], want, `trial ${trial}, K = ${k}`);
    });
    assert.deepEqual({ ...lean, novelty: null }, { ...kept, novelty: null });
  }
  // without train: no novelty at all
  const none = catalogMetrics(listsOf([[0]]), Int32Array.of(0), {
    ks: [1],
    nItems: 1,
    catalogSize: 1,
    inCatalog: null,
    trainCounts: null,
    trainTotal: 0,
    coldThreshold: 3,
  });
  assert.equal(none.novelty, null);
  assert.equal(none.noveltyMeans, null);
});

test('novelty@K with itemPopularity: share = value / Σ over the item table; 0 or no value left out; no train needed', () => {
  // items a=0, b=1, c=2, d=3; units sold a 5, b 3, c 2 (Σ over the table = 10), d no value (0).
  // The train counts (a 1, b 1, c 2) would give other shares: the column wins.
  const lists = listsOf([
    [0, 2, 3],
    [1, 1],
    [3, 0],
  ]);
  const ev = Int32Array.from([0, 1, 2]);
  const popularity = { values: Float64Array.from([5, 3, 2, 0]), total: 10 };
  const base = { ks: [1, 2, 3], nItems: 4, catalogSize: 4, inCatalog: null, coldThreshold: 5, popularity };
  const withTrain = catalogMetrics(lists, ev, { ...base, trainCounts: Int32Array.from([1, 1, 2, 0]), trainTotal: 4 });
  const noTrain = catalogMetrics(lists, ev, { ...base, trainCounts: null, trainTotal: 0 });
  const s = (p: number) => -Math.log2(p);
  // user 0: [a, c, d]: @1 = s(0.5); @2 = @3 = (s(0.5) + s(0.2)) / 2 (d has no value: left out)
  // user 1: [b, b]: s(0.3) at every K (a repeat counts again, as with train counts)
  // user 2: [d, a]: @1 undefined (NaN); @2 = s(0.5)
  const u0 = [s(0.5), (s(0.5) + s(0.2)) / 2, (s(0.5) + s(0.2)) / 2];
  const u1 = [s(0.3), s(0.3), s(0.3)];
  const u2 = [NaN, s(0.5), s(0.5)];
  for (const r of [withTrain, noTrain]) {
    [1, 2, 3].forEach((k, q) => {
      const per = r.novelty![`novelty@${k}`];
      close(per[0], u0[q]);
      close(per[1], u1[q]);
      if (Number.isNaN(u2[q])) assert.ok(Number.isNaN(per[2]));
      else close(per[2], u2[q]);
    });
    close(r.noveltyMeans![0]!, (u0[0] + u1[0]) / 2);
    close(r.noveltyMeans![1]!, (u0[1] + u1[1] + u2[1]) / 3);
    // slots of d in the top 3: user 0 (rank 3) and user 2 (rank 1)
    assert.equal(r.unknownSlots, 2);
  }
  // cold-start coverage keeps the train counts: with train, cold = 1 ≤ count < 5 (a, b, c); none without
  assert.equal(withTrain.coldItems, 3);
  assert.equal(noTrain.coldCoverage, null);
  // worked example of the docs: L = [a, c] → (−log2 0.5 − log2 0.2) / 2 ≈ 1.66096
  const one = catalogMetrics(listsOf([[0, 2]]), Int32Array.from([0]), {
    ...base,
    ks: [2],
    trainCounts: null,
    trainTotal: 0,
  });
  close(one.noveltyMeans![0]!, 1.660964047443681);
});

test('popularity baseline with itemPopularity: train items by the column desc, ties by id, seen items excluded', () => {
  const ids = ['b', 'a', 'c', 'd', 'e'];
  // train counts: b 2, a 2, c 3, d 1, e 0 (e never in train: not in the pool, whatever its value)
  const train = trainOf(
    [
      [0, 2, 2],
      [1, 1, 0, 2, 3],
    ],
    5,
  );
  // units sold: b 7.5, a 2.25, c 7.5 (tie with b), d 10, e 99
  const units = Float64Array.from([7.5, 2.25, 7.5, 10, 99]);
  const order = popularityOrder(train, idOrderRank(ids), units);
  // d (10) · b, c (7.5, tie: id order b < c) · a (2.25)
  assert.deepEqual(
    Array.from(order).map((i) => ids[i]),
    ['d', 'b', 'c', 'a'],
  );
  // an item without a value (shorter vector, or 0) comes last
  assert.deepEqual(
    Array.from(popularityOrder(train, idOrderRank(ids), Float64Array.from([1, 2]))).map((i) => ids[i]),
    ['a', 'b', 'c', 'd'],
  );
  const l = popularityLists(Int32Array.from([0]), train, order, 3, 5);
  assert.deepEqual(
    Array.from(l.items).map((i) => ids[i]),
    ['d', 'a'],
  ); // user 0 saw b and c
});
