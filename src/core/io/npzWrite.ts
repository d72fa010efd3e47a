/**
 * Writes NumPy `.npz` files: a zip archive of `.npy` arrays, each member stored (not deflated) so
 * that a reader can map an array in place, as `np.savez` writes them. Used by `eval-lens partial`
 * (src/core/partial/), whose files `numpy.load` reads.
 *
 * `.npy` version 1.0 (NEP 1, "A simple file format for NumPy arrays",
 * https://numpy.org/neps/nep-0001-npy-format.html): the magic, a little-endian header length, a
 * Python dict literal padded with spaces to a multiple of 64 bytes and ended by a newline, then
 * the data in C order. Zip: the PKWARE APPNOTE.TXT (.ZIP File Format Specification, version
 * 6.3.10, 2022, https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT), local headers and a
 * central directory, CRC-32 of each member; no ZIP64, so an archive stays below 4 GiB.
 */
import { crc32 } from 'node:zlib';

/** The dtypes written: little-endian float64, int32, int64 and uint8. */
export type NpyDtype = '<f8' | '<i4' | '<i8' | '|u1';

export interface NpyOut {
  dtype: NpyDtype;
  /** [] for a scalar, [n] for a vector, [rows, cols] for a matrix (C order). */
  shape: number[];
  data: Float64Array | Int32Array | BigInt64Array | Uint8Array;
}

const ITEM_BYTES: Record<NpyDtype, number> = { '<f8': 8, '<i4': 4, '<i8': 8, '|u1': 1 };

/** The bytes of one `.npy` file (format version 1.0). */
export function npyBytes(a: NpyOut): Buffer {
  const count = a.shape.reduce((p, d) => p * d, 1);
  if (a.data.length !== count)
    throw new RangeError(`Expected ${count} values for shape (${a.shape.join(', ')}), but got ${a.data.length}.`);
  const shape = a.shape.length === 1 ? `(${a.shape[0]},)` : `(${a.shape.join(', ')})`;
  let header = `{'descr': '${a.dtype}', 'fortran_order': False, 'shape': ${shape}, }`;
  // magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header.padEnd(total - 10 - 1, ' ') + '\n';
  const out = Buffer.alloc(total + count * ITEM_BYTES[a.dtype]);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  out.writeUInt16LE(header.length, 8);
  out.write(header, 10, 'latin1');
  // every machine Node runs on here is little-endian, as the dtypes say
  const bytes = new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  out.set(bytes, total);
  return out;
}

/** An `.npz` archive of the named arrays (member `name.npy`), in the given order, stored. */
export function npzBytes(arrays: readonly (readonly [string, NpyOut])[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, a] of arrays) {
    const data = npyBytes(a);
    const fileName = Buffer.from(`${name}.npy`, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // flags: names in UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
    if (offset > 0xffffffff) throw new RangeError('An .npz archive above 4 GiB needs ZIP64, which is not written.');
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(arrays.length, 8);
  end.writeUInt16LE(arrays.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
