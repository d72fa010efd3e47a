/**
 * Seen-item masking (config `maskSeen`, default true; docs/metrics/ranking.md): the items a user
 * already had in train are dropped from the user's list before any cutoff, so the items below them
 * move up and the top K is refilled from the rest of the list.
 *
 * Why on by default: the full-ranking protocol of recommender evaluation scores a user's unseen
 * items only — RecBole sets the scores of a user's history items to −∞ before taking the top K
 * (Zhao et al. 2021), as do the evaluation loops that generate lists from factor models (this
 * tool's own `userFactors` lists among them). An item the user already had can only be relevant if
 * it is also held out, so leaving it in rewards re-recommending history. `maskSeen: false`
 * evaluates the lists as they are (a run where re-consumption is the task), with a warning counting
 * the seen items.
 *
 * A list longer than K loses its seen items and still has K items in its top K when it has at
 * least K unseen items; a list left with fewer than K items keeps its missing slots as misses
 * (precision@K still divides by K). Repeated slots ({@link VOID_ITEM}) of an unseen item keep their
 * place; a repeat of a seen item goes with it.
 *
 * References
 * - Zhao, W. X. et al. (2021). RecBole: towards a unified, comprehensive and efficient framework
 *   for recommendation algorithms. Proc. 30th ACM CIKM, 4653–4664.
 *   https://doi.org/10.1145/3459637.3482016
 *
 * @see docs/metrics/ranking.md
 */
import { VOID_ITEM, type RankedLists, type TrainData } from '../../data/rankingData';
import { markSeen } from './baselines';

/** The default of `maskSeen` (kept out of the config defaults so that other tasks' configs do not carry it). */
export const MASK_SEEN_DEFAULT = true;

export interface SeenMaskResult {
  /** Per list: the seen items dropped from it (repeats of a dropped item included). */
  perList: Int32Array;
  /** Σ perList. */
  items: number;
  /** Lists (users) that lost at least one item. */
  lists: number;
}

/**
 * Drops from every list of `lists` the items its user has in `train`, in place: the slots and the
 * offsets are compacted (the same arrays, shorter filled part; `items` is cut to its new length),
 * and `repeats` is renumbered to the new slots.
 */
export function maskSeenItems(lists: RankedLists, train: TrainData, nItems: number): SeenMaskResult {
  const { user, offsets } = lists;
  const items = lists.items;
  const repeats = lists.repeats;
  const newRepeats = repeats ? new Map<number, number>() : undefined;
  const stamp = new Int32Array(nItems);
  const perList = new Int32Array(user.length);
  let w = 0;
  let total = 0;
  let touched = 0;
  for (let j = 0; j < user.length; j++) {
    const start = offsets[j];
    const end = offsets[j + 1];
    offsets[j] = w;
    const tag = j + 1;
    if (markSeen(user[j], train, stamp, tag) === 0) {
      for (let p = start; p < end; p++) {
        if (newRepeats && items[p] === VOID_ITEM && repeats!.has(p)) newRepeats.set(w, repeats!.get(p)!);
        items[w++] = items[p];
      }
      continue;
    }
    let dropped = 0;
    for (let p = start; p < end; p++) {
      const it = items[p];
      const orig = it === VOID_ITEM && repeats ? repeats.get(p) : undefined;
      if ((it >= 0 && stamp[it] === tag) || (orig !== undefined && stamp[orig] === tag)) {
        dropped++;
        continue;
      }
      if (orig !== undefined) newRepeats!.set(w, orig);
      items[w++] = it;
    }
    perList[j] = dropped;
    total += dropped;
    if (dropped > 0) touched++;
  }
  offsets[user.length] = w;
  if (w < items.length) lists.items = items.subarray(0, w);
  if (newRepeats) lists.repeats = newRepeats;
  return { perList, items: total, lists: touched };
}
