/**
 * The popularity and random baselines' lists for many users at once, in CSR form (the evaluation
 * itself makes and scores one list at a time, never holding them all): for tests that compare
 * the one-at-a-time recommenders with whole lists.
 */
import type { RankedLists, TrainData } from '../../../src/core/data/rankingData';
import {
  popularityRecommender,
  randomRecommender,
  type Recommender,
} from '../../../src/core/metrics/ranking/baselines';

/** The lists of `users` made by `recommend`, in CSR form. */
function recommendAll(users: Int32Array, recommend: Recommender, maxK: number): RankedLists {
  const offsets = new Int32Array(users.length + 1);
  const buf = new Int32Array(maxK);
  const parts: Int32Array[] = [];
  for (let j = 0; j < users.length; j++) {
    const len = recommend(users[j]!, buf);
    parts.push(buf.slice(0, len));
    offsets[j + 1] = offsets[j]! + len;
  }
  const items = new Int32Array(offsets[users.length]!);
  parts.forEach((part, j) => items.set(part, offsets[j]!));
  return { user: Int32Array.from(users), offsets, items };
}

/** Popularity lists for `users` (user indices). */
export function popularityLists(
  users: Int32Array,
  train: TrainData,
  order: Int32Array,
  maxK: number,
  nItems: number,
): RankedLists {
  return recommendAll(users, popularityRecommender(train, order, maxK, nItems), maxK);
}

/** Seeded random lists for `users`. */
export function randomLists(
  users: Int32Array,
  train: TrainData,
  idRank: Int32Array,
  maxK: number,
  seed: number,
): RankedLists {
  return recommendAll(users, randomRecommender(train, idRank, maxK, seed), maxK);
}
