/**
 * `eval-lens rows` and `eval-lens evaluate --slice-by` end to end (spawned as
 * `node --import tsx src/cli/main.ts …`): the JSON shape, the table and CSV formats (with the
 * spreadsheet-injection rule), exit codes of bad expressions, keys and flags.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Papa from 'papaparse';
import { csvCell } from '../../../src/core/text/csvCell';
import { derive, writeRandomFile } from '../helpers/randomFile';

const ROOT = process.cwd();
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-cli-rows-'));
const { path, rows } = writeRandomFile(dir, 31, 200);
const config = join(dir, 'random-31.json');

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('rows --format json: {total, rows: [{line, id, label, pred, correct, confidence, top, columns, …}]}', () => {
  const r = cli([
    'rows',
    path,
    '--config',
    config,
    '--where',
    'correct=false and city!=Oslo',
    '--sort',
    'confidence:desc',
    '--limit',
    '5',
    '--offset',
    '2',
    '--format',
    'json',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { total: number; rows: Record<string, unknown>[] };
  const want = rows
    .map((x) => ({ ...x, ...derive(x) }))
    .filter((x) => !x.correct && x.city !== 'Oslo')
    .sort((a, b) => b.confidence - a.confidence || a.line - b.line);
  assert.equal(out.total, want.length);
  assert.equal(out.rows.length, 5);
  out.rows.forEach((row, j) => {
    const w = want[j + 2];
    assert.deepEqual(Object.keys(row).slice(0, 8), [
      'line',
      'id',
      'label',
      'pred',
      'correct',
      'confidence',
      'top',
      'columns',
    ]);
    assert.equal(row.line, w.line);
    assert.equal(row.id, w.id);
    assert.equal(row.label, w.label);
    assert.equal(row.pred, w.pred);
    assert.equal(row.correct, false);
    assert.equal(row.confidence, w.confidence);
    assert.equal((row.top as [string, number][]).length, 3);
    assert.deepEqual(row.columns, { city: w.city, age: w.age, note: w.note });
  });
});

test('rows --format csv: the cells of the file, spreadsheet-safe', () => {
  const r = cli(['rows', path, '--config', config, '--where', 'city="=cmd"', '--limit', '3', '--format', 'csv']);
  assert.equal(r.status, 0, r.stderr);
  const parsed = Papa.parse<string[]>(r.stdout.trim(), { newline: '\n' }).data;
  const head = parsed[0];
  assert.deepEqual(head.slice(0, 7), ['line', 'id', 'label', 'pred', 'correct', 'confidence', 'loss']);
  const city = head.indexOf('city');
  assert.ok(parsed.length > 1);
  for (const row of parsed.slice(1)) assert.equal(row[city], "'=cmd");
  assert.equal(csvCell('-0.5'), '-0.5');
  assert.equal(csvCell('-x'), "'-x");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell('+1'), '+1');
  assert.equal(csvCell('\tx'), "'\tx");
  assert.equal(csvCell('a,"b"'), '"a,""b"""');
});

test('rows --format table prints the page and where it is in the matching rows', () => {
  const r = cli(['rows', path, '--config', config, '--where', 'label=a', '--limit', '3']);
  assert.equal(r.status, 0, r.stderr);
  const n = rows.filter((x) => x.label === 'a').length;
  assert.match(r.stdout, new RegExp(`rows 1–3 of ${n} matching \\(${rows.length} in the file\\)`));
  assert.match(r.stdout.split('\n')[0], /^line\s+id\s+label\s+pred\s+correct\s+confidence/);
});

test('a bad expression, key, value or flag is a usage error (exit 2) saying what was expected where', () => {
  const syntax = cli(['rows', path, '--config', config, '--where', 'label=a or pred=b']);
  assert.equal(syntax.status, 2);
  assert.match(syntax.stderr, /expected "and" or the end of the expression at character 9 \(1-based\)/);
  assert.match(syntax.stderr, /\n {2}label=a or pred=b\n {10}\^/);
  const key = cli(['rows', path, '--config', config, '--where', 'colour=red']);
  assert.equal(key.status, 2);
  assert.match(key.stderr, /unknown key "colour"; expected one of: label, pred/);
  const value = cli(['rows', path, '--config', config, '--where', 'confidence>=high']);
  assert.equal(value.status, 2);
  assert.match(value.stderr, /expected a number after >=/);
  const sort = cli(['rows', path, '--config', config, '--sort', 'city:up']);
  assert.equal(sort.status, 2);
  const limit = cli(['rows', path, '--config', config, '--limit', 'ten']);
  assert.equal(limit.status, 2);
  assert.match(limit.stderr, /--limit expects a whole number/);
  const missing = cli(['rows', join(dir, 'nope.csv')]);
  assert.equal(missing.status, 1);
});

test('evaluate --slice-by prints the slice table after the metrics', () => {
  const r = cli(['evaluate', path, '--config', config, '--slice-by', 'city', '--min-slice-size', '5']);
  assert.equal(r.status, 0, r.stderr);
  const at = r.stdout.indexOf('Slices (worst first by accuracy');
  assert.ok(at > r.stdout.indexOf('accuracy'), 'after the metrics');
  // Slices cover the rows the metrics cover: the file's split column makes them its test rows; every
  // city with at least --min-slice-size of them is listed.
  const perCity = new Map<string, number>();
  for (const x of rows) if (x.split === 'test') perCity.set(x.city, (perCity.get(x.city) ?? 0) + 1);
  const listed = [...perCity].filter(([, k]) => k >= 5).map(([c]) => c);
  assert.ok(listed.length >= 2, `cities with 5 test rows: ${listed.join(', ')}`);
  for (const c of listed) assert.ok(r.stdout.slice(at).includes(c), c);
  // The ~100 test rows make quartile bins of about 25 rows: below the default minSliceSize (30).
  const json = cli([
    'evaluate',
    path,
    '--config',
    config,
    '--slice-by',
    'city,age',
    '--min-slice-size',
    '5',
    '--format',
    'json',
  ]);
  const res = JSON.parse(json.stdout) as { config: { slices: string[] }; tables: { slices: { slice: string }[] } };
  assert.deepEqual(res.config.slices, ['city', 'age']);
  assert.ok(res.tables.slices.some((s) => s.slice === 'age'));
});
