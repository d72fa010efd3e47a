/**
 * The draws `int(m)` as rng.ts makes them (rejection above the largest multiple of m below 2^32,
 * then x mod m), continuing a xoshiro128** generator in `state`: counted ({@link addDrawsModulo}) or
 * only stepped past ({@link skipDrawsModulo}). A template: each step is written here as a call of
 * rng.ts's `xoshiroNext` (the state in its Int32Array), and the build writes
 * moduloDraws.generated.ts (scripts/gen-xoshiro-loops.mjs), the same functions with the state in
 * four local variables and each call replaced by the step as lemireDraws.ts writes it out: the code
 * the bundle runs (docs/architecture.md, "One xoshiro128** step, written once"). Through
 * `xoshiroNext` the same 44.5 million skipped draws took 152 ms instead of 73 ms.
 */
import { xoshiroNext } from './rng';

const TWO32 = 4294967296;

/**
 * Adds m draws `int(m)` to `counts` — `counts[at[r]]` when `at` is given, else `counts[r]` —
 * continuing the generator in `state`: x mod m here by a division (fmod is slow). Also the draw loop
 * of bootstrap.ts, which must reproduce `createRng(seed).int` draw by draw. Into bytes too (each
 * count modulo 256, as resampleDraws.ts's `addUniformDraws` into bytes), above 2^21 rows, where
 * Int32 counts would take 4 bytes a row on each bootstrap thread (10 million rows: 40 MB a thread
 * instead of 10 MB): one loop for both array types, since its division per draw costs far more than
 * the element-type check.
 */
export function addDrawsModulo(
  state: Int32Array,
  counts: Int32Array | Uint8Array,
  m: number,
  at: Int32Array | null,
): void {
  const limit = TWO32 - (TWO32 % m);
  for (let j = 0; j < m; j++) {
    let x: number;
    do {
      x = xoshiroNext(state);
    } while (x >= limit);
    let r = x - Math.floor(x / m) * m;
    if (r < 0) r += m;
    else if (r >= m) r -= m;
    if (at === null) counts[r]++;
    else counts[at[r]]++;
  }
}

/**
 * Advances `state` past `count` draws `int(m)` as {@link addDrawsModulo} makes them: the same
 * generator steps and rejections (outputs at or above the largest multiple of m below 2^32 are
 * drawn again), without the modulo or the counting.
 */
export function skipDrawsModulo(state: Int32Array, m: number, count: number): void {
  if (m <= 0 || count <= 0) return;
  const limit = TWO32 - (TWO32 % m);
  // one step a turn; an accepted output is one draw more
  for (let j = 0; j < count;) {
    const x = xoshiroNext(state);
    if (x < limit) j++;
  }
}
