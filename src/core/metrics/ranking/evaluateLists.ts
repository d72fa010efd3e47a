/**
 * Every ranking metric of docs/metrics/ranking.md for one set of ranked lists (the run, or a
 * baseline's lists for the same users), from a {@link RankingData}: accuracy at every K, MRR,
 * catalog metrics, embedding metrics, with per-user vectors and metric-vs-K curves.
 *
 * Keys are absent when their inputs are absent (no train → no `cold_start_coverage@K` and no
 * `novelty@K`; no item embeddings → no `diversity@K`/`alignment@K`; no user embeddings and no
 * train → no `alignment@K`). Beside `ndcg@K`, `diversity@K` and `alignment@K`, `ndcg_std@K`,
 * `diversity_std@K` and `alignment_std@K`: the population standard deviation (ddof = 0, numpy's
 * `np.std` default) of the per-user values over the same users (`ndcg_std@K` only where the
 * per-user values are kept: not for a baseline).
 *
 * References:
 * - C. D. Manning, P. Raghavan, H. Schütze (2008). Introduction to Information Retrieval, chapter 8: Evaluation in
 *   information retrieval. Cambridge University Press. https://nlp.stanford.edu/IR-book/
 * - K. Järvelin, J. Kekäläinen (2002). Cumulated gain-based evaluation of IR techniques. ACM Transactions on
 *   Information Systems 20(4):422–446. https://doi.org/10.1145/582415.582418
 * - E. M. Voorhees (1999). The TREC-8 Question Answering Track Report. Proc. 8th Text REtrieval Conference (TREC-8),
 *   NIST Special Publication 500-246. https://trec.nist.gov/pubs/trec8/papers/qa_report.pdf
 * - T. Sakai (2014). Statistical reform in information retrieval? ACM SIGIR Forum 48(1):3–12.
 *   https://doi.org/10.1145/2641383.2641385
 * - M. Ge, C. Delgado-Battenfeld, D. Jannach (2010). Beyond accuracy: evaluating recommender systems by coverage and
 *   serendipity. Proc. 4th ACM Conference on Recommender Systems (RecSys), 257–260.
 *   https://doi.org/10.1145/1864708.1864761
 * - A. I. Schein, A. Popescul, L. H. Ungar, D. M. Pennock (2002). Methods and metrics for cold-start
 *   recommendations. Proc. 25th ACM SIGIR Conference, 253–260. https://doi.org/10.1145/564376.564421
 * - T. Zhou, Z. Kuscsik, J.-G. Liu, M. Medo, J. R. Wakeling, Y.-C. Zhang (2010). Solving the apparent
 *   diversity-accuracy dilemma of recommender systems. Proceedings of the National Academy of Sciences
 *   107(10):4511–4515. https://doi.org/10.1073/pnas.1000488107
 * - C.-N. Ziegler, S. M. McNee, J. A. Konstan, G. Lausen (2005). Improving recommendation lists through topic
 *   diversification. Proc. 14th International World Wide Web Conference (WWW), 22–32.
 *   https://doi.org/10.1145/1060745.1060754
 * - P. Lops, M. de Gemmis, G. Semeraro (2011). Content-based Recommender Systems: State of the Art and Trends.
 *   Recommender Systems Handbook, Springer, 73–105. https://doi.org/10.1007/978-0-387-85820-3_3
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
 */
import type { RankedLists, RankingData } from '../../data/rankingData';
import {
  AccuracyAccumulator,
  ACCURACY_METRICS,
  ACCURACY_SPREADS,
  WHOLE_LIST_METRICS,
  checkCutoffs,
  splitEvaluated,
  type AccuracyResult,
  type Gain,
  type MapNormaliser,
} from './accuracy';
import type { Recommender } from './baselines';
import { CatalogAccumulator, type CatalogResult } from './catalog';
import { EmbeddingAccumulator, type EmbeddingMetricsResult } from './embedding';

export interface EvaluateListsOptions {
  ks: number[];
  gain: Gain;
  mapNormaliser: MapNormaliser;
  coldThreshold: number;
  catalog: CatalogDefinition;
  /** Keep per-user vectors (default true); baselines need only means and curves. */
  keepPerUser?: boolean;
}

/** The catalog used by coverage (shared by the run and its baselines). */
export interface CatalogDefinition {
  size: number;
  /** null when `catalogSize` was given (every recommended item counts). */
  members: Uint8Array | null;
  /** How it was formed, for the metric note. */
  note: string;
}

export interface ListEvaluation {
  evaluated: Int32Array;
  skipped: Int32Array;
  /** Mean-type per-user metrics (NaN where undefined), aligned with `evaluated`. */
  perUser: Record<string, Float64Array>;
  /** Metric key → value (null when undefined), in display order. */
  values: Map<string, number | null>;
  notes: Record<string, string>;
  /** Mean at K = 1..maxK: recall, precision, ndcg, map, hit_rate, coverage. */
  curves: Record<string, Float64Array>;
  accuracy: AccuracyResult;
  catalog: CatalogResult;
  embedding: EmbeddingMetricsResult | null;
}

/** Builds the catalog: `catalogSize`, else train items ∪ relevant items, else relevant ∪ recommended. */
export function defineCatalog(data: RankingData, catalogSize: number | undefined): CatalogDefinition {
  if (catalogSize !== undefined && catalogSize !== null)
    return { size: catalogSize, members: null, note: `catalog = catalogSize (${catalogSize} items)` };
  const members = new Uint8Array(data.items.size);
  for (let p = 0; p < data.relItems.length; p++) members[data.relItems[p]] = 1;
  let what: string;
  if (data.train) {
    const c = data.train.itemCounts;
    for (let it = 0; it < c.length; it++) if (c[it] > 0) members[it] = 1;
    what = 'train ∪ relevant items';
  } else {
    const items = data.lists.items;
    for (let p = 0; p < items.length; p++) if (items[p] >= 0) members[items[p]] = 1;
    what = 'relevant ∪ recommended items (no train given)';
  }
  let size = 0;
  for (let it = 0; it < members.length; it++) size += members[it];
  return { size, members, note: `catalog = ${what} (${size} items)` };
}

export function evaluateLists(lists: RankedLists, data: RankingData, opts: EvaluateListsOptions): ListEvaluation {
  const scorer = new ListScorer(lists.user, data, opts);
  const { evaluated } = scorer;
  const { user, offsets, items } = lists;
  for (let e = 0; e < evaluated.length; e++) {
    const j = evaluated[e];
    scorer.add(user[j], items, offsets[j], offsets[j + 1] - offsets[j]);
  }
  return scorer.finish();
}

/**
 * The same evaluation for lists that a recommender makes one user at a time, for `users` in
 * order (a baseline for the run's users): each list is written into one buffer of `depth` slots,
 * scored and overwritten by the next, so the lists never exist all at once (100,000 users × 100
 * slots would be 40 MB). Every list is made, in order, even for a user who is not evaluated, so a
 * seeded recommender draws the same numbers as when it makes all the lists first.
 */
export function evaluateRecommender(
  users: Int32Array,
  recommend: Recommender,
  depth: number,
  data: RankingData,
  opts: EvaluateListsOptions,
): ListEvaluation {
  const scorer = new ListScorer(users, data, opts);
  const { evaluated } = scorer;
  const buf = new Int32Array(depth);
  let e = 0;
  for (let j = 0; j < users.length; j++) {
    const len = recommend(users[j], buf);
    if (e < evaluated.length && evaluated[e] === j) {
      scorer.add(users[j], buf, 0, len);
      e++;
    }
  }
  return scorer.finish();
}

/** Every metric of one set of lists, added one evaluated list at a time in list order. */
class ListScorer {
  /** Indices of the lists whose user has a relevant item, in order; the others are skipped. */
  readonly evaluated: Int32Array;
  private readonly skipped: Int32Array;
  private readonly ks: number[];
  private readonly acc: AccuracyAccumulator;
  private readonly cat: CatalogAccumulator;
  private readonly emb: EmbeddingAccumulator | null;

  constructor(
    users: Int32Array,
    private readonly data: RankingData,
    private readonly opts: EvaluateListsOptions,
  ) {
    const ks = (this.ks = checkCutoffs(opts.ks));
    const nItems = data.items.size;
    const { evaluated, skipped } = splitEvaluated(users, data.relOffsets);
    this.evaluated = evaluated;
    this.skipped = skipped;
    this.acc = new AccuracyAccumulator(
      { offsets: data.relOffsets, items: data.relItems, grades: data.relGrades },
      evaluated.length,
      { ks, gain: opts.gain, mapNormaliser: opts.mapNormaliser, nItems, keepPerUser: opts.keepPerUser },
    );
    this.cat = new CatalogAccumulator(evaluated.length, {
      ks,
      nItems,
      catalogSize: opts.catalog.size,
      inCatalog: opts.catalog.members,
      trainCounts: data.train?.itemCounts ?? null,
      trainTotal: data.train?.total ?? 0,
      popularity: data.itemPopularity ?? null,
      coldThreshold: opts.coldThreshold,
      keepPerUser: opts.keepPerUser,
    });
    this.emb = data.itemEmbeddings
      ? new EmbeddingAccumulator(evaluated.length, {
          ks,
          items: data.itemEmbeddings,
          users: data.userEmbeddings,
          train: data.train,
        })
      : null;
  }

  /** Adds the next evaluated list: user `u`, its slots `items[l0 .. l0 + len)`. */
  add(u: number, items: Int32Array, l0: number, len: number): void {
    this.acc.add(u, items, l0, len);
    this.cat.add(items, l0, len);
    if (this.emb) this.emb.add(u, items, l0, len);
  }

  finish(): ListEvaluation {
    return assemble(
      this.acc.result(this.evaluated, this.skipped),
      this.cat.result(),
      this.emb ? this.emb.result() : null,
      this.ks,
      this.data,
      this.opts,
    );
  }
}

/** The metric keys, values, notes and curves of one evaluation from its three parts. */
function assemble(
  acc: AccuracyResult,
  cat: CatalogResult,
  emb: EmbeddingMetricsResult | null,
  ks: number[],
  data: RankingData,
  opts: EvaluateListsOptions,
): ListEvaluation {
  const perUser: Record<string, Float64Array> = {};
  const values = new Map<string, number | null>();
  const notes: Record<string, string> = {};
  const graded = !data.binary;
  for (const m of ACCURACY_METRICS) {
    for (const k of ks) {
      const key = `${m}@${k}`;
      if (acc.perUser[key]) perUser[key] = acc.perUser[key];
      values.set(key, nullIfNaN(acc.means[key]));
      notes[key] = accuracyNote(m, k, opts, graded);
    }
    // Its spread over users right after the metric's block, where the per-user values are kept
    // (the baselines keep only sums, so they have none).
    if (!ACCURACY_SPREADS.includes(m)) continue;
    for (const k of ks) {
      const v = acc.perUser[`${m}@${k}`];
      if (!v) continue;
      values.set(`${m}_std@${k}`, stdDefined(v));
      notes[`${m}_std@${k}`] = spreadNote(`${m}@${k}`, 'the evaluated users');
    }
  }
  for (const [key, note] of Object.entries(WHOLE_LIST_METRICS)) {
    if (acc.perUser[key]) perUser[key] = acc.perUser[key];
    values.set(key, nullIfNaN(acc.means[key]));
    notes[key] = note;
  }
  ks.forEach((k, q) => {
    values.set(`coverage@${k}`, cat.coverage[q]);
    notes[`coverage@${k}`] = `distinct items in the top ${k} over evaluated users / ${opts.catalog.note}`;
  });
  if (cat.coldCoverage) {
    ks.forEach((k, q) => {
      values.set(`cold_start_coverage@${k}`, cat.coldCoverage![q]);
      notes[`cold_start_coverage@${k}`] =
        cat.coldItems > 0
          ? `cold = items with 1 ≤ train count < ${opts.coldThreshold} (${cat.coldItems} items)`
          : `no cold item (1 ≤ train count < ${opts.coldThreshold})`;
    });
  }
  // A family whose per-user value may be undefined (NaN): at each cutoff, the mean over the users where it is defined.
  // With `spread`, also `<family>_std@K`: the population SD over the same users (beside each mean).
  const addMeansOverDefined = (
    family: string,
    perUserOf: Record<string, Float64Array>,
    note: string,
    spread = false,
  ): void => {
    for (const k of ks) {
      const key = `${family}@${k}`;
      perUser[key] = perUserOf[key];
      values.set(key, meanDefined(perUserOf[key]));
      notes[key] = note;
      if (!spread) continue;
      values.set(`${family}_std@${k}`, stdDefined(perUserOf[key]));
      notes[`${family}_std@${k}`] = spreadNote(key, 'the users where it is defined');
    }
  };
  if (cat.noveltyMeans) {
    const pop = data.itemPopularity;
    const note = pop
      ? `mean −log2(item's "${pop.column}" / the sum of "${pop.column}" over the item table ${pop.file}) over the top K, mean over users; items with 0 or no value left out`
      : 'mean −log2(item train interactions / all train interactions) over the top K, mean over users; items without train interactions left out';
    ks.forEach((k, kj) => {
      const key = `novelty@${k}`;
      if (cat.novelty) perUser[key] = cat.novelty[key];
      values.set(key, cat.noveltyMeans![kj]);
      notes[key] = note;
    });
  }
  if (emb) {
    addMeansOverDefined(
      'diversity',
      emb.diversity,
      '1 − mean pairwise cosine of the item embeddings in the top K (users with < 2 embedded items left out)',
      true,
    );
    if (emb.alignment) {
      const how = `profiles: ${emb.profiles.given} from userEmbeddings, ${emb.profiles.fromTrain} from the mean of train item embeddings, ${emb.profiles.none} without`;
      addMeansOverDefined(
        'alignment',
        emb.alignment,
        `mean cosine between the user profile and the items of the top K; ${how}`,
        true,
      );
    }
  }
  values.set('users_evaluated', acc.evaluated.length);
  values.set('users_skipped', acc.skipped.length);
  notes.users_skipped = 'users of the run with no relevant item (empty R_u)';
  const curves: Record<string, Float64Array> = { ...acc.curves, coverage: cat.coverageCurve };
  return {
    evaluated: acc.evaluated,
    skipped: acc.skipped,
    perUser,
    values,
    notes,
    curves,
    accuracy: acc,
    catalog: cat,
    embedding: emb,
  };
}

function accuracyNote(m: string, k: number, opts: EvaluateListsOptions, graded: boolean): string {
  switch (m) {
    case 'recall':
      return '|top K ∩ R_u| / |R_u|, mean over users with a relevant item';
    case 'precision':
      return `|top K ∩ R_u| / ${k} (K even when the list is shorter)`;
    case 'ndcg':
      return `gain ${opts.gain}${graded ? ' of graded relevance' : ''}; discount 1/log2(rank+1); IDCG from the best ordering of R_u`;
    case 'map':
      return `mapNormaliser ${opts.mapNormaliser}: AP@K divided by ${opts.mapNormaliser === 'min' ? 'min(|R_u|, K)' : opts.mapNormaliser === 'all' ? '|R_u| (trec_eval)' : 'the hits in the top K'}`;
    default:
      return 'share of users with a relevant item in the top K';
  }
}

/** The note of a spread over users (`<metric>_std@K`): its convention and the users it is over. */
function spreadNote(key: string, over: string): string {
  return `population standard deviation (divide by n) of the per-user ${key} over ${over}`;
}

function nullIfNaN(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}

/**
 * Population standard deviation (divide by n, numpy's `np.std` default, ddof = 0) of the non-NaN
 * values about their mean; null when there is none (0 for one value).
 */
export function stdDefined(v: Float64Array): number | null {
  const mean = meanDefined(v);
  if (mean === null) return null;
  let ss = 0;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x === x) {
      ss += (x - mean) * (x - mean);
      n++;
    }
  }
  return Math.sqrt(ss / n);
}

/** Mean of the non-NaN values; null when there is none. */
export function meanDefined(v: Float64Array): number | null {
  let s = 0;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x === x) {
      s += x;
      n++;
    }
  }
  return n > 0 ? s / n : null;
}
