/**
 * The ids of a file read on a worker thread (./trainAhead.ts): numbered in the order the file
 * first mentions them, and kept as they were met (the bytes of the byte scanner, or the text of
 * the general path, which decoded quotes) without building a string or a map entry per id from
 * bytes. The calling thread then interns them in that order into its indices ({@link globalIds}),
 * mostly by their bytes (the run already met most of them), which gives every id the integer one
 * thread reading every file in turn would give.
 */
import { IdIndex } from '../../data/rankingData';
import { byteInternerOf, ByteInterner, setByteInterner, type ByteIdSink } from './byteInterner';
import { IntVec } from './builders';

/** The ids as they cross threads: id j is `pool[starts[j], starts[j] + lens[j])`, or `texts[-1 - lens[j]]`. */
export interface PieceIdList {
  pool: Uint8Array;
  starts: Int32Array;
  lens: Int32Array;
  texts: string[];
}

/**
 * Used as the worker's IdIndex and as its byte interner's sink: the general path's ids (text) and
 * the byte interner's misses (bytes) share one numbering.
 */
export class PieceIds extends IdIndex implements ByteIdSink {
  private readonly byText = new Map<string, number>();
  private count = 0;
  private pool = new Uint8Array(1 << 16);
  private poolUsed = 0;
  private readonly starts = new IntVec(1 << 12);
  private readonly lens = new IntVec(1 << 12);
  private readonly texts: string[] = [];

  /** Its byte interner numbers new ids here, in the same sequence as the text ids. */
  constructor() {
    super();
    setByteInterner(this, new ByteInterner(this, this));
  }

  override get size(): number {
    return this.count;
  }

  /** The number of an id met as text (the general path). */
  override intern(id: string): number {
    let k = this.byText.get(id);
    if (k === undefined) {
      k = this.count++;
      this.byText.set(id, k);
      this.starts.push(0);
      this.lens.push(-1 - this.texts.length);
      this.texts.push(id);
    }
    return k;
  }

  override get(id: string): number {
    return this.byText.get(id) ?? -1;
  }

  /** A new number for an id met as bytes that its byte interner has not seen. */
  addBytes(buf: Uint8Array, start: number, len: number): number {
    while (this.poolUsed + len > this.pool.length) {
      const b = new Uint8Array(this.pool.length * 2);
      b.set(this.pool.subarray(0, this.poolUsed));
      this.pool = b;
    }
    // A loop, not set(subarray): ids are a few bytes, and a view object each cost more than the copy.
    const pool = this.pool;
    for (let i = 0, w = this.poolUsed; i < len; i++) pool[w + i] = buf[start + i];
    this.starts.push(this.poolUsed);
    this.lens.push(len);
    this.poolUsed += len;
    return this.count++;
  }

  list(): PieceIdList {
    return {
      pool: this.pool.slice(0, this.poolUsed),
      starts: this.starts.toArray(),
      lens: this.lens.toArray(),
      texts: this.texts,
    };
  }
}

/** The integer in `index` of each id of `ids`, interned in their order. */
export function globalIds(ids: PieceIdList, index: IdIndex): Int32Array {
  const bytes = byteInternerOf(index);
  const { starts, lens, texts } = ids;
  // A Buffer over the pool: a new id is decoded from it without a view object per id.
  const pool = Buffer.from(ids.pool.buffer, ids.pool.byteOffset, ids.pool.length);
  const out = new Int32Array(lens.length);
  // Each id comes once: the table helps only if an earlier file filled it (the items of a run),
  // and is not filled for nothing otherwise (the users of a JSONL run were not put in it).
  const once = bytes.empty;
  for (let j = 0; j < out.length; j++) {
    const len = lens[j];
    if (len < 0) out[j] = index.intern(texts[-1 - len]);
    else
      out[j] = once
        ? bytes.internOnce(pool, starts[j], starts[j] + len)
        : bytes.intern(pool, starts[j], starts[j] + len);
  }
  return out;
}
