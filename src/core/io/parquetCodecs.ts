/**
 * Page decompression for the Parquet reader (parquet.ts): every codec writes into an output of the
 * size the page header declares, which the reader has checked against its bounds first, so a page
 * can never make the reader allocate more than that.
 *
 * - Snappy: hyparquet's JavaScript decoder. (hyparquet-compressors' own snappy is WebAssembly,
 *   instantiated as soon as its index is imported: under a virtual-memory limit that fails at
 *   start, so its modules are imported one by one and its snappy is not used.)
 * - Zstandard (fzstd): a zstd page may hold several frames, each declaring its own content size,
 *   which fzstd would allocate before decoding. The frames are walked first (RFC 8878, "Zstandard
 *   Compression and the application/zstd Media Type", §3.1.1: frame header, then blocks of
 *   3-byte headers): their declared sizes must add up to the page's size, and each is decoded into
 *   its part of the page's output.
 * - gzip, brotli, LZ4: hyparquet-compressors' JavaScript decoders, into an output of the page size.
 */
import { snappyUncompress } from 'hyparquet';
import type { CompressionCodec } from 'hyparquet';
import { decompress as zstdDecompress } from 'fzstd';
import { gunzip } from 'hyparquet-compressors/src/gzip.js';
import { decompressBrotli } from 'hyparquet-compressors/src/brotli.js';
import { decompressLz4, decompressLz4Raw } from 'hyparquet-compressors/src/lz4.js';

/** A problem in compressed data, as text for the reader's message. */
export class CodecError extends Error {}

interface ZstdFrame {
  start: number;
  end: number;
  /** The declared content size, if the frame has one. */
  size: number | undefined;
}

/** The zstd frames of `input` (skippable frames left out), without decoding them. */
export function zstdFrames(input: Uint8Array): ZstdFrame[] {
  const frames: ZstdFrame[] = [];
  const u32 = (p: number): number =>
    (input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16) | (input[p + 3]! << 24)) >>> 0;
  let p = 0;
  while (p < input.length) {
    if (p + 4 > input.length) throw new CodecError('zstd data ends inside a frame header');
    const magic = u32(p);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      if (p + 8 > input.length) throw new CodecError('zstd data ends inside a skippable frame');
      p += 8 + u32(p + 4);
      continue;
    }
    if (magic !== 0xfd2fb528) throw new CodecError(`expected a zstd frame at byte ${p}, got other bytes`);
    const start = p;
    if (p + 5 > input.length) throw new CodecError('zstd data ends inside a frame header');
    const fhd = input[p + 4]!;
    const singleSegment = (fhd >> 5) & 1;
    const checksum = (fhd >> 2) & 1;
    const dictBytes = [0, 1, 2, 4][fhd & 3]!;
    const fcsFlag = fhd >> 6;
    const fcsBytes = fcsFlag === 0 ? singleSegment : 1 << fcsFlag;
    p += 5 + (singleSegment ? 0 : 1) + dictBytes;
    if (p + fcsBytes > input.length) throw new CodecError('zstd data ends inside a frame header');
    let size: number | undefined;
    if (fcsBytes > 0) {
      size = 0;
      for (let k = fcsBytes - 1; k >= 0; k--) size = size * 256 + input[p + k]!;
      if (fcsBytes === 2) size += 256;
    }
    p += fcsBytes;
    for (;;) {
      if (p + 3 > input.length) throw new CodecError('zstd data ends inside a block header');
      const h = input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16);
      const last = h & 1;
      const type = (h >> 1) & 3;
      const blockSize = h >>> 3;
      if (type === 3) throw new CodecError('a zstd block of the reserved type');
      p += 3 + (type === 1 ? 1 : blockSize);
      if (p > input.length) throw new CodecError('zstd data ends inside a block');
      if (last) break;
    }
    if (checksum) p += 4;
    if (p > input.length) throw new CodecError('zstd data ends inside a frame checksum');
    frames.push({ start, end: p, size });
  }
  return frames;
}

function zstdPage(input: Uint8Array, size: number): Uint8Array {
  const frames = zstdFrames(input);
  const out = new Uint8Array(size);
  if (frames.length === 1) {
    const f = frames[0]!;
    if (f.size !== undefined && f.size !== size)
      throw new CodecError(`a zstd frame declares ${f.size} bytes in a page of ${size}`);
    zstdDecompress(input.subarray(f.start, f.end), out);
    return out;
  }
  let at = 0;
  for (const f of frames) {
    if (f.size === undefined)
      throw new CodecError('a zstd frame without a content size among several frames of one page');
    if (f.size > size - at)
      throw new CodecError(`zstd frames declare more than the page's ${size} bytes once decompressed`);
    if (f.size > 0) zstdDecompress(input.subarray(f.start, f.end), out.subarray(at, at + f.size));
    at += f.size;
  }
  if (at !== size) throw new CodecError(`zstd frames declare ${at} bytes in a page of ${size}`);
  return out;
}

/** The `size` bytes of a page compressed with `codec`. */
export function decompressPageBytes(codec: CompressionCodec, input: Uint8Array, size: number): Uint8Array {
  switch (codec) {
    case 'UNCOMPRESSED':
      return input;
    case 'SNAPPY': {
      const out = new Uint8Array(size);
      snappyUncompress(input, out);
      return out;
    }
    case 'ZSTD':
      return zstdPage(input, size);
    case 'GZIP':
      return gunzip(input, new Uint8Array(size));
    case 'BROTLI':
      return decompressBrotli(input, size);
    case 'LZ4':
      return decompressLz4(input, size);
    case 'LZ4_RAW':
      return decompressLz4Raw(input, size);
    default:
      throw new CodecError(`unsupported compression codec ${String(codec)}`);
  }
}
