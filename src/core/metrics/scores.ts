/**
 * Confidence scores and the softmax of docs/inputs.md.
 *
 * Precedence: a `confidence`/`score`/`margin` column, when the file has one, IS the score (whatever
 * `kind` asks for); otherwise the score is derived from the class probabilities by `kind`:
 * - `msp`: max_c p_c (the default);
 * - `margin`: top-1 minus top-2 probability (0 for a single class);
 * - `entropy`: the NEGATIVE entropy Σ_c p_c ln p_c (terms with p_c ≤ 0 count 0), so that higher
 *   means more confident like the other two.
 * Probabilities are used as written (never renormalised).
 *
 * References:
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500 (the softmax response,
 *   max_c p_c, as the confidence of a selective classifier)
 *
 * @see docs/metrics/selective.md — how the score is chosen and used.
 */
import { EvalLensError } from '../diagnostics';
import type { ClassificationData, ScoreKind } from '../data/classificationData';

export type { ScoreKind } from '../data/classificationData';

/**
 * In-place, numerically stable softmax of the row `values[o … o+C)`:
 * p_c = exp(z_c − max z) / Σ_k exp(z_k − max z). Huge logits (1e308) do not overflow; a row of
 * equal logits gives 1/C each.
 */
export function softmaxRow(values: Float64Array, o: number, C: number): void {
  let max = -Infinity;
  for (let c = 0; c < C; c++) if (values[o + c] > max) max = values[o + c];
  let sum = 0;
  for (let c = 0; c < C; c++) {
    const e = Math.exp(values[o + c] - max);
    values[o + c] = e;
    sum += e;
  }
  for (let c = 0; c < C; c++) values[o + c] /= sum;
}

/** The score of `kind` of the probability row `P[o … o+C)` (see the module comment). */
export function rowScore(P: Float64Array, o: number, C: number, kind: ScoreKind): number {
  if (kind === 'msp') {
    let m = -Infinity;
    for (let c = 0; c < C; c++) if (P[o + c] > m) m = P[o + c];
    return m;
  }
  if (kind === 'margin') {
    let a = -Infinity;
    let b = -Infinity;
    for (let c = 0; c < C; c++) {
      const v = P[o + c];
      if (v > a) {
        b = a;
        a = v;
      } else if (v > b) b = v;
    }
    return C > 1 ? a - b : 0;
  }
  let h = 0;
  for (let c = 0; c < C; c++) {
    const v = P[o + c];
    if (v > 0) h += v * Math.log(v);
  }
  return h;
}

/**
 * The confidence score per row (see the module comment for the precedence and definitions): the
 * scores computed while reading when they are of `kind`, else from the probability matrix.
 */
export function deriveScores(data: ClassificationData, kind: ScoreKind): Float64Array {
  if (data.scoreColumn) return data.scoreColumn;
  if (data.probTerms?.scoreKind === kind) return data.probTerms.score;
  const P = data.probs;
  if (!P) {
    if (data.probTerms)
      throw new Error(
        `the ${kind} scores of ${data.file} were not computed while reading (${data.probTerms.scoreKind} was) and the probabilities were not kept`,
      );
    throw new EvalLensError(
      'no-scores',
      `Cannot compute a confidence score for ${data.file}: it has neither class probabilities nor a confidence/score/margin column. Add one of them, or set \`columns.score\` in eval-lens.json.`,
      { file: data.file },
    );
  }
  const n = data.n;
  const C = data.classes.length;
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) s[i] = rowScore(P, i * C, C, kind);
  return s;
}
