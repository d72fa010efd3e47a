/**
 * The class of a label or prediction cell found from its UTF-8 bytes, so that the byte scanner
 * builds no string for a class name it has already met (a file of 200,000 rows has 400,000 such
 * cells but only as many distinct spellings as classes). A spelling not met before is decoded once
 * and its class found by the caller's rule on the text; only spellings that name a class are
 * remembered, so a bad cell always takes the caller's full path (which reports it).
 *
 * Open addressing over a power-of-two table of [FNV-1a hash, pool offset, length, class], sized
 * once for at most two spellings per class (load ≤ 1/2; later spellings are decoded each time:
 * the same result, slower); the bytes of each spelling are kept in one pool.
 */
import { FNV_OFFSET, FNV_PRIME } from './ranking/byteInterner';

export class ClassOfBytes {
  private readonly table: Int32Array;
  private readonly mask: number;
  private readonly maxSpellings: number;
  private count = 0;
  private pool = new Uint8Array(4096);
  private poolUsed = 0;

  /** `classOf(text)`: the class of a cell's text, or -1 when it names none. */
  constructor(
    classes: number,
    private readonly classOf: (text: string) => number,
  ) {
    this.maxSpellings = 2 * Math.max(8, classes);
    let slots = 16;
    while (slots < 2 * this.maxSpellings) slots *= 2;
    this.table = new Int32Array(4 * slots);
    this.mask = slots - 1;
  }

  /** The class of the cell whose bytes are `buf[start, end)`, or -1 when it names none. */
  get(buf: Uint8Array, start: number, end: number): number {
    const len = end - start;
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
    const table = this.table;
    const pool = this.pool;
    let slot = h & this.mask;
    for (;;) {
      const at = slot << 2;
      if (table[at + 3] === 0) break; // empty: the class is stored plus one
      if (table[at] === h && table[at + 2] === len) {
        const s = table[at + 1];
        let i = 0;
        while (i < len && pool[s + i] === buf[start + i]) i++;
        if (i === len) return table[at + 3] - 1;
      }
      slot = (slot + 1) & this.mask;
    }
    const c = this.classOf(Buffer.from(buf.buffer, buf.byteOffset + start, len).toString('utf8'));
    if (c >= 0 && this.count < this.maxSpellings) this.remember(slot, h, buf, start, len, c);
    return c;
  }

  private remember(slot: number, h: number, buf: Uint8Array, start: number, len: number, c: number): void {
    while (this.poolUsed + len > this.pool.length) {
      const b = new Uint8Array(this.pool.length * 2);
      b.set(this.pool);
      this.pool = b;
    }
    this.pool.set(buf.subarray(start, start + len), this.poolUsed);
    const at = slot << 2;
    this.table[at] = h;
    this.table[at + 1] = this.poolUsed;
    this.table[at + 2] = len;
    this.table[at + 3] = c + 1;
    this.poolUsed += len;
    this.count++;
  }
}
