/**
 * A minimal reader of NumPy `.npy` arrays (format versions 1.0, 2.0 and 3.0), used for item
 * embedding matrices (ranking) and for the arrays of `.npz` score files (classification).
 *
 * Why not a library: the npm package `npyjs` (1.2.0) reads big-endian data as if it were
 * little-endian (it builds a native-endian typed array whatever the `descr` says), so `>f4`
 * files give wrong numbers silently, and it pulls in a fetch polyfill this offline core does not
 * need. The format is small and fully specified by NumPy's `numpy.lib.format` documentation:
 * magic `\x93NUMPY`, major/minor version bytes, a header length (uint16 LE for 1.0; uint32 LE for
 * 2.0/3.0), then an ASCII (3.0: UTF-8) Python dict literal with `descr`, `fortran_order` and
 * `shape`, padded so the data starts on a 64-byte boundary.
 *
 * Accepted dtypes: float32/float64, signed and unsigned integers of 1, 2, 4 and 8 bytes, bool, and
 * fixed-width text (`<U n` UTF-32, `|S n` bytes) for labels; either byte order; C or Fortran order;
 * 0-, 1- and 2-D shapes.
 */
import { fail } from '../diagnostics';
import { readWholeFile } from './tableSink';

export interface NpyMatrix {
  rows: number;
  cols: number;
  /** Row-major values as float64. */
  data: Float64Array;
  /** The `descr` of the file, e.g. `<f4`. */
  dtype: string;
}

/** A 0-, 1- or 2-D array, values in C (row-major) order. */
export interface NpyArray {
  shape: number[];
  /** The `descr` as written, e.g. `<f4`, `<U5`. */
  dtype: string;
  /** `f` float, `i` signed int, `u` unsigned int, `b` bool, `U`/`S` text. */
  kind: 'f' | 'i' | 'u' | 'b' | 'U' | 'S';
  /** Numbers (bool as 0/1) for numeric kinds. */
  data?: Float64Array;
  /** Text values for `U`/`S`. */
  text?: string[];
  /**
   * int64/uint64 values beyond ±(2^53 − 1), by flat index: their exact decimal text (`data` holds
   * the rounded double), so that two large labels or ids never become one value.
   */
  big?: Map<number, string>;
}

/** A readable name of a `descr`, for messages. */
export function dtypeName(descr: string): string {
  const m = /^[<>|=]?([a-zA-Z])(\d*)$/.exec(descr);
  if (!m) return descr;
  const [, k, n] = m;
  const bits = Number(n) * 8;
  const names: Record<string, string> = {
    f: `float${bits}`,
    i: `int${bits}`,
    u: `uint${bits}`,
    b: 'bool',
    c: `complex${bits}`,
    U: `str${n}`,
    S: `bytes${n}`,
    O: 'object',
    M: 'datetime64',
    m: 'timedelta64',
    V: 'void',
  };
  return names[k] ?? descr;
}

const NUMERIC_SIZES: Record<string, readonly number[]> = { f: [4, 8], i: [1, 2, 4, 8], u: [1, 2, 4, 8], b: [1] };

interface NpyHeader {
  descr: string;
  fortran: boolean;
  shape: number[];
  shapeText: string;
  /** Offset of the first data byte. */
  start: number;
}

/**
 * The value of `key` in the header dict, matched by `value` (a sticky pattern, group 1 the value)
 * at its last occurrence: a Python dict literal with a repeated key keeps the last value, and so
 * does NumPy.
 */
function lastValue(header: string, key: string, value: RegExp): string | undefined {
  let at = -1;
  for (const m of header.matchAll(new RegExp(`'${key}'\\s*:\\s*`, 'g'))) at = m.index + m[0].length;
  if (at < 0) return undefined;
  value.lastIndex = at;
  return value.exec(header)?.[1];
}

/** The header dict of a `.npy` file (magic and version checked). */
function parseNpyHeader(bytes: Uint8Array, label: string): NpyHeader {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b))
    fail('bad-npy', { file: label }, 'expected a NumPy .npy file (magic "\\x93NUMPY"), got other bytes.');
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
  if (at + headerLen > bytes.length)
    fail('bad-npy', { file: label }, 'expected a complete header, got a truncated file.');
  const header = Buffer.from(bytes.buffer, bytes.byteOffset + at, headerLen).toString(major === 3 ? 'utf8' : 'latin1');
  const descr = lastValue(header, 'descr', /'([^']*)'/y);
  const fortran = lastValue(header, 'fortran_order', /(True|False)/y);
  const shapeText = lastValue(header, 'shape', /\(([^)]*)\)/y);
  if (descr === undefined || fortran === undefined || shapeText === undefined)
    return fail(
      'bad-npy',
      { file: label },
      `expected a header dict with descr, fortran_order and shape, got ${JSON.stringify(header.trim())}.`,
    );
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0))
    fail('bad-npy', { file: label }, `expected a shape of non-negative integers, got (${shapeText.trim()}).`);
  return { descr, fortran: fortran === 'True', shape, shapeText: shapeText.trim(), start: at + headerLen };
}

/** Parses the bytes of a `.npy` file into an {@link NpyArray}. `label` names the array in messages. */
export function parseNpyArray(bytes: Uint8Array, label: string): NpyArray {
  const { descr, fortran, shape, shapeText, start } = parseNpyHeader(bytes, label);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (shape.length > 2)
    fail(
      'bad-npy-shape',
      { file: label },
      `expected a 1-D or 2-D array, got shape (${shapeText}) (${shape.length}-D).`,
    );
  const m = /^([<>|=])([a-zA-Z])(\d+)$/.exec(descr);
  const kind = m?.[2];
  const size = m ? Number(m[3]) : 0;
  const ok =
    m !== null &&
    kind !== undefined &&
    ((NUMERIC_SIZES[kind]?.includes(size) ?? false) || ((kind === 'U' || kind === 'S') && size > 0));
  if (!ok)
    fail(
      'bad-npy-dtype',
      { file: label },
      `unsupported dtype "${descr}" (${dtypeName(descr)}); expected float32/float64, int8…int64, uint8…uint64 or bool numbers, or fixed-width strings (<U, |S) for labels.`,
    );
  // '=' is native order; '|' only occurs for one-byte types; every machine Node runs on here is little-endian.
  const little = m![1] !== '>';
  const itemBytes = kind === 'U' ? size * 4 : size;
  const rows = shape.length === 0 ? 1 : shape[0];
  const cols = shape.length === 2 ? shape[1] : 1;
  const count = rows * cols;
  if (start + count * itemBytes > bytes.length)
    fail(
      'bad-npy',
      { file: label },
      `expected ${count * itemBytes} data bytes for shape (${shape.join(', ')}), got ${bytes.length - start} (a truncated file).`,
    );
  const isFortran = fortran && shape.length === 2;
  const source = (r: number, c: number): number => start + (isFortran ? c * rows + r : r * cols + c) * itemBytes;
  if (kind === 'U' || kind === 'S') {
    const text: string[] = new Array(count);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) {
        const o = source(r, c);
        let s = '';
        if (kind === 'S') {
          let end = o + size;
          while (end > o && bytes[end - 1] === 0) end--; // NumPy pads with NUL bytes
          s = Buffer.from(bytes.buffer, bytes.byteOffset + o, end - o).toString('utf8');
        } else {
          for (let k = 0; k < size; k++) {
            const cp = view.getUint32(o + 4 * k, little);
            if (cp === 0) break;
            if (cp > 0x10ffff)
              fail(
                'bad-npy',
                { file: label },
                `row ${r + 1} holds the code point 0x${cp.toString(16)} in a ${descr} string (expected Unicode text: code points up to 0x10ffff).`,
              );
            s += String.fromCodePoint(cp);
          }
        }
        text[r * cols + c] = s;
      }
    return { shape, dtype: descr, kind, text };
  }
  const read: (o: number) => number =
    kind === 'f'
      ? size === 4
        ? (o) => view.getFloat32(o, little)
        : (o) => view.getFloat64(o, little)
      : kind === 'b'
        ? (o) => (view.getUint8(o) === 0 ? 0 : 1)
        : size === 1
          ? kind === 'i'
            ? (o) => view.getInt8(o)
            : (o) => view.getUint8(o)
          : size === 2
            ? kind === 'i'
              ? (o) => view.getInt16(o, little)
              : (o) => view.getUint16(o, little)
            : size === 4
              ? kind === 'i'
                ? (o) => view.getInt32(o, little)
                : (o) => view.getUint32(o, little)
              : kind === 'i'
                ? (o) => Number(view.getBigInt64(o, little))
                : (o) => Number(view.getBigUint64(o, little));
  const data = new Float64Array(count);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) data[r * cols + c] = read(source(r, c));
  let big: Map<number, string> | undefined;
  if (size === 8 && (kind === 'i' || kind === 'u'))
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) {
        const k = r * cols + c;
        if (Math.abs(data[k]) <= Number.MAX_SAFE_INTEGER) continue;
        const o = source(r, c);
        (big ??= new Map()).set(k, String(kind === 'i' ? view.getBigInt64(o, little) : view.getBigUint64(o, little)));
      }
  return { shape, dtype: descr, kind: kind as NpyArray['kind'], data, ...(big ? { big } : {}) };
}

/** Parses the bytes of a `.npy` file into a row-major float64 matrix. `label` is used in messages. */
export function parseNpy(bytes: Uint8Array, label: string): NpyMatrix {
  const h = parseNpyHeader(bytes, label);
  if (h.shape.length !== 2)
    fail('bad-npy', { file: label }, `expected a 2-D matrix (one row per id), got shape (${h.shapeText}).`);
  if (!/^[<>|=](f[48]|i[48])$/.test(h.descr))
    fail(
      'bad-npy',
      { file: label },
      `expected float32/float64/int32/int64 values (descr <f4, <f8, >f4, >f8, <i4, <i8…), got "${h.descr}".`,
    );
  const a = parseNpyArray(bytes, label);
  return { rows: a.shape[0], cols: a.shape[1], data: a.data!, dtype: a.dtype };
}

export async function readNpy(path: string, label: string): Promise<NpyMatrix> {
  return parseNpy(await readWholeFile(path, label), label);
}
