/**
 * Selective classification at one operating point (docs/metrics/selective.md):
 * which rows are accepted, and `coverage`, `selective_risk`, `error_group.<g>`, `balanced_error`,
 * `worst_error`, plus the group-analysis table. Everything runs over {@link SortedRows}; since
 * "accept s ≥ t" is a prefix of the descending order, a threshold-based acceptance is just the
 * prefix length `end`.
 *
 * References:
 * - C. K. Chow (1970). On optimum recognition error and reject tradeoff. IEEE Transactions on Information Theory
 *   16(1):41–46. https://doi.org/10.1109/TIT.1970.1054406
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 * - K. H. Brodersen, C. S. Ong, K. E. Stephan, J. M. Buhmann (2010). The balanced accuracy and its posterior
 *   distribution. Proc. 20th International Conference on Pattern Recognition (ICPR), 3121–3124.
 *   https://doi.org/10.1109/ICPR.2010.764
 * - S. Sagawa, P. W. Koh, T. B. Hashimoto, P. Liang (2020). Distributionally Robust Neural Networks for Group
 *   Shifts: On the Importance of Regularization for Worst-Case Generalization. International Conference on Learning
 *   Representations (ICLR). https://arxiv.org/abs/1911.08731
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
import type { Multiplicities, SortedRows } from './sortedRows';

/** One row of the selective group-analysis table (docs/metrics/selective.md). */
export interface GroupAnalysisRow {
  group: string;
  size: number;
  coverage: number | null;
  error: number | null;
  tpr: number | null;
  fpr: number | null;
  scoreMean: number | null;
  scoreStd: number | null;
  scoreMin: number | null;
  scoreMax: number | null;
  /** Mean score of the group's accepted rows (null: none accepted, or no scores). */
  scoreMeanAccepted?: number | null;
  /** Mean score of the group's rejected rows (null: none rejected, or no scores). */
  scoreMeanRejected?: number | null;
  /** Separation of accepted from rejected rows: scoreMeanAccepted − scoreMeanRejected. */
  scoreGap?: number | null;
  /** With `reweight`: the group's error with every row at its sample weight (no train reweighting). */
  errorUniform?: number | null;
  /** With `reweight`: the group's error reweighted to the train distribution, e_g(w^trn) (= `error`). */
  errorReweighted?: number | null;
}

/** Accepted rows: the first `end` sorted positions, or an explicit mask over sorted positions. */
export type Acceptance = { kind: 'prefix'; end: number } | { kind: 'mask'; mask: Uint8Array };

/** Relative tolerance when comparing a coverage with `targetCoverage` (float sums of weights). */
export const COVERAGE_TOLERANCE = 1e-12;

/** Prefix accepted by a fixed threshold: every row with `s ≥ t`. */
export function thresholdEnd(rows: SortedRows, t: number): number {
  const s = rows.score;
  let lo = 0;
  let hi = rows.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid] >= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `targetCoverage` c: walk rows by descending score, take the shortest prefix whose (weighted)
 * coverage reaches c (within {@link COVERAGE_TOLERANCE}), let t = the score of its last row and
 * accept every s ≥ t — so a tied block is taken whole and the coverage may exceed c.
 * Returns the prefix end and t (`end` 0 and t NaN when there is no mass).
 *
 * @example scores [0.9, 0.8, 0.8, 0.8, 0.1], c = 0.5 → the prefix reaching 0.5 ends at the
 *   third row (score 0.8), t = 0.8, four rows accepted: coverage 0.8.
 */
export function targetCoverageEnd(
  rows: SortedRows,
  c: number,
  mult: Multiplicities | null = null,
): { end: number; threshold: number } {
  if (!(c > 0 && c <= 1)) throw new RangeError(`Expected \`targetCoverage\` in (0, 1], but got ${c}.`);
  const w = rows.weight;
  const bs = rows.blockStart;
  let W = 0;
  for (let p = 0; p < rows.n; p++) W += (w ? w[p] : 1) * (mult ? mult[p] : 1);
  if (!(W > 0)) return { end: 0, threshold: NaN };
  const goal = c * W * (1 - COVERAGE_TOLERANCE);
  let cum = 0;
  for (let b = 0; b + 1 < bs.length; b++) {
    for (let p = bs[b]; p < bs[b + 1]; p++) cum += (w ? w[p] : 1) * (mult ? mult[p] : 1);
    if (cum >= goal && cum > 0) return { end: bs[b + 1], threshold: rows.score[bs[b]] };
  }
  return { end: rows.n, threshold: rows.score[rows.n - 1] };
}

export interface OperatingPoint {
  /** Σ w·A / Σ w (NaN when Σ w = 0). */
  coverage: number;
  /** Σ w·A·wrong / Σ w·A (NaN when nothing is accepted). */
  risk: number;
  /** `error_group.<g>` per group index. */
  groupError: Float64Array;
  /** Groups with no accepted row (error set to 1.0). NaN errors are groups of train share 0 (reweight). */
  emptyGroups: number[];
  /** Mean of the group errors (NaN without groups). */
  balanced: number;
  /** Max of the group errors (NaN without groups). */
  worst: number;
}

export interface OperatingPointOptions {
  /**
   * Use the rows' `groupWeight` (w^trn) for the group errors, as `e_g(w) = Σ w·wrong·A / (Σ w·A + ε)`
   * (train-frequency reweighting). Without it the group error is the plain ratio with the sample weights.
   */
  reweight?: boolean;
  /** ε of the reweighted group error (default 1e-12). */
  epsilon?: number;
}

/**
 * Metrics at one acceptance. A group with no accepted row (no accepted sample-weight mass) gets
 * error 1.0 (nothing accepted counts as a total failure, also when `reweight` is on, where the formula alone would give 0);
 * with `reweight`, a group whose accepted rows all have train share 0 is NaN (0/ε would be a silent
 * 0; the same rule as `weighted_error_group.<g>`). O(n).
 *
 * @example CIFAR-100-LT head/tail, 10 accepted rows, train weights n_y/N_train (reweight): head 0.117/0.247 = 0.4737,
 *   tail 0.0017/0.0030 = 0.5667.
 */
export function operatingPoint(
  rows: SortedRows,
  acc: Acceptance,
  mult: Multiplicities | null = null,
  opts: OperatingPointOptions = {},
): OperatingPoint {
  const { wrong, group, nGroups: G } = rows;
  const w = rows.weight;
  const gwArr = opts.reweight ? (rows.groupWeight ?? w) : w;
  const eps = opts.reweight ? (opts.epsilon ?? 1e-12) : 0;
  const mask = acc.kind === 'mask' ? acc.mask : null;
  const end = acc.kind === 'prefix' ? acc.end : rows.n;
  let W = 0;
  let WA = 0;
  let EA = 0;
  const gA = new Float64Array(G);
  const gE = new Float64Array(G);
  const gS = new Float64Array(G);
  for (let p = 0; p < rows.n; p++) {
    const c = mult ? mult[p] : 1;
    if (c === 0) continue;
    const wm = (w ? w[p] : 1) * c;
    W += wm;
    const accepted = mask ? mask[p] === 1 : p < end;
    if (!accepted) continue;
    WA += wm;
    if (wrong[p]) EA += wm;
    const g = G > 0 ? group[p] : -1;
    if (g >= 0) {
      const gm = (gwArr ? gwArr[p] : 1) * c;
      gS[g] += wm;
      gA[g] += gm;
      if (wrong[p]) gE[g] += gm;
    }
  }
  const groupError = new Float64Array(G);
  const emptyGroups: number[] = [];
  let sum = 0;
  let mx = -Infinity;
  for (let g = 0; g < G; g++) {
    let e: number;
    if (!(gS[g] > 0)) {
      e = 1.0;
      emptyGroups.push(g);
    } else if (opts.reweight) e = gA[g] > 0 ? gE[g] / (gA[g] + eps) : NaN;
    else e = gE[g] / gA[g];
    groupError[g] = e;
    sum += e;
    if (e > mx) mx = e;
  }
  return {
    coverage: W > 0 ? WA / W : NaN,
    risk: WA > 0 ? EA / WA : NaN,
    groupError,
    emptyGroups,
    balanced: G > 0 ? sum / G : NaN,
    worst: G > 0 && Number.isFinite(sum) ? mx : NaN,
  };
}

/**
 * The group-analysis table: per group of the true class,
 * size (rows), coverage, error (the `error_group.<g>` value passed in), TPR = accepted∧correct /
 * correct, FPR = accepted∧wrong / wrong (sample-weighted; null when 0/0), and score mean, standard
 * deviation (n − 1, as torch's default `std`; null below 2 rows), min, max over all the group's rows,
 * then the separation of accepted from rejected rows: the mean score of the group's accepted rows,
 * of its rejected rows, and the gap = accepted mean − rejected mean (null when either side has no
 * row). Every score statistic is null when the file has no score (`hasScores` false: the rows'
 * scores are placeholders).
 */
export function groupAnalysis(
  rows: SortedRows,
  acc: Acceptance,
  groupNames: readonly string[],
  groupErrors: ArrayLike<number>,
  hasScores = true,
): GroupAnalysisRow[] {
  const G = rows.nGroups;
  const w = rows.weight;
  const mask = acc.kind === 'mask' ? acc.mask : null;
  const end = acc.kind === 'prefix' ? acc.end : rows.n;
  // Per group: rows, weight and accepted weight, correct and wrong weight (all, accepted), the
  // scores' sum, accepted rows, and the accepted and rejected rows' score sums.
  const [size, mass, massA, corr, corrA, wr, wrA, sSum, nA, sSumA, sSumR] = Array.from(
    { length: 11 },
    () => new Float64Array(G),
  );
  const sMin = new Float64Array(G).fill(Infinity);
  const sMax = new Float64Array(G).fill(-Infinity);
  for (let p = 0; G > 0 && p < rows.n; p++) {
    const g = rows.group[p];
    if (g < 0) continue;
    const wm = w ? w[p] : 1;
    const a = mask ? mask[p] === 1 : p < end;
    const s = rows.score[p];
    size[g]++;
    mass[g] += wm;
    sSum[g] += s;
    if (s < sMin[g]) sMin[g] = s;
    if (s > sMax[g]) sMax[g] = s;
    if (a) {
      massA[g] += wm;
      nA[g]++;
      sSumA[g] += s;
    } else sSumR[g] += s;
    if (rows.wrong[p]) {
      wr[g] += wm;
      if (a) wrA[g] += wm;
    } else {
      corr[g] += wm;
      if (a) corrA[g] += wm;
    }
  }
  const sSq = new Float64Array(G);
  for (let p = 0; G > 0 && p < rows.n; p++) {
    const g = rows.group[p];
    if (g < 0) continue;
    const d = rows.score[p] - sSum[g] / size[g];
    sSq[g] += d * d;
  }
  const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
  const out: GroupAnalysisRow[] = [];
  for (let g = 0; g < G; g++) {
    const has = hasScores && size[g] > 0;
    const nR = size[g] - nA[g];
    const meanA = hasScores && nA[g] > 0 ? sSumA[g] / nA[g] : null;
    const meanR = hasScores && nR > 0 ? sSumR[g] / nR : null;
    out.push({
      group: groupNames[g] ?? `g${g + 1}`,
      size: size[g],
      coverage: ratio(massA[g], mass[g]),
      error: Number.isFinite(groupErrors[g]) ? groupErrors[g] : null,
      tpr: ratio(corrA[g], corr[g]),
      fpr: ratio(wrA[g], wr[g]),
      scoreMean: has ? sSum[g] / size[g] : null,
      scoreStd: hasScores && size[g] > 1 ? Math.sqrt(sSq[g] / (size[g] - 1)) : null,
      scoreMin: has ? sMin[g] : null,
      scoreMax: has ? sMax[g] : null,
      scoreMeanAccepted: meanA,
      scoreMeanRejected: meanR,
      scoreGap: meanA !== null && meanR !== null ? meanA - meanR : null,
    });
  }
  return out;
}
