// Messages about bad input: UTF-16/32 files are named as such, control characters from a file are
// escaped, never printed raw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError, Warnings, escapeControl } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { wideEncoding } from '../../../src/core/io/encoding';
import { tmpFile } from '../helpers/io';

const CSV = 'label,pred\na,a\nb,a\n';

test('UTF-16 and UTF-32 inputs (with or without a byte order mark) are named, with "save as UTF-8"', async () => {
  // With the iconv command that converts each (the encoding it must be told to read).
  const cases: [Buffer, RegExp, string][] = [
    [
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV, 'utf16le')]),
      /UTF-16 \(little-endian, with a byte order mark\)/,
      'iconv -f UTF-16 -t UTF-8',
    ],
    [Buffer.from(CSV, 'utf16le'), /UTF-16 \(little-endian\)/, 'iconv -f UTF-16LE -t UTF-8'],
    [Buffer.from(CSV, 'utf16le').swap16(), /UTF-16 \(big-endian\)/, 'iconv -f UTF-16BE -t UTF-8'],
    [
      Buffer.concat([
        Buffer.from([0xff, 0xfe, 0, 0]),
        Buffer.from([...CSV].flatMap((c) => [c.charCodeAt(0), 0, 0, 0])),
      ]),
      /UTF-32 \(little-endian, with a byte order mark\)/,
      'iconv -f UTF-32 -t UTF-8',
    ],
    [
      Buffer.from([...CSV].flatMap((c) => [0, 0, 0, c.charCodeAt(0)])),
      /UTF-32 \(big-endian\)/,
      'iconv -f UTF-32BE -t UTF-8',
    ],
  ];
  for (const [bytes, enc, iconv] of cases) {
    await assert.rejects(evaluateFile(tmpFile('wide.csv', bytes)), (e: unknown) => {
      assert.ok(e instanceof EvalLensError);
      assert.equal(e.code, 'not-utf8');
      assert.match(e.message, enc);
      assert.match(e.message, /Save it as UTF-8/);
      assert.ok(e.message.includes(iconv), e.message);
      assert.equal(e.location?.line, 1);
      return true;
    });
  }
  assert.equal(wideEncoding(Buffer.from(CSV)), null);
  assert.equal(wideEncoding(Buffer.from('\ufeff' + CSV)), null, 'a UTF-8 byte order mark is fine');
});

test('control characters from a file are escaped in errors and warnings', async () => {
  const e = new EvalLensError('x', 'got "\u001b[2J\r\u0007"\nnext line');
  assert.equal(e.message, 'got "\\u001b[2J\\u000d\\u0007"\nnext line');
  const w = new Warnings();
  w.note('x', 'class "\u001b[31mred"');
  assert.equal(w.list[0]!.message, 'class "\\u001b[31mred"');
  assert.equal(escapeControl('tab\there'), 'tab\\u0009here');
  await assert.rejects(evaluateFile(tmpFile('ctl.csv', 'label,prob_a,prob_b\na,\u001b[31m,0.5\n')), (err: unknown) => {
    assert.ok(err instanceof EvalLensError);
    assert.ok(!err.message.includes('\u001b'), err.message);
    assert.match(err.message, /\\u001b\[31m/);
    return true;
  });
});

test('eval-lens report: a broken results file names the line and column', async () => {
  const { renderReportFile } = await import('../../../src/cli/report');
  const p = tmpFile('broken.eval.json', '{\n  "schema": "eval-lens/results@1",\n  "metrics": {,}\n}\n');
  await assert.rejects(renderReportFile(p, 'broken.eval.json', 'html'), (e: unknown) => {
    assert.ok(e instanceof EvalLensError);
    assert.match(e.message, /^broken\.eval\.json:3:15: invalid JSON at line 3, column 15/);
    assert.equal(e.location?.line, 3);
    return true;
  });
});
