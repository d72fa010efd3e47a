/**
 * A minimal reader of NumPy `.npy` files (format versions 1.0, 2.0 and 3.0) holding a 2-D matrix
 * of float32/float64 (little- or big-endian) or int32/int64, C or Fortran order.
 *
 * Why not a library: the npm package `npyjs` (1.2.0) reads big-endian data as if it were
 * little-endian (it builds a native-endian typed array whatever the `descr` says), so `>f4`
 * files give wrong numbers silently, and it pulls in a fetch polyfill this offline core does not
 * need. The format is small and fully specified by NumPy's `numpy.lib.format` documentation:
 * magic `\x93NUMPY`, major/minor version bytes, a header length (uint16 LE for 1.0; uint32 LE for
 * 2.0/3.0), then an ASCII (3.0: UTF-8) Python dict literal with `descr`, `fortran_order` and
 * `shape`, padded so the data starts on a 64-byte boundary.
 */
import { readFile } from 'node:fs/promises';
import { fail } from '../../diagnostics';

export interface NpyMatrix {
  rows: number;
  cols: number;
  /** Row-major values as float64. */
  data: Float64Array;
  /** The `descr` of the file, e.g. `<f4`. */
  dtype: string;
}

/** Parses the bytes of a `.npy` file into a row-major float64 matrix. `label` is used in messages. */
export function parseNpy(bytes: Uint8Array, label: string): NpyMatrix {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) fail('bad-npy', { file: label }, 'expected a NumPy .npy file (magic "\\x93NUMPY"), got other bytes.');
  const major = bytes[6];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen: number;
  let at: number;
  if (major === 1) {
    headerLen = view.getUint16(8, true);
    at = 10;
  } else if (major === 2 || major === 3) {
    headerLen = view.getUint32(8, true);
    at = 12;
  } else return fail('bad-npy', { file: label }, `expected .npy format version 1, 2 or 3, got ${major}.${bytes[7]}.`);
  if (at + headerLen > bytes.length) fail('bad-npy', { file: label }, 'expected a complete header, got a truncated file.');
  const header = Buffer.from(bytes.buffer, bytes.byteOffset + at, headerLen).toString(major === 3 ? 'utf8' : 'latin1');
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined)
    fail('bad-npy', { file: label }, `expected a header dict with descr, fortran_order and shape, got ${JSON.stringify(header.trim())}.`);
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  if (shape.length !== 2 || shape.some((d) => !Number.isInteger(d) || d < 0))
    fail('bad-npy', { file: label }, `expected a 2-D matrix (one row per id), got shape (${shapeText.trim()}).`);
  const [rows, cols] = shape;
  const m = /^([<>|=])([fi])(\d)$/.exec(descr);
  const size = m ? Number(m[3]) : 0;
  if (!m || !((m[2] === 'f' && (size === 4 || size === 8)) || (m[2] === 'i' && (size === 4 || size === 8))))
    fail('bad-npy', { file: label }, `expected float32/float64/int32/int64 values (descr <f4, <f8, >f4, >f8, <i4, <i8…), got "${descr}".`);
  // '=' is native order; '|' only occurs for one-byte types; every machine Node runs on here is little-endian.
  const little = m[1] !== '>';
  const start = at + headerLen;
  const count = rows * cols;
  if (start + count * size > bytes.length) fail('bad-npy', { file: label }, `expected ${count * size} data bytes for shape (${rows}, ${cols}), got ${bytes.length - start}.`);
  const data = new Float64Array(count);
  const read =
    m[2] === 'f'
      ? size === 4
        ? (o: number) => view.getFloat32(o, little)
        : (o: number) => view.getFloat64(o, little)
      : size === 4
        ? (o: number) => view.getInt32(o, little)
        : (o: number) => Number(view.getBigInt64(o, little));
  const isFortran = fortran === 'True';
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const k = isFortran ? c * rows + r : r * cols + c;
      data[r * cols + c] = read(start + k * size);
    }
  return { rows, cols, data, dtype: descr };
}

export async function readNpy(path: string, label: string): Promise<NpyMatrix> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    return fail('file-not-found', { file: label }, `cannot open the file (${(e as NodeJS.ErrnoException).code ?? String(e)}).`);
  }
  return parseNpy(bytes, label);
}
