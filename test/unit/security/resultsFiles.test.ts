// Results and comparison files are untrusted (they come with cloned repositories and pull
// requests): each is checked against its schema before any field is used, and a bad one names the
// field. Control characters from the file never reach a message raw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError, printable } from '../../../src/core/diagnostics';
import { parseEvalLensJson } from '../../../src/core/compare/evalLensFile';
import { validateCompare } from '../../../src/core/compare/validate';
import { classificationResults, compareResults } from '../helpers/reportFixtures';

function parseError(obj: unknown): EvalLensError {
  try {
    parseEvalLensJson('x.compare.json', JSON.stringify(obj));
  } catch (err) {
    assert.ok(err instanceof EvalLensError, String(err));
    return err;
  }
  assert.fail('expected an error');
}

test('a valid comparison and a valid results file parse to their kinds', () => {
  assert.equal(parseEvalLensJson('a.compare.json', JSON.stringify(compareResults())).kind, 'compare');
  assert.equal(parseEvalLensJson('a.eval.json', JSON.stringify(classificationResults())).kind, 'results');
});

test('a comparison with a hostile marks value is refused, naming the field', () => {
  const c = compareResults() as unknown as { marks: Record<string, Record<string, unknown>>; runs: string[] };
  c.marks.accuracy![c.runs[0]!] = '1"><script>alert(1)</script>';
  assert.equal(validateCompare(c).length, 1);
  assert.match(validateCompare(c)[0]!, /^compare\.marks\.accuracy\.a\.csv: expected one of 1, 2, 3, got /);
  const e = parseError(c);
  assert.equal(e.code, 'results-invalid');
  assert.match(
    e.message,
    /^x\.compare\.json: not a valid eval-lens\/compare@1 comparison file \(1 problem\):\n {2}compare\.marks\.accuracy\./,
  );
});

test('a comparison missing its tests, or with a baseline that is not a run, is refused', () => {
  const a = compareResults() as unknown as Record<string, unknown>;
  delete a.tests;
  assert.deepEqual(validateCompare(a), ['compare: missing `tests`']);
  const b = compareResults();
  b.baseline = 'elsewhere.csv';
  assert.deepEqual(validateCompare(b), ['compare.baseline: expected one of compare.runs, got "elsewhere.csv"']);
  assert.deepEqual(validateCompare({ ...compareResults(), kind: 'other' }), [
    'compare.kind: expected "comparison" or "inspection", got "other"',
  ]);
});

test('a results file with a string where a number belongs is refused before use', () => {
  const r = classificationResults() as unknown as { metrics: Record<string, { value: unknown }> };
  r.metrics.accuracy!.value = '<img src=x onerror=alert(1)>';
  const e = parseError(r);
  assert.match(e.message, /results\.metrics\.accuracy\.value: expected a number or null/);
});

test('syntax errors name line and column; control characters are escaped in messages', () => {
  assert.throws(
    () => parseEvalLensJson('b.eval.json', '{\n  "schema": "x",\n  oops\n}'),
    /^EvalLensError: b\.eval\.json:3:3: invalid JSON at line 3, column 3/,
  );
  const r = { schema: 'eval-lens/results@1\u001b[31m' };
  const e = parseError(r);
  assert.ok(!e.message.includes('\u001b'), e.message);
  assert.equal(printable('a\u001b[2Jb\u0007'), 'a\\u001b[2Jb\\u0007');
});

test('a results file whose confusion matrix does not match its labels is refused (the report would fail on it)', () => {
  const r = classificationResults();
  r.tables.confusion!.matrix = [
    [1, 0],
    [0, 1],
  ];
  const e = parseError(r);
  assert.match(e.message, /results\.tables\.confusion\.matrix: has 2 rows, expected 3/);
  assert.match(e.message, /results\.tables\.confusion\.matrix\[0\]: has 2 cells, expected 3/);
});
