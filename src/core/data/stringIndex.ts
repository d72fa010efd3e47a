/**
 * Position of each text in a list, for lists of any length: an open-addressing table of positions
 * probed by a 32-bit FNV-1a hash of the text (equal hashes alone decide nothing: the texts are
 * compared). A JavaScript Map holds at most 2^24 (16,777,216) entries and throws past that
 * ("Map maximum size exceeded"); pairing two runs of 30 million rows by id needs more.
 * Memory: 4 bytes a position for the hashes and 8–16 bytes a text for the table.
 */
/** FNV-1a 32-bit offset basis and prime (as signed 32-bit integers). */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/**
 * FNV-1a hash of a text's UTF-16 code units: computed for each id as it is read (in the reading
 * threads of a large file), so that {@link checkDuplicateIds} (io/classificationChecks.ts) compares numbers first.
 */
export function textHash(s: string): number {
  let h = FNV_OFFSET;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), FNV_PRIME);
  return h;
}

/**
 * The slots of an open-addressing table for `n` keys: the smallest power of two that is at least 2n
 * (the table at most half full, so a linear probe ends after a few slots), and 16 at the least.
 */
export function openTableSize(n: number): number {
  let size = 16;
  while (size < 2 * n) size *= 2;
  return size;
}

/**
 * Enters position `i` at its key's slot `at` of an open-addressing table (position + 1; 0 = empty):
 * the first position of a key takes the empty slot, a later one goes to `repeats`. So the table's
 * distinct keys are its positions less its repeats.
 */
export function placeFirst(table: Int32Array, at: number, i: number, repeats: number[]): void {
  if (table[at] === 0) table[at] = i + 1;
  else repeats.push(i);
}

export class StringIndex {
  private readonly table: Int32Array; // position + 1 of the first occurrence of a text; 0 = empty
  private readonly hashes: Int32Array;
  private readonly mask: number;
  /** Distinct texts. */
  readonly size: number;
  /** Positions whose text occurs at an earlier position, in order. */
  readonly repeats: number[] = [];

  constructor(private readonly keys: readonly string[]) {
    const n = keys.length;
    this.table = new Int32Array(openTableSize(n));
    this.mask = this.table.length - 1;
    this.hashes = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const h = textHash(keys[i]);
      this.hashes[i] = h;
      placeFirst(this.table, this.slot(keys[i], h), i, this.repeats);
    }
    this.size = n - this.repeats.length;
  }

  /** The first position of `key`, or -1 when the list does not hold it. */
  indexOf(key: string): number {
    return this.table[this.slot(key, textHash(key))] - 1;
  }

  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  /** The slot holding `key`, else the empty slot where it would go. */
  private slot(key: string, h: number): number {
    for (let at = (h ^ (h >>> 16)) & this.mask; ; at = (at + 1) & this.mask) {
      const r = this.table[at] - 1;
      if (r < 0 || (this.hashes[r] === h && this.keys[r] === key)) return at;
    }
  }
}
