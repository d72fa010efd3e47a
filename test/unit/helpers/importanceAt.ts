/**
 * The importance-weighted family's values from one labelled, scored, weighted sample, for tests:
 * weighted precision, recall, F1 and error rate at one threshold, average precision, the
 * trapezoid area under the PR curve and ROC AUC, each composed from the family's own parts (score
 * order, counts per tied block, the rates at a block, the areas of the curves): the tests check
 * the family's formulas and edge cases through these without the task around them. The
 * evaluation itself computes the same values for every key at once (tasks/iwBinary.ts through
 * `metricVector`).
 */
import {
  blockCounts,
  blocksAtOrAbove,
  countsAtBlocks,
  curveAreas,
  scoreOrder,
  type BlockCounts,
  type ScoreOrder,
} from '../../../src/core/metrics/binaryCurve';
import { thresholdErrorRate, thresholdRates } from '../../../src/core/metrics/importance';

export interface WeightOption {
  /** Sample weights `w_i ≥ 0` (null/absent: all 1). */
  weights?: ArrayLike<number> | null;
}

const orNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/**
 * Checks that scores are finite, labels 0/1, weights finite and ≥ 0, and that the aligned arrays
 * have the same length (the evaluation's reader checks its columns as it reads them).
 */
function checkBinaryInputs(
  labels: ArrayLike<number>,
  scores: ArrayLike<number>,
  weights?: ArrayLike<number> | null,
): void {
  if (labels.length !== scores.length)
    throw new RangeError(
      `Expected \`labels\` and \`scores\` to have the same length, but got ${labels.length} and ${scores.length}.`,
    );
  if (weights && weights.length !== scores.length)
    throw new RangeError(`Expected \`weights\` to have ${scores.length} entries, but got ${weights.length}.`);
  for (let i = 0; i < scores.length; i++) {
    if (!Number.isFinite(scores[i]))
      throw new RangeError(`Expected finite scores, but got ${scores[i]} at index ${i}.`);
    if (labels[i] !== 0 && labels[i] !== 1)
      throw new RangeError(`Expected labels in {0, 1}, but got ${labels[i]} at index ${i}.`);
    if (weights && !(weights[i] >= 0 && Number.isFinite(weights[i])))
      throw new RangeError(`Expected finite non-negative weights, but got ${weights[i]} at index ${i}.`);
  }
}

/** The inputs checked, their score order and the weighted counts per tied score block. */
function curve(
  labels: ArrayLike<number>,
  scores: ArrayLike<number>,
  opts: WeightOption,
): { so: ScoreOrder; c: BlockCounts } {
  checkBinaryInputs(labels, scores, opts.weights ?? null);
  const so = scoreOrder(scores);
  return { so, c: blockCounts(so, labels, opts.weights ?? null) };
}

/** Weighted error rate at threshold t (positive iff s ≥ t; see {@link thresholdErrorRate}); null when Σ w = 0. */
export function errorRateAt(
  labels: ArrayLike<number>,
  scores: ArrayLike<number>,
  opts: WeightOption & { threshold: number },
): number | null {
  const { so, c } = curve(labels, scores, opts);
  return orNull(thresholdErrorRate(countsAtBlocks(c, blocksAtOrAbove(so, opts.threshold))));
}

/** Weighted precision / recall / F1 at threshold t (positive iff s ≥ t); null where undefined (see {@link thresholdRates}). */
export function precisionRecallAt(
  labels: ArrayLike<number>,
  scores: ArrayLike<number>,
  opts: WeightOption & { threshold: number },
): { precision: number | null; recall: number | null; f1: number | null } {
  const { so, c } = curve(labels, scores, opts);
  const r = thresholdRates(countsAtBlocks(c, blocksAtOrAbove(so, opts.threshold)));
  return { precision: orNull(r.precision), recall: orNull(r.recall), f1: orNull(r.f1) };
}

/** A value of the whole curve of one sample (every row); null where it is undefined. */
type SampleValue = (labels: ArrayLike<number>, scores: ArrayLike<number>, opts?: WeightOption) => number | null;

/**
 * Weighted average precision `AP = Σ_k (R_k − R_{k−1})·P_k` over the points of the PR curve (one
 * per distinct score), R_0 = 0 — scikit-learn's `average_precision_score(y, s, sample_weight=w)`.
 * Null when there is no positive weight.
 *
 * @example averagePrecision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]) // (1/2)·1 + (1/2)·(2/3) = 5/6
 */
export const averagePrecision: SampleValue = (labels, scores, opts = {}) =>
  orNull(curveAreas(curve(labels, scores, opts).c).averagePrecision);

/**
 * Trapezoidal area under the weighted PR curve, starting at (recall 0, precision 1) — the
 * usual trapezoid AUPR and scikit-learn's `auc(recall, precision)` on `precision_recall_curve(y, s, sample_weight=w)`.
 * Null when there is no positive weight.
 *
 * @example auprTrapz([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
 *   // (1/2)(1+1)/2 + 0 + (1/2)(1/2+2/3)/2 = 1/2 + 7/24 = 19/24
 */
export const auprTrapz: SampleValue = (labels, scores, opts = {}) =>
  orNull(curveAreas(curve(labels, scores, opts).c).trapezoid);

/**
 * Weighted ROC AUC, ties counted one half: `Σ_{i:y=1} Σ_{j:y=0} w_i w_j (1[s_i > s_j] + ½·1[s_i = s_j]) / (W₊·W₋)`,
 * computed as the trapezoid under the ROC curve — scikit-learn's `roc_auc_score(y, s, sample_weight=w)`.
 * Null when a class has no weight.
 *
 * @example rocAuc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]) // pairs won: (0.9>0.8, 0.9>0.1, 0.7>0.1) = 3/4
 */
export const rocAuc: SampleValue = (labels, scores, opts = {}) =>
  orNull(curveAreas(curve(labels, scores, opts).c).rocAuc);
