import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, closeAbs, closeRel } from './numericClose';

test('numericClose: absolute tolerance is |a − b| ≤ tol at every scale', () => {
  closeAbs(1 + 1e-13, 1);
  closeAbs(0.25, 0.5, 0.25);
  assert.throws(() => closeAbs(0.25, 0.5, 0.2499), /expected 0.5, got 0.25/);
  // 1000 + 1e-10 is within 1e-12 · 1000 but not within 1e-12.
  assert.throws(() => closeAbs(1000 + 1e-10, 1000));
});

test('numericClose: relative tolerance scales by max(1, |expected|)', () => {
  closeRel(1000 + 1e-10, 1000);
  closeRel(-1000 - 1e-10, -1000);
  assert.throws(() => closeRel(1000 + 1e-8, 1000));
  // Below 1 it is absolute: 1e-13 off 1e-6 passes, 2e-12 off does not.
  closeRel(1e-6 + 1e-13, 1e-6);
  assert.throws(() => closeRel(1e-6 + 2e-12, 1e-6));
});

test('numericClose: NaN, infinities and null compare by identity', () => {
  closeAbs(NaN, NaN);
  closeRel(Infinity, Infinity);
  assert.throws(() => closeRel(Infinity, -Infinity));
  assert.throws(() => closeAbs(1, NaN));
  assert.throws(() => closeAbs(NaN, 1));
  closeAbs(null, null);
  assert.throws(() => closeAbs(undefined, null), /expected null/);
  assert.throws(() => closeAbs(null, 0), /expected 0, got null/);
  assert.throws(() => assertClose(undefined, 0, 1, 'rel', 'auc'), /^AssertionError.*auc: expected 0, got undefined/s);
});
