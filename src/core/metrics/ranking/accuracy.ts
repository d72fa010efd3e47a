/**
 * Per-user accuracy metrics of ranked lists against relevant items (docs/metrics/ranking.md), in one
 * pass over each list: `recall@K`, `precision@K`, `ndcg@K`, `map@K`, `hit_rate@K` at every cutoff
 * of `ks`, `mrr` over the whole list, and the mean of each metric at every K = 1..max(ks) (the
 * metric-vs-K curves) as a by-product.
 *
 * Conventions (u a user, L_u its list, R_u its items with grade > 0, rel_i the grade of the item
 * at rank i, 0 when not relevant; "hit" = an item of R_u):
 * - A user with empty R_u is skipped (not averaged; counted in `users_skipped`).
 * - `recall@K = |L_u[:K] ∩ R_u| / |R_u|`; `precision@K = |L_u[:K] ∩ R_u| / K` — K even when
 *   the list is shorter (a short list is penalised, as trec_eval's P@K); `hit_rate@K` = 1 when
 *   some hit is in the top K.
 * - `ndcg@K = DCG@K / IDCG@K`, `DCG@K = Σ_{i≤K} gain(rel_i)/log2(i+1)`, gain linear (rel) or
 *   exp (2^rel − 1); IDCG@K is the DCG of R_u's grades sorted descending, cut at K.
 * - `map@K`: `AP@K = Σ_{k≤K} P@k·1[item k is a hit] / D`, D by `mapNormaliser`: `min` =
 *   min(|R_u|, K) (the usual recsys AP@K), `all` = |R_u| (trec_eval's AP when K ≥ the list),
 *   `hits` = hits in the top K (AP = 0 when there is none). Grades do not
 *   matter to AP, recall, precision, hit rate or MRR: a relevant item counts 1.
 * - `mrr` = 1/rank of the first hit anywhere in the list, 0 when there is none.
 * - `r_precision` = |L_u[:R] ∩ R_u| / R with R = |R_u|: precision at the depth where a perfect
 *   list would have found every relevant item (trec_eval's `Rprec`), so it equals recall at that
 *   depth and is 1 only for a perfect top R. A list shorter than R counts its missing slots as
 *   misses (divides by R), as trec_eval does; no cutoff K applies.
 * - Repeated items were turned into void slots by the reader (VOID_ITEM < 0): never a hit.
 *
 * @example
 *   // L = [a, b, c, d], R = {b, d}, K = 2:
 *   // recall = 1/2, precision = 1/2, ndcg = (1/log2 3) / (1 + 1/log2 3) ≈ 0.38685,
 *   // map (min) = (1/2)/2 = 0.25, hit_rate = 1, mrr = 1/2, r_precision = |{a, b} ∩ R|/2 = 1/2
 *
 * References:
 * - C. D. Manning, P. Raghavan, H. Schütze (2008). Introduction to Information Retrieval, chapter 8: Evaluation in
 *   information retrieval (§8.4: R-precision). Cambridge University Press. https://nlp.stanford.edu/IR-book/
 * - K. Järvelin, J. Kekäläinen (2002). Cumulated gain-based evaluation of IR techniques. ACM Transactions on
 *   Information Systems 20(4):422–446. https://doi.org/10.1145/582415.582418
 * - NIST (2006). trec_eval: the standard evaluation tool of the Text REtrieval Conference. Software.
 *   https://github.com/usnistgov/trec_eval
 * - E. M. Voorhees (1999). The TREC-8 Question Answering Track Report. Proc. 8th Text REtrieval Conference (TREC-8),
 *   NIST Special Publication 500-246. https://trec.nist.gov/pubs/trec8/papers/qa_report.pdf
 * - F. Pedregosa et al. (2011). Scikit-learn: Machine Learning in Python. Journal of Machine Learning Research
 *   12:2825–2830. https://jmlr.org/papers/v12/pedregosa11a.html
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
 */
import { ListAccumulator } from './listAccumulator';

export type Gain = 'linear' | 'exp';
export type MapNormaliser = 'min' | 'all' | 'hits';

/** Per-user relevance in CSR form over user indices. */
export interface RelevanceCsr {
  offsets: Int32Array;
  items: Int32Array;
  grades: Float64Array;
}

export interface AccuracyOptions {
  /** Cutoffs (positive integers). */
  ks: number[];
  gain?: Gain;
  mapNormaliser?: MapNormaliser;
  /** Number of item indices (size of the scratch lookup). */
  nItems: number;
  /** Keep the per-user vectors (default true); false keeps only means and curves (baselines). */
  keepPerUser?: boolean;
}

export const ACCURACY_METRICS = ['recall', 'precision', 'ndcg', 'map', 'hit_rate'] as const;
export type AccuracyMetric = (typeof ACCURACY_METRICS)[number];

/**
 * The accuracy metrics whose spread over users, `<metric>_std@K` (the population standard
 * deviation of the per-user values, evaluateLists.ts), is reported after the metric's block of
 * cutoffs: nDCG, whose mean papers report with its standard deviation over users ("0.41 ± 0.28").
 */
export const ACCURACY_SPREADS: readonly AccuracyMetric[] = ['ndcg'];

/**
 * The per-user metrics over the whole list (no cutoff), with the note each mean carries in the
 * results. Each is a mean over users: it gets its bootstrap interval over users, its paired
 * interval and its paired tests in a comparison like every per-user key.
 */
export const WHOLE_LIST_METRICS = {
  mrr: 'reciprocal rank of the first relevant item in the whole list (0 when none)',
  r_precision:
    'relevant items in the top R / R, R = the user’s number of relevant items (missing slots of a shorter list are misses)',
} as const;
export type WholeListMetric = keyof typeof WHOLE_LIST_METRICS;

export interface AccuracyResult {
  /** Indices (into the lists) of evaluated users, in list order. */
  evaluated: Int32Array;
  /** Indices of skipped lists (user with no relevant item). */
  skipped: Int32Array;
  /** `recall@K`, … for each K in ks, and the whole-list metrics (`mrr`, `r_precision`); aligned with `evaluated` (empty when not kept). */
  perUser: Record<string, Float64Array>;
  /** Mean over evaluated users of each of those keys (NaN when no user is evaluated). */
  means: Record<string, number>;
  /** Mean over evaluated users of each metric at K = 1..maxK (index K−1). */
  curves: Record<AccuracyMetric, Float64Array>;
  /** Per K of ks: evaluated users whose list is shorter than K. */
  shorter: number[];
}

/** Discount 1/log2(i+1) for ranks i = 1..n (index i−1). */
export function discounts(n: number): Float64Array {
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = 1 / Math.log2(i + 2);
  return d;
}

export function gainOf(grade: number, gain: Gain): number {
  return gain === 'exp' ? Math.pow(2, grade) - 1 : grade;
}

export function checkCutoffs(ks: number[]): number[] {
  if (!Array.isArray(ks) || ks.length === 0)
    throw new RangeError('Expected `k` to be a non-empty list of positive integers, but got an empty list.');
  for (const k of ks)
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`Expected \`k\` to hold positive integers, but got ${k}.`);
  return [...new Set(ks)].sort((a, b) => a - b);
}

/**
 * The lists (indices into `users`, in order) whose user has a relevant item, which are
 * evaluated, and those whose user has none, which are skipped.
 */
export function splitEvaluated(
  users: Int32Array,
  relOffsets: Int32Array,
): { evaluated: Int32Array; skipped: Int32Array } {
  let nEval = 0;
  for (let j = 0; j < users.length; j++) if (relOffsets[users[j] + 1] > relOffsets[users[j]]) nEval++;
  const evaluated = new Int32Array(nEval);
  const skipped = new Int32Array(users.length - nEval);
  let a = 0;
  let b = 0;
  for (let j = 0; j < users.length; j++) {
    if (relOffsets[users[j] + 1] > relOffsets[users[j]]) evaluated[a++] = j;
    else skipped[b++] = j;
  }
  return { evaluated, skipped };
}

/**
 * The accuracy metrics summed one evaluated list at a time, in the order of the lists, so that a
 * list need not exist before it is evaluated nor after (the baselines make each user's list, score
 * it and drop it). The sums take the same additions in the same order whichever way the lists
 * come. A small method called once per user is also compiled early and stays optimised, where one
 * long loop over all users ran in the interpreter until on-stack replacement and left a boxed
 * number behind for each floating-point step.
 */
export class AccuracyAccumulator extends ListAccumulator {
  private readonly maxK: number;
  private readonly gain: Gain;
  private readonly norm: MapNormaliser;
  private readonly disc: Float64Array;
  private readonly gradeOf: Float64Array;
  /**
   * 1 for the items of the current user's R_u: the scan of the list reads this (50 KB for 50,000
   * items) instead of the grades (400 KB), which stay in cache better under random lists.
   */
  private readonly isRel: Uint8Array;
  private readonly keep: boolean;
  private readonly perUser: Record<string, Float64Array> = {};
  /**
   * Per cutoff, per metric of ACCURACY_METRICS (index kj·5 + metric): the per-user column (one slot
   * when not kept).
   */
  private readonly cols: Float64Array[];
  /** Per cutoff, per metric (the same index): the sum over users. */
  private readonly colSums: Float64Array;
  private readonly mrr: Float64Array;
  private readonly rPrecision: Float64Array;
  /** [0]: the sum of the reciprocal ranks, [1]: of the R-precisions (typed slots keep the floats unboxed). */
  private readonly listSums = new Float64Array(2);
  private readonly directNdcg: Float64Array;
  private readonly directMap: Float64Array;
  private readonly diff: Record<AccuracyMetric, Float64Array>;
  private readonly shorter: Int32Array;
  private readonly ideal: Float64Array;
  private readonly hitPos: Int32Array;
  private readonly hitW: Float64Array;
  private sortedGrades = new Float64Array(64);

  constructor(
    private readonly rel: RelevanceCsr,
    nEval: number,
    opts: AccuracyOptions,
  ) {
    const ks = checkCutoffs(opts.ks);
    super(nEval, ks);
    this.gain = opts.gain ?? 'linear';
    this.norm = opts.mapNormaliser ?? 'min';
    const maxK = (this.maxK = ks[ks.length - 1]);
    this.disc = discounts(maxK);
    this.gradeOf = new Float64Array(opts.nItems);
    this.isRel = new Uint8Array(opts.nItems);
    this.keep = opts.keepPerUser !== false;
    // Without keepPerUser every user writes slot 0 of one-element columns; the sums are kept apart.
    const colLen = this.keep ? nEval : 1;
    const perUser = this.perUser;
    // Made metric by metric, so that perUser keeps its key order (recall@K for every K first).
    const byMetric = ACCURACY_METRICS.map((m) => ks.map((k) => (perUser[`${m}@${k}`] = new Float64Array(colLen))));
    const nm = ACCURACY_METRICS.length;
    this.cols = Array.from({ length: ks.length * nm }, (_, i) => byMetric[i % nm][(i - (i % nm)) / nm]);
    this.colSums = new Float64Array(ks.length * nm);
    this.mrr = perUser.mrr = new Float64Array(colLen);
    this.rPrecision = perUser.r_precision = new Float64Array(colLen);
    // Curves: each user's metric is a step function of K that changes only at its hits (and, for
    // NDCG and MAP-min, at every K below m = min(|R_u|, maxK), where the normaliser still grows).
    // Below m the values are added directly; from m on, only the changes are added (difference
    // arrays), so a user costs O(hits + m) instead of O(maxK) per metric.
    this.directNdcg = new Float64Array(maxK);
    this.directMap = new Float64Array(maxK);
    this.diff = {
      recall: new Float64Array(maxK),
      precision: new Float64Array(maxK),
      ndcg: new Float64Array(maxK),
      map: new Float64Array(maxK),
      hit_rate: new Float64Array(maxK),
    };
    this.shorter = new Int32Array(ks.length);
    this.ideal = new Float64Array(maxK);
    this.hitPos = new Int32Array(maxK);
    this.hitW = new Float64Array(maxK);
  }

  /**
   * Adds the next evaluated list: user `u` (who has a relevant item), its slots
   * `items[l0 .. l0 + len)`.
   */
  add(u: number, items: Int32Array, l0: number, len: number): void {
    const { rel, gradeOf, isRel, disc, ideal, hitPos, hitW, ks, maxK, gain, norm, cols, colSums: sums } = this;
    const e = this.n++;
    const r0 = rel.offsets[u];
    const r1 = rel.offsets[u + 1];
    const nRel = r1 - r0;
    const m = nRel < maxK ? nRel : maxK;
    let binary = true;
    for (let p = r0; p < r1; p++) {
      const g = rel.grades[p];
      gradeOf[rel.items[p]] = g;
      isRel[rel.items[p]] = g > 0 ? 1 : 0;
      if (g !== 1) binary = false;
    }
    const unitGain = binary && gain === 'linear';
    // Ideal DCG prefix up to m: the best ordering of R_u (grades descending).
    if (unitGain) {
      let acc = 0;
      for (let i = 0; i < m; i++) ideal[i] = acc += disc[i];
    } else {
      if (this.sortedGrades.length < nRel) this.sortedGrades = new Float64Array(nRel * 2);
      const sg = this.sortedGrades.subarray(0, nRel);
      for (let p = 0; p < nRel; p++) sg[p] = rel.grades[r0 + p];
      sg.sort();
      let acc = 0;
      for (let i = 0; i < m; i++) ideal[i] = acc += gainOf(sg[nRel - 1 - i], gain) * disc[i];
    }
    // Hits in the top maxK (rank i + 1), with their discounted gains; MRR over the whole list.
    const scan = len < maxK ? len : maxK;
    let nh = 0;
    for (let i = 0; i < scan; i++) {
      const it = items[l0 + i];
      if (it < 0 || isRel[it] === 0) continue;
      hitPos[nh] = i;
      hitW[nh++] = (unitGain ? 1 : gainOf(gradeOf[it], gain)) * disc[i];
    }
    let rr = nh > 0 ? 1 / (hitPos[0] + 1) : 0;
    if (nh === 0)
      for (let i = maxK; i < len; i++) {
        const it = items[l0 + i];
        if (it >= 0 && isRel[it] !== 0) {
          rr = 1 / (i + 1);
          break;
        }
      }
    // R-precision: the hits among the first R = |R_u| slots (a shorter list's missing slots are misses).
    // The hits of the top maxK are known (hitPos, increasing): only slots past it are scanned again.
    const rEnd = len < nRel ? len : nRel;
    let rHits = 0;
    while (rHits < nh && hitPos[rHits] < rEnd) rHits++;
    for (let i = scan; i < rEnd; i++) {
      const it = items[l0 + i];
      if (it >= 0 && isRel[it] !== 0) rHits++;
    }
    const rp = rHits / nRel;
    const w = this.keep ? e : 0;
    this.mrr[w] = rr;
    this.rPrecision[w] = rp;
    this.listSums[0] += rr;
    this.listSums[1] += rp;
    for (let p = r0; p < r1; p++) gradeOf[rel.items[p]] = isRel[rel.items[p]] = 0;

    // Values at the cutoffs.
    {
      let q = 0;
      let h = 0;
      let dcg = 0;
      let ap = 0;
      for (let kj = 0; kj < ks.length; kj++) {
        const k = ks[kj];
        while (q < nh && hitPos[q] < k) {
          h++;
          dcg += hitW[q];
          ap += h / (hitPos[q] + 1);
          q++;
        }
        const vRecall = h / nRel;
        const vPrecision = h / k;
        const vNdcg = dcg / ideal[(k < m ? k : m) - 1];
        const d = norm === 'min' ? (nRel < k ? nRel : k) : norm === 'all' ? nRel : h;
        const vMap = d > 0 ? ap / d : 0;
        const vHit = h > 0 ? 1 : 0;
        // In the order of ACCURACY_METRICS.
        const o = kj * 5;
        cols[o][w] = vRecall;
        cols[o + 1][w] = vPrecision;
        cols[o + 2][w] = vNdcg;
        cols[o + 3][w] = vMap;
        cols[o + 4][w] = vHit;
        sums[o] += vRecall;
        sums[o + 1] += vPrecision;
        sums[o + 2] += vNdcg;
        sums[o + 3] += vMap;
        sums[o + 4] += vHit;
        if (len < k) this.shorter[kj]++;
      }
    }

    // Curves.
    const diff = this.diff;
    const invRel = 1 / nRel;
    for (let q = 0; q < nh; q++) {
      diff.recall[hitPos[q]] += invRel;
      diff.precision[hitPos[q]] += 1;
    }
    if (nh > 0) diff.hit_rate[hitPos[0]] += 1;
    const directNdcg = this.directNdcg;
    const directMap = this.directMap;
    let q = 0;
    let h = 0;
    let dcg = 0;
    let ap = 0;
    for (let k = 1; k < m; k++) {
      while (q < nh && hitPos[q] < k) {
        h++;
        dcg += hitW[q];
        ap += h / (hitPos[q] + 1);
        q++;
      }
      directNdcg[k - 1] += dcg / ideal[k - 1];
      if (norm === 'min') directMap[k - 1] += ap / k;
    }
    while (q < nh && hitPos[q] < m) {
      h++;
      dcg += hitW[q];
      ap += h / (hitPos[q] + 1);
      q++;
    }
    const idealM = ideal[m - 1];
    diff.ndcg[m - 1] += dcg / idealM;
    if (norm === 'min') diff.map[m - 1] += ap / m;
    for (; q < nh; q++) {
      h++;
      const i = hitPos[q];
      diff.ndcg[i] += hitW[q] / idealM;
      if (norm === 'min') diff.map[i] += h / (i + 1) / m;
    }
    if (norm !== 'min') {
      let hh = 0;
      let a = 0;
      let prev = 0;
      for (let t = 0; t < nh; t++) {
        hh++;
        a += hh / (hitPos[t] + 1);
        const cur = norm === 'all' ? a / nRel : a / hh;
        diff.map[hitPos[t]] += cur - prev;
        prev = cur;
      }
    }
  }

  /** The means, curves and per-user columns once every evaluated list has been added. */
  result(evaluated: Int32Array, skipped: Int32Array): AccuracyResult {
    this.checkAllAdded();
    const { maxK, ks, nEval, perUser } = this;
    const curves = {} as Record<AccuracyMetric, Float64Array>;
    for (const mName of ACCURACY_METRICS) {
      const c = new Float64Array(maxK);
      const d = this.diff[mName];
      const dir = mName === 'ndcg' ? this.directNdcg : mName === 'map' ? this.directMap : null;
      let acc = 0;
      for (let i = 0; i < maxK; i++) {
        acc += d[i];
        const total = acc + (dir ? dir[i] : 0);
        c[i] = nEval > 0 ? (mName === 'precision' ? total / (i + 1) : total) / nEval : NaN;
      }
      curves[mName] = c;
    }
    // At the cutoffs the curve holds exactly the metric's value (the same sum in the same order).
    const means: Record<string, number> = {
      mrr: nEval > 0 ? this.listSums[0] / nEval : NaN,
      r_precision: nEval > 0 ? this.listSums[1] / nEval : NaN,
    };
    ACCURACY_METRICS.forEach((mName, qm) =>
      ks.forEach((k, kj) => {
        const mean = nEval > 0 ? this.colSums[kj * ACCURACY_METRICS.length + qm] / nEval : NaN;
        means[`${mName}@${k}`] = mean;
        curves[mName][k - 1] = mean;
      }),
    );
    if (!this.keep) for (const key of Object.keys(perUser)) delete perUser[key];
    return { evaluated, skipped, perUser, means, curves, shorter: Array.from(this.shorter) };
  }
}
