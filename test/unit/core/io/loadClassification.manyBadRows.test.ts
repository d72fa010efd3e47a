// Error mode lists every bad row (up to the cap), each with its line and column, not only the first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLensError, MAX_LISTED_PROBLEMS, Warnings } from '../../../../src/core/diagnostics';
import { loadClassification } from '../../../../src/core/io/loadClassification';
import { configOf } from '../../helpers/ioConfig';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-bad-'));

async function errorOf(name: string, text: string): Promise<EvalLensError> {
  const path = join(dir, name);
  writeFileSync(path, text);
  try {
    await loadClassification(path, configOf({}), new Warnings());
  } catch (e) {
    assert.ok(e instanceof EvalLensError, String(e));
    return e;
  }
  assert.fail('expected an error');
}

test('three bad rows: one error listing all three, each located at its line and column', async () => {
  const e = await errorOf('three.csv', 'label,prob_a,prob_b\na,0.9,0.1\na,x,0.1\nb,0.2,0.8\nb,0.3,oops\na,0.5,0.5,9\n');
  assert.equal(e.location?.line, 3);
  assert.equal(e.location?.column, 'prob_a');
  assert.deepEqual(
    e.problems!.map((p) => [p.location.line, p.location.column ?? null, p.code]),
    [
      [3, 'prob_a', e.code],
      [5, 'prob_b', e.problems![1]!.code],
      [6, null, 'ragged-row'],
    ],
  );
  assert.match(e.message, /And 2 more invalid rows \(lines 5, 6\)\.$/);
});

test('one bad row: the error as before, no list', async () => {
  const e = await errorOf('one.csv', 'label,prob_a,prob_b\na,0.9,0.1\na,x,0.1\n');
  assert.equal(e.problems, undefined);
  assert.doesNotMatch(e.message, /more invalid/);
});

test('more bad rows than the cap: reading stops at the cap', async () => {
  const rows = Array.from({ length: MAX_LISTED_PROBLEMS + 50 }, () => 'a,x,0.1').join('\n');
  const e = await errorOf('many.csv', `label,prob_a,prob_b\n${rows}\n`);
  assert.equal(e.problems!.length, MAX_LISTED_PROBLEMS);
  assert.match(e.message, /At least 99 more invalid rows .*reading stopped there\.$/);
});
