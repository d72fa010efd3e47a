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
import Papa from 'papaparse';
import { recordEndLine, rowPosition } from '../../../src/shared/rowPosition';

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

test('recordEndLine: a record ends at the first line end outside quotes (quoted fields with line breaks, doubled quotes)', () => {
  const at = (lines: string[]) => (i: number) => lines[i]!;
  const lines = ['id,text,label', '1,"two', 'lines",a', '2,"say ""hi""",b', '3,"x', '', 'y ""z""', '",c', '4,plain,d'];
  const end = (start: number, file = 'p.csv'): number => recordEndLine(at(lines), lines.length, start, file);
  assert.equal(end(0), 0);
  assert.equal(end(1), 2); // "two\nlines"
  assert.equal(end(3), 3); // doubled quotes on one line
  assert.equal(end(4), 7); // an empty line and doubled quotes inside the field
  assert.equal(end(8), 8);
  // One record a line in other formats; an unterminated quote runs to the last line.
  assert.equal(end(1, 'p.jsonl'), 1);
  assert.equal(recordEndLine(at(['a,"open', 'more']), 2, 0, 'p.tsv'), 1);
});

test('recordEndLine agrees with papaparse on random CSV files whose quoted fields hold line breaks', () => {
  let seed = 7;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const field = (): string => {
    const r = rand();
    if (r < 0.5) return `v${Math.floor(rand() * 100)}`;
    const inner = ['a', '\n', '""', ',', 'b\nc', '\n\n'][Math.floor(rand() * 6)]!;
    return `"x${inner}y"`;
  };
  for (let trial = 0; trial < 50; trial++) {
    const records = Array.from({ length: 1 + Math.floor(rand() * 8) }, () =>
      Array.from({ length: 3 }, field).join(','),
    );
    const text = records.join('\n');
    const lines = text.split('\n');
    // The reference: papaparse's records, and each one's start line counted from its text.
    const parsed = Papa.parse<string[]>(text, { header: false });
    assert.equal(parsed.errors.length, 0, JSON.stringify(parsed.errors));
    assert.equal(parsed.data.length, records.length);
    let start = 0;
    for (const rec of records) {
      const span = rec.split('\n').length;
      assert.equal(
        recordEndLine((i) => lines[i]!, lines.length, start, 'r.csv'),
        start + span - 1,
        rec,
      );
      start += span;
    }
  }
});
