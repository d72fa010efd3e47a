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

/**
 * From this many values on, the keys are first distributed by their top 16 bits (sign, exponent and
 * 4 mantissa bits), and each of those buckets is then sorted by its low 48 bits; below, one
 * least-significant-digit sort of the 64 bits in 8-bit digits.
 */
const BUCKETS_FROM = 1 << 14;
/** A bucket of this many keys is sorted in 16-bit digits (3 passes, 65,536 counters each); a smaller one in 8-bit digits. */
const WIDE_DIGITS_FROM = 1 << 16;

/**
 * Stable argsort of `values`, ascending or (with `descending`) descending, −0 as +0, NaN last in
 * either direction; also returns the values' keys in sorted order (for {@link float64sOfKeys}, and
 * to find runs of equal values without reading the values again). `values` is not modified.
 *
 * Why buckets first: a counting-sort pass over ten million keys writes to 65,536 places spread
 * over 120 MB, and each write misses the caches; within a bucket of about 100,000 keys (scores of
 * a model spread over a few exponents and leading mantissa bits) the same passes stay in the
 * caches. Measured on 10 million scores, the bucketed sort takes about 0.6 of the time of four
 * passes over the whole array; when every key has the same top 16 bits the bucketing pass is skipped.
 */
export function float64Argsort(values: Float64Array, descending: boolean): SortedKeys {
  const n = values.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const order = new Int32Array(n);
  writeKeys(values, descending, hi, lo, order);
  if (n < BUCKETS_FROM) {
    sortRange(hi, lo, order, new Uint32Array(n), new Uint32Array(n), new Int32Array(n), 0, n, 64, 8);
    return { order, hi, lo };
  }
  // bucket b holds the keys whose top 16 bits are b: [start[b], start[b + 1])
  const start = new Int32Array(65537);
  for (let i = 0; i < n; i++) start[(hi[i] >>> 16) + 1]++;
  const hi2 = new Uint32Array(n);
  const lo2 = new Uint32Array(n);
  const order2 = new Int32Array(n);
  if (start[(hi[0] >>> 16) + 1] === n) {
    sortRange(hi, lo, order, hi2, lo2, order2, 0, n, 48, 16); // one bucket: nothing to distribute
    return { order, hi, lo };
  }
  for (let b = 0; b < 65536; b++) start[b + 1] += start[b];
  const next = start.slice(0, 65536);
  for (let i = 0; i < n; i++) {
    const q = next[hi[i] >>> 16]++;
    hi2[q] = hi[i];
    lo2[q] = lo[i];
    order2[q] = i;
  }
  for (let b = 0; b < 65536; b++) {
    const s = start[b];
    const e = start[b + 1];
    if (e - s <= SMALL_BUCKET) insertionSort(hi2, lo2, order2, s, e);
    else sortRange(hi2, lo2, order2, hi, lo, order, s, e, 48, e - s >= WIDE_DIGITS_FROM ? 16 : 8);
  }
  return { order: order2, hi: hi2, lo: lo2 };
}

/** A bucket of at most this many keys is sorted by insertion (counting passes cost more than the keys). */
const SMALL_BUCKET = 48;

/** Stable insertion sort of entries [s, e) of (h, l, o) by their 64-bit keys, in place. */
function insertionSort(h: Uint32Array, l: Uint32Array, o: Int32Array, s: number, e: number): void {
  for (let p = s + 1; p < e; p++) {
    const kh = h[p];
    const kl = l[p];
    const ko = o[p];
    let q = p - 1;
    while (q >= s && (h[q] > kh || (h[q] === kh && l[q] > kl))) {
      h[q + 1] = h[q];
      l[q + 1] = l[q];
      o[q + 1] = o[q];
      q--;
    }
    h[q + 1] = kh;
    l[q + 1] = kl;
    o[q + 1] = ko;
  }
}

/** The order-preserving keys of `values` (see the module comment) and the identity order. */
function writeKeys(
  values: Float64Array,
  descending: boolean,
  hi: Uint32Array,
  lo: Uint32Array,
  order: Int32Array,
): void {
  const n = values.length;
  const raw = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  // descending = the complement of the ascending key
  const flip = descending ? 0xffffffff : 0;
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
  }
}

/**
 * Stable least-significant-digit sort of entries [s, e) of (h, l, o) by the low `keyBits` (48 or
 * 64) bits of their keys, in `bits`-bit digits (8 or 16), in place; (xh, xl, xo) is scratch room of
 * the same length. A pass whose digit is the same for every entry is skipped.
 */
function sortRange(
  h: Uint32Array,
  l: Uint32Array,
  o: Int32Array,
  xh: Uint32Array,
  xl: Uint32Array,
  xo: Int32Array,
  s: number,
  e: number,
  keyBits: 48 | 64,
  bits: 8 | 16,
): void {
  const radix = 1 << bits;
  const mask = radix - 1;
  const digits = keyBits / bits;
  const perWord = 32 / bits;
  const count = new Int32Array(digits * radix);
  for (let p = s; p < e; p++) {
    const lw = l[p];
    const hw = h[p];
    for (let d = 0; d < perWord; d++) count[d * radix + ((lw >>> (d * bits)) & mask)]++;
    for (let d = perWord; d < digits; d++) count[d * radix + ((hw >>> ((d - perWord) * bits)) & mask)]++;
  }
  let inScratch = false;
  for (let d = 0; d < digits; d++) {
    const base = d * radix;
    const fromHi = d >= perWord;
    const shift = (fromHi ? d - perWord : d) * bits;
    const sh = inScratch ? xh : h;
    const sl = inScratch ? xl : l;
    const word = fromHi ? sh : sl;
    if (count[base + ((word[s] >>> shift) & mask)] === e - s) continue; // one digit: nothing moves
    let sum = s;
    for (let k = base; k < base + radix; k++) {
      const c = count[k];
      count[k] = sum;
      sum += c;
    }
    const so = inScratch ? xo : o;
    const dh = inScratch ? h : xh;
    const dl = inScratch ? l : xl;
    const dOut = inScratch ? o : xo;
    for (let p = s; p < e; p++) {
      const q = count[base + ((word[p] >>> shift) & mask)]++;
      dh[q] = sh[p];
      dl[q] = sl[p];
      dOut[q] = so[p];
    }
    inScratch = !inScratch;
  }
  if (inScratch) {
    h.set(xh.subarray(s, e), s);
    l.set(xl.subarray(s, e), s);
    o.set(xo.subarray(s, e), s);
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
