/**
 * The slice finder on files: the extension's path (a file already opened by the inspection worker)
 * gives the CLI's result; with a validation/test split it searches the test rows (the headline's rows); a ranking run is refused with a message that says why and what to do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { openInspection } from '../../../../src/core/inspect/open';
import { findSlicesInFile, findSlicesInInspection } from '../../../../src/core/inspect/sliceFinderFiles';
import { evaluateFile } from '../../../../src/core/evaluate';
import { formatFoundSlices } from '../../../../src/cli/findSlices';
import { foundSlicesView } from '../../../../src/shared/foundSlicesView';

const EXAMPLES = join(import.meta.dirname, '../../../../examples');

test('an opened file (the inspection worker) gives the same found slices as the file path (the CLI)', async () => {
  const file = join(EXAMPLES, 'digits-lt/logreg.csv');
  // every row (metricsOn "all"): the 300 rows hold classes of the minimum support 30
  const all = { overrides: { metricsOn: 'all' as const } };
  const viaFile = await findSlicesInFile(file, { limit: 5, ...all });
  const viaInspection = findSlicesInInspection(await openInspection(file, all), file, { limit: 5 });
  assert.deepEqual(viaInspection, viaFile);
  assert.equal(viaFile.n, 300);
  assert.equal(viaFile.measured, null);
  assert.equal(viaFile.slices[0]!.slice, 'label = 8');
  assert.equal(viaFile.slices[0]!.n, 30);
  assert.equal(viaFile.slices[0]!.accuracy, 3 / 30);
});

test('with a split the finder searches the test rows: the whole is the headline accuracy, each slice among the test rows', async () => {
  const file = join(EXAMPLES, 'digits-lt/logreg.csv');
  const found = await findSlicesInFile(file);
  // counted from the CSV: the rows whose split is "test"
  const rows = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const testRows = rows.flatMap((c, i) => (c[3] === 'test' ? [i] : []));
  assert.equal(testRows.length, 150);
  assert.equal(found.n, 150);
  assert.deepEqual(found.measured, { testRows: 150, rowsInFile: 300 });
  // Δ = slice − the number the report shows: the whole is the evaluation's accuracy on the test rows
  const r = await evaluateFile(file, { overrides: { bootstrap: { n: 0 } } });
  assert.ok('accuracy' in found.whole);
  assert.equal(found.whole.accuracy, r.metrics.accuracy.value);
  assert.equal(found.whole.accuracy, testRows.filter((i) => rows[i]![1] === rows[i]![2]).length / 150);
  // every listed slice: its filter starts with the role, matches only test rows, n and accuracy as counted
  assert.ok(found.slices.length > 0);
  const insp = await openInspection(file);
  for (const s of found.slices) {
    assert.deepEqual(s.where[0], { key: 'split_role', op: '=', value: 'test' });
    assert.ok(s.whereText.startsWith('split_role = test and '), s.whereText);
    const hit = [...insp.rowsMatching(s.where)];
    assert.equal(hit.length, s.n, s.slice);
    assert.ok(hit.every((i) => rows[i]![3] === 'test'));
    assert.equal(s.accuracy, hit.filter((i) => rows[i]![1] === rows[i]![2]).length / s.n, s.slice);
  }
  // the terminal table and the panel's note say which rows were searched
  const text = formatFoundSlices(found);
  assert.match(
    text,
    /Slices below the test rows \(accuracy 0\.\d{4} over 150 rows \(the split's test rows: 150 of 300\)\)/,
  );
  assert.match(text, /Δ = slice − the test rows;/);
  const view = foundSlicesView(found);
  assert.equal(view.columns[3], 'test rows');
  assert.match(view.note, /over 150 rows \(the split's test rows: 150 of 300\)/);
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
