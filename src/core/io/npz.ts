/**
 * NumPy `.npz` score files as a row source of {@link readTable}: a zip archive of `.npy` arrays
 * (written by `np.savez`, stored, or `np.savez_compressed`, deflated). Each 1-D array is a column
 * named after the array (`y_true`, `labels`, `pred`, `id`…), each 2-D array an array-valued column
 * (`probs`, `logits`, `scores`: one row of class scores per sample). The rows then go through the
 * same sink as CSV rows, so detection (`columns` in the config names arrays as it names columns),
 * validation and metrics are the same. Every array must have the same number of rows.
 *
 * Rows are located as in Parquet: data row N is `line` N + 1 and messages say "row N".
 *
 * The zip container is read here (central directory, local headers, stored or deflate members,
 * CRC-32 checked, ZIP64 sizes) with node:zlib, per the PKWARE APPNOTE.TXT (.ZIP File Format
 * Specification, version 6.3.10, 2022, https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT);
 * the part NumPy writes is small, and the whole file is in memory anyway since every array is needed.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { CancelledError, EvalLensError, fail, type Progress } from '../diagnostics';
import { dtypeName, parseNpyArray, type NpyArray } from './npy';
import type { Cell } from '../data/textColumn';
import { readWholeFile, type TableSink } from './tableSink';

export interface ZipMember {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD64_LOCATOR = 0x07064b50;

/** The members listed in the central directory of a zip archive. */
export function zipMembers(buf: Buffer, path: string): ZipMember[] {
  const bad = (what: string): never =>
    fail(
      'bad-npz',
      { file: path },
      `cannot read the file as .npz (expected a zip archive of .npy arrays, as np.savez writes): ${what}.`,
    );
  if (buf.length < 22 || buf.readUInt32LE(0) !== LOCAL) bad('it does not start with a zip local header');
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) bad('no end-of-central-directory record (a truncated file?)');
  let count = buf.readUInt16LE(eocd + 10);
  let dirOffset = buf.readUInt32LE(eocd + 16);
  if ((count === 0xffff || dirOffset === 0xffffffff) && eocd >= 20 && buf.readUInt32LE(eocd - 20) === EOCD64_LOCATOR) {
    const at = Number(buf.readBigUInt64LE(eocd - 20 + 8));
    if (at + 56 > buf.length) bad('a ZIP64 end record points outside the file');
    count = Number(buf.readBigUInt64LE(at + 32));
    dirOffset = Number(buf.readBigUInt64LE(at + 48));
  }
  const out: ZipMember[] = [];
  let p = dirOffset;
  for (let k = 0; k < count; k++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) bad('a damaged central directory');
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    let compressedSize = buf.readUInt32LE(p + 20);
    let size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    let localOffset = buf.readUInt32LE(p + 42);
    if (p + 46 + nameLen + extraLen + commentLen > buf.length)
      bad(
        `central directory entry ${k + 1} declares a name, extra field and comment of ${nameLen + extraLen + commentLen} bytes, past the end of the file`,
      );
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    // ZIP64 extended information (header id 1): the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = buf.readUInt16LE(e);
      const len = buf.readUInt16LE(e + 2);
      if (e + 4 + len > extraEnd) bad(`central directory entry ${k + 1} has an extra field longer than its space`);
      if (id === 1) {
        let q = e + 4;
        const need = 8 * [size, compressedSize, localOffset].filter((v) => v === 0xffffffff).length;
        if (need > len) bad(`central directory entry ${k + 1} has a ZIP64 field too short for its sizes`);
        if (size === 0xffffffff) {
          size = Number(buf.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(buf.readBigUInt64LE(q));
          q += 8;
        }
        if (localOffset === 0xffffffff) localOffset = Number(buf.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    out.push({ name, method, compressedSize, size, crc, localOffset });
    p = extraEnd + commentLen;
  }
  return out;
}

/** Where the compressed bytes of a member lie: [start, end) of the file, after its local header. */
function memberSpan(buf: Buffer, m: ZipMember, path: string): { start: number; end: number } {
  const p = m.localOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== LOCAL)
    badMember(path, m, 'its local zip header is missing or damaged');
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  if (start + m.compressedSize > buf.length)
    badMember(path, m, 'its data runs past the end of the file (a truncated file?)');
  return { start, end: start + m.compressedSize };
}

function badMember(path: string, m: ZipMember, what: string): never {
  return fail('bad-npz', { file: path }, `array "${arrayName(m.name)}": ${what}.`);
}

/**
 * Deflate writes at most 258 bytes for 1 bit (a length code of 258 with a 1-bit code and a 0-bit
 * distance, RFC 1951 §3.2.5): at most 1032 bytes a compressed byte, and a little more for
 * a tiny stream.
 */
const DEFLATE_RATIO = 1032;

/**
 * The uncompressed bytes of one member (stored or deflate), CRC-32 checked. Its declared size is
 * checked against what its compressed bytes could hold before anything is inflated, and inflating
 * stops as soon as the output passes that size.
 */
export function zipMemberBytes(buf: Buffer, m: ZipMember, path: string): Buffer {
  const bad = (what: string): never => badMember(path, m, what);
  const { start, end } = memberSpan(buf, m, path);
  const raw = buf.subarray(start, end);
  let data: Buffer;
  if (m.method === 0) {
    if (m.size !== m.compressedSize)
      bad(`it is stored uncompressed in ${m.compressedSize} bytes but declares ${m.size}`);
    data = raw;
  } else if (m.method === 8) {
    if (m.size > DEFLATE_RATIO * m.compressedSize + 64)
      bad(
        `it declares ${m.size} bytes once uncompressed, more than deflate can encode in its ${m.compressedSize} bytes`,
      );
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, m.size) });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        return bad(`it inflates to more than the ${m.size} bytes it declares`);
      return bad(`its deflate data is damaged (${(e as Error).message})`);
    }
  } else
    return bad(
      `zip compression method ${m.method} is not supported (expected 0, stored, as np.savez writes, or 8, deflate, as np.savez_compressed writes)`,
    );
  if (data.length !== m.size) bad(`expected ${m.size} bytes once uncompressed, got ${data.length}`);
  if (crc32(data) >>> 0 !== m.crc >>> 0) bad('its CRC-32 checksum does not match (a damaged file)');
  return data;
}

/** Members whose bytes overlap (several directory entries pointing at the same data: a zip bomb) are refused. */
function checkNoOverlap(buf: Buffer, members: ZipMember[], path: string): void {
  const spans = members
    .map((m) => ({ m, from: m.localOffset, ...memberSpan(buf, m, path) }))
    .sort((a, b) => a.from - b.from);
  for (let i = 1; i < spans.length; i++) {
    const [a, b] = [spans[i - 1]!, spans[i]!];
    if (b.from < a.end)
      fail(
        'bad-npz',
        { file: path },
        `cannot read the file as .npz: the zip entries "${a.m.name}" and "${b.m.name}" share the same bytes (overlapping entries, as in a zip bomb; np.savez writes each array once).`,
      );
  }
}

function arrayName(member: string): string {
  return member.replace(/\.npy$/i, '');
}

/** The arrays of an `.npz` file by name, in archive order. */
export function parseNpz(buf: Buffer, path: string, progress?: Progress): Map<string, NpyArray> {
  const members = zipMembers(buf, path).filter((m) => !m.name.endsWith('/'));
  if (members.length === 0)
    fail(
      'bad-npz',
      { file: path },
      'the archive holds no arrays (expected .npy members such as y_true.npy and probs.npy).',
    );
  checkNoOverlap(buf, members, path);
  const arrays = new Map<string, NpyArray>();
  members.forEach((m, i) => {
    if (progress?.isCancelled?.()) throw new CancelledError();
    const name = arrayName(m.name);
    const bytes = zipMemberBytes(buf, m, path);
    try {
      arrays.set(name, parseNpyArray(bytes, `${path}: array "${name}"`));
    } catch (e) {
      if (e instanceof EvalLensError) throw new EvalLensError(e.code, e.message, { file: path });
      throw e;
    }
    progress?.report?.('reading', i + 1, members.length);
  });
  return arrays;
}

/** Reads an `.npz` file into `sink`, one row per sample. Returns the number of rows. */
export async function readNpz(path: string, sink: TableSink, opts: { progress?: Progress } = {}): Promise<number> {
  const arrays = parseNpz(await readWholeFile(path), path, opts.progress);
  const names = [...arrays.keys()];
  let rows = -1;
  let first = '';
  for (const [name, a] of arrays) {
    if (a.shape.length === 0)
      fail(
        'npz-shape',
        { file: path },
        `array "${name}" is a scalar (dtype ${dtypeName(a.dtype)}); expected one value (1-D) or one row of class scores (2-D) per sample.`,
      );
    if (rows < 0) {
      rows = a.shape[0];
      first = name;
    } else if (a.shape[0] !== rows)
      fail(
        'npz-shape',
        { file: path },
        `array "${name}" has ${a.shape[0]} rows (shape (${a.shape.join(', ')})), expected ${rows} as array "${first}" (one entry per sample in every array).`,
      );
  }
  if (rows === 0) fail('no-data-rows', { file: path }, 'the arrays have no rows.');
  sink.columns(names);
  const list = [...arrays.values()];
  for (let r = 0; r < rows; r++) {
    if ((r & 4095) === 4095 && opts.progress?.isCancelled?.()) throw new CancelledError();
    const cells: Cell[] = new Array(list.length);
    for (let j = 0; j < list.length; j++) cells[j] = npyCell(list[j], r);
    sink.row(cells, r + 2);
  }
  return rows;
}

function npyCell(a: NpyArray, r: number): Cell {
  const cols = a.shape.length === 2 ? a.shape[1] : 1;
  const one = (k: number): Cell =>
    a.text ? a.text[k] : a.kind === 'b' ? a.data![k] === 1 : (a.big?.get(k) ?? a.data![k]);
  if (a.shape.length === 1) return one(r);
  const out: Cell[] = new Array(cols);
  for (let c = 0; c < cols; c++) out[c] = one(r * cols + c);
  return out;
}
