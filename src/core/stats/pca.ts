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
 * Up to {@link JACOBI_MAX_DIM} dimensions, the eigenvectors come from the cyclic Jacobi eigenvalue
 * method (Golub & Van Loan, Matrix Computations, 4th ed., 2013, §8.5): a fixed sequence of plane
 * rotations, so the same input gives the same output bit for bit. Memory is O(d²) beside the
 * caller's rows, which are read through an accessor twice (means and covariance) plus once per
 * projected row: 50,000 × 64 costs two 64 × 64 matrices, never a copy of the data. Time is O(n·d²)
 * for the covariance and O(d³) per sweep.
 *
 * Above it (text and image embeddings have 384, 768 or 1,024 dimensions), forming C alone would
 * cost O(n·d²), and its full decomposition O(d³) per sweep, for two of its d eigenvectors. There the
 * two leading eigenpairs come from a block Krylov method that applies C to two vectors per pass
 * over the rows, `C·v = Σ_i (x_i − μ)((x_i − μ)·v) / (n − 1)`, without forming it: the block
 * Davidson method without preconditioning (E. R. Davidson, "The iterative calculation of a few of
 * the lowest eigenvalues and corresponding eigenvectors of large real-symmetric matrices", Journal
 * of Computational Physics 17(1), 1975, doi:10.1016/0021-9991(75)90065-0; with the identity as
 * preconditioner it spans the same space as block Lanczos, Y. Saad, Numerical Methods for Large
 * Eigenvalue Problems, 2nd ed., SIAM, 2011, doi:10.1137/1.9781611970739, ch. 6 and 8). Each pass adds
 * the residuals `C·y − θ·y` of the two leading Ritz pairs, orthogonalised twice against the basis;
 * the basis is restarted from its 16 leading Ritz vectors when it reaches 64. It stops when both
 * residuals are below {@link KRYLOV_TOLERANCE} × θ₁ (the Ritz values are then the eigenvalues to
 * about the square of that, the vectors to about that over the gap to the third eigenvalue), or
 * after {@link KRYLOV_MAX_PASSES} passes with a reason instead of a map. The start vectors come from
 * a fixed seed: the same input gives the same output bit for bit. Memory is O(d) per basis vector;
 * time O(n·d) per pass, with a few tens of passes when the leading eigenvalues stand apart.
 *
 * Sign convention: an eigenvector's sign is arbitrary, so each component is flipped to make its
 * entry of largest absolute value positive (the first such entry on a tie) — scikit-learn's
 * `svd_flip(u, v, u_based_decision=False)`, which its PCA applies since version 1.5. Equal
 * eigenvalues (λ₁ = λ₂) leave the plane determined but the two axes within it arbitrary.
 *
 * With d = 1 there is one component: the second coordinate is 0 and its explained variance 0.
 */
import { createRng } from './rng';

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
  /** Jacobi sweeps used, or, for the Krylov method, passes over the rows that applied C. */
  sweeps: number;
  /** How the eigenpairs were found: the whole covariance ('jacobi') or the Krylov method. */
  method: 'jacobi' | 'krylov';
}

export type Pca2Outcome = { ok: true; pca: Pca2 } | { ok: false; reason: string };

/** Reads row `i` into `out` (length d). */
export type RowReader = (i: number, out: Float64Array) => void;

/** Rows fewer than this have no 2-D map: two points span only a line. */
export const PCA_MIN_ROWS = 3;
/** A spread below this fraction of the values' magnitude (root mean square) is rounding: no variance. */
const NO_VARIANCE = 1e-12;
const MAX_SWEEPS = 100;
/** Above this dimension the two leading eigenpairs come from the Krylov method, not the whole covariance. */
export const JACOBI_MAX_DIM = 256;
/** Both residual norms ‖C·y − θ·y‖ at or below this multiple of θ₁: the Krylov method has converged. */
export const KRYLOV_TOLERANCE = 1e-11;
/**
 * Passes over the rows after which the Krylov method gives up (no map rather than a rough one).
 * Isotropic Gaussian vectors, whose leading eigenvalues differ only by sampling noise (the slowest
 * case met), took 57 passes (100,000 × 300) and 69 (20,000 × 400); the bound keeps a case that
 * never converges from holding the evaluation for minutes.
 */
export const KRYLOV_MAX_PASSES = 300;
const BASIS_MAX = 64;
const BASIS_KEPT = 16;
/** The fixed seed of the Krylov method's start vectors. */
const KRYLOV_SEED = 20261125;

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
 * The two leading principal components of `n` rows of dimension `dim`. `opts.method` chooses the
 * method instead of the dimension (tests compare the two); `opts.maxPasses` bounds the Krylov
 * method's passes ({@link KRYLOV_MAX_PASSES} unless given). A value that is NaN or
 * infinite is refused (RangeError naming the row and column); fewer than {@link PCA_MIN_ROWS}
 * rows or rows that are all equal give `{ ok: false, reason }`.
 *
 * Values of any finite size: when the largest |value| is outside [2^-400, 2^400], the rows are
 * divided by a power of two near it before any square is taken (exact), so that 1e200 or 1e-170
 * does not overflow or underflow; the variances are scaled back, and a variance beyond the range of
 * a double gives `{ ok: false, reason }`.
 */
export function pca2(
  n: number,
  dim: number,
  read: RowReader,
  opts: { method?: 'jacobi' | 'krylov'; maxPasses?: number } = {},
): Pca2Outcome {
  if (!Number.isInteger(dim) || dim < 1)
    throw new RangeError(`Expected \`dim\` to be a positive integer, but got ${dim}.`);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`Expected \`n\` to be a non-negative integer, but got ${n}.`);
  if (n < PCA_MIN_ROWS)
    return {
      ok: false,
      reason: `${n} item${n === 1 ? ' has' : 's have'} a vector; a 2-D map needs at least ${PCA_MIN_ROWS}.`,
    };
  const row = new Float64Array(dim);
  let max = 0;
  for (let i = 0; i < n; i++) {
    read(i, row);
    for (let j = 0; j < dim; j++) {
      const v = row[j];
      if (!Number.isFinite(v))
        throw new RangeError(`Expected finite values, but got ${v} in row ${i + 1}, column ${j + 1}.`);
      max = Math.max(max, Math.abs(v));
    }
  }
  const s = max > 2 ** 400 || (max > 0 && max < 2 ** -400) ? powerOfTwoBelow(max) : 1;
  if (s === 1) return pca2Scaled(n, dim, read, opts);
  const out = pca2Scaled(
    n,
    dim,
    (i, r) => {
      read(i, r);
      for (let j = 0; j < dim; j++) r[j] /= s;
    },
    opts,
  );
  if (!out.ok) return out;
  const p = out.pca;
  for (let j = 0; j < dim; j++) p.mean[j] *= s;
  const explained: [number, number] = [p.explainedVariance[0] * s * s, p.explainedVariance[1] * s * s];
  const total = p.totalVariance * s * s;
  if (!Number.isFinite(total))
    return {
      ok: false,
      reason: `the item vectors are too large to map (values up to ${max.toPrecision(3)}): their variance is beyond the range of a double.`,
    };
  return { ok: true, pca: { ...p, explainedVariance: explained, totalVariance: total } };
}

/** The largest power of two ≤ x (x > 0 and finite). */
function powerOfTwoBelow(x: number): number {
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  else if (2 ** (e + 1) <= x) e++;
  return 2 ** e;
}

/** {@link pca2} on values of moderate size. */
function pca2Scaled(
  n: number,
  dim: number,
  read: RowReader,
  opts: { method?: 'jacobi' | 'krylov'; maxPasses?: number },
): Pca2Outcome {
  const row = new Float64Array(dim);
  const mean = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    read(i, row);
    for (let j = 0; j < dim; j++) mean[j] += row[j];
  }
  for (let j = 0; j < dim; j++) mean[j] /= n;
  if ((opts.method ?? (dim > JACOBI_MAX_DIM ? 'krylov' : 'jacobi')) === 'krylov')
    return leadingByKrylov(n, dim, read, mean, opts.maxPasses ?? KRYLOV_MAX_PASSES);
  // Upper triangle of Σ (x − μ)(x − μ)ᵀ, then mirrored.
  const a = new Float64Array(dim * dim);
  for (let i = 0; i < n; i++) {
    read(i, row);
    for (let j = 0; j < dim; j++) row[j] -= mean[j];
    addOuterProductUpper(a, row, dim);
  }
  scaleUpperAndMirror(a, dim, n - 1);
  let trace = 0;
  for (let j = 0; j < dim; j++) trace += a[j * dim + j];
  const flat = noVariance(n, trace, mean);
  if (flat) return flat;

  const { values, vectors, sweeps } = jacobiEigen(a, dim);
  // Largest eigenvalue first; equal eigenvalues keep the index order (deterministic).
  const order = Array.from({ length: dim }, (_, j) => j).sort((p, q) => values[q] - values[p] || p - q);
  const components = new Float64Array(2 * dim);
  const explained: [number, number] = [0, 0];
  for (let c = 0; c < Math.min(2, dim); c++) {
    const col = order[c];
    const v = new Float64Array(dim);
    for (let j = 0; j < dim; j++) v[j] = vectors[j * dim + col];
    components.set(signFlipped(v), c * dim);
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
      explainedVarianceRatio: varianceRatios(explained, trace),
      totalVariance: trace,
      sweeps,
      method: 'jacobi',
    },
  };
}

/**
 * The outcome when the rows do not vary: trace(C) is rounding next to the values' magnitude (their
 * root mean square about 0, from the means), else null.
 */
function noVariance(n: number, trace: number, mean: Float64Array): Pca2Outcome | null {
  let meanSquare = 0;
  for (let j = 0; j < mean.length; j++) meanSquare += mean[j] * mean[j];
  if (trace > NO_VARIANCE * NO_VARIANCE * (trace + meanSquare)) return null;
  return { ok: false, reason: `the ${n} item vectors are all equal: there is no direction of variance to map.` };
}

/**
 * λ_k / trace(C), at most 1: an eigenvalue never exceeds the trace of a covariance, but when the
 * vectors lie on a line λ₁ equals it and rounding can put it an ulp above (1.0000000000000002 would
 * make a results file fail its own schema).
 */
function varianceRatios(explained: [number, number], trace: number): [number, number] {
  return [Math.min(1, explained[0] / trace), Math.min(1, explained[1] / trace)];
}

/** The unit vector `v` made to have its entry of largest absolute value positive (the first on a tie). */
function signFlipped(v: Float64Array): Float64Array {
  let big = 0;
  for (let j = 1; j < v.length; j++) if (Math.abs(v[j]) > Math.abs(v[big])) big = j;
  if (v[big] < 0) for (let j = 0; j < v.length; j++) v[j] = -v[j];
  return v;
}

/**
 * `out[b] = C·vs[b]` for the covariance C of the rows (centred by `mean`) and one or two vectors,
 * in one pass over the rows: each row's centred values x give `(x·v_b)·x`, summed, then ÷ (n − 1).
 * Both vectors' dot products, then both updates, share one loop over the row each.
 */
function applyCovariance(
  n: number,
  d: number,
  read: RowReader,
  mean: Float64Array,
  vs: Float64Array[],
): Float64Array[] {
  const out = vs.map(() => new Float64Array(d));
  const row = new Float64Array(d);
  const v0 = vs[0];
  const v1 = vs.length > 1 ? vs[1] : new Float64Array(d);
  const o0 = out[0];
  const o1 = vs.length > 1 ? out[1] : new Float64Array(d);
  for (let i = 0; i < n; i++) {
    read(i, row);
    let dot0 = 0;
    let dot1 = 0;
    for (let j = 0; j < d; j++) {
      const x = row[j] - mean[j];
      row[j] = x;
      dot0 += x * v0[j];
      dot1 += x * v1[j];
    }
    for (let j = 0; j < d; j++) {
      const x = row[j];
      o0[j] += dot0 * x;
      o1[j] += dot1 * x;
    }
  }
  for (const o of out) for (let j = 0; j < d; j++) o[j] /= n - 1;
  return out;
}

/** Removes from `v` its components along the orthonormal `basis` (twice: one pass loses orthogonality); returns ‖v‖ after. */
function orthogonalise(v: Float64Array, basis: readonly Float64Array[]): number {
  for (let pass = 0; pass < 2; pass++)
    for (const q of basis) {
      let dot = 0;
      for (let j = 0; j < v.length; j++) dot += q[j] * v[j];
      for (let j = 0; j < v.length; j++) v[j] -= dot * q[j];
    }
  let norm = 0;
  for (let j = 0; j < v.length; j++) norm += v[j] * v[j];
  return Math.sqrt(norm);
}

/** Σ_k s[k]·vs[k] for the coefficients in column `col` of the m × m row-major `s`. */
function combine(vs: readonly Float64Array[], s: Float64Array, m: number, col: number, d: number): Float64Array {
  const out = new Float64Array(d);
  for (let k = 0; k < vs.length; k++) {
    const c = s[k * m + col];
    if (c === 0) continue;
    const v = vs[k];
    for (let j = 0; j < d; j++) out[j] += c * v[j];
  }
  return out;
}

/** The two leading eigenpairs of the covariance by the block Krylov method described in the module comment. */
function leadingByKrylov(n: number, d: number, read: RowReader, mean: Float64Array, maxPasses: number): Pca2Outcome {
  // trace(C) = Σ_j var_j, from the centred values.
  const row = new Float64Array(d);
  let trace = 0;
  for (let i = 0; i < n; i++) {
    read(i, row);
    for (let j = 0; j < d; j++) trace += (row[j] - mean[j]) ** 2;
  }
  trace /= n - 1;
  const flat = noVariance(n, trace, mean);
  if (flat) return flat;

  const rng = createRng(KRYLOV_SEED);
  const randomUnit = (basis: readonly Float64Array[]): Float64Array | null => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const v = new Float64Array(d);
      for (let j = 0; j < d; j++) v[j] = rng.next() - 0.5;
      const norm = orthogonalise(v, basis);
      if (norm > 1e-8) {
        for (let j = 0; j < d; j++) v[j] /= norm;
        return v;
      }
    }
    return null;
  };
  let basis: Float64Array[] = [];
  let applied: Float64Array[] = []; // C·basis[k]
  let block: Float64Array[] = [];
  for (let b = 0; b < Math.min(2, d); b++) block.push(randomUnit(block)!);
  let passes = 0;
  // H = Qᵀ C Q (symmetrised against rounding) by rows; the entries of vectors already in the basis
  // stay valid until a restart replaces the basis, so each pass computes only the new vectors' ones.
  let hRows: number[][] = [];
  for (;;) {
    const cBlock = applyCovariance(n, d, read, mean, block);
    passes++;
    const known = hRows.length;
    basis = basis.concat(block);
    applied = applied.concat(cBlock);
    const m = basis.length;
    for (let a = 0; a < m; a++) {
      if (a >= known) hRows.push(new Array<number>(m).fill(0));
      else for (let b = hRows[a].length; b < m; b++) hRows[a].push(0);
      for (let b = Math.max(a, known); b < m; b++) {
        let x = 0;
        let y = 0;
        for (let j = 0; j < d; j++) {
          x += basis[a][j] * applied[b][j];
          y += basis[b][j] * applied[a][j];
        }
        hRows[a][b] = (x + y) / 2;
      }
    }
    // Rayleigh–Ritz: the eigenpairs of H by Jacobi.
    const h = new Float64Array(m * m);
    for (let a = 0; a < m; a++) for (let b = a; b < m; b++) h[a * m + b] = h[b * m + a] = hRows[a][b];
    const { values, vectors } = jacobiEigen(h, m);
    const order = Array.from({ length: m }, (_, j) => j).sort((p, q) => values[q] - values[p] || p - q);
    const wanted = Math.min(2, d);
    const ritz: Float64Array[] = [];
    const residuals: Float64Array[] = [];
    let converged = true;
    for (let c = 0; c < wanted; c++) {
      const col = order[c];
      const y = combine(basis, vectors, m, col, d);
      const r = combine(applied, vectors, m, col, d);
      let norm = 0;
      for (let j = 0; j < d; j++) {
        r[j] -= values[col] * y[j];
        norm += r[j] * r[j];
      }
      ritz.push(y);
      residuals.push(r);
      if (Math.sqrt(norm) > KRYLOV_TOLERANCE * Math.max(values[order[0]], 0)) converged = false;
    }
    if (converged || m >= d) {
      const components = new Float64Array(2 * d);
      const explained: [number, number] = [0, 0];
      for (let c = 0; c < wanted; c++) {
        // Ritz vectors of an orthonormal basis are unit vectors up to rounding: normalise them.
        let norm = 0;
        for (let j = 0; j < d; j++) norm += ritz[c][j] * ritz[c][j];
        const v = ritz[c].map((x) => x / Math.sqrt(norm));
        components.set(signFlipped(v), c * d);
        explained[c] = Math.max(0, values[order[c]]);
      }
      return {
        ok: true,
        pca: {
          n,
          dim: d,
          mean,
          components,
          explainedVariance: explained,
          explainedVarianceRatio: varianceRatios(explained, trace),
          totalVariance: trace,
          sweeps: passes,
          method: 'krylov',
        },
      };
    }
    if (passes >= maxPasses)
      return {
        ok: false,
        reason: `the two leading principal components of the ${n} item vectors (${d} dimensions) did not converge in ${maxPasses} passes over them.`,
      };
    if (m + 2 > BASIS_MAX && m < d) {
      // Thick restart: the leading Ritz vectors keep what the basis has learnt, and C times them
      // is known without a pass (the same combination of the applied vectors).
      const keep = Math.min(BASIS_KEPT, m);
      const oldBasis = basis;
      const oldApplied = applied;
      basis = [];
      applied = [];
      hRows = [];
      for (let c = 0; c < keep; c++) {
        basis.push(combine(oldBasis, vectors, m, order[c], d));
        applied.push(combine(oldApplied, vectors, m, order[c], d));
      }
    }
    block = [];
    for (const r of residuals) {
      let before = 0;
      for (let j = 0; j < d; j++) before += r[j] * r[j];
      const norm = orthogonalise(r, basis.concat(block));
      if (norm > 1e-6 * Math.sqrt(before)) {
        for (let j = 0; j < d; j++) r[j] /= norm;
        block.push(r);
      }
    }
    // Residuals that vanish into the basis (an invariant subspace) are replaced by fresh directions.
    while (block.length < 2 && basis.length + block.length < d) {
      const v = randomUnit(basis.concat(block));
      if (v === null) break;
      block.push(v);
    }
    if (block.length === 0)
      return {
        ok: false,
        reason: `the two leading principal components of the ${n} item vectors (${d} dimensions) could not be computed: no new direction to search was found.`,
      };
  }
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
