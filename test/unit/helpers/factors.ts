// Factor-model test inputs: .npy bytes written here (float64, C order, format 1.0) and the "ties"
// case of the NumPy reference (scripts/golden/factors.py → test/golden/factors.json).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCancelled, type Progress } from '../../../src/core/diagnostics';
import {
  checkFactors,
  defaultBlockUsers,
  topKBuffers,
  topKLists,
  TopKScorer,
  type FactorMatrix,
  type TopKResult,
  type TrainOf,
} from '../../../src/core/factors/topK';

/** A little-endian float64 C-order .npy (format 1.0) of `values` with `shape`. */
export function npyFloat64(values: number[], shape: number[]): Buffer {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  const header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${dims}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  const h = Buffer.from(header + ' '.repeat(pad % 64) + '\n', 'latin1');
  const pre = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(pre);
  pre[6] = 1;
  pre.writeUInt16LE(h.length, 8);
  return Buffer.concat([pre, h, Buffer.from(Float64Array.from(values).buffer)]);
}

/** A matrix as a .npy file. */
export const npy = (rows: number[][]): Buffer => npyFloat64(rows.flat(), [rows.length, rows[0]!.length]);

/**
 * Writes a factor model into `dir` (U.npy, V.npy, users.txt, items.txt) and returns the config
 * keys that name those files.
 */
export function writeFactorModel(
  dir: string,
  U: number[][],
  V: number[][],
  userIds: readonly string[],
  itemIds: readonly string[],
): Record<string, string> {
  writeFileSync(join(dir, 'U.npy'), npy(U));
  writeFileSync(join(dir, 'V.npy'), npy(V));
  writeFileSync(join(dir, 'users.txt'), userIds.join('\n') + '\n');
  writeFileSync(join(dir, 'items.txt'), itemIds.join('\n') + '\n');
  return { task: 'ranking', userFactors: 'U.npy', itemFactors: 'V.npy', userIds: 'users.txt', itemIds: 'items.txt' };
}

export interface GoldenFactorCase {
  k: number;
  U: number[][];
  V: number[][];
  train: number[][];
  topk: number[][];
}

/** The NumPy reference's "ties" case, with user ids u0… and item ids item0…. */
export function tiesCase(): { g: GoldenFactorCase; userIds: string[]; itemIds: string[] } {
  const all = JSON.parse(readFileSync(join(__dirname, '../../golden/factors.json'), 'utf8')) as Record<
    string,
    GoldenFactorCase
  >;
  const g = all.ties!;
  return { g, userIds: g.U.map((_, u) => `u${u}`), itemIds: g.V.map((_, i) => `item${i}`) };
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

/**
 * The top-K lists on the calling thread, block after block: each user's K best unmasked items (a
 * user with fewer than K unmasked items gets all of them). The reference of the threaded scoring
 * (`parallelTopK`, src/core/factors/parallelTopK.ts), which runs the same scorer on ranges of users.
 */
export function factorTopK(U: FactorMatrix, V: FactorMatrix, opts: TopKOptions): TopKResult {
  if (U.cols !== V.cols) checkFactors(U, V);
  const start = opts.userStart ?? 0;
  const end = opts.userEnd ?? U.rows;
  const n = Math.max(0, end - start);
  const B = Math.max(1, opts.blockUsers ?? defaultBlockUsers(V.rows));
  const scorer = new TopKScorer(U, V, opts.k, Math.min(B, n));
  const out = topKBuffers(n, scorer.k, start);
  const train = opts.train;
  const trainOf: TrainOf | undefined = train ? (u) => train[u] : undefined;
  for (let b0 = start; b0 < end; b0 += B) {
    checkCancelled(opts.progress);
    const b1 = Math.min(end, b0 + B);
    scorer.scoreBlock(b0, b1, trainOf, out);
    opts.progress?.report?.('scoring', b1 - start, end - start);
  }
  return { ...topKLists(out, scorer.k, n), blockUsers: B };
}
