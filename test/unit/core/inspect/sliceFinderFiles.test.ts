/**
 * The slice finder on files: the extension's path (a file already opened by the inspection worker)
 * gives the CLI's result; a ranking run is refused with a message that says why and what to do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { openInspection } from '../../../../src/core/inspect/open';
import { findSlicesInFile, findSlicesInInspection } from '../../../../src/core/inspect/sliceFinderFiles';

const EXAMPLES = join(import.meta.dirname, '../../../../examples');

test('an opened file (the inspection worker) gives the same found slices as the file path (the CLI)', async () => {
  const file = join(EXAMPLES, 'digits-lt/logreg.csv');
  const viaFile = await findSlicesInFile(file, { limit: 5 });
  const viaInspection = findSlicesInInspection(await openInspection(file), file, { limit: 5 });
  assert.deepEqual(viaInspection, viaFile);
  assert.equal(viaFile.slices[0]!.slice, 'label = 8');
  assert.equal(viaFile.slices[0]!.n, 30);
  assert.equal(viaFile.slices[0]!.accuracy, 3 / 30);
});

test('a ranking run is refused: the finder tests right/wrong rows; slice users by a per-user column instead', async () => {
  const file = join(EXAMPLES, 'ranking-debian-deps/popularity.jsonl');
  await assert.rejects(
    findSlicesInFile(file, { configPath: join(EXAMPLES, 'ranking-debian-deps/eval-lens.json') }),
    (err: unknown) => {
      assert.ok(err instanceof EvalLensError);
      assert.equal(err.code, 'slice-finder-task');
      assert.match(err.message, /popularity\.jsonl/);
      assert.match(err.message, /a ranking run has a graded per-user metric instead, which the finder does not test/);
      assert.match(err.message, /slice users by a per-user column \(the Slices tab, or `slices` in the config\)/);
      return true;
    },
  );
});
