/**
 * Baseline recommenders built from the train interactions (docs/metrics/ranking.md), producing lists for the same users as the run so that every metric
 * can be computed on them with the same code.
 *
 * - Popularity: items ordered by train interactions descending, ties by item id ascending
 *   (string order, so the order does not depend on the file's row order); each user gets the
 *   first `maxK` items of that order that are not among the user's train items. With
 *   `itemPopularity` (a numeric column of the `items` table, e.g. units sold) the same items — those
 *   that occur in train — are ordered by that column instead (descending, ties by item id; an item
 *   without a value counts as 0): the column changes the order only, so the baseline still needs
 *   train (its pool and the seen items).
 * - Random: for each user, `maxK` distinct items drawn uniformly from the items that occur in
 *   train, the user's train items excluded, with the seeded generator of `stats/rng.ts`
 *   (`bootstrap.seed`); the pool is in item-id order and users are served in list order, so the
 *   same data and seed give the same lists whatever the file format. Items that occur only in the ground truth are never drawn: a baseline must not know
 *   the test set.
 * A user with fewer than `maxK` unseen train items gets a shorter list.
 *
 * References (the metrics the baselines are scored with):
 * - C. D. Manning, P. Raghavan, H. Schütze (2008). Introduction to Information Retrieval, chapter 8: Evaluation in
 *   information retrieval. Cambridge University Press. https://nlp.stanford.edu/IR-book/
 * - M. Ge, C. Delgado-Battenfeld, D. Jannach (2010). Beyond accuracy: evaluating recommender systems by coverage and
 *   serendipity. Proc. 4th ACM Conference on Recommender Systems (RecSys), 257–260.
 *   https://doi.org/10.1145/1864708.1864761
 * - T. Zhou, Z. Kuscsik, J.-G. Liu, M. Medo, J. R. Wakeling, Y.-C. Zhang (2010). Solving the apparent
 *   diversity-accuracy dilemma of recommender systems. Proceedings of the National Academy of Sciences
 *   107(10):4511–4515. https://doi.org/10.1073/pnas.1000488107
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
 */
import type { TrainData } from '../../data/rankingData';
import { createRng } from '../../stats/rng';

/**
 * The rank of each item id in string order (UTF-16 code units), computed once so that the
 * baselines' tie-breaks compare integers instead of strings.
 */
export function idOrderRank(itemIds: string[]): Int32Array {
  const order = Array.from(itemIds.keys()).sort((a, b) =>
    itemIds[a] < itemIds[b] ? -1 : itemIds[a] > itemIds[b] ? 1 : 0,
  );
  const rank = new Int32Array(itemIds.length);
  order.forEach((it, r) => (rank[it] = r));
  return rank;
}

/**
 * Train items by popularity (count desc, id asc; `idRank` from {@link idOrderRank}); with
 * `byValue` (the `itemPopularity` column per item index), by that value desc, id asc — a comparison
 * sort, the values being real numbers.
 */
export function popularityOrder(train: TrainData, idRank: Int32Array, byValue?: Float64Array | null): Int32Array {
  const c = train.itemCounts;
  const pool = trainItemsInIdOrder(train, idRank);
  if (byValue) {
    const v = (i: number): number => (i < byValue.length ? byValue[i] : 0);
    return pool.sort((a, b) => v(b) - v(a) || idRank[a] - idRank[b]);
  }
  let maxCount = 0;
  for (let p = 0; p < pool.length; p++) if (c[pool[p]] > maxCount) maxCount = c[pool[p]];
  // Counts far above the number of items: a comparison sort instead of a long bucket array.
  if (maxCount > 4 * pool.length + 1024) return pool.sort((a, b) => c[b] - c[a] || idRank[a] - idRank[b]);
  // A counting sort by count, descending; the items enter in id order, so equal counts stay in
  // id order (the same order as the comparison sort, without its n log n comparisons).
  const start = new Int32Array(maxCount + 2);
  for (let p = 0; p < pool.length; p++) start[maxCount - c[pool[p]] + 1]++;
  for (let b = 1; b <= maxCount; b++) start[b] += start[b - 1];
  const out = new Int32Array(pool.length);
  for (let p = 0; p < pool.length; p++) out[start[maxCount - c[pool[p]]]++] = pool[p];
  return out;
}

/** The items that occur in train, in id order (the random baseline's pool). */
export function trainItemsInIdOrder(train: TrainData, idRank: Int32Array): Int32Array {
  const c = train.itemCounts;
  // The inverse of the rank permutation lists the items in id order, without a sort.
  const byRank = new Int32Array(idRank.length).fill(-1);
  for (let it = 0; it < Math.min(c.length, idRank.length); it++) if (c[it] > 0) byRank[idRank[it]] = it;
  let w = 0;
  for (let r = 0; r < byRank.length; r++) if (byRank[r] >= 0) byRank[w++] = byRank[r];
  return byRank.slice(0, w);
}

/**
 * A baseline recommender: writes user `u`'s list into `out` (at most `out.length` slots, best
 * first) and returns its length. Lists are made one at a time and scored before the next (see
 * evaluateRecommender), so the baselines need no slot array for all users.
 */
export type Recommender = (u: number, out: Int32Array) => number;

/** The popularity baseline: the first `maxK` items of `order` that user u has not seen in train. */
export function popularityRecommender(train: TrainData, order: Int32Array, maxK: number, nItems: number): Recommender {
  const stamp = new Int32Array(nItems);
  let tag = 0;
  return (u, out) => {
    tag++;
    markSeen(u, train, stamp, tag);
    let got = 0;
    for (let p = 0; p < order.length && got < maxK; p++) {
      const it = order[p];
      if (stamp[it] === tag) continue;
      out[got++] = it;
    }
    return got;
  };
}

/**
 * The seeded random baseline: `maxK` distinct train items drawn uniformly, user u's train items
 * excluded. The draws depend on the order in which users are served (one generator for all).
 */
export function randomRecommender(train: TrainData, idRank: Int32Array, maxK: number, seed: number): Recommender {
  const nItems = idRank.length;
  // Pool in id order, so the draws do not depend on the order the files met the items.
  const poolArr = trainItemsInIdOrder(train, idRank);
  const P = poolArr.length;
  const limit = P > 0 ? 4294967296 - (4294967296 % P) : 0;
  const rng = createRng(seed);
  const stamp = new Int32Array(nItems);
  const scratch: number[] = [];
  let tag = 0;
  return (u, out) => {
    tag++;
    const seenInPool = markSeen(u, train, stamp, tag);
    const available = P - seenInPool;
    const want = Math.min(maxK, available);
    let w = 0;
    if (want * 2 <= available) {
      // Few draws from a large pool: rejection sampling (expected < 2 tries a draw). The uniform
      // index is rng.int(P) inlined: a 32-bit draw below the largest multiple of P, modulo P.
      while (w < want) {
        const x = rng.next() * 4294967296;
        if (x >= limit) continue;
        // x % P without a float modulo (a call into C in V8): for integers x < 2^32 the rounding
        // error of x / P is below 1 / P, so the floor is exact and this is the same integer.
        const it = poolArr[x - Math.floor(x / P) * P];
        if (stamp[it] === tag) continue;
        stamp[it] = tag;
        out[w++] = it;
      }
    } else if (want > 0) {
      // Most of the pool: a partial Fisher–Yates shuffle of the available items.
      scratch.length = 0;
      for (let p = 0; p < P; p++) if (stamp[poolArr[p]] !== tag) scratch.push(poolArr[p]);
      for (let q = 0; q < want; q++) {
        const r = q + rng.int(scratch.length - q);
        const t = scratch[q];
        scratch[q] = scratch[r];
        scratch[r] = t;
        out[w++] = scratch[q];
      }
    }
    return w;
  };
}

/**
 * Stamps user u's train items with `tag` (in `stamp`, one entry per item); returns how many there
 * are (0 for a user without train interactions).
 */
export function markSeen(u: number, train: TrainData, stamp: Int32Array, tag: number): number {
  if (u + 1 >= train.seenOffsets.length) return 0;
  let n = 0;
  for (let p = train.seenOffsets[u]; p < train.seenOffsets[u + 1]; p++) {
    stamp[train.seenItems[p]] = tag;
    n++;
  }
  return n;
}
