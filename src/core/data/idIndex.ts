/**
 * Position of each id of a {@link RowIds} list, for lists of any length (a JavaScript Map stops
 * at 2^24 entries). Numeric ids are looked up as numbers in an open-addressing table, without a
 * string per row; text ids through {@link StringIndex}. An id is found whatever the form of the
 * list it comes from, since both forms stand for the same texts.
 */
import { isCanonicalInteger, numberHash, type RowIds } from './rowIds';
import { openTableSize, placeFirst, StringIndex } from './stringIndex';

export class IdIndex {
  private readonly numbers: Float64Array | null;
  private readonly table: Int32Array | null; // position + 1 of the first occurrence; 0 = empty
  private readonly mask: number;
  private readonly text: StringIndex | null;
  /** Distinct ids. */
  readonly size: number;
  /** Positions whose id occurs at an earlier position, in order. */
  readonly repeats: number[];

  constructor(ids: RowIds) {
    this.numbers = ids.numbers;
    if (!this.numbers) {
      this.text = new StringIndex(ids.texts!);
      this.table = null;
      this.mask = 0;
      this.size = this.text.size;
      this.repeats = this.text.repeats;
      return;
    }
    this.text = null;
    const n = this.numbers.length;
    this.table = new Int32Array(openTableSize(n));
    this.mask = this.table.length - 1;
    this.repeats = [];
    for (let i = 0; i < n; i++) placeFirst(this.table, this.slot(this.numbers[i]), i, this.repeats);
    this.size = n - this.repeats.length;
  }

  /** The first position of the id written `key`, or -1. */
  indexOf(key: string): number {
    if (this.text) return this.text.indexOf(key);
    return isCanonicalInteger(key) ? this.table![this.slot(Number(key))] - 1 : -1;
  }

  /** The first position of `other`'s id at row `j`, or -1 (numbers compared without text when both lists are numeric). */
  indexOfIdIn(other: RowIds, j: number): number {
    if (this.table && other.numbers) return this.table[this.slot(other.numbers[j])] - 1;
    return this.indexOf(other.at(j));
  }

  /** The slot holding `v`, else the empty slot where it would go. */
  private slot(v: number): number {
    const table = this.table!;
    const numbers = this.numbers!;
    const h = numberHash(v);
    for (let at = (h ^ (h >>> 16)) & this.mask; ; at = (at + 1) & this.mask) {
      const r = table[at] - 1;
      if (r < 0 || numbers[r] === v) return at;
    }
  }
}
