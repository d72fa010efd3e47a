/**
 * Rejection-cost sweep by Chow's rule (docs/metrics/selective.md). With error cost 1 and rejection cost
 * c, the Bayes-optimal rule for a calibrated top-label probability s rejects when s < 1 − c; so for
 * each c in `costGrid` we accept s ≥ 1 − c and record the coverage, the risks and Chow's loss
 * `(error mass + c · rejected mass) / total mass`.
 *
 * For scores that are not probabilities (margin, negative entropy, an unbounded score column) 1 − c
 * has no meaning; the grid then spans the observed score range linearly, t(c) = s_max − c·(s_max − s_min),
 * so c = 0 accepts only the top score and c = 1 accepts every row — the same end points as 1 − c on
 * [0, 1].
 *
 * A "sweep" that subtracts c from every margin and then cuts at the quantile for a fixed target
 * coverage is not a sweep: it
 * shifts all scores by the same c, which
 * moves the quantile by the same c, so every c accepts the same rows and gives the same point.
 *
 * References:
 * - C. K. Chow (1970). On optimum recognition error and reject tradeoff. IEEE Transactions on Information Theory
 *   16(1):41–46. https://doi.org/10.1109/TIT.1970.1054406
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
import { setGroupRisks } from './riskCoverage';
import { thresholdEnd } from './selective';
import type { SortedRows } from './sortedRows';

/** The default grid: 81 evenly spaced costs in [0, 1] (0, 0.0125, …, 1). */
export function defaultCostGrid(): number[] {
  return Array.from({ length: 81 }, (_, i) => i / 80);
}

export interface CostSweepResult {
  cost: Float64Array;
  threshold: Float64Array;
  coverage: Float64Array;
  /** NaN where nothing is accepted. */
  risk: Float64Array;
  riskBalanced: Float64Array;
  riskWorst: Float64Array;
  /** Chow's expected loss: (error mass + c · rejected mass) / total mass. */
  loss: Float64Array;
}

/**
 * Sweeps `costs` (each in [0, 1]). `probability` selects t = 1 − c; otherwise t spans the score
 * range (see the module comment). O(n + K·(log n + G)).
 *
 * @example probabilities [0.9, 0.7, 0.4], wrong [0, 1, 1], c = 0.25 → t = 0.75, one row accepted:
 *   coverage 1/3, risk 0, loss (0 + 0.25·2)/3 = 1/6.
 */
export function costSweep(rows: SortedRows, costs: readonly number[], opts: { probability: boolean }): CostSweepResult {
  const K = costs.length;
  const n = rows.n;
  const sMax = n > 0 ? rows.score[0] : NaN;
  const sMin = n > 0 ? rows.score[n - 1] : NaN;
  const threshold = new Float64Array(K);
  const ends = new Int32Array(K);
  for (let k = 0; k < K; k++) {
    const c = costs[k];
    if (!(c >= 0 && c <= 1)) throw new RangeError(`Expected every \`costGrid\` value in [0, 1], but got ${c}.`);
    const t = opts.probability ? 1 - c : c === 1 ? sMin : sMax - c * (sMax - sMin);
    threshold[k] = t;
    ends[k] = thresholdEnd(rows, t);
  }
  const byEnd = Array.from({ length: K }, (_, k) => k).sort((a, b) => ends[a] - ends[b]);
  const G = rows.nGroups;
  const w = rows.weight;
  let W = 0;
  for (let p = 0; p < n; p++) W += w ? w[p] : 1;
  const gA = new Float64Array(G);
  const gE = new Float64Array(G);
  const out: CostSweepResult = {
    cost: Float64Array.from(costs),
    threshold,
    coverage: new Float64Array(K),
    risk: new Float64Array(K),
    riskBalanced: new Float64Array(K),
    riskWorst: new Float64Array(K),
    loss: new Float64Array(K),
  };
  let p = 0;
  let WA = 0;
  let EA = 0;
  for (const k of byEnd) {
    for (; p < ends[k]; p++) {
      const wm = w ? w[p] : 1;
      WA += wm;
      if (rows.wrong[p]) EA += wm;
      const g = G > 0 ? rows.group[p] : -1;
      if (g >= 0) {
        gA[g] += wm;
        if (rows.wrong[p]) gE[g] += wm;
      }
    }
    out.coverage[k] = W > 0 ? WA / W : NaN;
    out.risk[k] = WA > 0 ? EA / WA : NaN;
    out.loss[k] = W > 0 ? (EA + costs[k] * (W - WA)) / W : NaN;
    setGroupRisks(gE, gA, G, out.riskBalanced, out.riskWorst, k);
  }
  return out;
}
