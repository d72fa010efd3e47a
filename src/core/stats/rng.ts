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

/** splitmix32: the seeding sequence of the xoshiro128** state (Vigna's recommended seeder). */
export function splitmix32(seed: number): () => number {
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
  const state = new Int32Array(4);
  for (let k = 0; k < 4; k++) state[k] = sm();
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
  const u32 = (): number => xoshiroNext(state);
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

/**
 * One xoshiro128** step on the 4-word state `s` (Blackman & Vigna, "Scrambled linear pseudorandom
 * number generators", ACM TOMS 47(4), 2021, https://doi.org/10.1145/3460772): returns the next
 * 32-bit output (as an unsigned number) and advances `s`. The draw loops of the bootstrap run this
 * step written out over local variables instead (lemireDraws.ts; moduloDraws.ts through
 * scripts/gen-xoshiro-loops.mjs): with the state in the array they were 1.5–2× slower.
 */
export function xoshiroNext(s: Int32Array): number {
  const b = s[1];
  const bb = Math.imul(b, 5);
  const r = Math.imul((bb << 7) | (bb >>> 25), 9) >>> 0;
  const t = b << 9;
  s[2] ^= s[0];
  s[3] ^= b;
  s[1] = b ^ s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  const d = s[3];
  s[3] = (d << 11) | (d >>> 21);
  return r;
}
