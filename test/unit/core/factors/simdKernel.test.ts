// The SIMD kernel starts only when a factor model is scored, and a failed start falls back to the
// JavaScript loop with the reason kept for a note (issue 31 item 11: under a virtual-memory limit
// the program died at start with "WebAssembly.Instance(): Out of memory").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SimdScorer } from '../../../../src/core/factors/simdKernel';

test('a SIMD scorer that cannot start gives null (the JavaScript loop) and says why', () => {
  SimdScorer.fallback = undefined;
  // 2^20 items × 1024 factors: 8 GB of WebAssembly memory, more than the kernel addresses
  const scorer = SimdScorer.create({ rows: 2 ** 20, cols: 1024, data: [] }, 4);
  assert.equal(scorer, null);
  assert.match(
    SimdScorer.fallback ?? '',
    /could not start \(too large for the SIMD kernel\); scores were computed by the JavaScript loop/,
  );
  // a small one starts where the engine has SIMD, and scores exactly
  const V = { rows: 3, cols: 2, data: [1, 2, 3, 4, 5, 6] };
  const s = SimdScorer.create(V, 1);
  if (s) {
    s.score({ data: [0.5, 2] }, 0, 1);
    assert.deepEqual(Array.from(s.scores.subarray(0, 3)), [4.5, 9.5, 14.5]);
  }
});

test('a SIMD kernel that cannot start is named in a note of the results; the lists and metrics are the same', async () => {
  const { evaluateFile } = await import('../../../../src/core/evaluate');
  const run = () =>
    evaluateFile('examples/ranking-factors/U.npy', { overrides: { bootstrap: { n: 0 } }, root: process.cwd() });
  const plain = await run();
  assert.equal(
    plain.warnings.find((w) => w.code === 'simd-fallback'),
    undefined,
  );
  // The WebAssembly memory cannot be had, as under a virtual-memory limit.
  const wasm = (globalThis as unknown as { WebAssembly: { Memory: unknown } }).WebAssembly;
  const memory = wasm.Memory;
  wasm.Memory = function Memory(): never {
    throw new RangeError('WebAssembly.Memory(): could not allocate memory');
  };
  let fallback;
  try {
    fallback = await run();
  } finally {
    wasm.Memory = memory;
  }
  const notes = fallback.warnings.filter((w) => w.code === 'simd-fallback');
  assert.equal(notes.length, 1);
  assert.equal(
    notes[0]!.message,
    'U.npy: the WebAssembly SIMD kernel could not start (WebAssembly.Memory(): could not allocate memory); scores were computed by the JavaScript loop (the same values, slower).',
  );
  assert.equal(notes[0]!.file, 'U.npy');
  assert.ok(!notes[0]!.message.includes('\n'));
  assert.deepEqual(fallback.metrics, plain.metrics);
});
