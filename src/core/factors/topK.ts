/**
 * Top-K recommendation lists from a factor model: score(u, i) = U[u] · V[i], a user's train items
 * masked, the K highest scores kept per user.
 *
 * Memory is bounded: users are scored in blocks of `blockUsers` rows, so at most
 * blockUsers × nItems scores exist at once (never the full users × items matrix). Inside a block
 * each item row of V is read once and multiplied with every user of the block, which keeps V's
 * row in cache across the block's users.
 *
 * Ties: items with equal scores are ordered by their position in the item id list, ascending
 * (the item listed first in itemIds ranks higher). The same rule is a stable sort by score
 * descending over items in id-list order, e.g. NumPy's `np.lexsort((positions, -scores))`.
 */
import { checkCancelled, fail, type Progress } from '../diagnostics';

export interface FactorMatrix {
  rows: number;
  cols: number;
  /** Row-major values. */
  data: Float64Array | Float32Array;
  /** The file name, for messages. */
  label: string;
}

export interface TopKOptions {
  k: number;
  /** Per user (by row), the item rows never recommended to that user (e.g. its train items). */
  train?: ReadonlyArray<ArrayLike<number> | undefined>;
  /** Users per block; default: as many as fit in about 32 MB of scores. */
  blockUsers?: number;
  /** Only users [userStart, userEnd) are scored (a worker's share). */
  userStart?: number;
  userEnd?: number;
  /** Reported after each block (stage "scoring", users done of users to score); cancellation is checked between blocks. */
  progress?: Progress;
}

export interface TopKResult {
  /** For each scored user, the item rows of its list, best first. */
  items: Int32Array[];
  /** The matching scores. */
  scores: Float64Array[];
  blockUsers: number;
}

const SCORE_BUDGET = 4 * 1024 * 1024; // scores per block (32 MB of float64)

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
}

/** The default block size: users whose scores fit in the score budget (at least 1). */
export function defaultBlockUsers(nItems: number): number {
  return Math.max(1, Math.min(1024, Math.floor(SCORE_BUDGET / Math.max(1, nItems))));
}

/** True if (sa, ia) ranks below (sb, ib): lower score, or equal score and later item. */
function worse(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}

/**
 * Scores users against all items and keeps each user's K best unmasked items. A user with fewer
 * than K unmasked items gets all of them.
 */
export function factorTopK(U: FactorMatrix, V: FactorMatrix, opts: TopKOptions): TopKResult {
  if (U.cols !== V.cols) checkFactors(U, V);
  const d = U.cols;
  const nItems = V.rows;
  const k = Math.max(0, Math.min(opts.k, nItems));
  const start = opts.userStart ?? 0;
  const end = opts.userEnd ?? U.rows;
  const B = Math.max(1, opts.blockUsers ?? defaultBlockUsers(nItems));
  const u = U.data;
  const v = V.data;
  const block = new Float64Array(Math.min(B, Math.max(0, end - start)) * nItems);
  const heapS = new Float64Array(k);
  const heapI = new Int32Array(k);
  const masked = new Uint8Array(nItems);
  const items: Int32Array[] = [];
  const scores: Float64Array[] = [];

  for (let b0 = start; b0 < end; b0 += B) {
    checkCancelled(opts.progress);
    const b1 = Math.min(end, b0 + B);
    const nb = b1 - b0;
    for (let i = 0; i < nItems; i++) {
      const vo = i * d;
      // Four users at a time: each factor of V[i] is loaded once for four dot products. Each sum
      // still adds its terms in factor order, so the scores equal a plain loop's bit for bit.
      let r = 0;
      for (; r + 4 <= nb; r += 4) {
        const o0 = (b0 + r) * d;
        const o1 = o0 + d;
        const o2 = o1 + d;
        const o3 = o2 + d;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let f = 0; f < d; f++) {
          const x = v[vo + f];
          s0 += u[o0 + f] * x;
          s1 += u[o1 + f] * x;
          s2 += u[o2 + f] * x;
          s3 += u[o3 + f] * x;
        }
        block[r * nItems + i] = s0;
        block[(r + 1) * nItems + i] = s1;
        block[(r + 2) * nItems + i] = s2;
        block[(r + 3) * nItems + i] = s3;
      }
      for (; r < nb; r++) {
        const uo = (b0 + r) * d;
        let s = 0;
        for (let f = 0; f < d; f++) s += u[uo + f] * v[vo + f];
        block[r * nItems + i] = s;
      }
    }
    for (let r = 0; r < nb; r++) {
      const train = opts.train?.[b0 + r];
      if (train) for (let t = 0; t < train.length; t++) masked[train[t]] = 1;
      // A min-heap of the K best so far; its root is the worst kept item.
      let size = 0;
      const off = r * nItems;
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
      items.push(Int32Array.from(order, (j) => heapI[j]));
      scores.push(Float64Array.from(order, (j) => heapS[j]));
    }
    opts.progress?.report?.('scoring', b1 - start, end - start);
  }
  return { items, scores, blockUsers: B };
}
