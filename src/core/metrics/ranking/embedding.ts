/**
 * Embedding-based list metrics (docs/metrics/ranking.md):
 *
 * - `diversity@K` (intra-list diversity): per user, `1 − mean_{i<j} cos(x_i, x_j)` over the
 *   items of L_u[:K] that have an embedding (Ziegler et al. 2005); mean over users.
 *   Computed in O(K·d) per user with `Σ_{i≠j} x̂_i·x̂_j = ‖Σ x̂_i‖² − m` for m unit vectors, so the
 *   mean pairwise cosine is `(‖Σ x̂_i‖² − m) / (m(m − 1))`. A user with fewer than two such
 *   items has no diversity (NaN, left out of the mean; returning 0 there, as some code does, would
 *   reward a list of one item as "not diverse" and bias the mean — a warning counts them).
 * - `alignment@K`: per user, the mean cosine between the user's profile vector and each item of
 *   L_u[:K] that has an embedding (content-based profile matching), computed as
 *   `û · Σ x̂_i / m`. The profile is the `userEmbeddings` vector; without user embeddings (or for a
 *   user without one) and with train interactions, the normalised mean of the unit embeddings of
 *   the user's train items (a profile from the items the user interacted with).
 *   A user with no profile or no embedded item in its top K has no alignment (NaN).
 *
 * @example
 *   // x_a = (1, 0), x_b = (0, 1), x_c = (1, 1)/√2, L = [a, b, c]:
 *   // cos(a,b) = 0, cos(a,c) = cos(b,c) = 1/√2 → diversity@3 = 1 − (2/√2)/3 ≈ 0.52860
 *
 * References:
 * - C.-N. Ziegler, S. M. McNee, J. A. Konstan, G. Lausen (2005). Improving recommendation lists through topic
 *   diversification. Proc. 14th International World Wide Web Conference (WWW), 22–32.
 *   https://doi.org/10.1145/1060745.1060754
 * - P. Lops, M. de Gemmis, G. Semeraro (2011). Content-based Recommender Systems: State of the Art and Trends.
 *   Recommender Systems Handbook, Springer, 73–105. https://doi.org/10.1007/978-0-387-85820-3_3
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
 */
import type { Embeddings, TrainData } from '../../data/rankingData';
import { ListAccumulator } from './listAccumulator';

export interface EmbeddingMetricsResult {
  /** `diversity@K` per evaluated user (NaN where undefined). */
  diversity: Record<string, Float64Array>;
  /** `alignment@K` per evaluated user, or null when no profile can be formed at all. */
  alignment: Record<string, Float64Array> | null;
  /** How profiles were formed: counts of users with a given vector / a train-derived one / none. */
  profiles: { given: number; fromTrain: number; none: number };
  /** Top-maxK slots whose item has no usable embedding. */
  missingSlots: number;
  /** Per K: users whose diversity is undefined (fewer than two embedded items). */
  diversityUndefined: number[];
}

interface EmbeddingOptions {
  ks: number[];
  items: Embeddings;
  users: Embeddings | null;
  train: TrainData | null;
}

/**
 * The embedding metrics gathered one evaluated list at a time, in the order of the lists (see
 * AccuracyAccumulator in ./accuracy).
 */
export class EmbeddingAccumulator extends ListAccumulator {
  private readonly diversity: Record<string, Float64Array> = {};
  private readonly divCols: Float64Array[];
  private readonly alignment: Record<string, Float64Array> | null;
  private readonly alCols: Float64Array[];
  private readonly sum: Float64Array;
  private readonly prof: Float64Array;
  private readonly profiles = { given: 0, fromTrain: 0, none: 0 };
  private readonly diversityUndefined: number[];
  private missingSlots = 0;

  constructor(
    nEval: number,
    private readonly opts: EmbeddingOptions,
  ) {
    const ks = [...opts.ks].sort((a, b) => a - b);
    super(nEval, ks);
    const diversity = this.diversity;
    this.divCols = ks.map((k) => (diversity[`diversity@${k}`] = new Float64Array(nEval)));
    const canProfile = opts.users !== null || opts.train !== null;
    const alignment: Record<string, Float64Array> | null = (this.alignment = canProfile ? {} : null);
    this.alCols = alignment ? ks.map((k) => (alignment[`alignment@${k}`] = new Float64Array(nEval))) : [];
    this.sum = new Float64Array(opts.items.dim);
    this.prof = new Float64Array(opts.items.dim);
    this.diversityUndefined = ks.map(() => 0);
  }

  /** Adds the next evaluated list: user `u`, its slots `items[l0 .. l0 + len)`. */
  add(u: number, items: Int32Array, l0: number, len: number): void {
    const { opts, ks, sum, prof, profiles, alignment, divCols, alCols } = this;
    const { dim, unit, present } = opts.items;
    const e = this.n++;
    let hasProfile = false;
    if (alignment) {
      hasProfile = profileOf(u, opts, prof);
      if (!hasProfile) profiles.none++;
      else if (opts.users && u < opts.users.present.length && opts.users.present[u]) profiles.given++;
      else profiles.fromTrain++;
    }
    sum.fill(0);
    let m = 0;
    let dotProfile = 0;
    // Slot by slot up to each cutoff; past the end of the list nothing changes, so a user costs
    // O(list length + number of cutoffs), not O(max K) (K may be far above every list).
    let i = 0;
    for (let kj = 0; kj < ks.length; kj++) {
      const end = ks[kj] < len ? ks[kj] : len;
      for (; i < end; i++) {
        const it = items[l0 + i];
        if (it >= 0) {
          if (it < present.length && present[it]) {
            const base = it * dim;
            let dp = 0;
            for (let q = 0; q < dim; q++) {
              const x = unit[base + q];
              sum[q] += x;
              dp += x * prof[q];
            }
            dotProfile += dp;
            m++;
          } else this.missingSlots++;
        }
      }
      if (m >= 2) {
        let ss = 0;
        for (let q = 0; q < dim; q++) ss += sum[q] * sum[q];
        divCols[kj][e] = 1 - (ss - m) / (m * (m - 1));
      } else {
        divCols[kj][e] = NaN;
        this.diversityUndefined[kj]++;
      }
      if (alignment) alCols[kj][e] = hasProfile && m > 0 ? dotProfile / m : NaN;
    }
  }

  /** The embedding metrics once every evaluated list has been added. */
  result(): EmbeddingMetricsResult {
    this.checkAllAdded();
    const { diversity, alignment, profiles, missingSlots, diversityUndefined } = this;
    return { diversity, alignment, profiles, missingSlots, diversityUndefined };
  }
}

/** Writes user u's unit profile into `out`; false when the user has none. */
function profileOf(
  u: number,
  opts: { items: Embeddings; users: Embeddings | null; train: TrainData | null },
  out: Float64Array,
): boolean {
  const dim = out.length;
  const ue = opts.users;
  if (ue && u < ue.present.length && ue.present[u]) {
    if (ue.dim !== dim) return false;
    for (let q = 0; q < dim; q++) out[q] = ue.unit[u * dim + q];
    return true;
  }
  out.fill(0);
  const t = opts.train;
  if (!t || u + 1 >= t.seenOffsets.length) return false;
  const { unit, present } = opts.items;
  let m = 0;
  for (let p = t.seenOffsets[u]; p < t.seenOffsets[u + 1]; p++) {
    const it = t.seenItems[p];
    if (it < present.length && present[it]) {
      for (let q = 0; q < dim; q++) out[q] += unit[it * dim + q];
      m++;
    }
  }
  let ss = 0;
  for (let q = 0; q < dim; q++) ss += out[q] * out[q];
  if (m === 0 || !(ss > 0)) {
    out.fill(0);
    return false;
  }
  const inv = 1 / Math.sqrt(ss);
  for (let q = 0; q < dim; q++) out[q] *= inv;
  return true;
}
