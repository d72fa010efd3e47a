/**
 * A small seeded generator (xoshiro128**, seeded through splitmix32) so that bootstrap intervals,
 * the `sampled` shift protocol and random baselines are reproducible: same input and seed → same
 * numbers, on every platform (only 32-bit integer arithmetic is used).
 */
export interface Rng {
  /** Uniform float in [0, 1) with 32 random bits. */
  next(): number;
  /** Uniform integer in [0, n), n ≥ 1 (rejection sampling, no modulo bias). */
  int(n: number): number;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Creates a generator from an integer seed (non-integers are truncated; negatives wrap). */
export function createRng(seed: number): Rng {
  const sm = splitmix32(Math.trunc(seed) | 0);
  let a = sm(), b = sm(), c = sm(), d = sm();
  if ((a | b | c | d) === 0) a = 1;
  const u32 = (): number => {
    const r = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return r;
  };
  return {
    next: () => u32() / 4294967296,
    int: (n: number) => {
      if (!(n >= 1)) throw new RangeError(`Expected \`n\` to be a positive integer, but got ${n}.`);
      if (n <= 1) return 0;
      const limit = 4294967296 - (4294967296 % n);
      let x = u32();
      while (x >= limit) x = u32();
      return x % n;
    },
  };
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
