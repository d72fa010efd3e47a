// CSV cells that a spreadsheet would run as a formula are neutralised (OWASP "CSV Injection":
// prefix a single quote), numbers are left as they are, and every CSV writer uses the same rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvCell, neutraliseFormula } from '../../../src/core/text/csvCell';
import { tableToCsv } from '../../../src/shared/tableText';
import { renderCsvTable } from '../../../src/core/compare/render';
import { formatCsv } from '../../../src/core/results/format';
import { classificationResults } from '../helpers/sampleResults';

const HOSTILE = ['=1+1', '+cmd|"/c calc"!A0', '-2+3', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")'];

test('a cell beginning with = + - @ tab or CR gets a leading single quote', () => {
  for (const s of HOSTILE) assert.equal(neutraliseFormula(s), `'${s}`, JSON.stringify(s));
});

test('numbers, empty cells and ordinary text are left alone', () => {
  for (const s of ['-0.5', '-1e-7', '+3', '0', '1.5E+10', '-Infinity', 'NaN', '', 'accuracy', 'a=b', 'x-1']) {
    assert.equal(neutraliseFormula(s), s, JSON.stringify(s));
  }
});

test('csvCell: neutralised, then quoted by RFC 4180 when it holds a comma, quote or line break', () => {
  assert.equal(csvCell('=1,2'), `"'=1,2"`);
  assert.equal(csvCell('+cmd|"/c calc"!A0'), `"'+cmd|""/c calc""!A0"`);
  assert.equal(csvCell('\rx'), `"'\rx"`);
  assert.equal(csvCell('-0.25'), '-0.25');
  assert.equal(csvCell('a, b'), '"a, b"');
});

test('report Copy CSV neutralises text cells', () => {
  const csv = tableToCsv({
    id: 't',
    title: 'T',
    columns: ['run', '=acc'],
    kinds: ['text', 'num'],
    rows: [
      ['@x', -0.5],
      ['-1+1', 0.25],
    ],
  });
  assert.equal(csv, "run,'=acc\n'@x,-0.5\n'-1+1,0.25\n");
});

test('compare CSV neutralises run names and metric names', () => {
  const t = {
    runs: ['a', 'b'],
    names: ['=evil()', '-0.5'],
    metrics: ['+m'],
    directions: {},
    table: { a: { '+m': -0.25 }, b: { '+m': 0.5 } },
    marks: {},
  };
  assert.equal(renderCsvTable(t), "run,'+m,'+m_place\n'=evil(),-0.25,\n-0.5,0.5,\n");
});

test('results CSV (CLI --format csv, exported CSV) neutralises notes and metric names', () => {
  const r = classificationResults();
  r.metrics = { '=x': { value: -0.5, direction: 'higher', note: '@note' } };
  const csv = formatCsv(r);
  assert.ok(csv.includes("'=x,-0.5,,,higher,'@note"), csv);
});
