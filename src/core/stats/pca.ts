/**
 * Principal component analysis to two dimensions (Pearson, "On lines and planes of closest fit to
 * systems of points in space", Philosophical Magazine 2(11), 1901, doi:10.1080/14786440109462720;
 * Jolliffe, Principal Component Analysis, 2nd ed., Springer, 2002, doi:10.1007/b98835).
 *
 * For n rows x_i of dimension d: centre by the column means μ, form the covariance
 * `C = Σ_i (x_i − μ)(x_i − μ)ᵀ / (n − 1)` (d × d), and take its two eigenvectors v₁, v₂ of largest
 * eigenvalue λ₁ ≥ λ₂. A row's coordinates are `((x_i − μ)·v₁, (x_i − μ)·v₂)`; the explained
 * variance is λ₁, λ₂ and its ratio λ_k / trace(C) (the share of the total variance). These are
 * scikit-learn's `PCA(n_components=2)` `explained_variance_`, `explained_variance_ratio_` and
 * `transform(X)`.
 *
 * Eigenvectors come from the cyclic Jacobi eigenvalue method (Golub & Van Loan, Matrix
 * Computations, 4th ed., 2013, §8.5): a fixed sequence of plane rotations, so the same input gives
 * the same output bit for bit. Memory is O(d²) beside the caller's rows, which are read through an
 * accessor twice (means and covariance) plus once per projected row: 50,000 × 64 costs two 64 × 64
 * matrices, never a copy of the data. Time is O(n·d²) for the covariance and O(d³) per sweep.
 *
 * Sign convention: an eigenvector's sign is arbitrary, so each component is flipped to make its
 * entry of largest absolute value positive (the first such entry on a tie) — scikit-learn's
 * `svd_flip(u, v, u_based_decision=False)`, which its PCA applies since version 1.5. Equal
 * eigenvalues (λ₁ = λ₂) leave the plane determined but the two axes within it arbitrary.
 *
 * With d = 1 there is one component: the second coordinate is 0 and its explained variance 0.
 */

/** The result of {@link pca2}. */
export interface Pca2 {
  n: number;
  dim: number;
  /** Column means μ (length d). */
  mean: Float64Array;
  /** Components v₁ then v₂ as unit vectors, row-major 2 × d (v₂ all zeros when d = 1). */
  components: Float64Array;
  explainedVariance: [number, number];
  explainedVarianceRatio: [number, number];
  /** trace(C): the sum of all eigenvalues. */
  totalVariance: number;
  /** Jacobi sweeps used. */
  sweeps: number;
}

export type Pca2Outcome = { ok: true; pca: Pca2 } | { ok: false; reason: string };

/** Reads row `i` into `out` (length d). */
export type RowReader = (i: number, out: Float64Array) => void;

/** Rows fewer than this have no 2-D map: two points span only a line. */
export const PCA_MIN_ROWS = 3;
/** A spread below this fraction of the values' magnitude (root mean square) is rounding: no variance. */
const NO_VARIANCE = 1e-12;
const MAX_SWEEPS = 100;

/**
 * Adds the upper triangle (j ≤ k) of `x xᵀ` to the d × d row-major matrix `a`: summed over rows,
 * half the work of the full outer product for a symmetric sum ({@link scaleUpperAndMirror} ends it).
 */
export function addOuterProductUpper(a: Float64Array, x: Float64Array, d: number): void {
  for (let j = 0; j < d; j++) {
    const xj = x[j];
    const base = j * d;
    for (let k = j; k < d; k++) a[base + k] += xj * x[k];
  }
}

/** Divides the upper triangle of the d × d matrix `a` by `divisor` and copies it into the lower one. */
export function scaleUpperAndMirror(a: Float64Array, d: number, divisor: number): void {
  for (let j = 0; j < d; j++)
    for (let k = j; k < d; k++) {
      a[j * d + k] /= divisor;
      a[k * d + j] = a[j * d + k];
    }
}

/**
 * The two leading principal components of `n` rows of dimension `dim`. A value that is NaN or
 * infinite is refused (RangeError naming the row and column); fewer than {@link PCA_MIN_ROWS}
 * rows or rows that are all equal give `{ ok: false, reason }`.
 */
export function pca2(n: number, dim: number, read: RowReader): Pca2Outcome {
  if (!Number.isInteger(dim) || dim < 1)
    throw new RangeError(`Expected \`dim\` to be a positive integer, but got ${dim}.`);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`Expected \`n\` to be a non-negative integer, but got ${n}.`);
  if (n < PCA_MIN_ROWS)
    return {
      ok: false,
      reason: `${n} item${n === 1 ? ' has' : 's have'} a vector; a 2-D map needs at least ${PCA_MIN_ROWS}.`,
    };
  const row = new Float64Array(dim);
  const mean = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    read(i, row);
    for (let j = 0; j < dim; j++) {
      const v = row[j];
      if (!Number.isFinite(v))
        throw new RangeError(`Expected finite values, but got ${v} in row ${i + 1}, column ${j + 1}.`);
      mean[j] += v;
    }
  }
  for (let j = 0; j < dim; j++) mean[j] /= n;
  // Upper triangle of Σ (x − μ)(x − μ)ᵀ, then mirrored.
  const a = new Float64Array(dim * dim);
  for (let i = 0; i < n; i++) {
    read(i, row);
    for (let j = 0; j < dim; j++) row[j] -= mean[j];
    addOuterProductUpper(a, row, dim);
  }
  scaleUpperAndMirror(a, dim, n - 1);
  let trace = 0;
  let meanSquare = 0;
  for (let j = 0; j < dim; j++) {
    trace += a[j * dim + j];
    meanSquare += mean[j] * mean[j];
  }
  if (!(trace > NO_VARIANCE * NO_VARIANCE * (trace + meanSquare)))
    return {
      ok: false,
      reason: `the ${n} item vectors are all equal: there is no direction of variance to map.`,
    };

  const { values, vectors, sweeps } = jacobiEigen(a, dim);
  // Largest eigenvalue first; equal eigenvalues keep the index order (deterministic).
  const order = Array.from({ length: dim }, (_, j) => j).sort((p, q) => values[q] - values[p] || p - q);
  const components = new Float64Array(2 * dim);
  const explained: [number, number] = [0, 0];
  for (let c = 0; c < Math.min(2, dim); c++) {
    const col = order[c];
    let big = 0;
    for (let j = 1; j < dim; j++) if (Math.abs(vectors[j * dim + col]) > Math.abs(vectors[big * dim + col])) big = j;
    const sign = vectors[big * dim + col] < 0 ? -1 : 1;
    for (let j = 0; j < dim; j++) components[c * dim + j] = sign * vectors[j * dim + col];
    explained[c] = Math.max(0, values[col]);
  }
  return {
    ok: true,
    pca: {
      n,
      dim,
      mean,
      components,
      explainedVariance: explained,
      explainedVarianceRatio: [explained[0] / trace, explained[1] / trace],
      totalVariance: trace,
      sweeps,
    },
  };
}

/** A row's coordinates `((x − μ)·v₁, (x − μ)·v₂)`; `row` is read, not changed. */
export function project(p: Pca2, row: ArrayLike<number>): [number, number] {
  let x = 0;
  let y = 0;
  const d = p.dim;
  for (let j = 0; j < d; j++) {
    const c = row[j] - p.mean[j];
    x += c * p.components[j];
    y += c * p.components[d + j];
  }
  return [x, y];
}

/**
 * Eigenvalues and eigenvectors of a symmetric d × d matrix (row-major, overwritten) by cyclic
 * Jacobi rotations: each rotation zeroes one off-diagonal pair, sweeping p < q in order until the
 * off-diagonal mass is below 1e-30 of the diagonal's (or {@link MAX_SWEEPS}). `vectors` holds the
 * eigenvectors as columns.
 */
export function jacobiEigen(
  a: Float64Array,
  d: number,
): { values: Float64Array; vectors: Float64Array; sweeps: number } {
  const v = new Float64Array(d * d);
  for (let j = 0; j < d; j++) v[j * d + j] = 1;
  let sweeps = 0;
  for (; sweeps < MAX_SWEEPS; sweeps++) {
    let off = 0;
    let diag = 0;
    for (let p = 0; p < d; p++) {
      diag += a[p * d + p] * a[p * d + p];
      for (let q = p + 1; q < d; q++) off += a[p * d + q] * a[p * d + q];
    }
    if (off <= 1e-30 * diag || off === 0) break;
    for (let p = 0; p < d - 1; p++)
      for (let q = p + 1; q < d; q++) {
        const apq = a[p * d + q];
        if (apq === 0) continue;
        const app = a[p * d + p];
        const aqq = a[q * d + q];
        // Rotation angle φ with cot 2φ = θ zeroes a_pq; t = tan φ, the smaller root (|φ| ≤ π/4).
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        // A ← Jᵀ A J with J the rotation in the (p, q) plane: columns, then rows.
        for (let k = 0; k < d; k++) {
          const akp = a[k * d + p];
          const akq = a[k * d + q];
          a[k * d + p] = c * akp - s * akq;
          a[k * d + q] = s * akp + c * akq;
        }
        for (let k = 0; k < d; k++) {
          const apk = a[p * d + k];
          const aqk = a[q * d + k];
          a[p * d + k] = c * apk - s * aqk;
          a[q * d + k] = s * apk + c * aqk;
        }
        a[p * d + q] = 0;
        a[q * d + p] = 0;
        for (let k = 0; k < d; k++) {
          const vkp = v[k * d + p];
          const vkq = v[k * d + q];
          v[k * d + p] = c * vkp - s * vkq;
          v[k * d + q] = s * vkp + c * vkq;
        }
      }
  }
  const values = new Float64Array(d);
  for (let j = 0; j < d; j++) values[j] = a[j * d + j];
  return { values, vectors: v, sweeps };
}
