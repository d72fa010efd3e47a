// Text tables: aligned terminal columns and titled Markdown tables, hand-written expectations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignColumns, titledMarkdownTable, titledTextTable } from '../../../../src/core/text/textTable';

test('alignColumns pads text columns on the right and number columns on the left, two spaces apart, no trailing spaces', () => {
  assert.deepEqual(
    alignColumns([
      ['group', 'n'],
      ['a', '10'],
    ]),
    ['group   n', 'a      10'],
  );
  // every column a number column; a last column padded on the right is trimmed
  assert.deepEqual(
    alignColumns(
      [
        ['x', '1'],
        ['yy', '22'],
      ],
      0,
    ),
    [' x   1', 'yy  22'],
  );
  assert.deepEqual(
    alignColumns(
      [
        ['a', 'b'],
        ['ccc', ''],
      ],
      2,
    ),
    ['a    b', 'ccc'],
  );
});

test('titledTextTable: a blank line, the title, then the rows indented by two spaces', () => {
  assert.equal(titledTextTable({ title: 'T', head: ['k', 'v'], body: [['a', '1.5']] }), '\nT\n  k    v\n  a  1.5\n');
});

test('titledMarkdownTable: heading escaped, alignment row from leftAligned, cells as given', () => {
  assert.equal(
    titledMarkdownTable({ title: 'a|b', head: ['k', 'v'], body: [['x', '1']] }),
    '\n### a\\|b\n\n| k | v |\n|---|---:|\n| x | 1 |\n',
  );
  assert.equal(
    titledMarkdownTable({ title: 'T', head: ['n', 'v'], body: [], leftAligned: 0 }),
    '\n### T\n\n| n | v |\n|---:|---:|\n',
  );
});
