/**
 * The per-row values a classification result keeps for paired comparisons (`results.perItem`).
 *
 * A metric gets per-row values when it is the plain mean of one number per row, so that a paired
 * test on rows compares exactly what the metric averages:
 * - `accuracy`: 1[ŷ = y];
 * - `top<k>_accuracy`: 1[rank of the true class ≤ k];
 * - `nll`: −ln max(p_true, 1e-15);
 * - `brier`: Σ_c (p_c − 1[y = c])².
 * Metrics that are not a mean over rows (balanced accuracy, macro-F1, the shot/group accuracies as
 * means over classes, the evolving-distribution metrics, AURC, ECE) have no per-row value: a
 * comparison shows them in the table and says they are not tested. The per-row mean is unweighted;
 * with a `weight` column the metric itself is a weighted mean and the two can differ.
 *
 * The vectors are kept in the order above while rows × keys ≤ {@link PER_ROW_BUDGET}, so a very large
 * file keeps at least `accuracy`.
 */
import type { PreparedClassification } from '../metrics/classification';

/** Maximum number of per-row values kept (rows × keys), as for the ranking task's per-user values. */
export const PER_ROW_BUDGET = 1_000_000;

/** Metric key → per-row values, for the keys present in `metrics`. */
export function classificationPerRow(
  prepared: PreparedClassification,
  metrics: Record<string, unknown>,
): Record<string, number[]> {
  const out: Record<string, number[]> = { accuracy: Array.from(prepared.correct) };
  const candidates: [string, () => number[]][] = [];
  if (prepared.nllTerm) candidates.push(['nll', () => Array.from(prepared.nllTerm!)]);
  if (prepared.brierTerm) candidates.push(['brier', () => Array.from(prepared.brierTerm!)]);
  if (prepared.trueRank) {
    const rank = prepared.trueRank;
    for (const k of prepared.topK)
      candidates.push([`top${k}_accuracy`, () => Array.from(rank, (r) => (r <= k ? 1 : 0))]);
  }
  let kept = prepared.n;
  for (const [key, values] of candidates) {
    if (!(key in metrics) || kept + prepared.n > PER_ROW_BUDGET) continue;
    out[key] = values();
    kept += prepared.n;
  }
  return out;
}
