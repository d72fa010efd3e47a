// Typed arrays over shared memory (a bootstrap job's per-row data): zeros of the asked type, copies
// with the same values, and a structured clone — what a worker thread receives — that reads the
// same memory instead of a copy of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedZeros, toShared } from '../../../../src/core/stats/sharedArrays';

const isShared = (a: { buffer: ArrayBufferLike }) => a.buffer instanceof SharedArrayBuffer;

test('sharedZeros / toShared: zeros over a SharedArrayBuffer; a copy with the same values, or the array itself', () => {
  const i32 = sharedZeros(Int32Array, 3);
  const u8 = sharedZeros(Uint8Array, 3);
  assert.ok(isShared(i32) && i32 instanceof Int32Array && i32.length === 3);
  assert.ok(isShared(u8) && u8 instanceof Uint8Array && u8.length === 3);
  const z = sharedZeros(Float64Array, 5);
  assert.ok(isShared(z));
  assert.deepEqual([...z], [0, 0, 0, 0, 0]);
  const a = Int32Array.from([3, -1, 7]);
  const s = toShared(a);
  assert.ok(isShared(s) && s !== a);
  assert.deepEqual([...s], [3, -1, 7]);
  assert.equal(toShared(s), s);
  // a structured clone (what a worker receives) shares the memory instead of copying it
  const clone = structuredClone(s);
  s[1] = 42;
  assert.equal(clone[1], 42);
});
