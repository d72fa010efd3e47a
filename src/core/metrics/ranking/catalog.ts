/**
 * Catalog-level metrics of ranked lists over the evaluated users (docs/metrics/ranking.md):
 * `coverage@K`, `cold_start_coverage@K` and `novelty@K`.
 *
 * - `coverage@K = |∪_u L_u[:K]| / |catalog|`. The catalog is `catalogSize` when given (then
 *   every recommended item counts); otherwise the set of items in train ∪ every R_u (without
 *   train: ∪ R_u ∪ the lists), and only recommended items inside it count (those outside are
 *   reported in a warning). Void (repeated) slots never count.
 * - `cold_start_coverage@K` = recommended cold items / cold items, cold = items with
 *   1 ≤ train count < `coldThreshold` (with items that
 *   never occur in train left out: "cold" needs a count). Null when there is no cold item.
 * - `novelty@K`: per user, the mean over its top-K items of `−log2 p_i`, where `p_i` =
 *   (train interactions of item i) / (all train interactions) — the item's share of the train
 *   popularity (self-information, as in Zhou et al. 2010 with interactions instead of users).
 *   An item with no train interaction has p = 0 and an infinite −log2 p: it is left out of the
 *   user's mean, and the number of such slots is reported in a warning; a user none of whose
 *   top-K items has a train count has no novelty (NaN, left out of the mean over users).
 *   `novelty@K` = mean over users.
 *   With `itemPopularity` (a numeric column of the `items` table, e.g. units sold), `p_i` =
 *   (item i's value) / (the sum of the column over every row of the table — items in no input file
 *   included), and novelty needs no train file; an item with value 0 or without a value is left out
 *   as above. Cold-start coverage keeps the train counts (cold = few interactions).
 *
 * @example
 *   // Train counts a:3, b:1 (total 4); one user with L = [a, b]:
 *   // novelty@2 = (−log2(3/4) − log2(1/4)) / 2 = (0.41504 + 2) / 2 ≈ 1.20752
 *   // itemPopularity with units sold a:5, b:3, c:2 (total 10); L = [a, c]:
 *   // novelty@2 = (−log2 0.5 − log2 0.2) / 2 = (1 + 2.32193) / 2 ≈ 1.66096
 *
 * References:
 * - M. Ge, C. Delgado-Battenfeld, D. Jannach (2010). Beyond accuracy: evaluating recommender systems by coverage and
 *   serendipity. Proc. 4th ACM Conference on Recommender Systems (RecSys), 257–260.
 *   https://doi.org/10.1145/1864708.1864761
 * - A. I. Schein, A. Popescul, L. H. Ungar, D. M. Pennock (2002). Methods and metrics for cold-start
 *   recommendations. Proc. 25th ACM SIGIR Conference, 253–260. https://doi.org/10.1145/564376.564421
 * - T. Zhou, Z. Kuscsik, J.-G. Liu, M. Medo, J. R. Wakeling, Y.-C. Zhang (2010). Solving the apparent
 *   diversity-accuracy dilemma of recommender systems. Proceedings of the National Academy of Sciences
 *   107(10):4511–4515. https://doi.org/10.1073/pnas.1000488107
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
 */
import type { RankedLists } from '../../data/rankingData';
import { ListAccumulator } from './listAccumulator';

export interface CatalogOptions {
  ks: number[];
  nItems: number;
  /** Denominator of coverage. */
  catalogSize: number;
  /** When the catalog is derived: 1 for items in it (others do not count); null = count all. */
  inCatalog: Uint8Array | null;
  /** Train interactions per item, or null without train. */
  trainCounts: Int32Array | null;
  /** Σ trainCounts. */
  trainTotal: number;
  /**
   * Popularity per item index from a column of the `items` table and its total over the table
   * (`itemPopularity`): novelty@K uses it instead of the train counts (and exists without train).
   */
  popularity?: { values: Float64Array; total: number } | null;
  coldThreshold: number;
  /** Keep the per-user novelty vectors (default true); false keeps only their means (baselines). */
  keepPerUser?: boolean;
}

export interface CatalogResult {
  /** coverage at each K of ks (ascending). */
  coverage: number[];
  /** coverage at K = 1..maxK. */
  coverageCurve: Float64Array;
  /** Distinct recommended items (top maxK) outside a derived catalog. */
  outsideCatalog: number;
  /** Distinct recommended items in the top maxK (for the warning with a given catalogSize). */
  recommended: number;
  /** null without train; entries null when there is no cold item. */
  coldCoverage: (number | null)[] | null;
  coldItems: number;
  /**
   * `novelty@K` per user (NaN where undefined), aligned with `evaluated`; null without a popularity
   * (train or `popularity`) or without `keepPerUser`.
   */
  novelty: Record<string, Float64Array> | null;
  /**
   * `novelty@K` at each K of ks: the mean over the users where it is defined (null when it is
   * nowhere), summed in user order; null without a popularity (train or `popularity`).
   */
  noveltyMeans: (number | null)[] | null;
  /** Top-maxK slots whose item has no popularity (no train interaction, or 0 / no value in the column): left out of novelty. */
  unknownSlots: number;
}

export function catalogMetrics(lists: RankedLists, evaluated: Int32Array, opts: CatalogOptions): CatalogResult {
  const acc = new CatalogAccumulator(evaluated.length, opts);
  const { offsets, items } = lists;
  for (let e = 0; e < evaluated.length; e++) {
    const j = evaluated[e];
    acc.add(items, offsets[j], offsets[j + 1] - offsets[j]);
  }
  return acc.result();
}

const NOT_RECOMMENDED = 0x7fffffff;

/**
 * The catalog metrics gathered one evaluated list at a time, in the order of the lists (see
 * AccuracyAccumulator in ./accuracy: the same sums whichever way the lists come, and a small
 * method that is compiled early).
 */
export class CatalogAccumulator extends ListAccumulator {
  /** Per item: the first rank (0-based) at which any list holds it. */
  private readonly minPos: Int32Array;
  /** Per item: −log2 of its share of the popularity (NaN without one); null without a popularity. */
  private readonly surprisal: Float64Array | null;
  private readonly novelty: Record<string, Float64Array> | null;
  private readonly novCols: Float64Array[];
  // The means are summed here, user by user, in the order a sum over the per-user vector would take.
  private readonly novSum: Float64Array;
  private readonly novUsers: Int32Array;
  private unknownSlots = 0;

  constructor(
    nEval: number,
    private readonly opts: CatalogOptions,
  ) {
    const ks = [...opts.ks].sort((a, b) => a - b);
    super(nEval, ks);
    const nItems = opts.nItems;
    this.minPos = new Int32Array(nItems).fill(NOT_RECOMMENDED);
    const counts = opts.trainCounts;
    const pop = opts.popularity ?? null;
    const surprisal = (this.surprisal = counts || pop ? new Float64Array(nItems) : null);
    if (pop && surprisal)
      for (let i = 0; i < nItems; i++)
        surprisal[i] = i < pop.values.length && pop.values[i] > 0 ? -Math.log2(pop.values[i] / pop.total) : NaN;
    else if (counts && surprisal)
      for (let i = 0; i < nItems; i++)
        surprisal[i] = i < counts.length && counts[i] > 0 ? -Math.log2(counts[i] / opts.trainTotal) : NaN;
    const keep = opts.keepPerUser !== false;
    const novelty: Record<string, Float64Array> | null = (this.novelty = surprisal && keep ? {} : null);
    this.novCols = novelty ? ks.map((k) => (novelty[`novelty@${k}`] = new Float64Array(nEval))) : [];
    this.novSum = new Float64Array(ks.length);
    this.novUsers = new Int32Array(ks.length);
  }

  /** Adds the next evaluated list, its slots `items[l0 .. l0 + len)`. */
  add(items: Int32Array, l0: number, len: number): void {
    const { ks, minPos, surprisal, novelty, novCols, novSum, novUsers } = this;
    const e = this.n++;
    let sum = 0;
    let cnt = 0;
    let unknown = 0;
    // Slot by slot up to each cutoff; past the end of the list nothing changes, so a user costs
    // O(list length + number of cutoffs), not O(max K) (K may be far above every list).
    let i = 0;
    for (let kj = 0; kj < ks.length; kj++) {
      const end = ks[kj] < len ? ks[kj] : len;
      for (; i < end; i++) {
        const it = items[l0 + i];
        if (it >= 0) {
          if (i < minPos[it]) minPos[it] = i;
          if (surprisal) {
            const s = surprisal[it];
            if (s === s) {
              sum += s;
              cnt++;
            } else unknown++;
          }
        }
      }
      if (surprisal && cnt > 0) {
        const v = sum / cnt;
        novSum[kj] += v;
        novUsers[kj]++;
        if (novelty) novCols[kj][e] = v;
      } else if (novelty) novCols[kj][e] = NaN;
    }
    this.unknownSlots += unknown;
  }

  /** The catalog metrics once every evaluated list has been added. */
  result(): CatalogResult {
    this.checkAllAdded();
    const { opts, minPos, novSum, novUsers } = this;
    const ks = Array.from(this.ks);
    const maxK = ks[ks.length - 1];
    const nItems = opts.nItems;
    const counts = opts.trainCounts;
    const firstAt = new Float64Array(maxK);
    let outside = 0;
    let recommended = 0;
    for (let it = 0; it < nItems; it++) {
      const p = minPos[it];
      if (p === NOT_RECOMMENDED) continue;
      recommended++;
      if (opts.inCatalog && !opts.inCatalog[it]) {
        outside++;
        continue;
      }
      firstAt[p]++;
    }
    const coverageCurve = new Float64Array(maxK);
    let acc = 0;
    for (let i = 0; i < maxK; i++) {
      acc += firstAt[i];
      coverageCurve[i] = opts.catalogSize > 0 ? acc / opts.catalogSize : NaN;
    }
    const coverage = ks.map((k) => coverageCurve[k - 1]);
    let coldCoverage: (number | null)[] | null = null;
    let coldItems = 0;
    if (counts) {
      const coldHit = ks.map(() => 0);
      for (let it = 0; it < Math.min(nItems, counts.length); it++) {
        const c = counts[it];
        if (c >= 1 && c < opts.coldThreshold) {
          coldItems++;
          const p = minPos[it];
          if (p !== NOT_RECOMMENDED) for (let q = 0; q < ks.length; q++) if (p < ks[q]) coldHit[q]++;
        }
      }
      coldCoverage = ks.map((_, q) => (coldItems > 0 ? coldHit[q] / coldItems : null));
    }
    return {
      coverage,
      coverageCurve,
      outsideCatalog: outside,
      recommended,
      coldCoverage,
      coldItems,
      novelty: this.novelty,
      noveltyMeans: this.surprisal ? ks.map((_, kj) => (novUsers[kj] > 0 ? novSum[kj] / novUsers[kj] : null)) : null,
      unknownSlots: this.unknownSlots,
    };
  }
}
