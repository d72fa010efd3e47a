/**
 * The line of each row (1-based, where the row starts) as the inspection reports it, for files
 * written here with known lines: CRLF, quoted newlines inside CSV cells, a BOM, JSONL with blank
 * lines, JSON arrays (the line of the element) and JSON column objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInspection } from '../../../../src/core/inspect/index';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-lines-'));

async function lines(
  name: string,
  text: string,
): Promise<{ line: number; id: string | null; columns: Record<string, string> }[]> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const ins = await openInspection(path, { overrides: { bootstrap: { n: 0 } } });
  const page = ins.query({ where: [], offset: 0, limit: 100 });
  return page.rows.map((r) =>
    r.kind === 'classification'
      ? { line: r.line, id: r.id, columns: r.columns }
      : { line: r.line, id: null, columns: {} },
  );
}

test('CSV with CRLF line ends', async () => {
  const rows = await lines('crlf.csv', 'id,label,pred\r\nr1,a,a\r\nr2,b,a\r\n\r\nr3,a,b\r\n');
  assert.deepEqual(
    rows.map((r) => [r.id, r.line]),
    [
      ['r1', 2],
      ['r2', 3],
      ['r3', 5],
    ],
  );
});

test('CSV with quoted newlines inside cells (LF and CRLF)', async () => {
  for (const eol of ['\n', '\r\n']) {
    const text =
      [
        'id,label,pred,text',
        'r1,a,a,"one',
        'two',
        'three"',
        'r2,b,b,plain',
        'r3,a,b,"x,""y""',
        'z"',
        'r4,b,a,end',
      ].join(eol) + eol;
    const rows = await lines(`quoted-${eol.length}.csv`, text);
    assert.deepEqual(
      rows.map((r) => [r.id, r.line]),
      [
        ['r1', 2],
        ['r2', 5],
        ['r3', 6],
        ['r4', 8],
      ],
    );
    assert.equal(rows[0].columns.text, `one${eol}two${eol}three`);
    assert.equal(rows[2].columns.text, `x,"y"${eol}z`);
  }
});

test('CSV with a UTF-8 byte order mark', async () => {
  const rows = await lines('bom.csv', '\uFEFFid,label,pred\nr1,a,a\nr2,b,b\n');
  assert.deepEqual(
    rows.map((r) => [r.id, r.line]),
    [
      ['r1', 2],
      ['r2', 3],
    ],
  );
});

test('JSONL with blank lines (and a BOM)', async () => {
  const text =
    '\uFEFF{"id":"r1","label":"a","pred":"a","note":"x"}\n\n{"id":"r2","label":"b","pred":"a","note":null}\n   \n\n{"id":"r3","label":"a","pred":"b","note":3.5}\n';
  const rows = await lines('blank.jsonl', text);
  assert.deepEqual(
    rows.map((r) => [r.id, r.line]),
    [
      ['r1', 1],
      ['r2', 3],
      ['r3', 6],
    ],
  );
  assert.deepEqual(
    rows.map((r) => r.columns.note),
    ['x', '', '3.5'],
  );
});

test('JSON array: the line where each element starts', async () => {
  const text = `[
  {"id": "r1", "label": "a", "pred": "a"},
  {
    "id": "r2",
    "label": "b",
    "pred": "a"
  },

  {"id": "r3", "label": "a",
   "pred": "b"}, {"id": "r4", "label": "b", "pred": "b"}
]
`;
  const rows = await lines('array.json', text);
  assert.deepEqual(
    rows.map((r) => [r.id, r.line]),
    [
      ['r1', 2],
      ['r2', 3],
      ['r3', 9],
      ['r4', 10],
    ],
  );
});

test('JSON object of columns: the line of the row value in the first column', async () => {
  const text = '{\n  "id": [\n    "r1",\n    "r2"\n  ],\n  "label": ["a", "b"],\n  "pred": ["a", "a"]\n}\n';
  const rows = await lines('columns.json', text);
  assert.deepEqual(
    rows.map((r) => [r.id, r.line]),
    [
      ['r1', 3],
      ['r2', 4],
    ],
  );
});
