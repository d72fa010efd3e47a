// A minimal Parquet writer for tests whose values no fixture holds (no writer is installed): one row
// group, REQUIRED top-level columns, one uncompressed PLAIN data page each, the footer in Thrift's
// compact protocol (Apache Parquet format, parquet.thrift). Enough for INT64 (signed, UINT_64,
// timestamps), DOUBLE and UTF-8 columns, and DECIMAL(38, 0) as a 16-byte FIXED_LEN_BYTE_ARRAY.

export interface TinyColumn {
  name: string;
  type: 'INT64' | 'DOUBLE' | 'UTF8' | 'DECIMAL128';
  /** parquet.thrift ConvertedType: 5 DECIMAL, 10 TIMESTAMP_MICROS, 14 UINT_64, 18 INT_64. */
  convertedType?: number;
  /** A TIMESTAMP logical type in nanoseconds (no converted type exists for it). */
  timestampNanos?: boolean;
  values: readonly (bigint | number | string)[];
}

class Compact {
  readonly bytes: number[] = [];
  private last: number[] = [0];

  varint(v: bigint): void {
    let x = v;
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x !== 0n) b |= 0x80;
      this.bytes.push(b);
    } while (x !== 0n);
  }
  zigzag(v: number | bigint): void {
    const x = BigInt(v);
    this.varint(x >= 0n ? x << 1n : (-x << 1n) - 1n);
  }
  private field(id: number, type: number): void {
    const delta = id - this.last[this.last.length - 1]!;
    if (delta > 0 && delta <= 15) this.bytes.push((delta << 4) | type);
    else {
      this.bytes.push(type);
      this.zigzag(id);
    }
    this.last[this.last.length - 1] = id;
  }
  i32(id: number, v: number): void {
    this.field(id, 5);
    this.zigzag(v);
  }
  i64(id: number, v: number | bigint): void {
    this.field(id, 6);
    this.zigzag(v);
  }
  bool(id: number, v: boolean): void {
    this.field(id, v ? 1 : 2);
  }
  binary(id: number, s: string): void {
    this.field(id, 8);
    const b = Buffer.from(s, 'utf8');
    this.varint(BigInt(b.length));
    this.bytes.push(...b);
  }
  struct(id: number, body: () => void): void {
    this.field(id, 12);
    this.begin(body);
  }
  /** A list of structs (`each` writes one element's fields) or of i32/strings. */
  list<T>(id: number, elemType: number, items: readonly T[], each: (x: T) => void): void {
    this.field(id, 9);
    if (items.length < 15) this.bytes.push((items.length << 4) | elemType);
    else {
      this.bytes.push(0xf0 | elemType);
      this.varint(BigInt(items.length));
    }
    for (const x of items) each(x);
  }
  begin(body: () => void): void {
    this.last.push(0);
    body();
    this.bytes.push(0);
    this.last.pop();
  }
}

function plainValues(c: TinyColumn): Buffer {
  if (c.type === 'UTF8')
    return Buffer.concat(
      c.values.map((v) => {
        const s = Buffer.from(String(v), 'utf8');
        const len = Buffer.alloc(4);
        len.writeUInt32LE(s.length);
        return Buffer.concat([len, s]);
      }),
    );
  if (c.type === 'DECIMAL128') {
    // big-endian two's complement in 16 bytes
    const out = Buffer.alloc(16 * c.values.length);
    c.values.forEach((v, i) => {
      const x = BigInt.asUintN(128, BigInt(v));
      out.writeBigUInt64BE(x >> 64n, 16 * i);
      out.writeBigUInt64BE(x & (2n ** 64n - 1n), 16 * i + 8);
    });
    return out;
  }
  const out = Buffer.alloc(8 * c.values.length);
  c.values.forEach((v, i) => {
    if (c.type === 'DOUBLE') out.writeDoubleLE(Number(v), 8 * i);
    else out.writeBigUInt64LE(BigInt.asUintN(64, BigInt(v)), 8 * i);
  });
  return out;
}

const PHYSICAL = { INT64: 2, DOUBLE: 5, UTF8: 6, DECIMAL128: 7 } as const;

/** The bytes of a Parquet file of `columns` (all of the same length). */
export function tinyParquet(columns: readonly TinyColumn[]): Buffer {
  const n = columns[0]!.values.length;
  const parts: Buffer[] = [Buffer.from('PAR1')];
  let offset = 4;
  const chunks: { c: TinyColumn; offset: number; size: number }[] = [];
  for (const c of columns) {
    const data = plainValues(c);
    const h = new Compact();
    h.begin(() => {
      h.i32(1, 0); // DATA_PAGE
      h.i32(2, data.length);
      h.i32(3, data.length);
      h.struct(5, () => {
        h.i32(1, n);
        h.i32(2, 0); // PLAIN
        h.i32(3, 3); // RLE
        h.i32(4, 3);
      });
    });
    const page = Buffer.concat([Buffer.from(h.bytes), data]);
    chunks.push({ c, offset, size: page.length });
    parts.push(page);
    offset += page.length;
  }
  const f = new Compact();
  f.begin(() => {
    f.i32(1, 1);
    f.list(2, 12, [null, ...columns], (c) =>
      f.begin(() => {
        if (c === null) {
          f.binary(4, 'schema');
          f.i32(5, columns.length);
          return;
        }
        f.i32(1, PHYSICAL[c.type]);
        if (c.type === 'DECIMAL128') f.i32(2, 16); // type_length
        f.i32(3, 0); // REQUIRED
        f.binary(4, c.name);
        const converted = c.type === 'UTF8' ? 0 : c.type === 'DECIMAL128' ? 5 : c.convertedType;
        if (converted !== undefined) f.i32(6, converted);
        if (converted === 5) {
          f.i32(7, 0); // scale
          f.i32(8, c.type === 'DECIMAL128' ? 38 : 18); // precision
        }
        if (c.timestampNanos)
          f.struct(10, () =>
            f.struct(8, () => {
              f.bool(1, true);
              f.struct(2, () => f.struct(3, () => undefined));
            }),
          );
      }),
    );
    f.i64(3, n);
    f.list(4, 12, [0], () =>
      f.begin(() => {
        f.list(1, 12, chunks, (k) =>
          f.begin(() => {
            f.i64(2, k.offset);
            f.struct(3, () => {
              f.i32(1, PHYSICAL[k.c.type]);
              f.list(2, 5, [0], (e) => f.zigzag(e));
              f.list(3, 8, [k.c.name], (s) => {
                const b = Buffer.from(s, 'utf8');
                f.varint(BigInt(b.length));
                f.bytes.push(...b);
              });
              f.i32(4, 0); // UNCOMPRESSED
              f.i64(5, n);
              f.i64(6, k.size);
              f.i64(7, k.size);
              f.i64(9, k.offset);
            });
          }),
        );
        f.i64(2, offset - 4);
        f.i64(3, n);
      }),
    );
  });
  const footer = Buffer.from(f.bytes);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(footer.length);
  return Buffer.concat([...parts, footer, len, Buffer.from('PAR1')]);
}
