// deriveScores (msp / margin / negative entropy, score-column precedence), softmaxRows, argmaxRows,
// and the exact number parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveScores, softmaxRow } from '../../../../src/core/metrics/scores';

/** Arg-max (first maximum on ties) of the row `values[o … o+C)`, as a class index. */
function argmaxRow(values: Float64Array, o: number, C: number): number {
  let best = 0;
  let bv = values[o];
  for (let c = 1; c < C; c++) {
    if (values[o + c] > bv) {
      bv = values[o + c];
      best = c;
    }
  }
  return best;
}

/** Each row of a row-major n×C matrix, as the readers call the row functions. */
const softmaxRows = (v: Float64Array, C: number): void => {
  for (let o = 0; o + C <= v.length; o += C) softmaxRow(v, o, C);
};
const argmaxRows = (v: Float64Array, C: number, n: number): Int32Array =>
  Int32Array.from({ length: n }, (_, i) => argmaxRow(v, i * C, C));
import { parseDecimalBytes, parseNumberText } from '../../../../src/core/io/numbers';
import type { ClassificationData } from '../../../../src/core/data/classificationData';
import { createRng } from '../../../../src/core/stats/rng';

function data(probs: number[], C: number, scoreColumn: number[] | null = null): ClassificationData {
  const n = probs.length / C;
  return {
    file: 'x.csv',
    n,
    classes: Array.from({ length: C }, (_, c) => String(c)),
    labels: new Int32Array(n),
    preds: new Int32Array(n),
    probs: new Float64Array(probs),
    probTerms: null,
    fromLogits: false,
    scoreColumn: scoreColumn ? new Float64Array(scoreColumn) : null,
    scoreColumnName: scoreColumn ? 'confidence' : null,
    weights: null,
    accept: null,
    groupColumn: null,
    split: null,
    ids: null,
    lines: new Int32Array(n),
  };
}

test('msp, margin and negative entropy, by hand', () => {
  const d = data([0.7, 0.2, 0.1, 1 / 3, 1 / 3, 1 / 3, 1, 0, 0], 3);
  assert.deepEqual(Array.from(deriveScores(d, 'msp')), [0.7, 1 / 3, 1]);
  const m = Array.from(deriveScores(d, 'margin'));
  assert.ok(Math.abs(m[0] - (0.7 - 0.2)) < 1e-15 && m[1] === 0 && m[2] === 1);
  const h = Array.from(deriveScores(d, 'entropy'));
  assert.ok(Math.abs(h[0] - (0.7 * Math.log(0.7) + 0.2 * Math.log(0.2) + 0.1 * Math.log(0.1))) < 1e-15);
  assert.ok(Math.abs(h[1] - Math.log(1 / 3)) < 1e-15); // −ln 3: the least confident
  assert.equal(h[2], 0); // 0·ln 0 counts 0: the most confident
});

test('a score column wins over every derived kind', () => {
  const d = data([0.7, 0.3], 2, [0.123]);
  for (const k of ['msp', 'margin', 'entropy'] as const) assert.deepEqual(Array.from(deriveScores(d, k)), [0.123]);
});

test('no probabilities and no score column: a clear error', () => {
  const d = { ...data([1, 0], 2), probs: null };
  assert.throws(() => deriveScores(d, 'msp'), /neither class probabilities nor a confidence\/score\/margin column/);
});

test('softmaxRows: equal logits → 1/C; shift invariance; huge logits stay finite', () => {
  const v = new Float64Array([2, 2, 2, 2, 1, 2, 3, 4, 1001, 1002, 1003, 1004, 1e308, -1e308, 0, 0]);
  softmaxRows(v, 4);
  assert.deepEqual(Array.from(v.subarray(0, 4)), [0.25, 0.25, 0.25, 0.25]);
  assert.deepEqual(Array.from(v.subarray(4, 8)), Array.from(v.subarray(8, 12)));
  assert.deepEqual(Array.from(v.subarray(12)), [1, 0, 0, 0]);
  const e = [1, 2, 3, 4].map((z) => Math.exp(z));
  const s = e.reduce((a, b) => a + b);
  v.subarray(4, 8).forEach((p, i) => assert.ok(Math.abs(p - e[i] / s) < 1e-15));
});

test('argmaxRows: first maximum on ties', () => {
  assert.deepEqual(Array.from(argmaxRows(new Float64Array([1, 3, 3, 0, 0, 0, 2, 1, 2]), 3, 3)), [1, 0, 0]);
});

test('parseNumberText equals Number() on decimal text; NaN/inf spelled out; junk is NaN', () => {
  const rng = createRng(7);
  for (let i = 0; i < 20000; i++) {
    const v = (rng.next() - 0.5) * 10 ** (rng.int(40) - 20);
    for (const s of [String(v), v.toExponential(rng.int(16)), v.toFixed(rng.int(20)), v.toPrecision(1 + rng.int(20))]) {
      assert.equal(parseNumberText(s), Number(s), s);
      const buf = Buffer.from(s + ',');
      const out = { end: -1 };
      const b = parseDecimalBytes(buf, 0, out);
      if (b === b) {
        assert.equal(b, Number(s), s);
        assert.equal(out.end, s.length);
      }
    }
  }
  assert.equal(parseNumberText(' 1.5 '), 1.5);
  assert.equal(parseNumberText('+2'), 2);
  assert.equal(parseNumberText('.5'), 0.5);
  assert.equal(parseNumberText('5.'), 5);
  assert.equal(parseNumberText('1e400'), Infinity);
  assert.equal(parseNumberText('-Inf'), -Infinity);
  assert.equal(parseNumberText('inf'), Infinity);
  for (const s of ['', ' ', 'abc', '0x10', '1,5', '1e', '--1', 'NaN', 'nan', '1.2.3'])
    assert.ok(Number.isNaN(parseNumberText(s)), s);
});

test('parseDecimalBytes at the end of the buffer (no byte after the number) and on bytes that are not digits', () => {
  const at = (s: string, pos = 0): [number, number] => {
    const out = { end: -1 };
    return [parseDecimalBytes(Buffer.from(s, 'latin1'), pos, out), out.end];
  };
  assert.deepEqual(at('0.25'), [0.25, 4]);
  assert.ok(Number.isNaN(at('x-12')[0]));
  assert.deepEqual(at('x-12', 1), [-12, 4]);
  assert.deepEqual(at('7e-3'), [0.007, 4]);
  assert.ok(Number.isNaN(at('1e')[0]));
  assert.ok(Number.isNaN(at('-')[0]));
  assert.ok(Number.isNaN(at('.')[0]));
  assert.ok(Number.isNaN(at('')[0]));
  // bytes just outside '0'…'9' ('/' and ':'), and bytes that wrap around as unsigned (ÿ = 255)
  assert.deepEqual(at('12/'), [12, 2]);
  assert.deepEqual(at('12:'), [12, 2]);
  assert.deepEqual(at('1.5\xff'), [1.5, 3]);
  assert.ok(Number.isNaN(at('\xff1')[0]));
});

test('parseDecimalBytes: digit runs of every length, followed by every byte value', () => {
  // Each run length (integer and fraction part), each byte after the run (every value 0–255:
  // digits, '.', 'e', and bytes just outside the digits or above 127), at several offsets in the
  // buffer and at its very end.
  const rng = createRng(41);
  const digits = (k: number) => Array.from({ length: k }, () => String(rng.int(10))).join('');
  for (let intLen = 0; intLen <= 9; intLen++)
    for (let fracLen = -1; fracLen <= 13; fracLen++) {
      const s = digits(intLen) + (fracLen >= 0 ? '.' + digits(fracLen) : '');
      if (intLen + Math.max(0, fracLen) === 0) continue;
      // More than 15 digits: not the fast path's (NaN; the caller reads the text instead).
      const want = intLen + Math.max(0, fracLen) > 15 ? NaN : Number(s);
      for (let after = 0; after < 256; after++) {
        const lead = 'x'.repeat(after % 5);
        const buf = Buffer.from(lead + s + String.fromCharCode(after), 'latin1');
        const out = { end: -1 };
        const v = parseDecimalBytes(buf, lead.length, out);
        const c = String.fromCharCode(after);
        if (/[0-9]/.test(c)) {
          // the byte continues the number: the value is that of the longer text
          if (v === v) assert.equal(v, Number(s + c), s + c);
          continue;
        }
        if (c === '.' || c === 'e' || c === 'E') continue; // a longer number or an incomplete one
        assert.equal(v, want, `${JSON.stringify(s)} + byte ${after}`);
        if (want === want) assert.equal(out.end, lead.length + s.length, `${JSON.stringify(s)} + byte ${after}`);
      }
      // at the very end of the buffer
      const out = { end: -1 };
      assert.equal(parseDecimalBytes(Buffer.from(s, 'latin1'), 0, out), want, s);
      if (want === want) assert.equal(out.end, s.length);
    }
});
