/**
 * The operating-point table behind the threshold explorer: for every point of the exact
 * risk–coverage curve (one point per distinct score, "accept s ≥ threshold"), the accepted row
 * count, the error of each group and the ECE of the accepted rows. These columns sit beside the
 * curve's coverage and risks in the results, so a report can show any operating point exactly,
 * by reading it, without computing anything.
 *
 * Group errors follow {@link exactRiskCoverage} (the plain sample-weighted ratio, 1.0 for a group
 * with nothing accepted), so their mean and max are the curve's balanced and worst risk.
 *
 * References:
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 * - S. Sagawa, P. W. Koh, T. B. Hashimoto, P. Liang (2020). Distributionally Robust Neural Networks for Group
 *   Shifts: On the Importance of Regularization for Worst-Case Generalization. International Conference on Learning
 *   Representations (ICLR). https://arxiv.org/abs/1911.08731
 * - M. P. Naeini, G. F. Cooper, M. Hauskrecht (2015). Obtaining Well Calibrated Probabilities Using Bayesian
 *   Binning. Proc. AAAI Conference on Artificial Intelligence 29(1):2901–2907.
 *   https://doi.org/10.1609/aaai.v29i1.9602
 * - C. Guo, G. Pleiss, Y. Sun, K. Q. Weinberger (2017). On Calibration of Modern Neural Networks. International
 *   Conference on Machine Learning (ICML), PMLR 70:1321–1330. https://arxiv.org/abs/1706.04599
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
import { eceBinIndex } from './calibration';
import { groupError } from './riskCoverage';
import type { SortedRows } from './sortedRows';

export interface OperatingPointColumns {
  /** Rows accepted at each point (score ≥ the point's threshold). */
  accepted: Float64Array;
  /** Error per group (`[g][point]`); empty without groups. */
  groupError: Float64Array[];
  /** ECE of the accepted rows at each point (NaN when their mass is 0); null when `eceBins` is null. */
  ece: Float64Array | null;
}

/**
 * The extra columns of every point of the exact curve, aligned with {@link exactRiskCoverage}
 * (without multiplicities: one point per tied block). O(n + blocks·(G + 1)) after the sort.
 *
 * ECE of the accepted rows uses the binning of `ece` (B equal-width bins (lo, hi], an edge value in
 * the lower bin, a confidence of 0 in no bin but counted in the mass): the accepted rows are the
 * rows of highest confidence, so every bin above the bin of the point's threshold is complete and
 * only that bin is partial. With `D_b` = Σ_{i∈b} w_i·(1[correct_i] − conf_i) of the complete bins
 * and `d` the partial bin's running sum, `ECE = (Σ_{complete b} |D_b| + |d|) / W_accepted`,
 * updated in O(1) per row.
 *
 * @example conf [0.9, 0.7, 0.7, 0.2], correct [1, 0, 1, 1], B = 2, bins (0, .5], (.5, 1]:
 *   point t = 0.9: |1 − 0.9|/1 = 0.1; t = 0.7: |(1 − 0.9) + (0 − 0.7) + (1 − 0.7)|/3 = 0.3/3 = 0.1;
 *   t = 0.2: (|−0.3| + |1 − 0.2|)/4 = 0.275.
 *
 * With `points` (increasing point indices), the columns hold only those points, in that order (as
 * {@link exactRiskCoverage} with the same points).
 */
export function operatingPointColumns(
  rows: SortedRows,
  eceBins: number | null,
  points: ArrayLike<number> | null = null,
): OperatingPointColumns {
  const { blockStart, wrong, group, nGroups: G, score } = rows;
  const w = rows.weight;
  const nb = blockStart.length - 1;
  const len = points ? points.length : nb;
  const accepted = new Float64Array(len);
  const gErr = Array.from({ length: G }, () => new Float64Array(len));
  const ece = eceBins === null ? null : new Float64Array(len);
  let j = 0; // the points stored so far
  const gW = new Float64Array(G);
  const gE = new Float64Array(G);
  let W = 0;
  // ECE state: sum of |D_b| over the closed bins, the open bin and its running sum
  let closed = 0;
  let openBin = Number.NaN;
  let open = 0;
  for (let b = 0; b < nb; b++) {
    for (let p = blockStart[b]; p < blockStart[b + 1]; p++) {
      const wm = w ? w[p] : 1;
      W += wm;
      const g = G > 0 ? group[p] : -1;
      if (g >= 0) {
        gW[g] += wm;
        if (wrong[p]) gE[g] += wm;
      }
      if (eceBins !== null) {
        const bin = eceBinIndex(score[p], eceBins);
        if (bin < 0) continue; // in no bin: counts in W only
        if (bin !== openBin) {
          closed += Math.abs(open);
          open = 0;
          openBin = bin;
        }
        open += wm * (1 - wrong[p] - score[p]);
      }
    }
    if (points && points[j] !== b) continue;
    accepted[j] = blockStart[b + 1];
    for (let g = 0; g < G; g++) gErr[g]![j] = groupError(gE[g], gW[g]);
    if (ece) ece[j] = W > 0 ? (closed + Math.abs(open)) / W : NaN;
    j++;
  }
  return { accepted, groupError: gErr, ece };
}
