// The sequential stream of bootstrapDistribution as a cursor: started at any resample (the draws
// before it stepped through, rejections included) it gives exactly the multiplicities of the one
// sequential run, with and without strata, forwards and backwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapDistribution } from '../../helpers/bootstrapReference';
import { createRng } from '../../../../src/core/stats/rng';
import { addDrawsModulo, skipDrawsModulo } from '../../../../src/core/stats/moduloDraws.generated';
import { stratumPositions } from '../../../../src/core/stats/resampleDraws';
import { evaluateStreamResamples, ResampleStream, streamState } from '../../../../src/core/stats/resampleStream';

/** Every resample's multiplicities of the sequential run, as bootstrapDistribution hands them to its statistic. */
function sequentialCounts(nRows: number, B: number, seed: number, strata: Int32Array | null): number[][] {
  const seen: number[][] = [];
  bootstrapDistribution(
    nRows,
    (c) => {
      seen.push(Array.from(c));
      return 0;
    },
    { n: B, confidence: 0.9, seed, strata },
  );
  return seen;
}

test('skipping draws leaves the generator where drawing them does (rejections included)', () => {
  // m = 3·2^30 rejects a quarter of the outputs: the skip must reject exactly the same ones.
  for (const m of [2, 7, 100_000, 3 * 2 ** 30]) {
    const rng = createRng(42);
    for (let j = 0; j < 500; j++) rng.int(m);
    const state = new Int32Array(4);
    streamState(42, state);
    skipDrawsModulo(state, m, 500);
    // int(2^16) rejects nothing: its draws are the next raw outputs mod 2^16
    for (let j = 0; j < 5; j++) assert.equal(nextOutput(state) % 2 ** 16, rng.int(2 ** 16), `m = ${m}, draw ${j}`);
  }
  for (const m of [1, 3, 1000]) {
    const drawn = new Int32Array(4);
    const skipped = new Int32Array(4);
    streamState(7, drawn);
    streamState(7, skipped);
    addDrawsModulo(drawn, new Int32Array(m), m, null);
    skipDrawsModulo(skipped, m, m);
    assert.deepEqual(skipped, drawn, `m = ${m}`);
  }
});

/** One xoshiro128** output from `s` (the reference of rng.ts, written again from the paper). */
function nextOutput(s: Int32Array): number {
  const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));
  const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
  const t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}

for (const stratified of [false, true]) {
  test(`a stream started at any resample draws what the sequential run draws (${stratified ? 'strata' : 'no strata'})`, () => {
    const nRows = 37;
    const B = 25;
    const strata = stratified ? Int32Array.from({ length: nRows }, (_, i) => (i * 5) % 3) : null;
    const expected = sequentialCounts(nRows, B, 9, strata);
    const positions = stratumPositions(nRows, strata);
    for (const from of [0, 1, 7, 24]) {
      const stream = new ResampleStream(9, nRows, positions);
      stream.seek(from);
      const counts = new Int32Array(nRows);
      for (let b = from; b < B; b++) {
        stream.draw(counts);
        assert.deepEqual(Array.from(counts), expected[b], `from ${from}, resample ${b}`);
      }
      // backwards: from the start again
      stream.seek(3);
      stream.draw(counts);
      assert.deepEqual(Array.from(counts), expected[3]);
      assert.equal(stream.next, 4);
    }
  });
}

test('ranges of the stream split for 1–5 threads give the values of one run', () => {
  const nRows = 50;
  const B = 31;
  const x = Float64Array.from({ length: nRows }, (_, i) => Math.sin(i) * 10);
  const stat = (c: Int32Array, out: Float64Array): void => {
    let s = 0;
    for (let i = 0; i < nRows; i++) s += c[i] * x[i];
    out[0] = s;
    out[1] = c[0];
  };
  const one = evaluateStreamResamples(nRows, 2, stat, {
    stream: new ResampleStream(5, nRows, null),
    range: { from: 0, to: B },
  });
  const counts = sequentialCounts(nRows, B, 5, null);
  for (let b = 0; b < B; b++) assert.equal(one[b * 2 + 1], counts[b][0]);
  for (let T = 1; T <= 5; T++) {
    const joined = new Float64Array(B * 2);
    for (let t = 0; t < T; t++) {
      const range = { from: Math.floor((t * B) / T), to: Math.floor(((t + 1) * B) / T) };
      // each range on a fresh stream, as a worker's first range
      const fresh = evaluateStreamResamples(nRows, 2, stat, { stream: new ResampleStream(5, nRows, null), range });
      joined.set(fresh, range.from * 2);
    }
    assert.deepEqual(joined, one, `${T} threads`);
  }
});
