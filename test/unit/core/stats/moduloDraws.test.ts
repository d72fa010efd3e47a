// The modulo draws as the bundle runs them (moduloDraws.generated.ts: the generator's state in local
// variables, the step written out) against their template (moduloDraws.ts: rng.ts's xoshiroNext on
// the state array): the same counts and the same generator state after, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as reference from '../../../../src/core/stats/moduloDraws';
import * as generated from '../../../../src/core/stats/moduloDraws.generated';
import { createRng } from '../../../../src/core/stats/rng';
import { streamState } from '../../../../src/core/stats/resampleStream';

/** The generator state `createRng(seed)` starts from. */
function streamStateOf(seed: number): Int32Array {
  const state = new Int32Array(4);
  streamState(seed, state);
  return state;
}

test('addDrawsModulo: the generated loop counts as its template, into Int32 and byte counts, with and without positions', () => {
  const rng = createRng(11);
  for (let trial = 0; trial < 40; trial++) {
    const m = 1 + rng.int(trial < 20 ? 50 : 5000);
    const at = trial % 2 ? Int32Array.from({ length: m }, () => rng.int(m)) : null;
    for (const Counts of [Int32Array, Uint8Array]) {
      const s1 = streamStateOf(trial);
      const s2 = s1.slice();
      const c1 = new Counts(m);
      const c2 = new Counts(m);
      reference.addDrawsModulo(s1, c1, m, at);
      generated.addDrawsModulo(s2, c2, m, at);
      assert.deepEqual(c2, c1);
      assert.deepEqual(s2, s1);
    }
  }
});

test('skipDrawsModulo: the generated loop steps the generator as its template (rejections included)', () => {
  // m just above 2^31: about half of the outputs are rejected
  for (const m of [1, 7, 1000, 2 ** 31 + 1, 2 ** 32 - 1]) {
    for (const count of [0, 1, 2, 333]) {
      const s1 = streamStateOf(m + count);
      const s2 = s1.slice();
      reference.skipDrawsModulo(s1, m, count);
      generated.skipDrawsModulo(s2, m, count);
      assert.deepEqual(s2, s1, `m ${m}, count ${count}`);
    }
  }
  const s = streamStateOf(1);
  const before = s.slice();
  generated.skipDrawsModulo(s, 0, 10);
  assert.deepEqual(s, before, 'nothing to draw from: the state stays');
});
