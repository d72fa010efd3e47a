/**
 * The draw loop of resampleDraws.ts's uniform draws: m draws over [0, m) with an inlined
 * xoshiro128** and Lemire's multiply-shift, counted into `counts`. A template: the build writes its
 * byte copy, `lemireDrawsBytes` in lemireDrawsBytes.generated.ts (scripts/gen-byte-copies.mjs), the
 * same loop over byte counts (each count modulo 256), so that each compiled loop sees one array type
 * (docs/architecture.md, "Two copies of a hot loop").
 */

/** The counts' array type: Int32Array here, Uint8Array in the byte copy. */
type Counts = Int32Array;

const TWO32 = 4294967296;
const INV_TWO32 = 1 / TWO32;

/**
 * Adds m uniform draws over [0, m) to `counts` — `counts[at[r]]` when `at` (a stratum's positions)
 * is given, else `counts[r]` — continuing the generator in `state`. For 0 < m ≤ 2^21, where the
 * product x·m (x < 2^32) is exact in float64: Lemire's "nearly divisionless" method (x·m =
 * hi·2^32 + lo; reject when lo < (2^32 − m) mod m, return hi), exactly uniform.
 */
export function lemireDraws(state: Int32Array, counts: Counts, m: number, at: Int32Array | null): void {
  const reject = (TWO32 - m) % m;
  // rng.ts's xoshiroNext written out over locals: calling it (state in the Int32Array) made this
  // loop about 1.5x slower in V8 (200,000 draws: 20 vs 13 ms per 20 resamples, best of 96)
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  for (let j = 0; j < m; j++) {
    // xoshiro128** step: begin (also the step of moduloDraws.ts's loops: scripts/gen-xoshiro-loops.mjs)
    const bb = Math.imul(b, 5);
    const x = Math.imul((bb << 7) | (bb >>> 25), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = (d << 11) | (d >>> 21);
    // xoshiro128** step: end
    const prod = x * m;
    const hi = (prod * INV_TWO32) | 0;
    if (prod - hi * TWO32 < reject) {
      j--; // rare (probability < m/2^32): draw again
      continue;
    }
    if (at === null) counts[hi]++;
    else counts[at[hi]]++;
  }
  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
}
