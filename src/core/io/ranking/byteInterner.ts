/**
 * Interns ids straight from their UTF-8 bytes, so the fast readers never build a JS string for an
 * id they have seen before (10 million item slots in a 100 MB run, but only ~50,000 distinct
 * items). A miss decodes the bytes once and goes through the shared {@link IdIndex}, so ids read
 * from bytes and ids read as strings (by the slower, general paths) always get the same integer.
 *
 * Open addressing over a power-of-two table, bytes of long ids kept in one pool. An id of at most
 * 8 bytes (the common case: "i12345", "u000042") is packed into two 32-bit words, which are its
 * key and, mixed, its hash: no per-byte hashing and no second read of the bytes. Longer ids are
 * hashed with FNV-1a. Which scheme an id gets depends only on its length, so an id always hashes
 * the same way whatever reader met it.
 */
import type { IdIndex } from '../../data/rankingData';
// FNV-1a's offset basis and prime, for ids longer than 8 bytes.
import { FNV_OFFSET, FNV_PRIME } from '../../data/stringIndex';

/** The hash of a packed short id (murmur3's finaliser over the two words and the length). */
export function shortIdHash(w0: number, w1: number, len: number): number {
  let h = Math.imul(w0, 0x9e3779b1) ^ Math.imul(w1 + len, 0x85ebca77);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  return h ^ (h >>> 16);
}

const shared = new WeakMap<IdIndex, ByteInterner>();

/**
 * The byte interner of `index`, shared by every reader of one evaluation: the train file then
 * finds the users and items the run already met without decoding their bytes again.
 */
export function byteInternerOf(index: IdIndex): ByteInterner {
  let b = shared.get(index);
  if (!b) shared.set(index, (b = new ByteInterner(index)));
  return b;
}

/**
 * Makes `interner` the one {@link byteInternerOf} gives for `index` (a worker thread's indices
 * whose new ids are numbered by a {@link ByteIdSink}).
 */
export function setByteInterner(index: IdIndex, interner: ByteInterner): void {
  shared.set(index, interner);
}

/**
 * Forgets the byte interner of `index` once every file is read: its table (16 bytes a slot, about
 * 6 MB for 100,000 users and 50,000 items) would otherwise live as long as the index, through the
 * whole evaluation, unused.
 */
export function releaseByteInterner(index: IdIndex): void {
  shared.delete(index);
}

/** Numbers the ids a byte interner meets for the first time without decoding them (./pieceIds.ts). */
export interface ByteIdSink {
  addBytes(buf: Uint8Array, start: number, len: number): number;
}

export class ByteInterner {
  /**
   * Open-addressing table (load ≤ 3/4), 4 ints a slot so that a probe touches one cache line:
   * [hash, w0, w1, meta]. An id of ≤ 8 bytes is stored in the slot itself (its bytes packed
   * little-endian into w0, w1; meta = (value + 1) << 4 | length), so finding it never reads the
   * byte pool; a longer id has w0 = pool offset, w1 = length, meta = (value + 1) << 4 | 15.
   * meta = 0 marks an empty slot.
   */
  private table: Int32Array;
  private mask: number;
  private count = 0;
  private pool = new Uint8Array(1 << 16);
  private poolUsed = 0;

  /**
   * `sink`: numbers new ids instead of `index` (one class either way, so that the hot loops that
   * call it see one shape).
   */
  constructor(
    readonly index: IdIndex,
    private readonly sink: ByteIdSink | null = null,
  ) {
    this.table = new Int32Array(4 << 12);
    this.mask = (1 << 12) - 1;
  }

  /** True while no id has been interned through the table. */
  get empty(): boolean {
    return this.count === 0;
  }

  /**
   * The integer of the id whose UTF-8 bytes are `buf[start, end)`, decoded without the table: for
   * ids met once each (the users of a JSONL run, one line each), whose table entries would never
   * be hit but would hold 16 bytes an id plus the garbage of its growth (about 6 MB for 100,000
   * users). The integer is the one {@link intern} gives: both go through the same index.
   */
  internOnce(buf: Uint8Array, start: number, end: number): number {
    // A sink numbers every id it is given as new: only the table knows it met one before.
    if (this.sink !== null) return this.intern(buf, start, end);
    return this.decode(buf, start, end - start);
  }

  /** The integer of the id whose UTF-8 bytes are `buf[start, end)`. */
  intern(buf: Uint8Array, start: number, end: number): number {
    const len = end - start;
    if (len <= 8) {
      let w0 = 0;
      let w1 = 0;
      const m = len < 4 ? len : 4;
      for (let i = 0; i < m; i++) w0 |= buf[start + i] << (i << 3);
      for (let i = 4; i < len; i++) w1 |= buf[start + i] << ((i - 4) << 3);
      return this.internShort(buf, start, len, w0, w1);
    }
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
    return this.internLong(buf, start, end, h);
  }

  /**
   * The integer of a short id (`len` ≤ 8 bytes at `buf[start…]`) whose bytes the caller packed
   * little-endian into `w0` (bytes 0–3) and `w1` (bytes 4–7), zeros beyond the length.
   */
  internShort(buf: Uint8Array, start: number, len: number, w0: number, w1: number): number {
    const h = shortIdHash(w0, w1, len);
    const table = this.table;
    const mask = this.mask;
    let slot = h & mask;
    for (;;) {
      const at = slot << 2;
      const meta = table[at + 3];
      if (meta === 0) break;
      if (table[at + 1] === w0 && table[at + 2] === w1 && (meta & 15) === len) return (meta >>> 4) - 1;
      slot = (slot + 1) & mask;
    }
    const value = this.decode(buf, start, len);
    this.store(slot, h, w0, w1, ((value + 1) << 4) | len);
    return value;
  }

  /** The integer of an id longer than 8 bytes, `h` being the FNV-1a hash of its bytes. */
  internLong(buf: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    const table = this.table;
    const pool = this.pool;
    let slot = h & this.mask;
    for (;;) {
      const at = slot << 2;
      const meta = table[at + 3];
      if (meta === 0) break;
      if (table[at] === h && (meta & 15) === 15 && table[at + 2] === len) {
        const s = table[at + 1];
        let i = 0;
        while (i < len && pool[s + i] === buf[start + i]) i++;
        if (i === len) return (meta >>> 4) - 1;
      }
      slot = (slot + 1) & this.mask;
    }
    const value = this.decode(buf, start, len);
    while (this.poolUsed + len > this.pool.length) {
      const b = new Uint8Array(this.pool.length * 2);
      b.set(this.pool);
      this.pool = b;
    }
    this.pool.set(buf.subarray(start, start + len), this.poolUsed);
    this.store(slot, h, this.poolUsed, len, ((value + 1) << 4) | 15);
    this.poolUsed += len;
    return value;
  }

  private decode(buf: Uint8Array, start: number, len: number): number {
    if (this.sink !== null) return this.sink.addBytes(buf, start, len);
    // Decoded from the buffer itself when it is a Buffer (the read chunk): a Buffer view made for
    // each new id (every user of a run is one) was enough garbage to grow the young generation.
    const text = Buffer.isBuffer(buf)
      ? buf.toString('utf8', start, start + len)
      : Buffer.from(buf.buffer, buf.byteOffset + start, len).toString('utf8');
    const value = this.index.intern(text);
    if (value >= 1 << 27) throw new RangeError('More than 2^27 distinct ids.');
    return value;
  }

  private store(slot: number, h: number, w0: number, w1: number, meta: number): void {
    const at = slot << 2;
    this.table[at] = h;
    this.table[at + 1] = w0;
    this.table[at + 2] = w1;
    this.table[at + 3] = meta;
    this.count++;
    if (this.count * 4 > (this.mask + 1) * 3) this.rehash();
  }

  private rehash(): void {
    const old = this.table;
    const slots = (this.mask + 1) * 2;
    const table = new Int32Array(slots * 4);
    const mask = slots - 1;
    for (let at = 0; at < old.length; at += 4) {
      if (old[at + 3] === 0) continue;
      let slot = old[at] & mask;
      while (table[(slot << 2) + 3] !== 0) slot = (slot + 1) & mask;
      // Four stores, not set(subarray): a view object per entry was most of the rehash's time.
      const to = slot << 2;
      table[to] = old[at];
      table[to + 1] = old[at + 1];
      table[to + 2] = old[at + 2];
      table[to + 3] = old[at + 3];
    }
    this.table = table;
    this.mask = mask;
  }
}
