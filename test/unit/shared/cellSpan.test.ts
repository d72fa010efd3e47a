import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellSpan, fieldSpans } from '../../../src/shared/cellSpan';

test('fieldSpans: delimiters inside quotes do not split', () => {
  assert.deepEqual(fieldSpans('a,"b,c",d', ','), [
    [0, 1],
    [2, 7],
    [8, 9],
  ]);
  assert.deepEqual(fieldSpans('a,,', ','), [
    [0, 1],
    [2, 2],
    [3, 3],
  ]);
  assert.deepEqual(fieldSpans('"x""y",z', ','), [
    [0, 6],
    [7, 8],
  ]);
});

test('cellSpan in CSV, TSV and JSON Lines', () => {
  const header = 'label,prob_a,"prob_b"';
  const line = 'a,x,0.1';
  assert.deepEqual(cellSpan('p.csv', header, line, 'prob_a'), [2, 3]);
  assert.deepEqual(cellSpan('p.csv', header, line, 'prob_b'), [4, 7]);
  assert.equal(cellSpan('p.csv', header, line, 'nope'), undefined);
  assert.equal(cellSpan('p.csv', header, 'a', 'prob_b'), undefined);
  assert.deepEqual(cellSpan('p.tsv', 'label\tscore', 'a\tzz', 'score'), [2, 4]);
  const j = '{"label": "a", "probs": [0.1, "x"], "id": 3}';
  const s = cellSpan('p.jsonl', undefined, j, 'probs')!;
  assert.equal(j.slice(s[0], s[1]), '"probs": [0.1, "x"]');
});
