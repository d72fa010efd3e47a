/**
 * The ids of a file's rows (its `id` column), kept in the smaller of two forms:
 *
 * - **numbers**, when every id is an integer written in canonical decimal form (`0`, `17`, `-3`;
 *   no sign `+`, no leading zero, at most 15 digits, so that `String(value)` gives back the text
 *   exactly): 8 bytes a row in one Float64Array, which worker threads share without copying;
 * - **texts** otherwise: one string a row.
 *
 * A JavaScript string costs about 32 bytes plus an 8-byte slot in its array, and building ten
 * million of them took longer than computing every metric of the file; most prediction files
 * number their rows, so the numeric form is the common one. Two ids are the same when their texts
 * are the same, in either form (`"007"` and `"7"` are different ids: `"007"` is not canonical and
 * keeps its text).
 */

/** True when `text` is an integer in canonical decimal form (see the module comment). */
export function isCanonicalInteger(text: string): boolean {
  const n = text.length;
  if (n === 0) return false;
  let k = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const digits = n - k;
  if (digits < 1 || digits > 15) return false;
  if (text.charCodeAt(k) === 48 /* 0 */) return digits === 1 && k === 0;
  for (; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The value of the canonical integer in `buf[start, end)`, or NaN when those bytes are not one
 * (same rule as {@link isCanonicalInteger}, read from the bytes without making a string).
 */
export function canonicalIntegerOfBytes(buf: Uint8Array, start: number, end: number): number {
  let k = start;
  let sign = 1;
  if (k < end && buf[k] === 45) {
    sign = -1;
    k++;
  }
  const digits = end - k;
  if (digits < 1 || digits > 15) return NaN;
  if (buf[k] === 48) return digits === 1 && sign === 1 ? 0 : NaN;
  let v = 0;
  for (; k < end; k++) {
    const d = buf[k] - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return sign * v;
}

export class RowIds {
  private constructor(
    /** Every id as a number (all ids are canonical integers), else null. */
    readonly numbers: Float64Array | null,
    /** Every id as text, when they are not all canonical integers; else null. */
    readonly texts: readonly string[] | null,
  ) {}

  /** Ids that are all canonical integers. */
  static ofNumbers(values: Float64Array): RowIds {
    return new RowIds(values, null);
  }

  /** Ids as texts, kept as numbers when every one is a canonical integer. */
  static ofTexts(texts: readonly string[]): RowIds {
    if (texts.length > 0 && texts.every(isCanonicalInteger)) return new RowIds(Float64Array.from(texts, Number), null);
    return new RowIds(null, texts);
  }

  get length(): number {
    return this.numbers ? this.numbers.length : this.texts!.length;
  }

  /** The id of row `i` as written. */
  at(i: number): string {
    return this.numbers ? String(this.numbers[i]) : this.texts![i];
  }

  /** The ids of `rows`, in that order. */
  select(rows: ArrayLike<number>): RowIds {
    if (this.numbers) {
      const out = new Float64Array(rows.length);
      for (let k = 0; k < rows.length; k++) out[k] = this.numbers[rows[k]];
      return new RowIds(out, null);
    }
    const t = this.texts!;
    return new RowIds(
      null,
      Array.from({ length: rows.length }, (_, k) => t[rows[k]]),
    );
  }

  /** Every id as text (for small lists: a JSON table, a test). */
  toArray(): string[] {
    return this.numbers ? Array.from(this.numbers, String) : this.texts!.slice();
  }

  /** In JSON, ids are their texts as written (the form of `perItem.ids` in results of earlier versions). */
  toJSON(): string[] {
    return this.toArray();
  }
}

/** A 32-bit hash of an integer-valued double (for open-addressing tables of numeric ids). */
export function numberHash(v: number): number {
  const lo = v | 0;
  const hi = (v / 4294967296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b);
}
