import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TableModel } from '../../../src/shared/model';
import { formatCell, tableToCsv, tableToMarkdown } from '../../../src/shared/tableText';

const t: TableModel = {
  id: 't',
  title: 'T',
  columns: ['run', 'acc', 'n', 'p'],
  kinds: ['text', 'num', 'int', 'p'],
  rows: [
    ['a|b', 0.5, 3, 0.00001],
    ['c, "d"', null, 4, 0.2],
  ],
  marks: [
    [null, 1, null, null],
    [null, 2, null, null],
  ],
  suffixes: [
    ['', '*', '', ''],
    ['', '', '', ''],
  ],
};

test('cells as shown on screen', () => {
  assert.equal(formatCell(null), '—');
  assert.equal(formatCell(3, 'int'), '3');
  assert.equal(formatCell(3.5, 'int'), '3.5000');
  // Counts grouped as on the cards and in the confusion matrix; a number in a text column as written.
  assert.equal(formatCell(14000, 'int'), '14,000');
  assert.equal(formatCell(1234567, 'int'), '1,234,567');
  assert.equal(formatCell(2019, 'text'), '2019');
  assert.equal(formatCell(0.00001, 'p'), '1.0e-5');
  assert.equal(formatCell('x', 'num'), 'x');
});

test('Markdown: pipes escaped, numbers right-aligned, best bold, second underlined, stars kept', () => {
  assert.equal(
    tableToMarkdown(t),
    '| run | acc | n | p |\n|---|---:|---:|---:|\n| a\\|b | **0.5000\\*** | 3 | 1.0e-5 |\n| c, "d" | <u>—</u> | 4 | 0.2000 |\n',
  );
});

test('CSV: full precision, empty for null, RFC 4180 quoting', () => {
  assert.equal(tableToCsv(t), 'run,acc,n,p\na|b,0.5,3,0.00001\n"c, ""d""",,4,0.2\n');
});
