/**
 * The single-generator resampling stream (the 'stream' draws of a resampling plan) as a cursor that can start at any resample: one xoshiro128** generator seeded as `createRng(seed)`
 * draws resample 0, then 1, …; each resample draws `int(m)` (rejection + modulo, as rng.ts) m
 * times per stratum, strata in increasing order. Resample b therefore depends on every draw before
 * it, and a thread that computes resamples [from, to) first steps a copy of the generator through
 * the draws of resamples [0, from): the same outputs and the same rejections, nothing counted
 * (a few nanoseconds per draw). The values are then those of the one sequential run, whatever the
 * number of threads.
 */
import { splitmix32 } from './rng';
import { addDrawsModulo, skipDrawsModulo } from './moduloDraws.generated';
import type { ResampleRange } from './resampleDraws';

/** The xoshiro128** state `createRng(seed)` starts from (splitmix32 seeding), written into `state`. */
export function streamState(seed: number, state: Int32Array): void {
  const sm = splitmix32(Math.trunc(seed) | 0);
  for (let k = 0; k < 4; k++) state[k] = sm();
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
}

/** A position in the stream of (seed, strata) over `nRows` rows: the next resample it draws. */
export class ResampleStream {
  private readonly state = new Int32Array(4);
  private nextResample = 0;

  /** `strata`: each stratum's row positions (strata in increasing order), or null for all rows. */
  constructor(
    private readonly seed: number,
    private readonly nRows: number,
    private readonly strata: Int32Array[] | null,
  ) {
    streamState(seed, this.state);
  }

  /** The index of the resample {@link draw} makes next. */
  get next(): number {
    return this.nextResample;
  }

  /** Moves to resample b: forward through the draws in between, or from the start when b is behind. */
  seek(b: number): void {
    if (b < this.nextResample) {
      streamState(this.seed, this.state);
      this.nextResample = 0;
    }
    const skip = b - this.nextResample;
    if (skip <= 0) return;
    // Without strata every draw has the same modulus: one loop over all of them.
    if (this.strata === null) skipDrawsModulo(this.state, this.nRows, skip * this.nRows);
    else for (let r = 0; r < skip; r++) for (const at of this.strata) skipDrawsModulo(this.state, at.length, at.length);
    this.nextResample = b;
  }

  /** The multiplicities of the next resample into `counts` (overwritten). */
  draw(counts: Int32Array): void {
    counts.fill(0);
    if (this.strata === null) addDrawsModulo(this.state, counts, this.nRows, null);
    else for (const at of this.strata) addDrawsModulo(this.state, counts, at.length, at);
    this.nextResample++;
  }
}

/**
 * Evaluates `stat` on resamples [from, to) of `stream` (moved there first); `stat` receives the
 * multiplicities (reused buffer) and writes its K values into `out` (pre-filled with NaN).
 * Returns the values, resample-major: `values[(b − from)·K + k]`.
 */
export function evaluateStreamResamples(
  nRows: number,
  K: number,
  stat: (counts: Int32Array, out: Float64Array) => void,
  opts: { stream: ResampleStream; range: ResampleRange; onResample?: (done: number) => void },
): Float64Array {
  const { from, to } = opts.range;
  const values = new Float64Array(Math.max(0, to - from) * K);
  const counts = new Int32Array(nRows);
  const out = new Float64Array(K);
  opts.stream.seek(from);
  for (let b = from; b < to; b++) {
    opts.stream.draw(counts);
    out.fill(NaN);
    stat(counts, out);
    values.set(out, (b - from) * K);
    opts.onResample?.(b - from + 1);
  }
  return values;
}
