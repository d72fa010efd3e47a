/**
 * The item map of a ranking report (`tables.itemMap`): every item with a vector — its embedding
 * (`itemEmbeddings`, as written in the file, not normalised) or, without embeddings, its row of
 * the factor model's item matrix (`itemFactors`) — projected on the first two principal components
 * of all those vectors (see stats/pca.ts for the method and its sign convention).
 *
 * Item factors are first multiplied by `M = (UᵀU / m)^{1/2}` (U the m × d user factors; the
 * symmetric square root, from the eigen decomposition of UᵀU / m): then the distance between two
 * items is the root mean square difference of their scores over the m users,
 * `‖(v_i − v_j) M‖² = Σ_u (U[u]·v_i − U[u]·v_j)² / m`, whatever split of the scores between U and V
 * the model used. (A truncated SVD's item factors V = Q have orthonormal columns: their rows alone
 * have the same variance in every direction, and a map of them would be one arbitrary projection.)
 *
 * The principal components are computed on every item with a vector; the results keep at most
 * {@link ITEM_MAP_LIMIT} of them so that a results file stays small: when there are more, the items
 * recommended to the most evaluated users in their top K (largest K) come first, then the items with
 * the most train interactions, then the order of first appearance. Each kept item carries its
 * coordinates, how many evaluated users have it in their top K, its popularity — its train count
 * (with `train`), or its value in the `items` table's `itemPopularity` column when that is set (then
 * also in the order above) — and its category and name from the `items` table when it has such
 * columns.
 *
 * References:
 * - K. Pearson (1901). On lines and planes of closest fit to systems of points in space. Philosophical
 *   Magazine 2(11), 559–572. https://doi.org/10.1080/14786440109462720
 * - I. T. Jolliffe (2002). Principal Component Analysis, 2nd ed. Springer. https://doi.org/10.1007/b98835
 *
 * @see docs/metrics/ranking.md — the item map: vectors, method, sign rule, cap and warnings.
 */
import type { RankedLists } from '../../data/rankingData';
import {
  addOuterProductUpper,
  JACOBI_MAX_DIM,
  jacobiEigen,
  pca2,
  project,
  scaleUpperAndMirror,
  type Pca2,
} from '../../stats/pca';

/** Items kept in the results' map at most (about 100 bytes each in the JSON). */
export const ITEM_MAP_LIMIT = 5000;
/**
 * Embeddings longer than this get no map. Above 256 dimensions the principal components come from
 * a Krylov method whose passes over the items cost O(items × d) each (stats/pca.ts): 20,000 × 768
 * took 1.9 s in 13 passes.
 */
export const ITEM_MAP_MAX_DIM = 4096;
/**
 * Item factors longer than this get no map: their score metric `(UᵀU / m)^{1/2}` needs every
 * eigenpair of a d × d matrix (Jacobi rotations, O(d³) per sweep: 256 takes about 1.5 s).
 */
export const FACTOR_MAP_MAX_DIM = JACOBI_MAX_DIM;

/** The first two principal components' variances and shares are the PCA's ({@link Pca2}). */
export interface ItemMapTable extends Pick<Pca2, 'explainedVariance' | 'explainedVarianceRatio'> {
  /** Where the vectors come from: the config key and the file as named there. */
  source: 'itemEmbeddings' | 'itemFactors';
  file: string;
  dim: number;
  /** Items with a vector: the principal components are computed on all of them. */
  itemsWithVectors: number;
  /** The cutoff of `recommended` (the largest K). */
  k: number;
  limit: number;
  /** Kept items (at most `limit`), in order of first appearance in the evaluation. */
  ids: string[];
  x: number[];
  y: number[];
  /** Evaluated users with the item in their top K. */
  recommended: number[];
  /**
   * The item's popularity: its train interactions (with `train`), or with `popularityColumn` its
   * value in that column of the `items` table (`itemPopularity`; 0 without a value).
   */
  popularity?: number[];
  /** The `items` table's column that `popularity` comes from (`itemPopularity`); absent: train counts. */
  popularityColumn?: string;
  /** The `items` table's category column and each item's cell (null: none). */
  categoryColumn?: string;
  categories?: (string | null)[];
  /** The `items` table's name column and each item's cell (null: none). */
  nameColumn?: string;
  names?: (string | null)[];
}

export interface ItemMapInput {
  source: ItemMapTable['source'];
  file: string;
  dim: number;
  /** Items of the evaluation, by index. */
  itemIds: readonly string[];
  /** 1 where item index i has a vector (length ≥ the highest index with one). */
  has: (i: number) => boolean;
  /** Writes item i's vector into `out` (length `dim`). */
  vector: (i: number, out: Float64Array) => void;
  lists: RankedLists;
  /** Indices into `lists` of the evaluated users. */
  evaluated: Int32Array;
  k: number;
  /** Train count per item index (absent: no train file). */
  trainCounts?: Int32Array;
  /** The `items` table's `itemPopularity` column per item index: used instead of `trainCounts`. */
  itemPopularity?: { column: string; values: Float64Array };
  category?: { column: string; of: (id: string) => string | undefined };
  name?: { column: string; of: (id: string) => string | undefined };
  limit?: number;
}

/**
 * `(UᵀU / m)^{1/2}` of the m × d user factors (row-major d × d), accumulated row by row: O(d²) memory.
 * Factors whose largest |value| is outside [2^-400, 2^400] are divided by a power of two s near it
 * first (exact), and the root multiplied by s after, so that UᵀU of factors around 1e200 does not
 * overflow: `(UᵀU / m)^{1/2} = s · ((U/s)ᵀ(U/s) / m)^{1/2}`.
 */
export function scoreMetric(u: { rows: number; cols: number; data: ArrayLike<number> }): Float64Array {
  const d = u.cols;
  let max = 0;
  for (let p = 0; p < u.rows * d; p++) max = Math.max(max, Math.abs(u.data[p]));
  const s = max > 2 ** 400 || (max > 0 && max < 2 ** -400) ? 2 ** Math.floor(Math.log2(max)) : 1;
  const g = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let r = 0; r < u.rows; r++) {
    for (let j = 0; j < d; j++) row[j] = u.data[r * d + j] / s;
    addOuterProductUpper(g, row, d);
  }
  scaleUpperAndMirror(g, d, Math.max(1, u.rows));
  const { values, vectors } = jacobiEigen(g, d);
  // M = W diag(√λ) Wᵀ (λ < 0 only by rounding: clipped to 0).
  const m = new Float64Array(d * d);
  for (let j = 0; j < d; j++)
    for (let k = 0; k < d; k++) {
      let sum = 0;
      for (let e = 0; e < d; e++) sum += vectors[j * d + e] * Math.sqrt(Math.max(0, values[e])) * vectors[k * d + e];
      m[j * d + k] = sum * s;
    }
  return m;
}

/** `out = v M` for a row vector v (length d) and the d × d matrix M of {@link scoreMetric}. */
export function applyMetric(v: ArrayLike<number>, m: Float64Array, d: number, out: Float64Array): void {
  for (let k = 0; k < d; k++) {
    let sum = 0;
    for (let j = 0; j < d; j++) sum += v[j] * m[j * d + k];
    out[k] = sum;
  }
}

export type ItemMapOutcome = { ok: true; table: ItemMapTable; pca: Pca2 } | { ok: false; reason: string };

/** The item metadata column holding a display name, if any: `name` or `title` (case-insensitive). */
export function nameColumn(columns: readonly string[]): string | null {
  for (const want of ['name', 'title']) {
    const c = columns.find((h) => h.toLowerCase() === want);
    if (c !== undefined) return c;
  }
  return null;
}

export function itemMap(input: ItemMapInput): ItemMapOutcome {
  const nItems = input.itemIds.length;
  const withVector: number[] = [];
  for (let i = 0; i < nItems; i++) if (input.has(i)) withVector.push(i);
  const fit = pca2(withVector.length, input.dim, (r, out) => input.vector(withVector[r], out));
  if (!fit.ok) return fit;
  const pca = fit.pca;

  // Distinct items of each evaluated user's top K (a repeated item counts once per user).
  const recommended = new Int32Array(nItems);
  const stamp = new Int32Array(nItems);
  const { lists, evaluated, k } = input;
  for (let e = 0; e < evaluated.length; e++) {
    const j = evaluated[e];
    const end = Math.min(lists.offsets[j + 1], lists.offsets[j] + k);
    for (let p = lists.offsets[j]; p < end; p++) {
      const it = lists.items[p];
      if (it < 0 || it >= nItems || stamp[it] === e + 1) continue;
      stamp[it] = e + 1;
      recommended[it]++;
    }
  }
  const limit = input.limit ?? ITEM_MAP_LIMIT;
  const counts = input.itemPopularity?.values ?? input.trainCounts;
  let kept = withVector;
  if (kept.length > limit) {
    const pop = (i: number): number => (counts && i < counts.length ? counts[i] : 0);
    kept = [...withVector]
      .sort((a, b) => recommended[b] - recommended[a] || pop(b) - pop(a) || a - b)
      .slice(0, limit)
      .sort((a, b) => a - b);
  }
  const row = new Float64Array(input.dim);
  const x: number[] = [];
  const y: number[] = [];
  for (const i of kept) {
    input.vector(i, row);
    const [px, py] = project(pca, row);
    x.push(px);
    y.push(py);
  }
  const ids = kept.map((i) => input.itemIds[i]);
  const table: ItemMapTable = {
    source: input.source,
    file: input.file,
    dim: input.dim,
    itemsWithVectors: withVector.length,
    explainedVariance: pca.explainedVariance,
    explainedVarianceRatio: pca.explainedVarianceRatio,
    k,
    limit,
    ids,
    x,
    y,
    recommended: kept.map((i) => recommended[i]),
  };
  if (counts) table.popularity = kept.map((i) => (i < counts.length ? counts[i] : 0));
  if (input.itemPopularity) table.popularityColumn = input.itemPopularity.column;
  if (input.category) {
    const of = input.category.of;
    table.categoryColumn = input.category.column;
    table.categories = ids.map((id) => nonEmpty(of(id)));
  }
  if (input.name) {
    const of = input.name.of;
    table.nameColumn = input.name.column;
    table.names = ids.map((id) => nonEmpty(of(id)));
  }
  return { ok: true, table, pca };
}

function nonEmpty(v: string | undefined): string | null {
  return v === undefined || v.trim() === '' ? null : v;
}
