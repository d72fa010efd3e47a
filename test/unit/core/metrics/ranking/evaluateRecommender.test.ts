import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdIndex, type Embeddings, type RankingData, type TrainData } from '../../../../../src/core/data/rankingData';
import {
  idOrderRank,
  popularityOrder,
  popularityRecommender,
  randomRecommender,
  type Recommender,
} from '../../../../../src/core/metrics/ranking/baselines';
import { popularityLists, randomLists } from '../../../helpers/baselineLists';
import {
  defineCatalog,
  evaluateLists,
  evaluateRecommender,
  type EvaluateListsOptions,
} from '../../../../../src/core/metrics/ranking/evaluateLists';
import { histogram } from '../../../../../src/core/metrics/ranking/perUser';
import { createRng, type Rng } from '../../../../../src/core/stats/rng';

/** Random data: graded or binary relevance, some users without relevant items, train, embeddings. */
function randomData(rng: Rng, trial: number): RankingData {
  const nUsers = 5 + rng.int(40);
  const nItems = 3 + rng.int(60);
  const users = new IdIndex();
  const items = new IdIndex();
  for (let u = 0; u < nUsers; u++) users.intern(`u${u}`);
  for (let i = 0; i < nItems; i++) items.intern(`item-${rng.int(1000)}-${i}`);
  const binary = trial % 2 === 0;
  const relOffsets = new Int32Array(nUsers + 1);
  const relItems: number[] = [];
  const relGrades: number[] = [];
  for (let u = 0; u < nUsers; u++) {
    if (rng.next() < 0.8) {
      const n = 1 + rng.int(Math.min(nItems, 12));
      const chosen = new Set<number>();
      while (chosen.size < n) chosen.add(rng.int(nItems));
      for (const it of chosen) {
        relItems.push(it);
        relGrades.push(binary ? 1 : 1 + rng.int(3));
      }
    }
    relOffsets[u + 1] = relItems.length;
  }
  // Train: a skewed popularity, some items never in train, some users with no train row.
  const itemCounts = new Int32Array(nItems);
  const seenOffsets = new Int32Array(nUsers + 1);
  const seenItems: number[] = [];
  const userCounts = new Int32Array(nUsers);
  for (let u = 0; u < nUsers; u++) {
    const n = rng.next() < 0.1 ? 0 : 1 + rng.int(Math.min(nItems, 20));
    const seen = new Set<number>();
    for (let r = 0; r < n; r++) {
      const it = Math.floor(nItems * rng.next() * rng.next());
      itemCounts[it]++;
      userCounts[u]++;
      seen.add(it);
    }
    seenItems.push(...seen);
    seenOffsets[u + 1] = seenItems.length;
  }
  const total = itemCounts.reduce((s, c) => s + c, 0);
  const train: TrainData = {
    file: 'train.csv',
    rows: total,
    itemCounts,
    total,
    seenOffsets,
    seenItems: Int32Array.from(seenItems),
    userCounts,
  };
  const embeddings = (n: number, dim: number): Embeddings => {
    const unit = new Float64Array(n * dim);
    const present = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (rng.next() < 0.2) continue;
      let ss = 0;
      for (let q = 0; q < dim; q++) ss += (unit[i * dim + q] = rng.next() - 0.5) ** 2;
      for (let q = 0; q < dim; q++) unit[i * dim + q] /= Math.sqrt(ss);
      present[i] = 1;
    }
    return { file: 'emb.npy', dim, unit, present };
  };
  const withEmbeddings = trial % 3 !== 0;
  return {
    file: 'run.jsonl',
    format: 'jsonl',
    relevantFile: null,
    users,
    items,
    lists: { user: new Int32Array(0), offsets: new Int32Array(1), items: new Int32Array(0) },
    listLines: new Int32Array(0),
    relOffsets,
    relItems: Int32Array.from(relItems),
    relGrades: Float64Array.from(relGrades),
    binary,
    inGroundTruth: new Uint8Array(nUsers).fill(1),
    relLine: new Int32Array(nUsers),
    train,
    itemEmbeddings: withEmbeddings ? embeddings(nItems, 3) : null,
    userEmbeddings: withEmbeddings && trial % 2 === 0 ? embeddings(nUsers, 3) : null,
    columns: {},
    rows: 0,
    extraFiles: [],
  };
}

test('baselines scored one list at a time equal the evaluation of all their lists made first, bit for bit', () => {
  const rng = createRng(11);
  for (let trial = 0; trial < 60; trial++) {
    const data = randomData(rng, trial);
    const train = data.train!;
    // Users in a shuffled order, repeated now and then; those without relevant items are skipped.
    const users = Int32Array.from({ length: data.users.size + 3 }, () => rng.int(data.users.size));
    const ks = [1 + rng.int(3), 2 + rng.int(8), 5 + rng.int(20)];
    const depth = Math.max(...ks) - (trial % 4 === 0 ? 2 : 0);
    const opts: EvaluateListsOptions = {
      ks,
      gain: trial % 5 === 0 ? 'exp' : 'linear',
      mapNormaliser: (['min', 'all', 'hits'] as const)[trial % 3],
      coldThreshold: 2 + rng.int(4),
      catalog: defineCatalog(data, trial % 7 === 0 ? 200 : undefined),
      keepPerUser: trial % 2 === 0,
    };
    const rank = idOrderRank(data.items.ids);
    const order = popularityOrder(train, rank);
    const seed = 1 + rng.int(1000);
    const cases: [string, () => Recommender, ReturnType<typeof popularityLists>][] = [
      [
        'popularity',
        () => popularityRecommender(train, order, depth, data.items.size),
        popularityLists(users, train, order, depth, data.items.size),
      ],
      ['random', () => randomRecommender(train, rank, depth, seed), randomLists(users, train, rank, depth, seed)],
    ];
    for (const [name, recommender, lists] of cases) {
      const streamed = evaluateRecommender(users, recommender(), depth, data, opts);
      const whole = evaluateLists(lists, data, opts);
      assert.deepEqual(streamed, whole, `trial ${trial}, ${name}`);
      assert.ok(whole.evaluated.length > 0 || users.every((u) => data.relOffsets[u + 1] === data.relOffsets[u]));
    }
  }
});

test('the random recommender serves users in order from one generator: the same lists as drawing them all at once', () => {
  const rng = createRng(5);
  const data = randomData(rng, 1);
  const train = data.train!;
  const users = Int32Array.from({ length: data.users.size }, (_, u) => u);
  const rank = idOrderRank(data.items.ids);
  const all = randomLists(users, train, rank, 7, 99);
  const rec = randomRecommender(train, rank, 7, 99);
  const buf = new Int32Array(7);
  for (let j = 0; j < users.length; j++) {
    const len = rec(users[j], buf);
    assert.deepEqual(
      Array.from(buf.subarray(0, len)),
      Array.from(all.items.subarray(all.offsets[j], all.offsets[j + 1])),
    );
  }
});

/** The histogram as defined, in one obvious pass per quantity. */
function slowHistogram(values: number[], bins: number) {
  const defined = values.filter((v) => !Number.isNaN(v));
  const lo = Math.min(0, ...defined);
  const hi = Math.max(1, ...defined);
  const width = (hi - lo) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of defined) counts[Math.min(bins - 1, Math.max(0, Math.floor((v - lo) / width)))]++;
  let sum = 0;
  for (const v of defined) sum += v;
  return {
    edges: Array.from({ length: bins + 1 }, (_, b) => (b === bins ? hi : lo + b * width)),
    counts,
    undefinedUsers: values.length - defined.length,
    mean: defined.length ? sum / defined.length : null,
  };
}

test('histogram equals the obvious definition on random values (NaN, negatives, values above 1)', () => {
  const rng = createRng(3);
  for (let trial = 0; trial < 200; trial++) {
    const n = rng.int(50);
    const scale = [1, 1, 3, 0.01][trial % 4];
    const values = Array.from({ length: n }, () =>
      rng.next() < 0.15 ? NaN : (rng.next() - (trial % 5 === 0 ? 0.5 : 0)) * scale,
    );
    const bins = 1 + rng.int(25);
    assert.deepEqual(histogram(Float64Array.from(values), bins), slowHistogram(values, bins), `trial ${trial}`);
  }
});
