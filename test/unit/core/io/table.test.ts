// The streaming table reader: CSV/TSV quoting and physical line numbers, JSONL, JSON (both shapes),
// errors, progress and cancellation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancelledError, EvalLensError } from '../../../../src/core/diagnostics';
import { readTable, valueStartLines } from '../../../../src/core/io/table';
import { detectFormat } from '../../../../src/core/io/format';
import { collector, tmpFile } from '../../helpers/io';

async function read(name: string, content: string | Buffer) {
  const sink = collector();
  const r = await readTable(tmpFile(name, content), sink);
  return { ...r, names: sink.names, rows: sink.rows, lines: sink.lines, count: r.rows };
}

async function rejectsWith(p: Promise<unknown>, code: string, line: number | undefined, text: string) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof EvalLensError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.location?.line, line, e.message);
    assert.ok(e.message.includes(text), e.message);
    return true;
  });
}

test('CSV: plain rows, header = line 1', async () => {
  const r = await read('a.csv', 'x,y\n1,2\n3,4\n');
  assert.deepEqual(r.names, ['x', 'y']);
  assert.deepEqual(r.rows, [
    ['1', '2'],
    ['3', '4'],
  ]);
  assert.deepEqual(r.lines, [2, 3]);
  assert.equal(r.count, 2);
  assert.equal(r.format, 'csv');
});

test('CSV: RFC 4180 quoting — quoted commas, doubled quotes, quoted newlines keep physical lines', async () => {
  const r = await read('q.csv', 'id,text,v\n1,"a, b",2\n2,"say ""hi""",3\n3,"two\nlines\nhere",4\n4,plain,5\n');
  assert.deepEqual(r.rows, [
    ['1', 'a, b', '2'],
    ['2', 'say "hi"', '3'],
    ['3', 'two\nlines\nhere', '4'],
    ['4', 'plain', '5'],
  ]);
  // row 3 starts on line 4 and spans lines 4–6, so row 4 is on line 7
  assert.deepEqual(r.lines, [2, 3, 4, 7]);
});

test('CSV: BOM stripped, CRLF and blank lines (counted, skipped), no final newline', async () => {
  const r = await read(
    'b.csv',
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x,y\r\n1,2\r\n\r\n"a\r\nb",3\r\n5,6')]),
  );
  assert.deepEqual(r.names, ['x', 'y']);
  assert.deepEqual(r.rows, [
    ['1', '2'],
    ['a\r\nb', '3'],
    ['5', '6'],
  ]);
  assert.deepEqual(r.lines, [2, 4, 6]);
});

test('CSV: quoted header names and a multi-line header', async () => {
  const r = await read('h.csv', '"a,b","c\nd"\n1,2\n');
  assert.deepEqual(r.names, ['a,b', 'c\nd']);
  assert.deepEqual(r.lines, [3]);
});

test('CSV: rows and lines are right across 1 MiB chunk boundaries, with quotes late in the file', async () => {
  const n = 60000;
  const parts = ['id,text,v'];
  for (let i = 0; i < n; i++) parts.push(i === n - 10 ? `${i},"x\ny, z",${i * 0.5}` : `${i},t${i},${i * 0.5}`);
  const r = await read('big.csv', parts.join('\n') + '\n');
  assert.equal(r.count, n);
  for (let i = 0; i < n; i++) {
    assert.equal(r.rows[i][0], String(i));
    assert.equal(r.lines[i], i < n - 9 ? i + 2 : i + 3);
  }
  assert.equal(r.rows[n - 10][1], 'x\ny, z');
});

test('CSV: multi-byte UTF-8 characters split by chunking survive', async () => {
  const row = 'é,日本,😀';
  const parts = ['a,b,c'];
  for (let i = 0; i < 200000; i++) parts.push(row);
  const r = await read('u.csv', parts.join('\n'));
  assert.ok(r.rows.every((c) => c[0] === 'é' && c[1] === '日本' && c[2] === '😀'));
});

test('TSV (.tsv and .tab)', async () => {
  const r = await read('t.tsv', 'x\ty\n1\t"a\tb"\n');
  assert.deepEqual(r.rows, [['1', 'a\tb']]);
  assert.equal(r.format, 'tsv');
  assert.equal((await read('t.tab', 'x\ty\n1\t2\n')).format, 'tsv');
});

test('CSV errors: ragged row, empty file, header only, unclosed quote', async () => {
  await rejectsWith(
    read('r.csv', 'a,b,c\n1,2,3\n1,2\n'),
    'ragged-row',
    3,
    'expected 3 fields (as in the header), got 2',
  );
  await rejectsWith(read('r2.csv', 'a,b\n1,2\n"x\ny",2,3\n'), 'ragged-row', 3, 'got 3');
  await rejectsWith(read('e.csv', ''), 'empty-file', undefined, 'empty');
  await rejectsWith(read('e2.csv', '\n\n'), 'empty-file', 1, 'empty');
  await rejectsWith(read('h.csv', 'a,b\n'), 'no-data-rows', undefined, 'no data rows');
  await rejectsWith(read('h2.csv', 'a,b\n\n\n'), 'no-data-rows', undefined, 'no data rows');
  await rejectsWith(read('q.csv', 'a,b\n1,2\n"x,3\n'), 'malformed-quotes', 3, 'never closed');
  await rejectsWith(readTable('/nonexistent/x.csv', collector()), 'cannot-open', undefined, 'no such file');
});

test('onRagged receives ragged rows instead of an error', async () => {
  const got: number[][] = [];
  const sink = collector();
  const r = await readTable(tmpFile('r.csv', 'a,b\n1,2\n3\n4,5\n'), sink, {
    onRagged: (line, n, exp) => got.push([line, n, exp]),
  });
  assert.deepEqual(got, [[3, 1, 2]]);
  assert.deepEqual(sink.lines, [2, 4]);
  assert.equal(r.rows, 3);
});

test('JSONL: objects per line, blank lines skipped, missing keys null, lines physical', async () => {
  const r = await read('a.jsonl', '{"a":1,"b":[1,2]}\n\n{"b":{"x":true}}\r\n{"a":"s","b":null}');
  assert.deepEqual(r.names, ['a', 'b']);
  assert.deepEqual(r.rows, [
    [1, [1, 2]],
    [null, { x: true }],
    ['s', null],
  ]);
  assert.deepEqual(r.lines, [1, 3, 4]);
  assert.equal((await read('a.ndjson', '{"a":1}\n')).format, 'jsonl');
});

test('JSONL errors: malformed line, non-object, a key the first row lacks', async () => {
  await rejectsWith(read('b.jsonl', '{"a":1}\n{"a":\n'), 'malformed-json', 2, 'does not parse');
  await rejectsWith(read('c.jsonl', '{"a":1}\n[1]\n'), 'malformed-json', 2, 'got an array');
  await rejectsWith(
    read('d.jsonl', '{"a":1}\n\n{"a":2,"z":3}\n'),
    'unexpected-key',
    3,
    'key "z" is not in the first row',
  );
});

test('JSON: array of rows, line where each object starts', async () => {
  const r = await read('a.json', '[\n  {"a": 1, "b": "x"},\n  {\n    "a": 2,\n    "b": "}{,"\n  },\n  {"b": "z"}\n]\n');
  assert.deepEqual(r.names, ['a', 'b']);
  assert.deepEqual(r.rows, [
    [1, 'x'],
    [2, '}{,'],
    [null, 'z'],
  ]);
  assert.deepEqual(r.lines, [2, 3, 7]);
});

test('JSON: object of columns, lengths must agree', async () => {
  const r = await read('c.json', '{"a": [1,\n 2,\n 3], "b": ["x", "y", "z"]}');
  assert.deepEqual(r.rows, [
    [1, 'x'],
    [2, 'y'],
    [3, 'z'],
  ]);
  assert.deepEqual(r.lines, [1, 2, 3]);
  await rejectsWith(
    read('d.json', '{"a": [1, 2], "b": [1]}'),
    'column-length-mismatch',
    undefined,
    'expected 2 values',
  );
  await rejectsWith(read('e.json', '{"a": 1}'), 'malformed-json', undefined, 'array of column values');
  await rejectsWith(read('f.json', '[1, 2]'), 'malformed-json', 1, 'row object');
  await rejectsWith(read('g.json', '[]'), 'no-data-rows', undefined, 'no rows');
  await rejectsWith(read('h.json', '{"a": [1,'), 'malformed-json', 1, 'at line 1, column 10');
  await rejectsWith(read('h2.json', '[\n {"a": 1},\n {"a": 2,,}\n]'), 'malformed-json', 3, 'at line 3, column 10');
});

test('valueStartLines: nested values and strings with brackets do not confuse it', () => {
  // lines: 1 `[{"a":[1,`  2 `2]},`  3 `"[x",`  4 `[3,`  5 `4],`  6 `5]`
  assert.deepEqual(valueStartLines('[{"a":[1,\n2]},\n"[x",\n[3,\n4],\n5]'), [1, 3, 4, 6]);
  assert.deepEqual(valueStartLines('{"a":\n[\n1,\n{"q":[9,9]}\n],"b":[7,8]}'), [3, 4]);
});

test('format by extension; others are a clear error', () => {
  assert.equal(detectFormat('x/Preds.CSV'), 'csv');
  assert.equal(detectFormat('a.ndjson'), 'jsonl');
  assert.throws(
    () => detectFormat('a.txt'),
    /unsupported file extension \.txt\. Accepted: \.csv, \.tsv, \.tab, \.jsonl, \.ndjson, \.json/,
  );
});

test('progress: bytes reported; cancellation throws CancelledError', async () => {
  const parts = ['a,b'];
  for (let i = 0; i < 300000; i++) parts.push(`${i},${i}`);
  const path = tmpFile('p.csv', parts.join('\n'));
  const reports: number[] = [];
  await readTable(path, collector(), { progress: { report: (_s, done) => reports.push(done) } });
  assert.ok(reports.length >= 2);
  assert.ok(reports.every((v, i) => i === 0 || v >= reports[i - 1]));
  let calls = 0;
  await assert.rejects(readTable(path, collector(), { progress: { isCancelled: () => ++calls > 1 } }), CancelledError);
});

// ---------------------------------------------------------------------------------------------
// One reused read buffer: tiny buffer sizes force many reads, so every line end, CRLF pair, quote,
// BOM and UTF-8 character is cut somewhere. Each result must equal the expected rows and lines and
// the one-read result, on both the string path and the byte path (quote-free lines as bytes).

/** A slow, obvious byte-row handler: decode the lines, skip blank ones, split at the delimiter. */
function byteCollector(delim: string) {
  const sink = collector();
  const handler = {
    count: 0,
    rows(buf: Buffer, start: number, end: number, line: number): number {
      const text = buf.toString('utf8', start, end);
      assert.equal(text[text.length - 1], '\n', 'the byte path gets whole lines');
      assert.ok(!text.includes('"'), 'the byte path gets quote-free lines');
      for (const l of text.slice(0, -1).split('\n')) {
        if (l.trim() !== '') {
          sink.row(l.replace(/\r$/, '').split(delim), line);
          handler.count++;
        }
        line++;
      }
      return line;
    },
  };
  return { sink, handler };
}

async function readAllWays(
  name: string,
  content: string | Buffer,
  expected: { names: string[]; rows: string[][]; lines: number[] },
) {
  const path = tmpFile(name, content);
  const delim = name.endsWith('.tsv') ? '\t' : ',';
  for (const chunkBytes of [4, 5, 7, 16, 1 << 20]) {
    const plain = collector();
    const r1 = await readTable(path, plain, { chunkBytes });
    assert.deepEqual(
      { names: plain.names, rows: plain.rows, lines: plain.lines },
      expected,
      `string path, ${chunkBytes}-byte buffer`,
    );
    assert.equal(r1.rows, expected.rows.length);
    const { sink, handler } = byteCollector(delim);
    const r2 = await readTable(path, sink, { chunkBytes, byteRows: () => handler });
    assert.deepEqual(
      { names: sink.names, rows: sink.rows, lines: sink.lines },
      expected,
      `byte path, ${chunkBytes}-byte buffer`,
    );
    assert.equal(r2.rows, expected.rows.length);
  }
}

test('read buffer: a line longer than the buffer grows it; rows and lines unchanged', async () => {
  const long = 'v'.repeat(1000);
  await readAllWays('long.csv', `id,text\n1,a\n2,${long}\n3,b\n`, {
    names: ['id', 'text'],
    rows: [
      ['1', 'a'],
      ['2', long],
      ['3', 'b'],
    ],
    lines: [2, 3, 4],
  });
  // a header longer than the buffer
  const wide = Array.from({ length: 50 }, (_, i) => `column${i}`);
  await readAllWays('wide.csv', `${wide.join(',')}\n${wide.map((_, i) => i).join(',')}\n`, {
    names: wide,
    rows: [wide.map((_, i) => String(i))],
    lines: [2],
  });
});

test('read buffer: CRLF pairs split across reads, blank CRLF lines counted and skipped', async () => {
  await readAllWays('crlf.csv', 'ab,cd\r\n1,22\r\n333,4\r\n\r\n55,6666\r\n7,8\r\n', {
    names: ['ab', 'cd'],
    rows: [
      ['1', '22'],
      ['333', '4'],
      ['55', '6666'],
      ['7', '8'],
    ],
    lines: [2, 3, 5, 6],
  });
});

test('read buffer: quoted newlines and quotes split across reads; lines before the first quote on the byte path', async () => {
  await readAllWays('quoted.csv', 'id,t\n1,plain\n2,more\n3,"x\ny\r\nz"\n4,"a ""q"" b"\n5,"\n"\n6,end\n', {
    names: ['id', 't'],
    rows: [
      ['1', 'plain'],
      ['2', 'more'],
      ['3', 'x\ny\r\nz'],
      ['4', 'a "q" b'],
      ['5', '\n'],
      ['6', 'end'],
    ],
    lines: [2, 3, 4, 7, 8, 10],
  });
});

test('read buffer: the last line without a newline (quote-free and quoted), and a file of one header line', async () => {
  await readAllWays('last.csv', 'a,b\n1,2\n3,4', {
    names: ['a', 'b'],
    rows: [
      ['1', '2'],
      ['3', '4'],
    ],
    lines: [2, 3],
  });
  await readAllWays('lastq.csv', 'a,b\n1,2\n"3\n3",4', {
    names: ['a', 'b'],
    rows: [
      ['1', '2'],
      ['3\n3', '4'],
    ],
    lines: [2, 3],
  });
  await readAllWays('lastcr.tsv', 'a\tb\r\n1\t2\r\n3\t4\r', {
    names: ['a', 'b'],
    rows: [
      ['1', '2'],
      ['3', '4'],
    ],
    lines: [2, 3],
  });
  for (const chunkBytes of [4, 5, 1 << 20]) {
    await rejectsWith(
      readTable(tmpFile('hdr.csv', 'alpha,beta,gamma'), collector(), { chunkBytes }),
      'no-data-rows',
      undefined,
      'no data rows',
    );
  }
});

test('read buffer: a BOM cut by the first reads, and multi-byte UTF-8 cut at every position', async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  await readAllWays('bom.csv', Buffer.concat([bom, Buffer.from('x,y\n1,2\n')]), {
    names: ['x', 'y'],
    rows: [['1', '2']],
    lines: [2],
  });
  await readAllWays('bomq.csv', Buffer.concat([bom, Buffer.from('"x",y\n"1",2\n')]), {
    names: ['x', 'y'],
    rows: [['1', '2']],
    lines: [2],
  });
  const rows = Array.from({ length: 9 }, (_, i) => ['é'.repeat(i), '日本', '😀'.repeat(9 - i)]);
  await readAllWays('utf8.csv', `a,b,c\n${rows.map((r) => r.join(',')).join('\n')}\n`, {
    names: ['a', 'b', 'c'],
    rows,
    lines: rows.map((_, i) => i + 2),
  });
});
