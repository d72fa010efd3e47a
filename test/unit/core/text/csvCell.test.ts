// The CSV cell neutraliser: formula-looking text gets a leading quote, numbers stay numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvCell, csvLine, neutraliseFormula } from '../../../../src/core/text/csvCell';

test('cells a spreadsheet would evaluate get a leading single quote', () => {
  for (const s of [
    '=1+1',
    '+cmd',
    '-2+3',
    '@SUM(A1)',
    '\tx',
    '\rx',
    '=HYPERLINK("http://x")',
    '-',
    '+',
    '-nan',
    '--1',
  ]) {
    assert.equal(neutraliseFormula(s), `'${s}`, s);
  }
});

test('numbers and ordinary text stay as they are', () => {
  for (const s of ['-0.5', '+1', '-1e-3', '1E+5', '-.5', '0', '3.', '-Infinity', 'cat', 'a=b', ' =x', '', "'=x"]) {
    assert.equal(neutraliseFormula(s), s, s);
  }
});

test('quoting follows RFC 4180 after neutralising', () => {
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
  assert.equal(csvCell('\rx'), `"'\rx"`);
  assert.equal(csvLine(['run', '-0.25', '@x']), "run,-0.25,'@x");
});
