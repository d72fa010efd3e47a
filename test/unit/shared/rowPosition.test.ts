/**
 * The rows grid and `eval-lens rows` show a text file's line (with Open) and a Parquet or `.npz`
 * file's data row (no Open): for those, a row's `line` is data row + 1, as messages count it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openInspection } from '../../../src/core/inspect/index';
import { rowPosition } from '../../../src/shared/rowPosition';

const ROOT = process.cwd();
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

test('a text file: the line, openable; a row-addressed file: the data row, not openable', () => {
  const text = rowPosition({});
  assert.deepEqual([text.title, text.value(1044), text.openable], ['line', 1044, true]);
  const binary = rowPosition({ rowAddressed: true });
  assert.deepEqual([binary.title, binary.value(1044), binary.openable], ['row', 1043, false]);
});

test('pages of Parquet and .npz files are row-addressed; a CSV page is not', async () => {
  for (const file of [
    'test/fixtures/npz/digits-logreg.npz',
    'test/fixtures/parquet/digits-logreg-wide.snappy.parquet',
  ]) {
    const ins = await openInspection(join(ROOT, file), { overrides: { bootstrap: { n: 0 } } });
    const page = ins.query({ where: [], sort: { key: 'line', dir: 'desc' }, offset: 0, limit: 1 });
    assert.equal(page.rowAddressed, true, file);
    assert.equal(page.rows[0].line, 301, file); // data row 300 of 300
    assert.equal(rowPosition(page).value(page.rows[0].line), 300, file);
  }
  const csv = await openInspection(join(ROOT, 'examples/digits-lt/logreg.csv'), {
    overrides: { bootstrap: { n: 0 } },
  });
  const page = csv.query({ where: [], offset: 0, limit: 1 });
  assert.equal(page.rowAddressed, undefined);
  assert.equal(page.rows[0].line, 2);
});

test('eval-lens rows on an .npz file prints the data row under "row"', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      TSX,
      join(ROOT, 'src/cli/main.ts'),
      'rows',
      'test/fixtures/npz/digits-logreg.npz',
      '--sort',
      'line:desc',
      '--limit',
      '1',
      '--format',
      'csv',
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  assert.equal(r.status, 0, r.stderr);
  const [head, first] = r.stdout.split('\n');
  assert.equal(head.split(',')[0], 'row');
  assert.equal(first.split(',')[0], '300');
});
