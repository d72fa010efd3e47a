/**
 * Importance-weighted binary evaluation under selection bias (docs/metrics/importance.md; Horvitz & Thompson 1952).
 *
 * A labelled set is the union of `B` (every row a biased process selected, or a sample of them)
 * and `Bc` (a uniform sample of the rest of the population `U`). Each row gets the weight of the
 * population share it stands for, so that weighted precision, recall and curves estimate their
 * values on `U`:
 *
 *   w_B  = (|B| / b) / |U|,    w_Bc = ((|U| − |B|) / m) / |U|
 *
 * with b B-rows and m Bc-rows in the file. Σ w = |B|/|U| + (|U|−|B|)/|U| = 1. Every metric here is
 * a ratio of weighted sums, so the overall scale of the weights does not matter; with all weights
 * equal each one is its unweighted value.
 *
 * The sort order by score is computed once ({@link ScoreOrder}); {@link metricVector} evaluates
 * every key from it for any weights (the bootstrap passes weights × multiplicities).
 *
 * References:
 * - D. G. Horvitz, D. J. Thompson (1952). A Generalization of Sampling Without Replacement From a Finite Universe.
 *   Journal of the American Statistical Association 47(260):663–685. https://doi.org/10.1080/01621459.1952.10483446
 * - M. Sugiyama, M. Krauledat, K.-R. Müller (2007). Covariate Shift Adaptation by Importance Weighted Cross
 *   Validation. Journal of Machine Learning Research 8:985–1005. https://jmlr.org/papers/v8/sugiyama07a.html
 * - J. Davis, M. Goadrich (2006). The relationship between Precision-Recall and ROC curves. International Conference
 *   on Machine Learning (ICML), 233–240. https://doi.org/10.1145/1143844.1143874
 * - C. D. Manning, P. Raghavan, H. Schütze (2008). Introduction to Information Retrieval, chapter 8: Evaluation in
 *   information retrieval. Cambridge University Press. https://nlp.stanford.edu/IR-book/
 * - T. Fawcett (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8):861–874.
 *   https://doi.org/10.1016/j.patrec.2005.10.010
 * - F. Pedregosa et al. (2011). Scikit-learn: Machine Learning in Python. Journal of Machine Learning Research
 *   12:2825–2830. https://jmlr.org/papers/v12/pedregosa11a.html
 *
 * @see docs/metrics/importance.md — the definitions, conventions and worked examples.
 */
import {
  allocBlockCounts,
  blockCounts,
  countsAtBlocks,
  curveAreas,
  type BlockCounts,
  type ScoreOrder,
  type ThresholdCounts,
} from './binaryCurve';

/** The metric keys of the family, in display order (the stable metric keys of src/core/glossary). */
export const IW_KEYS = [
  'precision',
  'recall',
  'f1',
  'aupr_trapz',
  'average_precision',
  'roc_auc',
  'error_rate',
] as const;
export type IwKey = (typeof IW_KEYS)[number];

export interface StratumSizes {
  /** |U|, the population size (`populationSize`). */
  populationSize: number;
  /** |B|, the size of the biased set (`biasedSize`). */
  biasedSize: number;
  /** B-rows in the file. */
  b: number;
  /** Bc-rows in the file. */
  m: number;
}

/**
 * Per-stratum importance weights `w_B = (|B|/b)/|U|`, `w_Bc = ((|U|−|B|)/m)/|U|`. A stratum with
 * no rows gets weight 0 (it weights nothing). The caller has checked the sizes
 * (see `checkStratumSizes` in the loader).
 *
 * @example stratumWeights({ populationSize: 1000, biasedSize: 100, b: 100, m: 50 })
 *   // → { wB: 0.001, wBc: 0.018 }   (100/100/1000, 900/50/1000)
 */
export function stratumWeights(s: StratumSizes): { wB: number; wBc: number } {
  const U = s.populationSize;
  return {
    wB: s.b > 0 ? s.biasedSize / s.b / U : 0,
    wBc: s.m > 0 ? (U - s.biasedSize) / s.m / U : 0,
  };
}

/**
 * Weighted precision, recall and F1 at a threshold (positive iff `s ≥ t`):
 * `precision = Σ w·1[y=1, s≥t] / Σ w·1[s≥t]` (NaN when no positive prediction),
 * `recall = Σ w·1[y=1, s≥t] / Σ w·1[y=1]` (NaN without positives),
 * `f1 = 2·TP / (2·TP + FP + FN)` on the weighted counts — the harmonic mean of precision and
 * recall where both are defined, and 0 when there are positives but no positive prediction
 * (scikit-learn ≥ 1.3 computes F from these counts the same way); NaN when TP + FP + FN = 0.
 */
export function thresholdRates(k: ThresholdCounts): { precision: number; recall: number; f1: number } {
  const predicted = k.tp + k.fp;
  const positives = k.tp + k.fn;
  const fDen = 2 * k.tp + k.fp + k.fn;
  return {
    precision: predicted > 0 ? k.tp / predicted : NaN,
    recall: positives > 0 ? k.tp / positives : NaN,
    f1: fDen > 0 ? (2 * k.tp) / fDen : NaN,
  };
}

/**
 * Weighted error rate at a threshold (predicted positive iff `s ≥ t`):
 * `(FP_w + FN_w) / (TP_w + FP_w + FN_w + TN_w)` = `Σ w·1[ŷ ≠ y] / Σ w` = 1 − weighted accuracy —
 * scikit-learn's `1 − accuracy_score(y, ŷ, sample_weight=w)`. With stratum weights that add up to
 * 1 it is the plug-in estimate `w_B·Σ_B 1[ŷ ≠ y] + w_Bc·Σ_Bc 1[ŷ ≠ y]` of the population error;
 * NaN when every weight is 0.
 *
 * @example TP 2, FP 1, FN 1, TN 4 (weights 1) → (1 + 1)/8 = 0.25
 */
export function thresholdErrorRate(k: ThresholdCounts): number {
  const total = k.tp + k.fp + k.fn + k.tn;
  return total > 0 ? (k.fp + k.fn) / total : NaN;
}

/**
 * Every key of {@link IW_KEYS} (in that order) for one weight vector, NaN where undefined.
 * `nAbove` = {@link blocksAtOrAbove}(so, threshold). `scratch` is reused when given, and the
 * values are written into `out` when given (its first IW_KEYS.length elements).
 */
export function metricVector(
  so: ScoreOrder,
  labels: ArrayLike<number>,
  weights: ArrayLike<number> | null,
  nAbove: number,
  scratch?: BlockCounts,
  out: Float64Array = new Float64Array(IW_KEYS.length),
): Float64Array {
  fillFromCounts(blockCounts(so, labels, weights, scratch), nAbove, out, 0);
  return out;
}

/**
 * Every key for the weighted and the unweighted case from one pass over rows laid out in score
 * order, for the bootstrap: `counts[p]` is the multiplicity of the row at sorted position `p`, so
 * the weights of a resample are `w × counts` and the sort order is never recomputed. Returns
 * `[...weighted IW_KEYS, ...unweighted IW_KEYS]` (NaN where undefined), reusing one buffer.
 */
export interface SortedResampler {
  /** Stratum of each sorted position (pass to the bootstrap), or null. */
  strata: Int32Array | null;
  /** The bootstrap passes Int32 multiplicities (stats/resampleDraws.ts); tests may pass Float64. */
  stat(counts: Int32Array | Float64Array): Float64Array;
}

export function sortedResampler(
  so: ScoreOrder,
  labels: ArrayLike<number>,
  weights: ArrayLike<number>,
  strata: Int32Array | null,
  nAbove: number,
): SortedResampler {
  const n = so.order.length;
  const y = new Uint8Array(n);
  const w = new Float64Array(n);
  const st = strata ? new Int32Array(n) : null;
  for (let p = 0; p < n; p++) {
    const i = so.order[p];
    y[p] = labels[i];
    w[p] = weights[i];
    if (st) st[p] = strata![i];
  }
  const cw = allocBlockCounts(so);
  const cu = allocBlockCounts(so);
  const K = IW_KEYS.length;
  const out = new Float64Array(2 * K);
  const { blockStart, nBlocks } = so;
  return {
    strata: st,
    stat(counts: Int32Array | Float64Array): Float64Array {
      let tpW = 0;
      let fpW = 0;
      let tpU = 0;
      let fpU = 0;
      for (let b = 0; b < nBlocks; b++) {
        let liveW = 0;
        let liveU = 0;
        for (let p = blockStart[b], end = blockStart[b + 1]; p < end; p++) {
          const c = counts[p];
          if (c === 0) continue;
          const e = w[p] * c;
          liveU = 1;
          if (e !== 0) liveW = 1;
          if (y[p] === 1) {
            tpW += e;
            tpU += c;
          } else {
            fpW += e;
            fpU += c;
          }
        }
        cw.tp[b] = tpW;
        cw.fp[b] = fpW;
        cw.live[b] = liveW;
        cu.tp[b] = tpU;
        cu.fp[b] = fpU;
        cu.live[b] = liveU;
      }
      fillFromCounts(cw, nAbove, out, 0);
      fillFromCounts(cu, nAbove, out, K);
      return out;
    },
  };
}

/** Writes the IW_KEYS values for counts `c` into `out` from `offset`. */
function fillFromCounts(c: BlockCounts, nAbove: number, out: Float64Array, offset: number): void {
  const k = countsAtBlocks(c, nAbove);
  const r = thresholdRates(k);
  out[offset] = r.precision;
  out[offset + 1] = r.recall;
  out[offset + 2] = r.f1;
  const areas = curveAreas(c);
  out[offset + 3] = areas.trapezoid;
  out[offset + 4] = areas.averagePrecision;
  out[offset + 5] = areas.rocAuc;
  out[offset + 6] = thresholdErrorRate(k);
}
