/**
 * The per-row quantities of the class probabilities that the metrics read
 * ({@link ProbabilityTerms}): the NLL, Brier and top-k terms of the classification family
 * (docs/metrics/classification.md) and the confidence score of the selective family
 * (src/core/metrics/scores.ts). The reader sums each row in its own pass over the scores and stores
 * the terms with {@link storeProbabilityTerms} as the row is read (so that the n×C matrix need not
 * be kept); {@link reduceProbabilityRow} computes them from a kept row with the same formulas and
 * the same order of additions, so both give the same bits (the reader's tests compare them).
 *
 * References:
 * - I. J. Good (1952). Rational decisions. Journal of the Royal Statistical Society, Series B 14(1):107–114.
 *   https://doi.org/10.1111/j.2517-6161.1952.tb00104.x
 * - G. W. Brier (1950). Verification of forecasts expressed in terms of probability. Monthly Weather Review
 *   78(1):1–3. https://doi.org/10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 *
 * @see docs/metrics/classification.md — the NLL, Brier and top-k definitions.
 */
import type { ProbabilityTerms } from '../data/classificationData';
import { rowScore, type ScoreKind } from './scores';

/** Probabilities below this are raised to it before the log in `nll` (docs/metrics/classification.md). */
export const NLL_FLOOR = 1e-15;

/**
 * Zero-filled terms for `n` rows. With `summedClasses` (the class count C), the NLL, Brier and rank
 * terms are not kept but added up ({@link ProbabilityTerms.sums}): only the scores take `n` rows.
 */
export function emptyProbabilityTerms(n: number, scoreKind: ScoreKind, summedClasses?: number): ProbabilityTerms {
  const kept = summedClasses === undefined ? n : 0;
  return {
    nllTerm: new Float64Array(kept),
    brierTerm: new Float64Array(kept),
    trueRank: new Int32Array(kept),
    score: new Float64Array(n),
    scoreKind,
    ...(summedClasses === undefined
      ? {}
      : { sums: { nll: 0, brier: 0, rankHist: new Float64Array(summedClasses + 1) } }),
  };
}

/**
 * Row `i`'s terms from its probabilities `P[o … o+C)` and true class `y`, written into `t`.
 * The true class's rank is `1 + #{c : p_c > p_y}`: ties count in the model's favour and do not
 * depend on class order.
 */
export function reduceProbabilityRow(
  P: Float64Array,
  o: number,
  C: number,
  y: number,
  t: ProbabilityTerms,
  i: number,
): void {
  const py = P[o + y];
  let higher = 0;
  let sq = 0;
  for (let c = 0; c < C; c++) {
    const p = P[o + c];
    if (p > py) higher++;
    sq += p * p;
  }
  storeProbabilityTerms(t, i, py, sq, higher, rowScore(P, o, C, t.scoreKind));
}

/**
 * Row `i`'s terms from its true class's probability `py`, the sum of squares `sq` of its
 * probabilities (in class order), the number `higher` of classes above `py` and its `score`
 * (for a reader that computes these in its own pass over the row; same formulas as
 * {@link reduceProbabilityRow}); with {@link ProbabilityTerms.sums}, row `i`'s NLL, Brier and rank
 * are added to the sums instead (call it for the rows in row order, each once).
 */
export function storeProbabilityTerms(
  t: ProbabilityTerms,
  i: number,
  py: number,
  sq: number,
  higher: number,
  score: number,
): void {
  // Σ_c (p_c − 1[c=y])² = Σ p_c² − 2 p_y + 1
  const brier = sq - 2 * py + 1;
  const nll = -Math.log(Math.max(py, NLL_FLOOR));
  const s = t.sums;
  if (s) {
    // Added from 0 in row order, as aggregateClassification adds 1 · term over the rows (the same bits).
    s.brier += brier;
    s.nll += nll;
    s.rankHist[higher + 1]++;
  } else {
    t.brierTerm[i] = brier;
    t.trueRank[i] = higher + 1;
    t.nllTerm[i] = nll;
  }
  t.score[i] = score;
}
