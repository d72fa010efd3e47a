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
 */
import { EvalLensError } from '../diagnostics';
import type { ClassificationData } from '../data/classificationData';

export type ScoreKind = 'msp' | 'margin' | 'entropy';

/**
 * In-place, numerically stable softmax of each row of a row-major n×C matrix:
 * p_c = exp(z_c − max z) / Σ_k exp(z_k − max z). Huge logits (1e308) do not overflow; a row of
 * equal logits gives 1/C each.
 */
export function softmaxRows(values: Float64Array, C: number, n = Math.floor(values.length / C)): void {
  for (let i = 0; i < n; i++) {
    const o = i * C;
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
}

/** Arg-max per row (first maximum on ties) of a row-major n×C matrix. */
export function argmaxRows(values: Float64Array, C: number, n: number, out = new Int32Array(n)): Int32Array {
  for (let i = 0; i < n; i++) {
    const o = i * C;
    let best = 0;
    let bv = values[o];
    for (let c = 1; c < C; c++) {
      if (values[o + c] > bv) {
        bv = values[o + c];
        best = c;
      }
    }
    out[i] = best;
  }
  return out;
}

/** The confidence score per row (see the module comment for the precedence and definitions). */
export function deriveScores(data: ClassificationData, kind: ScoreKind): Float64Array {
  if (data.scoreColumn) return data.scoreColumn;
  const P = data.probs;
  if (!P) {
    throw new EvalLensError(
      'no-scores',
      `Cannot compute a confidence score for ${data.file}: it has neither class probabilities nor a confidence/score/margin column. Add one of them, or set \`columns.score\` in eval-lens.json.`,
      { file: data.file },
    );
  }
  const n = data.n;
  const C = data.classes.length;
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * C;
    if (kind === 'msp') {
      let m = -Infinity;
      for (let c = 0; c < C; c++) if (P[o + c] > m) m = P[o + c];
      s[i] = m;
    } else if (kind === 'margin') {
      let a = -Infinity;
      let b = -Infinity;
      for (let c = 0; c < C; c++) {
        const v = P[o + c];
        if (v > a) {
          b = a;
          a = v;
        } else if (v > b) b = v;
      }
      s[i] = C > 1 ? a - b : 0;
    } else {
      let h = 0;
      for (let c = 0; c < C; c++) {
        const v = P[o + c];
        if (v > 0) h += v * Math.log(v);
      }
      s[i] = h;
    }
  }
  return s;
}
