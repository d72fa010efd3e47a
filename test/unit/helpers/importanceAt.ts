/**
 * Weighted precision, recall, F1 and error rate at one threshold for tests, composed from the
 * importance-weighted family's own parts (score order, counts per tied block, the rates at a
 * block): the tests check the family's formulas and edge cases through these without the task
 * around them. The evaluation itself computes the same rates in tasks/iwBinary.ts.
 */
import {
  blockCounts,
  blocksAtOrAbove,
  checkBinaryInputs,
  countsAtBlocks,
  scoreOrder,
} from '../../../src/core/metrics/binaryCurve';
import { thresholdErrorRate, thresholdRates, type WeightOption } from '../../../src/core/metrics/importance';

const orNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** Weighted error rate at threshold t (positive iff s ≥ t; see {@link thresholdErrorRate}); null when Σ w = 0. */
export function errorRateAt(
  labels: ArrayLike<number>,
  scores: ArrayLike<number>,
  opts: WeightOption & { threshold: number },
): number | null {
  checkBinaryInputs(labels, scores, opts.weights ?? null);
  const so = scoreOrder(scores);
  const c = blockCounts(so, labels, opts.weights ?? null);
  return orNull(thresholdErrorRate(countsAtBlocks(c, blocksAtOrAbove(so, opts.threshold))));
}

/** Weighted precision / recall / F1 at threshold t (positive iff s ≥ t); null where undefined (see {@link thresholdRates}). */
export function precisionRecallAt(
  labels: ArrayLike<number>,
  scores: ArrayLike<number>,
  opts: WeightOption & { threshold: number },
): { precision: number | null; recall: number | null; f1: number | null } {
  checkBinaryInputs(labels, scores, opts.weights ?? null);
  const so = scoreOrder(scores);
  const c = blockCounts(so, labels, opts.weights ?? null);
  const r = thresholdRates(countsAtBlocks(c, blocksAtOrAbove(so, opts.threshold)));
  return { precision: orNull(r.precision), recall: orNull(r.recall), f1: orNull(r.f1) };
}
