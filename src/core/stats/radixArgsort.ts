/**
 * Stable argsorts of float64 values without a comparator: a least-significant-digit radix sort of
 * order-preserving 64-bit keys of the values' IEEE-754 bits. O(n); on 200,000–1,000,000 values it
 * is several times faster than a native numeric sort followed by a rank lookup per value, and about
 * ten times faster than sorting indices with a comparator.
 *
 * The key of a value is its bit pattern read as an unsigned 64-bit integer (`hi`, `lo` words) and
 * mapped so that unsigned key order is numeric order: a non-negative value gets its sign bit set,
 * a negative value has every bit flipped (the standard mapping, e.g. P. M. Terdiman (2000),
 * "Radix Sort Revisited", http://codercorner.com/RadixSortRevisited.htm). The descending key is the
 * complement of the ascending one. −0 is read as +0, so that the two zeros are one value; NaN gets
 * the largest key (last) in both directions.
 *
 * A pass sorts by one digit and keeps the order of equal digits (a counting sort), so after all
 * passes equal keys keep their input order: ties stay in index order. A pass is skipped when every
 * key has the same digit (common in the high digits of scores in a narrow range).
 */

/** Unsigned 64-bit sort keys as two words. */
export interface SortKeys {
  hi: Uint32Array;
  lo: Uint32Array;
}

export interface SortedKeys extends SortKeys {
  /** Sorted position → input index; equal keys in increasing index. */
  order: Int32Array;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

/** From this many values on, 16-bit digits (4 passes, 65,536 counters each); below, 8-bit digits (8 passes, 256 counters). */
const WIDE_DIGITS_FROM = 1 << 14;

/**
 * Stable argsort of `values`, ascending or (with `descending`) descending, −0 as +0, NaN last in
 * either direction; also returns the values' keys in sorted order (for {@link float64sOfKeys}, and
 * to find runs of equal values without reading the values again). `values` is not modified.
 */
export function float64Argsort(values: Float64Array, descending: boolean): SortedKeys {
  const n = values.length;
  let hi: Uint32Array = new Uint32Array(n);
  let lo: Uint32Array = new Uint32Array(n);
  let order: Int32Array = new Int32Array(n);
  const bits = n >= WIDE_DIGITS_FROM ? 16 : 8;
  const radix = 1 << bits;
  const mask = radix - 1;
  const perWord = 32 / bits;
  const passes = 2 * perWord;
  const count = new Int32Array(passes * radix);
  const raw = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  // descending = the complement of the ascending key
  const flip = descending ? 0xffffffff : 0;
  // One scan: the keys, the identity order and every pass's digit counts. Few separate loops,
  // because each runs unoptimised until the engine compiles it, which dominates a single call.
  for (let i = 0; i < n; i++) {
    const v = values[i];
    let h: number;
    let l: number;
    if (v !== v) {
      h = 0xffffffff; // NaN: the largest key in both directions
      l = 0xffffffff;
    } else if (v === 0) {
      h = 0x80000000 ^ flip; // −0 and +0: the key of +0
      l = flip;
    } else {
      h = raw[2 * i + HI];
      l = raw[2 * i + LO];
      if (h >>> 31) {
        h = ~h;
        l = ~l;
      } else h = h | 0x80000000;
      h ^= flip;
      l ^= flip;
    }
    hi[i] = h;
    lo[i] = l;
    order[i] = i;
    for (let d = 0; d < perWord; d++) {
      const s = d * bits;
      count[d * radix + ((l >>> s) & mask)]++;
      count[(d + perWord) * radix + ((h >>> s) & mask)]++;
    }
  }
  let hi2: Uint32Array | null = null;
  let lo2: Uint32Array | null = null;
  let order2: Int32Array | null = null;
  for (let d = 0; d < passes && n > 0; d++) {
    const base = d * radix;
    const fromHi = d >= perWord;
    const shift = (d % perWord) * bits;
    if (count[base + (((fromHi ? hi[0] : lo[0]) >>> shift) & mask)] === n) continue; // one digit: nothing moves
    let sum = 0;
    for (let k = base; k < base + radix; k++) {
      const c = count[k];
      count[k] = sum;
      sum += c;
    }
    hi2 ??= new Uint32Array(n);
    lo2 ??= new Uint32Array(n);
    order2 ??= new Int32Array(n);
    scatter(fromHi ? hi : lo, shift, mask, count, base, hi, lo, order, hi2, lo2, order2);
    const h = hi;
    hi = hi2;
    hi2 = h;
    const l = lo;
    lo = lo2;
    lo2 = l;
    const o = order;
    order = order2;
    order2 = o;
  }
  return { order, hi, lo };
}

/** One counting-sort pass: entry p goes to `offset[base + digit]++`, carrying its keys and index. */
function scatter(
  word: Uint32Array,
  shift: number,
  mask: number,
  offset: Int32Array,
  base: number,
  hi: Uint32Array,
  lo: Uint32Array,
  order: Int32Array,
  hiOut: Uint32Array,
  loOut: Uint32Array,
  orderOut: Int32Array,
): void {
  const n = word.length;
  for (let p = 0; p < n; p++) {
    const q = offset[base + ((word[p] >>> shift) & mask)]++;
    hiOut[q] = hi[p];
    loOut[q] = lo[p];
    orderOut[q] = order[p];
  }
}

/**
 * The values whose keys (from {@link float64Argsort} with the same `descending`) are `keys`, into
 * `out`: the inverse mapping, so that values in key order are read sequentially instead of gathered.
 * The zero key gives +0 (the keys do not tell −0 from +0) and NaN's key gives NaN.
 */
export function float64sOfKeys(keys: SortKeys, descending: boolean, out: Float64Array): Float64Array {
  const { hi, lo } = keys;
  const n = hi.length;
  const bits = new Uint32Array(out.buffer, out.byteOffset, 2 * n);
  const flip = descending ? 0xffffffff : 0;
  for (let i = 0; i < n; i++) {
    let h = hi[i] ^ flip;
    let l = lo[i] ^ flip;
    if (h >>> 31) h = h & 0x7fffffff;
    else {
      h = ~h;
      l = ~l;
    }
    bits[2 * i + HI] = h;
    bits[2 * i + LO] = l;
  }
  return out;
}
