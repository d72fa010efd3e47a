/**
 * Classification metrics of docs/metrics/classification.md: accuracy, per-class accuracy, balanced accuracy,
 * macro F1, Matthews correlation coefficient, top-k accuracy, NLL, Brier, confusion matrix, per-class precision/recall/F1.
 *
 * Two steps, so that the bootstrap (src/core/stats/bootstrap.ts) never touches the n×C probability
 * matrix again:
 *  1. {@link prepareClassification} — per-row correctness, NLL term, Brier term and the true
 *     class's rank among the scores (the last three computed row by row while the file is read,
 *     ./probabilityTerms.ts). O(n).
 *  2. {@link aggregateClassification} — from those per-row vectors and optional multiplicities
 *     `counts` (a bootstrap resample), every scalar metric. O(n + C). The row weight used is
 *     `w_i × counts_i` (w_i from the `weight` column, 1 when absent).
 *
 * Every weighted formula reduces to the unweighted one when all weights are 1.
 *
 * References:
 * - M. Sokolova, G. Lapalme (2009). A systematic analysis of performance measures for classification tasks.
 *   Information Processing & Management 45(4):427–437. https://doi.org/10.1016/j.ipm.2009.03.002
 * - K. H. Brodersen, C. S. Ong, K. E. Stephan, J. M. Buhmann (2010). The balanced accuracy and its posterior
 *   distribution. Proc. 20th International Conference on Pattern Recognition (ICPR), 3121–3124.
 *   https://doi.org/10.1109/ICPR.2010.764
 * - J. Gorodkin (2004). Comparing two K-category assignments by a K-category correlation coefficient.
 *   Computational Biology and Chemistry 28(5–6):367–374. https://doi.org/10.1016/j.compbiolchem.2004.09.006
 * - B. W. Matthews (1975). Comparison of the predicted and observed secondary structure of T4 phage lysozyme.
 *   Biochimica et Biophysica Acta (BBA) – Protein Structure 405(2):442–451.
 *   https://doi.org/10.1016/0005-2795(75)90109-9
 * - C. J. van Rijsbergen (1979). Information Retrieval (2nd ed.), chapter 7: Evaluation. Butterworths, London.
 *   http://www.dcs.gla.ac.uk/Keith/Preface.html
 * - I. J. Good (1952). Rational decisions. Journal of the Royal Statistical Society, Series B 14(1):107–114.
 *   https://doi.org/10.1111/j.2517-6161.1952.tb00104.x
 * - G. W. Brier (1950). Verification of forecasts expressed in terms of probability. Monthly Weather Review
 *   78(1):1–3. https://doi.org/10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2
 * - F. Pedregosa et al. (2011). Scikit-learn: Machine Learning in Python. Journal of Machine Learning Research
 *   12:2825–2830. https://jmlr.org/papers/v12/pedregosa11a.html
 *
 * @see docs/metrics/classification.md — the definitions, conventions and worked examples.
 */
import type { ClassificationData, ClassIndices, ProbabilityTermSums } from '../data/classificationData';
import { EvalLensError } from '../diagnostics';

export { NLL_FLOOR } from './probabilityTerms';

export interface ClassificationOptions {
  /** The k of each `top<k>_accuracy` key (positive integers). Default none. */
  topK?: readonly number[];
}

/** Per-row quantities computed once from the full data (step 1). */
export interface PreparedClassification {
  n: number;
  /** Number of classes C. */
  C: number;
  classes: string[];
  labels: ClassIndices;
  preds: ClassIndices;
  /** Base sample weights w_i (the `weight` column), null = all 1. */
  weights: Float64Array | null;
  /** 1 when ŷ_i = y_i. */
  correct: Uint8Array;
  /** `−ln max(p_{i,y_i}, 1e-15)`, or null without probabilities. */
  nllTerm: Float64Array | null;
  /** `Σ_c (p_ic − 1[y_i=c])²`, or null without probabilities. */
  brierTerm: Float64Array | null;
  /** 1 + #classes whose score is strictly higher than the true class's, or null without probabilities. */
  trueRank: Int32Array | null;
  /**
   * The three terms above added up while reading, in place of the per-row arrays (then empty):
   * only {@link aggregateClassification} of every row once, unweighted, reads them (data/classificationData.ts).
   */
  termSums: ProbabilityTermSums | null;
  /** The validated, de-duplicated top-k list (ascending). */
  topK: number[];
}

/** Per-class weighted sums (the input of every aggregate: classification, long tail, evolving). */
export interface ClassStats {
  /** Σ w over rows with y = c (the weighted support). */
  support: Float64Array;
  /** Σ w over rows with y = c and ŷ = c (true positives). */
  correct: Float64Array;
  /** Σ w over rows with ŷ = c. */
  predicted: Float64Array;
  /** 1 when class c occurs as a true or predicted label in a row with multiplicity > 0 (whatever its weight). */
  present: Uint8Array;
  /** Σ w over all rows. */
  total: number;
}

/** Scalar values keyed by the stable metric keys, plus the per-class sums they came from. */
export interface ClassificationAggregate {
  values: Record<string, number | null>;
  stats: ClassStats;
}

function checkTopK(topK: readonly number[]): number[] {
  for (const k of topK) {
    if (!Number.isInteger(k) || k < 1) {
      throw new EvalLensError(
        'invalid-config',
        `Expected every \`topK\` entry to be a positive integer, but got ${k}.`,
      );
    }
  }
  return [...new Set(topK)].sort((a, b) => a - b);
}

/**
 * Step 1: per-row quantities from the full data: correctness here; the NLL, Brier and rank terms
 * of the probabilities come from the reader ({@link ClassificationData.probTerms}, computed by
 * ./probabilityTerms.ts).
 *
 * The true class's rank is `1 + #{c : p_ic > p_{i,y_i}}` — ties count in the model's favour and do
 * not depend on class order (docs/metrics/classification.md). scikit-learn's `top_k_accuracy_score` breaks
 * ties by class index instead, so the two agree whenever scores are distinct.
 */
export function prepareClassification(
  data: ClassificationData,
  opts: ClassificationOptions = {},
): PreparedClassification {
  const { n, labels, preds, probTerms } = data;
  const C = data.classes.length;
  const topK = checkTopK(opts.topK ?? []);
  const correct = new Uint8Array(n);
  for (let i = 0; i < n; i++) correct[i] = labels[i] === preds[i] ? 1 : 0;
  // computed row by row while reading (./probabilityTerms.ts)
  const nllTerm = probTerms?.nllTerm ?? null;
  const brierTerm = probTerms?.brierTerm ?? null;
  const trueRank = probTerms?.trueRank ?? null;
  const termSums = probTerms?.sums ?? null;
  if (termSums && data.weights) throw new Error('Expected no weights with terms summed while reading.');
  return {
    n,
    C,
    classes: data.classes,
    labels,
    preds,
    weights: data.weights,
    correct,
    nllTerm,
    brierTerm,
    trueRank,
    termSums,
    topK,
  };
}

/** Row weight `w_i × counts_i` (either factor may be absent = 1). */
export function rowWeight(
  weights: Float64Array | null,
  counts: ArrayLike<number> | null | undefined,
  i: number,
): number {
  const w = weights ? weights[i] : 1;
  return counts ? w * counts[i] : w;
}

/** acc_c = correct_c / support_c; null for a class with no (weighted) test rows. */
export function perClassAccuracy(stats: ClassStats): (number | null)[] {
  return Array.from(stats.support, (s, c) => (s > 0 ? stats.correct[c] / s : null));
}

/** Mean of acc_c over classes with test rows; null when no class has any. */
export function balancedAccuracy(stats: ClassStats): number | null {
  let sum = 0;
  let m = 0;
  for (let c = 0; c < stats.support.length; c++) {
    if (stats.support[c] > 0) {
      sum += stats.correct[c] / stats.support[c];
      m++;
    }
  }
  return m > 0 ? sum / m : null;
}

/**
 * Macro F1 as scikit-learn's `f1_score(average='macro')`: over the labels occurring as a true or
 * predicted label, F1_c = 2·TP_c / (support_c + predicted_c), 0 where that is 0/0.
 * A label that occurs only in zero-weight rows still counts (F1 = 0), as in scikit-learn.
 */
export function macroF1(stats: ClassStats): number | null {
  let sum = 0;
  let m = 0;
  for (let c = 0; c < stats.support.length; c++) {
    if (!stats.present[c]) continue;
    const den = stats.support[c] + stats.predicted[c];
    sum += den > 0 ? (2 * stats.correct[c]) / den : 0;
    m++;
  }
  return m > 0 ? sum / m : null;
}

/**
 * Matthews correlation coefficient in its K-class form (Gorodkin 2004), as scikit-learn's
 * `matthews_corrcoef` with `sample_weight`: from the weighted confusion matrix, with t_k = support_k,
 * p_k = predicted_k, c = Σ_k TP_k and s = Σ w,
 *
 *   MCC = (c·s − Σ_k p_k·t_k) / √((s² − Σ_k p_k²)·(s² − Σ_k t_k²)),
 *
 * 0 when a factor under the root is 0 (every row has one true class, or every row one predicted
 * class), as scikit-learn returns; null when no row has weight. In [−1, 1]; 0 is chance level and
 * it equals the φ coefficient for two classes.
 *
 * @example labels [0,0,1,1], preds [0,1,1,1]: t = (2,2), p = (1,3), c = 3, s = 4 →
 * (12 − 8) / √((16 − 10)·(16 − 8)) = 4/√48 ≈ 0.5774.
 */
export function matthewsCorrcoef(stats: ClassStats): number | null {
  const s = stats.total;
  if (!(s > 0)) return null;
  let c = 0;
  let pt = 0;
  let pp = 0;
  let tt = 0;
  for (let k = 0; k < stats.support.length; k++) {
    const t = stats.support[k];
    const p = stats.predicted[k];
    c += stats.correct[k];
    pt += p * t;
    pp += p * p;
    tt += t * t;
  }
  const den = (s * s - pp) * (s * s - tt);
  return den > 0 ? (c * s - pt) / Math.sqrt(den) : 0;
}

/**
 * Step 2: every scalar classification metric from the prepared rows and multiplicities `counts`
 * (null = each row once). Row weight `w_i × counts_i`. O(n + C); never reads the probability matrix.
 *
 * Keys: `accuracy`, `balanced_accuracy`, `macro_f1`, `matthews_corrcoef`, and with probabilities `top<k>_accuracy`,
 * `nll`, `brier`. A value whose denominator is 0 (no rows, or all weights 0) is null.
 *
 * @example 3 rows, labels [0,1,1], preds [0,0,1]: accuracy = 2/3, balanced_accuracy = (1 + 1/2)/2 = 0.75,
 * macro_f1 = (2·1/(1+2) + 2·1/(2+1))/2 = 2/3.
 */
export function aggregateClassification(
  prep: PreparedClassification,
  counts?: ArrayLike<number> | null,
): ClassificationAggregate {
  // The bootstrap's fast path (integer multiplicities, no weight column): the batch kernel with one resample.
  if (counts instanceof Int32Array && prep.weights === null) return aggregateUnitBatch(prep, [counts], 1)[0];
  const { n, C, weights, labels, preds, correct, termSums } = prep;
  if (termSums && counts)
    throw new Error('Expected the per-row terms for multiplicities, but they were summed while reading.');
  const support = new Float64Array(C);
  const correctW = new Float64Array(C);
  const predicted = new Float64Array(C);
  const present = new Uint8Array(C);
  // the terms read row by row, unless the reader added them up in the same order
  const scored = isScored(prep) && !termSums;
  const rankHist = termSums ? termSums.rankHist.slice() : new Float64Array(C + 1);
  const trueRank = prep.trueRank ?? new Int32Array(0);
  const nllTerm = prep.nllTerm ?? new Float64Array(0);
  const brierTerm = prep.brierTerm ?? new Float64Array(0);
  let total = 0;
  let nll = termSums ? termSums.nll : 0;
  let brier = termSums ? termSums.brier : 0;
  for (let i = 0; i < n; i++) {
    let w: number;
    if (counts) {
      const m = counts[i];
      if (m === 0) continue;
      w = weights ? weights[i] * m : m;
    } else w = weights ? weights[i] : 1;
    const y = labels[i];
    const p = preds[i];
    support[y] += w;
    predicted[p] += w;
    if (correct[i]) correctW[y] += w;
    present[y] = 1;
    present[p] = 1;
    total += w;
    if (scored) {
      rankHist[trueRank[i]] += w;
      nll += w * nllTerm[i];
      brier += w * brierTerm[i];
    }
  }
  const stats: ClassStats = { support, correct: correctW, predicted, present, total };
  return { values: aggregateValues(prep, stats, rankHist, nll, brier), stats };
}

function isScored(prep: PreparedClassification): boolean {
  return prep.trueRank !== null && prep.nllTerm !== null && prep.brierTerm !== null;
}

/** The scalar values from the per-class sums, the true-rank histogram and Σ w·nll, Σ w·brier. */
function aggregateValues(
  prep: PreparedClassification,
  stats: ClassStats,
  rankHist: ArrayLike<number>,
  nll: number,
  brier: number,
): Record<string, number | null> {
  const { C } = prep;
  const { total } = stats;
  const values: Record<string, number | null> = {};
  let correctTotal = 0;
  for (let c = 0; c < C; c++) correctTotal += stats.correct[c];
  values.accuracy = total > 0 ? correctTotal / total : null;
  values.balanced_accuracy = balancedAccuracy(stats);
  // All weights 0: F1's "0 where undefined" would report 0 for an undefined value.
  values.macro_f1 = total > 0 ? macroF1(stats) : null;
  values.matthews_corrcoef = matthewsCorrcoef(stats);
  if (isScored(prep)) {
    for (const k of prep.topK) {
      let hit = 0;
      for (let r = 1; r <= Math.min(k, C); r++) hit += rankHist[r];
      values[`top${k}_accuracy`] = total > 0 ? hit / total : null;
    }
    values.nll = total > 0 ? nll / total : null;
    values.brier = total > 0 ? brier / total : null;
  }
  return values;
}

/** Most resamples one call of {@link aggregateUnitBatch} takes (its scratch is sized for this many). */
export const AGGREGATE_LANES = 4;

/**
 * {@link aggregateClassification} of `L` resamples at once (`counts[l]`, l < L ≤ {@link AGGREGATE_LANES})
 * for unit weights (no weight column) and integer multiplicities, in one walk over the rows: each
 * row's label, prediction and terms are read once for all L resamples, and the L resamples' sums
 * are independent chains the processor overlaps.
 *
 * The per-class sums, the rank histogram and the total are sums of integers, kept in Int32Arrays:
 * exact, so they equal the float64 sums of the weighted path bit for bit (whatever the order), and
 * an integer add is cheaper than a float one on the chains that hit the same class row after row.
 * Σ m·nll and Σ m·brier are float64 sums in row order, one accumulator per resample, as in the
 * weighted path. Needs Σ counts[l] < 2^31 (a resample has as many items as rows).
 */
export function aggregateUnitBatch(
  prep: PreparedClassification,
  counts: readonly Int32Array[],
  L: number,
): ClassificationAggregate[] {
  if (!(L >= 1 && L <= AGGREGATE_LANES && counts.length >= L))
    throw new RangeError(`Expected 1 to ${AGGREGATE_LANES} resamples, but got ${L}.`);
  const { n, C, labels, preds, correct } = prep;
  if (prep.termSums) throw new Error('Expected the per-row terms for resamples, but they were summed while reading.');
  // lane l of class c at [c·4 + l]: the four lanes of a row's class share a cache line
  const S = AGGREGATE_LANES;
  const support = new Int32Array(S * C);
  const predicted = new Int32Array(S * C);
  const correctW = new Int32Array(S * C);
  const rankHist = new Int32Array(S * (C + 1));
  const scored = isScored(prep);
  const trueRank = prep.trueRank ?? new Int32Array(n);
  const nllTerm = prep.nllTerm ?? new Float64Array(n);
  const brierTerm = prep.brierTerm ?? new Float64Array(n);
  // unused lanes walk a zero vector: the loop has no branch on L
  const zero = L < S ? new Int32Array(n) : null;
  const c0 = counts[0];
  const c1 = L > 1 ? counts[1] : zero!;
  const c2 = L > 2 ? counts[2] : zero!;
  const c3 = L > 3 ? counts[3] : zero!;
  let t0 = 0;
  let t1 = 0;
  let t2 = 0;
  let t3 = 0;
  let nll0 = 0;
  let nll1 = 0;
  let nll2 = 0;
  let nll3 = 0;
  let br0 = 0;
  let br1 = 0;
  let br2 = 0;
  let br3 = 0;
  for (let i = 0; i < n; i++) {
    const m0 = c0[i];
    const m1 = c1[i];
    const m2 = c2[i];
    const m3 = c3[i];
    const y = labels[i] << 2;
    const p = preds[i] << 2;
    const ok = -correct[i]; // all bits set when correct: m & ok = m·correct
    support[y] += m0;
    support[y + 1] += m1;
    support[y + 2] += m2;
    support[y + 3] += m3;
    predicted[p] += m0;
    predicted[p + 1] += m1;
    predicted[p + 2] += m2;
    predicted[p + 3] += m3;
    correctW[y] += m0 & ok;
    correctW[y + 1] += m1 & ok;
    correctW[y + 2] += m2 & ok;
    correctW[y + 3] += m3 & ok;
    t0 += m0;
    t1 += m1;
    t2 += m2;
    t3 += m3;
    if (scored) {
      const r = trueRank[i] << 2;
      rankHist[r] += m0;
      rankHist[r + 1] += m1;
      rankHist[r + 2] += m2;
      rankHist[r + 3] += m3;
      const a = nllTerm[i];
      const b = brierTerm[i];
      nll0 += m0 * a;
      nll1 += m1 * a;
      nll2 += m2 * a;
      nll3 += m3 * a;
      br0 += m0 * b;
      br1 += m1 * b;
      br2 += m2 * b;
      br3 += m3 * b;
    }
  }
  const totals = [t0, t1, t2, t3];
  const nlls = [nll0, nll1, nll2, nll3];
  const briers = [br0, br1, br2, br3];
  const out: ClassificationAggregate[] = [];
  for (let l = 0; l < L; l++)
    out.push(
      aggregateOfUnitSums(
        prep,
        { support, correct: correctW, predicted, rankHist },
        S,
        l,
        totals[l],
        nlls[l],
        briers[l],
      ),
    );
  return out;
}

/** Integer class sums of unit-weight resamples: class c of lane l at `[c·stride + l]`. */
export interface UnitClassSums {
  support: Int32Array;
  correct: Int32Array;
  predicted: Int32Array;
  /** Indexed by the true class's rank (0..C). */
  rankHist: Int32Array;
}

/**
 * The {@link ClassificationAggregate} of one resample from its integer class sums (lane `lane` of
 * `sums`), its item count and Σ m·nll, Σ m·Brier — as {@link aggregateClassification} gives it for
 * the same multiplicities (integer sums are exact, so their float64 copies are the same numbers).
 */
export function aggregateOfUnitSums(
  prep: PreparedClassification,
  sums: UnitClassSums,
  stride: number,
  lane: number,
  total: number,
  nll: number,
  brier: number,
): ClassificationAggregate {
  const { C } = prep;
  if (total >= 2 ** 31) throw new RangeError(`Expected fewer than 2^31 items in a resample, but got ${total}.`);
  // A plain loop: Float64Array.from with a mapping function over an array-like object took the
  // engine's generic path: 0.3–0.6% of a bootstrap resample on 100 classes (profiled).
  const pick = (a: Int32Array, len: number): Float64Array => {
    const out = new Float64Array(len);
    for (let c = 0; c < len; c++) out[c] = a[c * stride + lane];
    return out;
  };
  const stats: ClassStats = {
    support: pick(sums.support, C),
    correct: pick(sums.correct, C),
    predicted: pick(sums.predicted, C),
    present: new Uint8Array(C),
    total,
  };
  for (let c = 0; c < C; c++) stats.present[c] = stats.support[c] > 0 || stats.predicted[c] > 0 ? 1 : 0;
  return { values: aggregateValues(prep, stats, pick(sums.rankHist, C + 1), nll, brier), stats };
}

/** Weighted confusion matrix, rows = true class, columns = predicted class (class order). */
export function confusionMatrix(prep: PreparedClassification, counts?: ArrayLike<number> | null): number[][] {
  const { n, C, labels, preds, weights } = prep;
  const flat = new Float64Array(C * C);
  for (let i = 0; i < n; i++) {
    if (counts && counts[i] === 0) continue;
    flat[labels[i] * C + preds[i]] += rowWeight(weights, counts, i);
  }
  const out: number[][] = [];
  for (let r = 0; r < C; r++) out.push(Array.from(flat.subarray(r * C, (r + 1) * C)));
  return out;
}

/** Per-class precision / recall / F1 / accuracy; null where the ratio is 0/0. */
export interface PerClassScores {
  support: number;
  accuracy: number | null;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

/**
 * Per-class scores from the class sums. precision_c = TP/predicted_c, recall_c = acc_c = TP/support_c,
 * F1_c = 2TP/(support_c + predicted_c); each null when its denominator is 0 (the table shows "—"
 * rather than the 0 that `macro_f1` uses).
 */
export function perClassScores(stats: ClassStats): PerClassScores[] {
  const out: PerClassScores[] = [];
  for (let c = 0; c < stats.support.length; c++) {
    const s = stats.support[c];
    const p = stats.predicted[c];
    const tp = stats.correct[c];
    out.push({
      support: s,
      accuracy: s > 0 ? tp / s : null,
      precision: p > 0 ? tp / p : null,
      recall: s > 0 ? tp / s : null,
      f1: s + p > 0 ? (2 * tp) / (s + p) : null,
    });
  }
  return out;
}

/** Classes (indices) that have no test rows with positive total weight. */
export function classesWithoutRows(stats: ClassStats): number[] {
  const out: number[] = [];
  for (let c = 0; c < stats.support.length; c++) if (!(stats.support[c] > 0)) out.push(c);
  return out;
}
