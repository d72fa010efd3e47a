/**
 * Interns ids straight from their UTF-8 bytes, so the fast readers never build a JS string for an
 * id they have seen before (10 million item slots in a 100 MB run, but only ~50,000 distinct
 * items). A miss decodes the bytes once and goes through the shared {@link IdIndex}, so ids read
 * from bytes and ids read as strings (by the slower, general paths) always get the same integer.
 *
 * Open addressing over a power-of-two table, FNV-1a hashes, bytes kept in one pool.
 */
import type { IdIndex } from '../../data/rankingData';

/** FNV-1a 32-bit offset basis and prime (as signed 32-bit integers). */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

export class ByteInterner {
  /**
   * Open-addressing table, 4 ints a slot so that a probe touches one cache line:
   * [hash, length, pool offset, value + 1] (value + 1 = 0 marks an empty slot).
   */
  private table: Int32Array;
  private mask: number;
  private count = 0;
  private pool = new Uint8Array(1 << 16);
  private poolUsed = 0;

  constructor(readonly index: IdIndex) {
    this.table = new Int32Array(4 << 12);
    this.mask = (1 << 12) - 1;
  }

  /** The integer of the id whose UTF-8 bytes are `buf[start, end)`. */
  intern(buf: Uint8Array, start: number, end: number): number {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
    return this.internHashed(buf, start, end, h);
  }

  /** As {@link intern}, with the FNV-1a hash `h` of the bytes already computed by the caller's scan. */
  internHashed(buf: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    const table = this.table;
    const pool = this.pool;
    let slot = h & this.mask;
    for (;;) {
      const at = slot << 2;
      const v = table[at + 3];
      if (v === 0) break;
      if (table[at] === h && table[at + 1] === len) {
        const s = table[at + 2];
        let i = 0;
        while (i < len && pool[s + i] === buf[start + i]) i++;
        if (i === len) return v - 1;
      }
      slot = (slot + 1) & this.mask;
    }
    const value = this.index.intern(Buffer.from(buf.buffer, buf.byteOffset + start, len).toString('utf8'));
    this.insert(slot, h, buf, start, len, value);
    return value;
  }

  private insert(slot: number, h: number, buf: Uint8Array, start: number, len: number, value: number): void {
    while (this.poolUsed + len > this.pool.length) {
      const b = new Uint8Array(this.pool.length * 2);
      b.set(this.pool);
      this.pool = b;
    }
    this.pool.set(buf.subarray(start, start + len), this.poolUsed);
    const at = slot << 2;
    this.table[at] = h;
    this.table[at + 1] = len;
    this.table[at + 2] = this.poolUsed;
    this.table[at + 3] = value + 1;
    this.poolUsed += len;
    this.count++;
    if (this.count * 2 > this.mask + 1) this.rehash();
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
      table.set(old.subarray(at, at + 4), slot << 2);
    }
    this.table = table;
    this.mask = mask;
  }
}
