/**
 * The fast resampling engine of the bootstrap (docs/comparisons.md): multiplicity vectors drawn
 * straight into an Int32Array (or a Uint8Array, see {@link addUniformDraws}) with an inlined
 * xoshiro128** and Lemire's multiply-shift, and a
 * generator per resample, so that resample b is the same whichever thread or batch computes it.
 *
 * Why draws of their own beside the sequential stream (resampleStream.ts): that one reproduces
 * `createRng(seed).int` draw by draw (a unit test pins it), so resample b depends on every draw
 * before it. Here the caller chooses the row order (rows are exchangeable for the draw: a family
 * permutes its per-row arrays once into the order its statistic walks, e.g. descending score), so
 * no gather or copy happens per resample, and the loop counters stay small integers.
 *
 * Conventions (the same as bootstrap.ts): resampling with replacement to the same size, per
 * stratum when strata are given. Draws are exactly uniform: Lemire's "nearly divisionless" method
 * (x·m = hi·2^32 + lo; reject when lo < (2^32 − m) mod m, return hi) has no bias. The product x·m is
 * exact in float64 for m ≤ 2^21; above that the draw falls back to rejection + modulo (rng.ts's
 * method), also exact.
 */

import { lemireDraws } from './lemireDraws';
import { lemireDrawsBytes } from './lemireDrawsBytes.generated';
import { addDrawsModulo } from './moduloDraws.generated';
import { sharedZeros } from './sharedArrays';

/** Largest m for which x·m (x < 2^32) is exact in float64 (< 2^53). */
const LEMIRE_MAX = 2 ** 21;

function mix32(z: number): number {
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * The xoshiro128** state of resample `b` under `seed`: splitmix32 seeded with a hash of (seed, b).
 * Written into `state` (4 words).
 */
export function resampleState(seed: number, b: number, state: Int32Array): void {
  let s = mix32((mix32((Math.trunc(seed) | 0) ^ 0x5bd1e995) + Math.imul(b + 1, 0x9e3779b9)) | 0);
  for (let k = 0; k < 4; k++) {
    s = (s + 0x9e3779b9) >>> 0;
    state[k] = mix32(s);
  }
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
}

/**
 * Adds m uniform draws over [0, m) to `counts` — `counts[at[r]]` when `at` (a stratum's positions)
 * is given, else `counts[r]` — continuing the generator in `state`: Lemire's draws
 * (lemireDraws.ts) up to 2^21 rows, above that rng.ts's rejection + modulo (moduloDraws.ts).
 *
 * Into byte counts (a Uint8Array) the same draws, so that `counts[i]` holds the count modulo 256.
 * A count of 256 or more wraps around, unchecked here (a check per draw cost about 0.5 ns, a sixth
 * of the loop): the resample's counts then add up to less than its size by a multiple of 256, which
 * the statistic that reads them sees (see {@link ResampleStat.bytes}). Why bytes: on 200,000 rows
 * the Int32 counts (800 KB) nearly fill a 1 MB second-level cache; as bytes (200 KB) they leave it
 * to the walk that reads them back, which also loads a quarter of the memory for them. Each array
 * type has its own compiled loop (`lemireDraws`, and `lemireDrawsBytes`, its copy the build writes
 * over bytes): a loop that met both would check the type at every draw, in every bootstrap.
 */
export function addUniformDraws(
  state: Int32Array,
  counts: Int32Array | Uint8Array,
  m: number,
  at: Int32Array | null,
): void {
  if (m <= 0) return;
  if (m > LEMIRE_MAX) addDrawsModulo(state, counts, m, at);
  else if (counts instanceof Uint8Array) lemireDrawsBytes(state, counts, m, at);
  else lemireDraws(state, counts, m, at);
}

/**
 * Each draw loop once on a few rows when this module loads. The first long call (a resample of
 * 200,000 rows) is compiled by V8 in the middle of its loop (on-stack replacement), before the
 * code after the loop has ever run; that version then left the loop without type information for
 * the stores after it and was deoptimised at the end of every later call too (about 4 ns per
 * row-draw, in about one run in three). Run once here, that code has its type information first.
 */
addUniformDraws(new Int32Array([1, 2, 3, 4]), new Int32Array(64), 64, null);
addUniformDraws(new Int32Array([1, 2, 3, 4]), new Uint8Array(64), 64, null);

/** Positions of each stratum (strata 0..S-1 in increasing order), or null for one stratum of all rows. */
export function stratumPositions(nRows: number, strata: Int32Array | null | undefined): Int32Array[] | null {
  if (!strata) return null;
  if (strata.length !== nRows)
    throw new RangeError(`Expected \`strata\` to have ${nRows} entries, but got ${strata.length}.`);
  const ids = [...new Set(strata)].sort((x, y) => x - y);
  const index = new Map(ids.map((k, i) => [k, i]));
  const size = new Int32Array(ids.length);
  for (let i = 0; i < nRows; i++) size[index.get(strata[i])!]++;
  // shared memory: the bootstrap's worker threads read the same lists (sharedArrays.ts)
  const lists = Array.from(size, (s) => sharedZeros(Int32Array, s));
  const fill = new Int32Array(ids.length);
  for (let i = 0; i < nRows; i++) {
    const k = index.get(strata[i])!;
    lists[k][fill[k]++] = i;
  }
  return lists;
}

/**
 * Resample `b`'s multiplicities over `nRows` rows into `counts` (overwritten): n draws with
 * replacement, or each stratum's size from its own positions. Depends only on (seed, b, strata).
 * Byte counts hold each count modulo 256 (see {@link addUniformDraws}).
 */
export function drawResample(
  seed: number,
  b: number,
  counts: Int32Array | Uint8Array,
  strata: Int32Array[] | null,
  state: Int32Array = new Int32Array(4),
): void {
  counts.fill(0);
  resampleState(seed, b, state);
  if (strata === null) addUniformDraws(state, counts, counts.length, null);
  else for (const at of strata) addUniformDraws(state, counts, at.length, at);
}

export interface ResampleRange {
  /** First resample index (inclusive). */
  from: number;
  /** Last resample index (exclusive). */
  to: number;
}

/**
 * The statistic of one resample: reads the multiplicities (a reused buffer: read it, do not keep
 * it) and writes its K values into `out` (NaN where undefined). With `batch`, the caller may instead
 * hand it up to `batch.lanes` resamples at once (`counts[l]` = resample l's multiplicities, values of
 * lane l at `out[l·K + k]`), e.g. so that one walk over the rows serves several resamples. Both must
 * give the same values: a resample's values never depend on the others in its batch.
 */
export interface ResampleStat {
  (counts: Int32Array, out: Float64Array): void;
  batch?: { lanes: number; run: (counts: readonly Int32Array[], L: number, out: Float64Array) => void };
  /**
   * The same statistic from byte multiplicities, the same values bit for bit: `run` reads each count
   * modulo 256 and returns false, its values unused, when they add up to less than the resample size
   * (a count of 256 or more wrapped around). The evaluator then draws each resample as bytes
   * ({@link drawResample} into a Uint8Array) and calls `run`; a resample it refuses is drawn again as Int32 (the
   * same draws) and goes to the statistic itself. Not with `batch`. A `limit` below 255 (2^k − 1)
   * is for tests: each count is then taken modulo limit + 1, so that the fallback happens.
   */
  bytes?: { run: (counts: Uint8Array, out: Float64Array) => boolean; limit?: number };
}

/**
 * Evaluates `stat` on resamples [from, to) of (seed, strata) over `nRows` rows (in batches of
 * `stat.batch.lanes` when it has one). Returns the values, resample-major: `values[(b − from)·K + k]`.
 */
export function evaluateResamples(
  nRows: number,
  K: number,
  stat: ResampleStat,
  opts: { seed: number; strata: Int32Array[] | null; range: ResampleRange; onResample?: (done: number) => void },
): Float64Array {
  const { from, to } = opts.range;
  const values = new Float64Array(Math.max(0, to - from) * K);
  resampleEvaluator(nRows, K, stat, opts.seed, opts.strata)(from, to, values, 0, opts.onResample);
  return values;
}

/**
 * Writes the values of resamples [from, to) into `values` from index `at` on (resample-major:
 * resample b's at `at + (b − from)·K`); `onResample` hears how many of them are done.
 */
export type ResampleEvaluator = (
  from: number,
  to: number,
  values: Float64Array,
  at: number,
  onResample?: (done: number) => void,
) => void;

/**
 * The {@link ResampleEvaluator} of `stat` over (seed, strata), in batches of `stat.batch.lanes`
 * when it has one; its buffers are allocated once, so that it can be called for a few resamples
 * at a time (stats/parallelBootstrap.ts hands them out so).
 */
export function resampleEvaluator(
  nRows: number,
  K: number,
  stat: ResampleStat,
  seed: number,
  strata: Int32Array[] | null,
): ResampleEvaluator {
  const lanes = stat.batch ? Math.max(1, stat.batch.lanes) : 1;
  const state = new Int32Array(4);
  const out = new Float64Array(lanes * K);
  const bytes = !stat.batch && stat.bytes ? stat.bytes : null;
  if (bytes) {
    const limit = bytes.limit ?? 255;
    if (!(limit >= 1 && limit <= 255 && (limit & (limit + 1)) === 0))
      throw new RangeError(`Expected a byte limit of 2^k − 1 up to 255, but got ${limit}.`);
    const small = new Uint8Array(nRows);
    let counts: Int32Array | null = null; // only for a resample with a count above the limit
    return (from, to, values, at, onResample) => {
      for (let b = from; b < to; b++) {
        drawResample(seed, b, small, strata, state);
        if (limit < 255) for (let i = 0; i < nRows; i++) small[i] &= limit;
        out.fill(NaN);
        if (!bytes.run(small, out)) {
          counts ??= new Int32Array(nRows);
          drawResample(seed, b, counts, strata, state);
          out.fill(NaN);
          stat(counts, out);
        }
        values.set(out.subarray(0, K), at + (b - from) * K);
        onResample?.(b - from + 1);
      }
    };
  }
  const counts = Array.from({ length: lanes }, () => new Int32Array(nRows));
  return (from, to, values, at, onResample) => {
    for (let b = from; b < to; b += lanes) {
      const L = Math.min(lanes, to - b);
      for (let l = 0; l < L; l++) drawResample(seed, b + l, counts[l], strata, state);
      out.fill(NaN);
      if (stat.batch) stat.batch.run(counts, L, out);
      else stat(counts[0], out);
      values.set(out.subarray(0, L * K), at + (b - from) * K);
      for (let l = 0; l < L; l++) onResample?.(b - from + l + 1);
    }
  };
}
