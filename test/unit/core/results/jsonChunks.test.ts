import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSON_CHUNK_SIZE, jsonChunks, writeChunks } from '../../../../src/core/results/jsonChunks';
import { ALL_SAMPLES } from '../../helpers/sampleResults';

const text = (v: unknown, size?: number): string | undefined => {
  const parts = [...jsonChunks(v, '', size)];
  return parts.length === 0 ? undefined : parts.join('');
};

/** Values JSON.stringify has a rule for: each one's chunked text must be its text, byte for byte. */
function tricky(): unknown {
  class WithToJSON {
    toJSON(key: string): unknown {
      return { key, nested: [1, undefined] };
    }
  }
  return {
    empty: {},
    emptyArray: [],
    nestedEmpty: [[], {}, [[]]],
    numbers: [0, -0, 1.5, -2e-7, 1e21, 5e-324, Number.MAX_VALUE, NaN, Infinity, -Infinity],
    strings: ['', 'a"b\\c', 'line\nbreak\ttab', '\u0000\u001b\u2028\u2029', 'é😀', '\ud800 lone'],
    literals: [true, false, null],
    skipped: undefined,
    fn: () => 1,
    sym: Symbol('s'),
    holes: [undefined, () => 1, Symbol('t')],
    boxed: [new Number(3), new String('s'), new Boolean(false)],
    date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
    own: new WithToJSON(),
    inArray: [new WithToJSON()],
    typed: new Float64Array([1, NaN, -0.25]),
    typedInts: new Int32Array([7, -8]),
    emptyTyped: new Uint8Array(0),
    '2': 'integer keys first',
    'key "quoted"': { '\n': 1 },
    deep: { a: { b: { c: [{ d: [1, { e: null }] }] } } },
  };
}

test('the chunks join to the text of JSON.stringify(v, null, 2), byte for byte', () => {
  const cases: [string, unknown][] = [
    ...Object.entries(ALL_SAMPLES).map(([name, make]) => [name, make()] as [string, unknown]),
    ['tricky', tricky()],
    ['number', 3.25],
    ['string', 'x'],
    ['null', null],
    ['NaN', NaN],
    ['date at the top', new Date(0)],
    ['empty object', {}],
  ];
  for (const [name, v] of cases) {
    const expected = JSON.stringify(v, null, 2);
    assert.equal(text(v), expected, name);
    // Chunks of a few characters: every flush point inside arrays, objects and typed arrays.
    assert.equal(text(v, 7), expected, `${name}, 7-character chunks`);
    assert.deepEqual(JSON.parse(text(v, 1)!), JSON.parse(expected), name);
  }
});

test('nothing for what JSON.stringify gives undefined; the suffix follows the text', () => {
  assert.deepEqual([...jsonChunks(undefined)], []);
  assert.deepEqual([...jsonChunks(() => 1)], []);
  assert.equal([...jsonChunks({ a: 1 }, '\n')].join(''), '{\n  "a": 1\n}\n');
});

test('a BigInt and a cycle throw TypeError, as JSON.stringify does', () => {
  assert.throws(() => [...jsonChunks({ a: [1n] })], TypeError);
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };
  assert.throws(() => [...jsonChunks(cyclic)], /circular/);
  // The same object twice, not nested in itself, is no cycle.
  const shared = { x: 1 };
  assert.equal(text({ a: shared, b: [shared] }), JSON.stringify({ a: shared, b: [shared] }, null, 2));
});

test('millions of per-row values are written in chunks of at most the chunk size plus one piece', async () => {
  // 2 million values per array, two arrays and 2 million ids: about 55 MB of text, never one string.
  const n = 2_000_000;
  const values = new Array<number>(n);
  const ids = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    values[i] = (i % 7) / 7;
    ids[i] = `row-${i}`;
  }
  const big = { kind: 'row', ids, values: { accuracy: values.map((v): number => (v > 0.5 ? 1 : 0)), nll: values } };
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-chunks-'));
  try {
    const path = join(dir, 'big.json');
    let chunks = 0;
    let longest = 0;
    let total = 0;
    const file = await open(path, 'w');
    try {
      await writeChunks(
        file,
        (function* () {
          for (const c of jsonChunks(big, '\n')) {
            chunks++;
            longest = Math.max(longest, c.length);
            total += c.length;
            yield c;
          }
        })(),
      );
    } finally {
      await file.close();
    }
    // The longest piece here is one id or one number with its separator: under 40 characters.
    assert.ok(longest < JSON_CHUNK_SIZE + 40, `longest chunk ${longest}`);
    assert.ok(chunks >= total / (JSON_CHUNK_SIZE + 40), `${chunks} chunks for ${total} characters`);
    assert.ok(total > 50_000_000, `${total} characters`);
    const back = JSON.parse(readFileSync(path, 'utf8')) as typeof big;
    assert.equal(back.ids.length, n);
    assert.equal(back.ids[n - 1], `row-${n - 1}`);
    assert.equal(back.values.nll[n - 1], values[n - 1]);
    assert.equal(
      back.values.accuracy.reduce((s, x) => s + x, 0),
      big.values.accuracy.reduce((s, x) => s + x, 0),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
