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
import { sharedZeros } from './sharedArrays';

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
 * least-significant-digit sort of the 64 bits. Measured on this machine's 2 cores: at 1 million
 * scores the one sort is faster (its arrays, 24 MB, still mostly in the caches; the distributing
 * pass costs more than it saves); at 2 million the bucketed sort took about half the time, at
 * 10 million 0.89 of it (1.36 s against 1.54 s on one thread).
 */
const BUCKETS_FROM = 1_500_000;
/** A bucket of this many keys is distributed again, by the next 16 bits, before its last 32 bits are sorted. */
const SECOND_LEVEL_FROM = 1 << 18;
/** A range of this many keys is sorted in 16-bit digits (65,536 counters each); a smaller one in 8-bit digits. */
const WIDE_DIGITS_FROM = 1 << 14;

/**
 * Stable argsort of `values`, ascending or (with `descending`) descending, −0 as +0, NaN last in
 * either direction; also returns the values' keys in sorted order (for {@link float64sOfKeys}, and
 * to find runs of equal values without reading the values again). `values` is not modified, unless
 * `overwriteValues`: then its memory may serve as scratch room (8 bytes a value fewer at the peak;
 * a caller that decodes the sorted values back into it with {@link float64sOfKeys} loses nothing).
 * With `sharedOrder` the order is made over shared memory (sharedArrays.ts), where a bootstrap's
 * threads read it, instead of copied there later (the same values).
 *
 * Why buckets first (a most-significant-digit pass, then least-significant-digit passes within each
 * bucket): a counting-sort pass over ten million keys writes to 65,536 places spread over 120 MB,
 * and each write misses the caches; within a bucket of a few hundred thousand keys the same passes
 * stay in the caches. Scores of a model fall in few buckets of their top 16 bits (a few exponents),
 * so a bucket of 2^18 keys and more is distributed once more by the next 16 bits. When every key has
 * the same top bits, the distributing pass is skipped.
 */
export function float64Argsort(
  values: Float64Array,
  descending: boolean,
  sizes: BucketSizes = {},
  overwriteValues = false,
  sharedOrder = false,
): SortedKeys {
  const n = values.length;
  const [hi, lo] = keyWords(n);
  // either order array may be the one returned (the distributing path returns the second)
  const orderArray = (): Int32Array => (sharedOrder ? sharedZeros(Int32Array, n) : new Int32Array(n));
  const order = orderArray();
  const counts = new Counters(sizes.secondLevelFrom ?? SECOND_LEVEL_FROM);
  const oneSort = n < (sizes.bucketsFrom ?? BUCKETS_FROM);
  const bits = n >= WIDE_DIGITS_FROM ? 16 : 8;
  // The one sort's digit counts are taken in the scan that makes the keys, as a pass over the keys
  // of its own cost 8% of the sort of a million scores (measured against the fused scan, 30 rounds
  // alternating in one process).
  const count = oneSort ? counts.take((64 / bits) << bits) : null;
  writeKeys(values, descending, hi, lo, order, count, bits);
  // Scratch words for the passes: the values' own 8 bytes a value when the caller lets them be
  // overwritten (they are not read after the keys are made), else new arrays. The sorted keys are
  // never returned in this scratch: the distributing path below, whose result lands in its scratch,
  // takes new arrays.
  const own = overwriteValues && values.byteOffset % 4 === 0;
  const scratchHi = (): Uint32Array =>
    own ? new Uint32Array(values.buffer, values.byteOffset, n) : new Uint32Array(n);
  const scratchLo = (): Uint32Array =>
    own ? new Uint32Array(values.buffer, values.byteOffset + 4 * n, n) : new Uint32Array(n);
  const order2 = orderArray();
  if (count !== null) {
    sortRange([hi, lo, order], [scratchHi(), scratchLo(), order2], 0, n, 64, bits, counts, count);
    return { order, hi, lo };
  }
  // bucket b holds the keys whose top 16 bits are b: [start[b], start[b + 1])
  const start = bucketStarts(hi, 0, n, 16);
  const first = hi[0] >>> 16;
  if (start[first + 1] - start[first] === n) {
    sortBucket([hi, lo, order], [scratchHi(), scratchLo(), order2], 0, n, 0, counts); // one bucket: nothing to distribute
    return { order, hi, lo };
  }
  const [hi2, lo2] = keyWords(n);
  const keys: Entries = [hi, lo, order];
  const into: Entries = [hi2, lo2, order2];
  distribute(keys, into, 0, n, 16, start);
  for (let b = 0; b < 65536; b++) sortBucket(into, keys, start[b], start[b + 1], 0, counts);
  return { order: order2, hi: hi2, lo: lo2 };
}

/**
 * The smallest buffer the C allocator of Linux (glibc) always maps on its own: its threshold for
 * that starts at 128 KiB and rises, each time a mapped block is freed, to that block's size, up to
 * 32 MiB on 64-bit systems (mallopt(3), M_MMAP_THRESHOLD). Below it, once the run had freed a
 * block of several MB, the sort's keys came from the allocator's heap and stayed resident with it
 * after the sort (the 1 M × 10 file: 6.5 MB more resident after the selective step).
 */
const MAPPED_BYTES = 32 * 2 ** 20 + 2 ** 16;

/**
 * Two words a key (high and low halves), in one buffer of at least {@link MAPPED_BYTES} when they
 * take 4 MiB or more: mapped on its own, so the memory goes back to the system when the keys are
 * collected instead of staying with the allocator, and only the pages written become resident (a
 * fresh mapping is zero already: the allocator does not clear it). On a 1 M × 10 file the run
 * without the bootstrap peaked 2.5 MB lower (docs/benchmarks.md); values and order are the same.
 */
function keyWords(n: number): [Uint32Array, Uint32Array] {
  if (8 * n < 4 * 2 ** 20) return [new Uint32Array(n), new Uint32Array(n)];
  const buf = new ArrayBuffer(Math.max(8 * n, MAPPED_BYTES));
  return [new Uint32Array(buf, 0, n), new Uint32Array(buf, 4 * n, n)];
}

/**
 * The sizes from which the keys are bucketed ({@link BUCKETS_FROM}) and a bucket bucketed again
 * ({@link SECOND_LEVEL_FROM}): the defaults, or smaller ones in tests, so that small inputs take the
 * paths of large ones (the order is the same either way).
 */
export interface BucketSizes {
  bucketsFrom?: number;
  secondLevelFrom?: number;
}

/** Counting arrays reused from bucket to bucket (65,536 counters a 16-bit digit). */
class Counters {
  constructor(
    /** {@link SECOND_LEVEL_FROM}, or a test's smaller size. */
    readonly secondLevelFrom: number,
  ) {}

  private narrow = new Int32Array(8 * 256);
  private wide: Int32Array | null = null;

  /** `size` zeroed counters. */
  take(size: number): Int32Array {
    const a = size <= this.narrow.length ? this.narrow : (this.wide ??= new Int32Array(4 * 65536));
    a.fill(0, 0, size);
    return a;
  }
}

/**
 * The entries being sorted: each key's high and low 32 bits and its index, at the same position of
 * three arrays; or scratch room of the same length.
 */
type Entries = readonly [h: Uint32Array, l: Uint32Array, o: Int32Array];

/** Copies entries [s, e) of `from` to the same positions of `to`. */
function copyEntries(from: Entries, to: Entries, s: number, e: number): void {
  to[0].set(from[0].subarray(s, e), s);
  to[1].set(from[1].subarray(s, e), s);
  to[2].set(from[2].subarray(s, e), s);
}

/** Starts of the buckets of [s, e) by the 16 bits of `h` from bit `shift`: bucket b is [start[b], start[b + 1]). */
function bucketStarts(h: Uint32Array, s: number, e: number, shift: number): Int32Array {
  const start = new Int32Array(65537);
  for (let p = s; p < e; p++) start[((h[p] >>> shift) & 0xffff) + 1]++;
  start[0] = s;
  for (let b = 0; b < 65536; b++) start[b + 1] += start[b];
  return start;
}

/**
 * Stable move of [s, e) into the buckets of `start` (by the 16 bits of the high words from bit `shift`), into
 * `into`: a counting-sort pass whose digit is those 16 bits and whose counters are the
 * buckets' starts.
 */
function distribute(keys: Entries, into: Entries, s: number, e: number, shift: number, start: Int32Array): void {
  scatter(keys[0], shift, 0xffff, start.slice(0, 65536), 0, ...keys, ...into, s, e);
}

/**
 * Sorts bucket [s, e) in place by the key bits below its level's digit (level 0: the low 48 bits;
 * level 1: the low 32), with `scratch` as scratch room.
 */
function sortBucket(keys: Entries, scratch: Entries, s: number, e: number, level: 0 | 1, counts: Counters): void {
  const m = e - s;
  if (m <= SMALL_BUCKET) {
    if (m > 1) insertionSort(keys[0], keys[1], keys[2], s, e);
    return;
  }
  if (level === 0 && m >= counts.secondLevelFrom) {
    const start = bucketStarts(keys[0], s, e, 0);
    const first = keys[0][s] & 0xffff;
    if (start[first + 1] - start[first] !== m) {
      distribute(keys, scratch, s, e, 0, start);
      for (let b = 0; b < 65536; b++) sortBucket(scratch, keys, start[b], start[b + 1], 1, counts);
      copyEntries(scratch, keys, s, e);
      return;
    }
  }
  sortRange(keys, scratch, s, e, level === 0 ? 48 : 32, m >= WIDE_DIGITS_FROM ? 16 : 8, counts);
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
  count: Int32Array | null,
  bits: 8 | 16,
): void {
  const n = values.length;
  const raw = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  const radix = 1 << bits;
  const mask = radix - 1;
  const perWord = 32 / bits;
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
    if (count !== null)
      for (let d = 0; d < perWord; d++) {
        count[d * radix + ((l >>> (d * bits)) & mask)]++;
        count[(d + perWord) * radix + ((h >>> (d * bits)) & mask)]++;
      }
  }
}

/**
 * Stable least-significant-digit sort of entries [s, e) of `keys` by the low `keyBits` (32, 48
 * or 64) bits of their keys, in `bits`-bit digits (8 or 16), in place; `scratch` is scratch room of
 * the same length. A pass whose digit is the same for every entry is skipped.
 */
function sortRange(
  keys: Entries,
  scratch: Entries,
  s: number,
  e: number,
  keyBits: 32 | 48 | 64,
  bits: 8 | 16,
  counts: Counters,
  counted: Int32Array | null = null,
): void {
  const h = keys[0];
  const l = keys[1];
  const radix = 1 << bits;
  const mask = radix - 1;
  const digits = keyBits / bits;
  const perWord = 32 / bits;
  // `counted`: the digit counts of all 64 bits, taken by the caller (writeKeys)
  const count = counted ?? counts.take(digits * radix);
  if (counted === null)
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
    const from = inScratch ? scratch : keys;
    const to = inScratch ? keys : scratch;
    const word = from[fromHi ? 0 : 1];
    if (count[base + ((word[s] >>> shift) & mask)] === e - s) continue; // one digit: nothing moves
    let sum = s;
    for (let k = base; k < base + radix; k++) {
      const c = count[k];
      count[k] = sum;
      sum += c;
    }
    scatter(word, shift, mask, count, base, from[0], from[1], from[2], to[0], to[1], to[2], s, e);
    inScratch = !inScratch;
  }
  if (inScratch) copyEntries(scratch, keys, s, e);
}

/** One counting-sort pass over [s, e): entry p goes to `count[base + digit]++`, carrying its keys and index. */
function scatter(
  word: Uint32Array,
  shift: number,
  mask: number,
  count: Int32Array,
  base: number,
  h: Uint32Array,
  l: Uint32Array,
  o: Int32Array,
  xh: Uint32Array,
  xl: Uint32Array,
  xo: Int32Array,
  s: number,
  e: number,
): void {
  if (s === 0 && e === word.length) {
    // the whole arrays: a loop bounded by the length, whose reads need no bounds checks
    const n = word.length;
    for (let p = 0; p < n; p++) {
      const q = count[base + ((word[p] >>> shift) & mask)]++;
      xh[q] = h[p];
      xl[q] = l[p];
      xo[q] = o[p];
    }
    return;
  }
  for (let p = s; p < e; p++) {
    const q = count[base + ((word[p] >>> shift) & mask)]++;
    xh[q] = h[p];
    xl[q] = l[p];
    xo[q] = o[p];
  }
}

/**
 * The values whose keys (from {@link float64Argsort} with the same `descending`) are `keys`, into
 * `out`: the inverse mapping, so that values in key order are read sequentially instead of gathered.
 * The zero key gives +0 (the keys do not tell −0 from +0) and NaN's key gives NaN.
 */
export function float64sOfKeys(keys: SortKeys, descending: boolean, out: Float64Array): Float64Array {
  decodeKeys(
    keys.hi,
    keys.lo,
    descending ? 0xffffffff : 0,
    new Uint32Array(out.buffer, out.byteOffset, 2 * keys.hi.length),
  );
  return out;
}

/**
 * The loop of {@link float64sOfKeys}, apart, with arrays and numbers only: the engine keeps its optimised
 * code from call to call, whereas that of a function reading the keys object was discarded after
 * each full garbage collection, and the loop ran unoptimised again until recompiled.
 */
function decodeKeys(hi: Uint32Array, lo: Uint32Array, flip: number, bits: Uint32Array): void {
  const n = hi.length;
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
}
