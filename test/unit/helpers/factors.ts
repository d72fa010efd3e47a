// Factor-model test inputs: .npy bytes written here (float64, C order, format 1.0) and the "ties"
// case of the NumPy reference (scripts/golden/factors.py → test/golden/factors.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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
