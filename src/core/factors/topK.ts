/**
 * Top-K recommendation lists from a factor model: score(u, i) = U[u] · V[i], a user's train items
 * masked, the K highest scores kept per user.
 *
 * Memory is bounded: users are scored in blocks of `blockUsers` rows, so at most
 * blockUsers × nItems scores exist at once (never the full users × items matrix). Inside a block
 * the items are taken in tiles that stay in cache while every user of the block passes over them.
 * The scores come from a WebAssembly SIMD kernel (simdKernel.ts) when the engine has one, else
 * from the JavaScript loop here; both add each dot product's terms in factor order with a separate
 * multiply and add, so they give the same float64 scores bit for bit.
 *
 * Ties: items with equal scores are ordered by their position in the item id list, ascending
 * (the item listed first in itemIds ranks higher). The same rule is a stable sort by score
 * descending over items in id-list order, e.g. NumPy's `np.lexsort((positions, -scores))`.
 */
import { fail } from '../diagnostics';
import { SimdScorer } from './simdKernel';

export interface FactorMatrix {
  rows: number;
  cols: number;
  /** Row-major values. */
  data: Float64Array | Float32Array;
  /** The file name, for messages. */
  label: string;
}

export interface TopKResult {
  /** For each scored user, the item rows of its list, best first. */
  items: Int32Array[];
  /** The matching scores. */
  scores: Float64Array[];
  blockUsers: number;
}

const SCORE_BUDGET = 4 * 1024 * 1024; // scores per block (32 MB of float64)
/** Items per tile: 128 rows of 64 float64 factors are 64 KB, within a core's L2 cache. */
const ITEM_TILE = 128;

/**
 * Largest bound on |U[u]·V[i]| accepted: max‖U[u]‖ · max‖V[i]‖ (Cauchy–Schwarz), with room below
 * the largest double (1.8e308) so that no score, partial sum or item-map coordinate overflows.
 */
export const MAX_SCORE_BOUND = 1e300;
/**
 * Smallest nonzero bound accepted: below it every score is under 1e-290, where the products of the
 * factors fall among the subnormal doubles (below 2.2e-308) and lose their digits, so that the
 * order of the lists would be decided by rounding.
 */
export const MIN_SCORE_BOUND = 1e-290;

/** Σ_f a[ao + f]·b[bo + f] over f < d, the terms added in factor order (a score U[u]·V[i]). */
function dot(
  a: Float64Array | Float32Array,
  ao: number,
  b: Float64Array | Float32Array,
  bo: number,
  d: number,
): number {
  let s = 0;
  for (let f = 0; f < d; f++) s += a[ao + f] * b[bo + f];
  return s;
}

/** The largest Euclidean norm of a row of `m`, computed without overflow or underflow. */
function maxRowNorm(m: FactorMatrix): number {
  let best = 0;
  for (let r = 0; r < m.rows; r++) {
    let big = 0;
    for (let j = 0; j < m.cols; j++) big = Math.max(big, Math.abs(m.data[r * m.cols + j]));
    if (big === 0) continue;
    let sum = 0;
    for (let j = 0; j < m.cols; j++) sum += (m.data[r * m.cols + j] / big) ** 2;
    best = Math.max(best, big * Math.sqrt(sum));
  }
  return best;
}

/** Throws a clear error if U and V cannot be multiplied or hold a non-finite value. */
export function checkFactors(U: FactorMatrix, V: FactorMatrix): void {
  if (U.cols !== V.cols) {
    fail(
      'bad-factors',
      { file: V.label },
      `expected ${U.cols} factors per item (the number of columns of ${U.label}), got ${V.cols}.`,
    );
  }
  for (const m of [U, V]) {
    if (m.cols === 0)
      fail(
        'bad-factors',
        { file: m.label },
        `expected at least one factor per row, got shape (${m.rows}, 0): a model without factors scores every item 0.`,
      );
    if (m.data.length !== m.rows * m.cols)
      fail('bad-factors', { file: m.label }, `expected ${m.rows} × ${m.cols} values, got ${m.data.length}.`);
    for (let p = 0; p < m.data.length; p++) {
      if (!Number.isFinite(m.data[p])) {
        const row = Math.floor(p / m.cols);
        fail(
          'bad-factors',
          { file: m.label },
          `row ${row + 1}, factor ${(p % m.cols) + 1}: expected a finite number, got ${m.data[p]}.`,
        );
      }
    }
  }
  const nu = maxRowNorm(U);
  const nv = maxRowNorm(V);
  if (nu === 0 || nv === 0) return;
  // the bound nu·nv itself may overflow or underflow: compared as nu vs bound / nv, shown as 10^x
  const bound = `about 1e${Math.round(Math.log10(nu) + Math.log10(nv))}`;
  if (nu > MAX_SCORE_BOUND / nv)
    fail(
      'factors-too-large',
      { file: U.label },
      `the scores U[u]·V[i] can reach ${bound} (a row of ${U.label} of norm ${nu.toPrecision(3)} times a row of ${V.label} of norm ${nv.toPrecision(3)}), more than the 1e300 that stays clear of the largest double: divide the factors by a constant (the order of every list stays the same).`,
    );
  if (nu < MIN_SCORE_BOUND / nv)
    fail(
      'factors-too-small',
      { file: U.label },
      `the scores U[u]·V[i] are at most ${bound} (the largest row norms: ${nu.toPrecision(3)} in ${U.label}, ${nv.toPrecision(3)} in ${V.label}), below the ${MIN_SCORE_BOUND} under which a double loses digits and rounding would order the lists: multiply the factors by a constant (the order of every list stays the same).`,
    );
}

/** The default block size: users whose scores fit in the score budget (at least 1). */
export function defaultBlockUsers(nItems: number): number {
  return Math.max(1, Math.min(1024, Math.floor(SCORE_BUDGET / Math.max(1, nItems))));
}

/** True if (sa, ia) ranks below (sb, ib): lower score, or equal score and later item. */
function worse(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}

/** Flat top-K output, user-major with a stride of K: row j of the output holds user `base + j`. */
export interface TopKBuffers {
  items: Int32Array;
  scores: Float64Array;
  /** The list length of each user (K, or fewer when fewer items are unmasked). */
  lengths: Int32Array;
  /** The user whose list is row 0. */
  base: number;
}

/** The train items of user row `u`, or undefined. */
export type TrainOf = (u: number) => ArrayLike<number> | undefined;

/**
 * Scores blocks of users and keeps each user's K best unmasked items; one per thread. Its buffers
 * (one block of scores, the heap, the mask) are reused across blocks.
 */
export class TopKScorer {
  readonly k: number;
  private block: Float64Array;
  private readonly heapS: Float64Array;
  private readonly heapI: Int32Array;
  private readonly masked: Uint8Array;
  private readonly simd: SimdScorer | null;

  constructor(
    private readonly U: FactorMatrix,
    private readonly V: FactorMatrix,
    k: number,
    blockUsers: number,
    /** 'js' forces the JavaScript loop (tests compare both). */
    kernel: 'auto' | 'js' = 'auto',
  ) {
    if (U.cols !== V.cols) checkFactors(U, V);
    this.k = Math.max(0, Math.min(k, V.rows));
    this.block = new Float64Array(kernel === 'js' ? Math.max(1, blockUsers) * V.rows : 0);
    this.heapS = new Float64Array(this.k);
    this.heapI = new Int32Array(this.k);
    this.masked = new Uint8Array(V.rows);
    this.simd = kernel === 'js' ? null : SimdScorer.create(V, Math.max(1, blockUsers));
  }

  /** Which loop computes the scores: WebAssembly SIMD when available, else JavaScript. */
  get kernel(): 'simd' | 'js' {
    return this.simd ? 'simd' : 'js';
  }

  /** The scores of users [b0, b1) by the JavaScript loop, into `block` (row r at r · nItems). */
  private scoreJs(b0: number, b1: number): void {
    const d = this.U.cols;
    const nItems = this.V.rows;
    const u = this.U.data;
    const v = this.V.data;
    const block = this.block;
    const nb = b1 - b0;
    // Items in tiles of ITEM_TILE, so a tile of V stays in cache while every user of the block
    // passes over it, and each user's scores of the tile are written contiguously. Inside a tile,
    // four users × two items at a time: six loads feed eight multiply-adds. Each sum still adds its
    // terms in factor order, so the scores equal a plain loop's bit for bit.
    for (let i0 = 0; i0 < nItems; i0 += ITEM_TILE) {
      const i1 = Math.min(nItems, i0 + ITEM_TILE);
      let r = 0;
      for (; r + 4 <= nb; r += 4) {
        const o0 = (b0 + r) * d;
        const o1 = o0 + d;
        const o2 = o1 + d;
        const o3 = o2 + d;
        const w0 = r * nItems;
        const w1 = w0 + nItems;
        const w2 = w1 + nItems;
        const w3 = w2 + nItems;
        let i = i0;
        for (; i + 2 <= i1; i += 2) {
          const vo = i * d;
          const vp = vo + d;
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          let t0 = 0;
          let t1 = 0;
          let t2 = 0;
          let t3 = 0;
          for (let f = 0; f < d; f++) {
            const x = v[vo + f];
            const y = v[vp + f];
            const a0 = u[o0 + f];
            const a1 = u[o1 + f];
            const a2 = u[o2 + f];
            const a3 = u[o3 + f];
            s0 += a0 * x;
            s1 += a1 * x;
            s2 += a2 * x;
            s3 += a3 * x;
            t0 += a0 * y;
            t1 += a1 * y;
            t2 += a2 * y;
            t3 += a3 * y;
          }
          block[w0 + i] = s0;
          block[w1 + i] = s1;
          block[w2 + i] = s2;
          block[w3 + i] = s3;
          block[w0 + i + 1] = t0;
          block[w1 + i + 1] = t1;
          block[w2 + i + 1] = t2;
          block[w3 + i + 1] = t3;
        }
        // The last item of a tile with an odd count (only the last tile, ITEM_TILE being even).
        if (i < i1) {
          const vo = i * d;
          block[w0 + i] = dot(u, o0, v, vo, d);
          block[w1 + i] = dot(u, o1, v, vo, d);
          block[w2 + i] = dot(u, o2, v, vo, d);
          block[w3 + i] = dot(u, o3, v, vo, d);
        }
      }
      for (; r < nb; r++) {
        const uo = (b0 + r) * d;
        const w = r * nItems;
        for (let i = i0; i < i1; i++) block[w + i] = dot(u, uo, v, i * d, d);
      }
    }
  }

  /** Users [b0, b1) — at most `blockUsers` of them — into `out` (rows b0 − out.base …). */
  scoreBlock(b0: number, b1: number, trainOf: TrainOf | undefined, out: TopKBuffers): void {
    const nItems = this.V.rows;
    const { heapS, heapI, masked, k } = this;
    const nb = b1 - b0;
    let block: Float64Array;
    let stride: number;
    if (this.simd) {
      this.simd.score(this.U, b0, b1);
      block = this.simd.scores;
      stride = this.simd.stride;
    } else {
      if (this.block.length < nb * nItems) this.block = new Float64Array(nb * nItems);
      this.scoreJs(b0, b1);
      block = this.block;
      stride = nItems;
    }
    for (let r = 0; r < nb; r++) {
      const train = trainOf?.(b0 + r);
      if (train) for (let t = 0; t < train.length; t++) masked[train[t]] = 1;
      // A min-heap of the K best so far; its root is the worst kept item.
      let size = 0;
      const off = r * stride;
      for (let i = 0; i < nItems; i++) {
        if (masked[i]) continue;
        const s = block[off + i];
        if (size < k) {
          let c = size++;
          while (c > 0) {
            const p = (c - 1) >> 1;
            if (!worse(s, i, heapS[p], heapI[p])) break;
            heapS[c] = heapS[p];
            heapI[c] = heapI[p];
            c = p;
          }
          heapS[c] = s;
          heapI[c] = i;
        } else if (k > 0 && worse(heapS[0], heapI[0], s, i)) {
          let c = 0;
          for (;;) {
            const l = 2 * c + 1;
            if (l >= size) break;
            let m = l;
            if (l + 1 < size && worse(heapS[l + 1], heapI[l + 1], heapS[l], heapI[l])) m = l + 1;
            if (!worse(heapS[m], heapI[m], s, i)) break;
            heapS[c] = heapS[m];
            heapI[c] = heapI[m];
            c = m;
          }
          heapS[c] = s;
          heapI[c] = i;
        }
      }
      if (train) for (let t = 0; t < train.length; t++) masked[train[t]] = 0;
      const order = Array.from({ length: size }, (_, j) => j).sort((a, c) =>
        worse(heapS[a], heapI[a], heapS[c], heapI[c]) ? 1 : worse(heapS[c], heapI[c], heapS[a], heapI[a]) ? -1 : 0,
      );
      const row = b0 + r - out.base;
      const o = row * k;
      for (let j = 0; j < size; j++) {
        out.items[o + j] = heapI[order[j]];
        out.scores[o + j] = heapS[order[j]];
      }
      out.lengths[row] = size;
    }
  }
}

/** Empty output buffers for `users` users (plain memory, or shared with worker threads). */
export function topKBuffers(users: number, k: number, base: number, shared = false): TopKBuffers {
  const B = shared ? SharedArrayBuffer : ArrayBuffer;
  return {
    items: new Int32Array(new B(users * k * 4)),
    scores: new Float64Array(new B(users * k * 8)),
    lengths: new Int32Array(new B(users * 4)),
    base,
  };
}

/** The per-user lists of flat buffers (views, no copy). */
export function topKLists(out: TopKBuffers, k: number, users: number): Pick<TopKResult, 'items' | 'scores'> {
  const items: Int32Array[] = [];
  const scores: Float64Array[] = [];
  for (let j = 0; j < users; j++) {
    items.push(out.items.subarray(j * k, j * k + out.lengths[j]));
    scores.push(out.scores.subarray(j * k, j * k + out.lengths[j]));
  }
  return { items, scores };
}
