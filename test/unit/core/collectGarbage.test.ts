// The full collection taken after large arrays are let go: it runs only when allowed and when
// enough was let go, it gives the memory of unreachable array buffers back, and it leaves no `gc`
// function behind for later contexts (the flag is turned off again).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import {
  COLLECT_AFTER_BYTES,
  collectGarbage,
  collectionsTaken,
  collectsByDefault,
  setCollectAfterBytes,
} from '../../../src/core/collectGarbage';
import { evaluateFile } from '../../../src/core/evaluate';

test('nothing is collected unless allowed and at least the threshold was let go', () => {
  assert.equal(collectGarbage(false, 1e9), false);
  assert.equal(collectGarbage(true, COLLECT_AFTER_BYTES - 1), false);
  assert.equal(collectGarbage(true, NaN), false);
  assert.equal(collectGarbage(true, COLLECT_AFTER_BYTES), true);
});

test('the memory of an unreachable array buffer is given back', async () => {
  // 24 MiB: below the external-memory growth at which V8 collects on its own
  const bytes = 24 * 2 ** 20;
  // Held through a box while it is measured, then let go: unreachable from there on. The level is
  // taken with the buffer alive (not before it was made), so backing stores of earlier garbage that
  // V8's concurrent sweeper frees meanwhile cannot make the buffer look already collected.
  const box: { buffer: Float64Array | null } = { buffer: new Float64Array(bytes / 8).fill(1) };
  assert.equal(box.buffer?.length, bytes / 8);
  const alive = process.memoryUsage().arrayBuffers;
  box.buffer = null;
  assert.ok(process.memoryUsage().arrayBuffers > alive - bytes / 2, 'not yet collected by V8 itself');
  assert.equal(collectGarbage(true, bytes), true);
  // V8 frees the backing stores of the buffers the collection found unreachable on a concurrent
  // sweeper thread, and memoryUsage() counts them until it has run: on a loaded machine that can
  // be after the collection returns, so wait for it (up to 10 s; nothing here allocates meanwhile).
  for (let i = 0; i < 1000 && process.memoryUsage().arrayBuffers >= alive - bytes / 2; i++)
    await new Promise((r) => setTimeout(r, 10));
  assert.ok(
    process.memoryUsage().arrayBuffers < alive - bytes / 2,
    `array buffers ${process.memoryUsage().arrayBuffers} bytes after the collection, ${alive} with the buffer alive`,
  );
});

test('later contexts do not see a gc function', () => {
  collectGarbage(true, COLLECT_AFTER_BYTES);
  assert.equal(runInNewContext('typeof gc'), 'undefined');
});

test('the main thread does not collect unless asked', () => {
  assert.equal(collectsByDefault(), false);
});

test('a ranking evaluation collects at its three points when allowed, and its results are the same', async () => {
  const file = 'examples/ranking-debian-deps/cooccurrence.jsonl';
  const was = setCollectAfterBytes(1); // this small run's arrays reach it
  try {
    const strip = (r: object): string =>
      JSON.stringify({ ...r, createdAt: null, timings: null }, (k, v) => (k === 'timings' ? null : v));
    const n0 = collectionsTaken();
    const off = await evaluateFile(file, { collectGarbage: false });
    assert.equal(collectionsTaken(), n0);
    const on = await evaluateFile(file, { collectGarbage: true });
    // once the run is read, once the reading is done, once the list slots are let go
    assert.equal(collectionsTaken(), n0 + 3);
    assert.equal(strip(on), strip(off));
    await evaluateFile(file); // the main thread, not asked: none
    assert.equal(collectionsTaken(), n0 + 3);
  } finally {
    setCollectAfterBytes(was);
  }
});
