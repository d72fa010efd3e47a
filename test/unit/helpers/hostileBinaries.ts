// Writers of small Parquet and .npz files byte by byte, for the hostile-input tests: a valid table
// to mutate, and the "bombs" (files of a few KB that declare gigabytes). Parquet per the Apache
// Parquet format (parquet.thrift, Thrift compact protocol); zip per PKWARE's APPNOTE.TXT.
import { crc32, deflateRawSync } from 'node:zlib';

// ---- Thrift compact protocol ----

type TValue =
  | { t: 'i32' | 'i64'; v: number | bigint }
  | { t: 'bin'; v: Buffer | string }
  | { t: 'struct'; v: TField[] }
  | { t: 'list'; elem: 'i32' | 'bin' | 'struct'; v: TValue[] }
  | { t: 'bool'; v: boolean };
type TField = [id: number, value: TValue];

const TYPE = { bool: 1, i32: 5, i64: 6, bin: 8, list: 9, struct: 12 } as const;

function varint(n: bigint, out: number[]): void {
  let x = n;
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x !== 0n) b |= 0x80;
    out.push(b);
  } while (x !== 0n);
}
const zigzag = (n: bigint): bigint => (n >= 0n ? n << 1n : (-n << 1n) - 1n);

function writeValue(v: TValue, out: number[]): void {
  switch (v.t) {
    case 'i32':
    case 'i64':
      varint(zigzag(BigInt(v.v)), out);
      return;
    case 'bin': {
      const b = typeof v.v === 'string' ? Buffer.from(v.v) : v.v;
      varint(BigInt(b.length), out);
      out.push(...b);
      return;
    }
    case 'struct':
      writeStruct(v.v, out);
      return;
    case 'list': {
      const et = TYPE[v.elem];
      if (v.v.length < 15) out.push((v.v.length << 4) | et);
      else {
        out.push(0xf0 | et);
        varint(BigInt(v.v.length), out);
      }
      for (const x of v.v) writeValue(x, out);
      return;
    }
    case 'bool':
      out.push(v.v ? 1 : 2);
  }
}

function writeStruct(fields: TField[], out: number[]): void {
  let last = 0;
  for (const [id, v] of fields) {
    const type = v.t === 'bool' ? (v.v ? 1 : 2) : TYPE[v.t];
    if (id > last && id - last <= 15) out.push(((id - last) << 4) | type);
    else {
      out.push(type);
      varint(zigzag(BigInt(id)), out);
    }
    if (v.t !== 'bool') writeValue(v, out);
    last = id;
  }
  out.push(0);
}

export function thrift(fields: TField[]): Buffer {
  const out: number[] = [];
  writeStruct(fields, out);
  return Buffer.from(out);
}

const i32 = (v: number): TValue => ({ t: 'i32', v });
const i64 = (v: number | bigint): TValue => ({ t: 'i64', v });
const bin = (v: string | Buffer): TValue => ({ t: 'bin', v });
const struct = (v: TField[]): TValue => ({ t: 'struct', v });

// ---- Parquet ----

export const PQ = {
  INT32: 1,
  INT64: 2,
  DOUBLE: 5,
  BYTE_ARRAY: 6,
  REQUIRED: 0,
  OPTIONAL: 1,
  PLAIN: 0,
  RLE: 3,
  RLE_DICTIONARY: 8,
  UNCOMPRESSED: 0,
  ZSTD: 6,
  DATA_PAGE: 0,
  DICTIONARY_PAGE: 2,
} as const;

/** A schema element (a leaf has a type; a group has children). */
export interface PqSchemaElement {
  name: string;
  type?: number;
  repetition?: number;
  children?: number;
}

export function schemaElement(e: PqSchemaElement): TValue {
  const f: TField[] = [];
  if (e.type !== undefined) f.push([1, i32(e.type)]);
  if (e.repetition !== undefined) f.push([3, i32(e.repetition)]);
  f.push([4, bin(e.name)]);
  if (e.children !== undefined) f.push([5, i32(e.children)]);
  return struct(f);
}

/** A page: its header (Thrift) then its bytes. */
export function pqPage(p: {
  type?: number;
  values: number;
  data: Buffer;
  uncompressed?: number;
  encoding?: number;
}): Buffer {
  const type = p.type ?? PQ.DATA_PAGE;
  const fields: TField[] = [
    [1, i32(type)],
    [2, i32(p.uncompressed ?? p.data.length)],
    [3, i32(p.data.length)],
  ];
  if (type === PQ.DICTIONARY_PAGE)
    fields.push([
      7,
      struct([
        [1, i32(p.values)],
        [2, i32(PQ.PLAIN)],
      ]),
    ]);
  else
    fields.push([
      5,
      struct([
        [1, i32(p.values)],
        [2, i32(p.encoding ?? PQ.PLAIN)],
        [3, i32(PQ.RLE)],
        [4, i32(PQ.RLE)],
      ]),
    ]);
  return Buffer.concat([thrift(fields), p.data]);
}

export const plainInt32 = (xs: number[]): Buffer => {
  const b = Buffer.alloc(4 * xs.length);
  xs.forEach((x, i) => b.writeInt32LE(x, 4 * i));
  return b;
};
export const plainDouble = (xs: number[]): Buffer => {
  const b = Buffer.alloc(8 * xs.length);
  xs.forEach((x, i) => b.writeDoubleLE(x, 8 * i));
  return b;
};

/** An RLE run of `count` copies of `value` (bit width ≤ 8), as an RLE/bit-packed hybrid stream. */
export function rleRun(count: number, value: number): Buffer {
  const out: number[] = [];
  varint(BigInt(count) << 1n, out);
  out.push(value);
  return Buffer.from(out);
}

export interface PqColumn {
  name: string;
  type: number;
  /** The column chunk: its pages, headers included. */
  pages: Buffer;
  codec?: number;
  /** num_values of the column metadata (default: the group's rows). */
  values?: number;
  dictionary?: boolean;
}

export interface PqGroup {
  rows: number | bigint;
  columns: PqColumn[];
}

/**
 * A Parquet file: "PAR1", the groups' column chunks, the footer. `schema` replaces the flat schema
 * built from the first group's columns; `numRows` the sum of the groups' rows.
 */
export function parquetFile(opts: { groups: PqGroup[]; schema?: TValue[]; numRows?: number | bigint }): Buffer {
  const parts: Buffer[] = [Buffer.from('PAR1')];
  let at = 4;
  const groups: TValue[] = [];
  for (const g of opts.groups) {
    const chunks: TValue[] = [];
    for (const c of g.columns) {
      const offset = at;
      parts.push(c.pages);
      at += c.pages.length;
      const meta: TField[] = [
        [1, i32(c.type)],
        [2, { t: 'list', elem: 'i32', v: [i32(PQ.PLAIN), i32(PQ.RLE)] }],
        [3, { t: 'list', elem: 'bin', v: [bin(c.name)] }],
        [4, i32(c.codec ?? PQ.UNCOMPRESSED)],
        [5, i64(c.values ?? g.rows)],
        [6, i64(c.pages.length)],
        [7, i64(c.pages.length)],
        [9, i64(offset)],
      ];
      if (c.dictionary) meta.push([11, i64(offset)]);
      chunks.push(
        struct([
          [2, i64(offset)],
          [3, struct(meta)],
        ]),
      );
    }
    groups.push(
      struct([
        [1, { t: 'list', elem: 'struct', v: chunks }],
        [2, i64(at)],
        [3, i64(g.rows)],
      ]),
    );
  }
  const first = opts.groups[0]?.columns ?? [];
  const schema = opts.schema ?? [
    schemaElement({ name: 'schema', children: first.length }),
    ...first.map((c) => schemaElement({ name: c.name, type: c.type, repetition: PQ.REQUIRED })),
  ];
  const rows = opts.numRows ?? opts.groups.reduce((s, g) => s + BigInt(g.rows), 0n);
  const footer = thrift([
    [1, i32(1)],
    [2, { t: 'list', elem: 'struct', v: schema }],
    [3, i64(rows)],
    [4, { t: 'list', elem: 'struct', v: groups }],
  ]);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(footer.length);
  parts.push(footer, len, Buffer.from('PAR1'));
  return Buffer.concat(parts);
}

/** The rows of a small valid classification table (label, pred, prob_0, prob_1). */
export function classificationRows(n: number): { label: number[]; pred: number[]; p0: number[] } {
  const label: number[] = [];
  const pred: number[] = [];
  const p0: number[] = [];
  for (let i = 0; i < n; i++) {
    label.push(i % 2);
    pred.push(i % 3 === 0 ? 1 - (i % 2) : i % 2);
    p0.push(pred[i] === 0 ? 0.75 : 0.25);
  }
  return { label, pred, p0 };
}

/** The columns of rows [from, to) of {@link classificationRows}, plain and uncompressed. */
export function classificationColumns(n: number, from = 0, to = n, rows = classificationRows(n)): PqColumn[] {
  const { label, pred, p0 } = rows;
  const k = to - from;
  return [
    { name: 'label', type: PQ.INT32, pages: pqPage({ values: k, data: plainInt32(label.slice(from, to)) }) },
    { name: 'pred', type: PQ.INT32, pages: pqPage({ values: k, data: plainInt32(pred.slice(from, to)) }) },
    { name: 'prob_0', type: PQ.DOUBLE, pages: pqPage({ values: k, data: plainDouble(p0.slice(from, to)) }) },
    {
      name: 'prob_1',
      type: PQ.DOUBLE,
      pages: pqPage({ values: k, data: plainDouble(p0.slice(from, to).map((p) => 1 - p)) }),
    },
  ];
}

/** A valid classification Parquet file of `n` rows in groups of `perGroup` rows. */
export function classificationParquet(n: number, perGroup = n): Buffer {
  const rows = classificationRows(n);
  const groups: PqGroup[] = [];
  for (let from = 0; from < n; from += perGroup) {
    const to = Math.min(n, from + perGroup);
    groups.push({ rows: to - from, columns: classificationColumns(n, from, to, rows) });
  }
  return parquetFile({ groups });
}

/** A label column whose one data page is a dictionary run: `values` rows, one RLE run of `run`. */
export function dictionaryRunColumn(values: number, run: number, name = 'label'): PqColumn {
  const dict = pqPage({ type: PQ.DICTIONARY_PAGE, values: 2, data: plainInt32([0, 1]) });
  const data = pqPage({
    values,
    encoding: PQ.RLE_DICTIONARY,
    data: Buffer.concat([Buffer.from([1]), rleRun(run, 1)]),
  });
  return { name, type: PQ.INT32, pages: Buffer.concat([dict, data]), dictionary: true };
}

/** A zstd frame declaring `size` bytes of content, holding one RLE block of one byte. */
export function zstdFrameDeclaring(size: number): Buffer {
  const b = Buffer.alloc(4 + 1 + 4 + 3 + 1);
  b.writeUInt32LE(0xfd2fb528, 0);
  b[4] = 0xa0; // single segment, 4-byte frame content size
  b.writeUInt32LE(size, 5);
  const h = (1 << 3) | (1 << 1) | 1; // an RLE block of 1 byte, the last
  b[9] = h & 0xff;
  b[10] = (h >> 8) & 0xff;
  b[11] = h >> 16;
  b[12] = 0x61;
  return b;
}

/** The bombs of issue 31, item 4 (each a file of a few KB at most). */
export function parquetBombs(): { name: string; bytes: Buffer }[] {
  const big = 2 ** 31 - 1;
  const small = classificationColumns(4);
  return [
    {
      // a row group of 2³¹ − 1 rows whose pages hold 4 values
      name: 'row-group-2e31.parquet',
      bytes: parquetFile({ groups: [{ rows: big, columns: small }] }),
    },
    {
      // a dictionary page then one RLE run of 2³¹ − 1 values
      name: 'dictionary-run.parquet',
      bytes: parquetFile({
        groups: [{ rows: big, columns: [dictionaryRunColumn(big, big), dictionaryRunColumn(big, big, 'pred')] }],
      }),
    },
    {
      // the same run in a row group that declares 4 rows
      name: 'dictionary-run-small-group.parquet',
      bytes: parquetFile({
        groups: [{ rows: 4, columns: [dictionaryRunColumn(4, big), dictionaryRunColumn(4, 4, 'pred')] }],
      }),
    },
    {
      // 134 M rows declared by 8 row groups of 2²⁴ rows
      name: 'rows-134M.parquet',
      bytes: parquetFile({
        groups: Array.from({ length: 8 }, () => ({ rows: 2 ** 24, columns: classificationColumns(4) })),
      }),
    },
    {
      // a page of 1 KB once decompressed, holding four zstd frames that declare 256 MB each
      name: 'zstd-frames.parquet',
      bytes: parquetFile({
        groups: [
          {
            rows: 4,
            columns: [
              {
                name: 'label',
                type: PQ.INT32,
                codec: PQ.ZSTD,
                pages: pqPage({
                  values: 4,
                  uncompressed: 1024,
                  data: Buffer.concat(Array.from({ length: 4 }, () => zstdFrameDeclaring(256 * 2 ** 20))),
                }),
              },
              classificationColumns(4)[1]!,
            ],
          },
        ],
      }),
    },
  ];
}

// ---- NumPy .npy and zip ----

/** A .npy file (format 1.0) with the given header dict text and data. */
export function npyBytes(header: string, data: Buffer): Buffer {
  let h = header;
  const pad = 64 - ((10 + h.length + 1) % 64);
  h += ' '.repeat(pad % 64) + '\n';
  const b = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(b);
  b.writeUInt16LE(h.length, 8);
  return Buffer.concat([b, Buffer.from(h, 'latin1'), data]);
}

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Deflate the data (else stored). */
  deflate?: boolean;
  /** Declared uncompressed size (default: the data's). */
  size?: number;
  /** The compressed bytes to store instead of compressing `data` (with `deflate`). */
  raw?: Buffer;
}

/**
 * A zip archive. `aliases` adds central-directory entries (name → index of the entry whose local
 * header they point at); `extraLength` sets the extra-field length of the first directory entry.
 */
export function zipBytes(
  entries: ZipEntry[],
  opts: { aliases?: [string, number][]; extraLength?: number } = {},
): Buffer {
  const locals: Buffer[] = [];
  const dir: Buffer[] = [];
  const at: { offset: number; crc: number; csize: number; size: number; method: number }[] = [];
  let offset = 0;
  for (const e of entries) {
    const comp = e.raw ?? (e.deflate ? deflateRawSync(e.data) : e.data);
    const method = e.deflate ? 8 : 0;
    const size = e.size ?? e.data.length;
    const crc = crc32(e.data) >>> 0;
    const name = Buffer.from(e.name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(method, 8);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(comp.length, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(name.length, 26);
    locals.push(h, name, comp);
    at.push({ offset, crc, csize: comp.length, size, method });
    offset += 30 + name.length + comp.length;
  }
  const central = (name: string, k: number, first: boolean): Buffer => {
    const a = at[k]!;
    const n = Buffer.from(name);
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(20, 6);
    h.writeUInt16LE(a.method, 10);
    h.writeUInt32LE(a.crc, 16);
    h.writeUInt32LE(a.csize, 20);
    h.writeUInt32LE(a.size, 24);
    h.writeUInt16LE(n.length, 28);
    h.writeUInt16LE(first && opts.extraLength !== undefined ? opts.extraLength : 0, 30);
    h.writeUInt32LE(a.offset, 42);
    return Buffer.concat([h, n]);
  };
  entries.forEach((e, k) => dir.push(central(e.name, k, k === 0)));
  for (const [name, k] of opts.aliases ?? []) dir.push(central(name, k, false));
  const dirBytes = Buffer.concat(dir);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(dir.length, 8);
  eocd.writeUInt16LE(dir.length, 10);
  eocd.writeUInt32LE(dirBytes.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dirBytes, eocd]);
}

/** The .npz bombs of issue 31, item 4. */
export function npzBombs(): { name: string; bytes: Buffer }[] {
  // a uint8 array of 8 M zeros deflates to about 8 KB; 41 directory entries point at it
  const zeros = npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (8388608,), }", Buffer.alloc(8 * 2 ** 20));
  const overlap = zipBytes([{ name: 'y_true.npy', data: zeros, deflate: true }], {
    aliases: Array.from({ length: 40 }, (_, i): [string, number] => [`a${i}.npy`, 0]),
  });
  // a member declaring 1 KB that inflates to 256 MB
  const huge = npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (268435456,), }", Buffer.alloc(0));
  const body = deflateRawSync(Buffer.concat([huge, Buffer.alloc(256 * 2 ** 20)]), { level: 1 });
  const inflate = zipBytes([{ name: 'y_true.npy', data: Buffer.alloc(1024), deflate: true, raw: body, size: 1024 }]);
  return [
    { name: 'overlapping-entries.npz', bytes: overlap },
    { name: 'inflate-256MB.npz', bytes: inflate },
  ];
}
