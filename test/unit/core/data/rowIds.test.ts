// Row ids kept as numbers when every id is a canonical integer: the rule, its byte form, the
// lookups across forms, and the edge cases (signs, leading zeros, 15 and 16 digits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalIntegerOfBytes, isCanonicalInteger, RowIds } from '../../../../src/core/data/rowIds';
import { IdIndex } from '../../../../src/core/data/idIndex';
import { createRng } from '../../../../src/core/stats/rng';

const CANONICAL = ['0', '7', '-3', '10', '123456789012345', '-999999999999999'];
const NOT = ['', '-', '-0', '007', '00', '+5', ' 5', '5 ', '1e3', '1.0', '0x1f', '1234567890123456', 'a1', '٣'];

test('canonical integers: exactly the texts that String(Number(text)) gives back', () => {
  for (const t of CANONICAL) assert.equal(isCanonicalInteger(t), true, t);
  for (const t of NOT) assert.equal(isCanonicalInteger(t), false, JSON.stringify(t));
  // the rule's promise, on random texts of digits and signs
  const rng = createRng(3);
  for (let k = 0; k < 20000; k++) {
    const len = 1 + rng.int(17);
    let t = '';
    for (let c = 0; c < len; c++) t += '-0123456789+'[rng.int(c === 0 ? 12 : 10) + (c === 0 ? 0 : 1)] ?? '';
    if (isCanonicalInteger(t)) assert.equal(String(Number(t)), t, t);
    else if (/^-?\d{1,15}$/.test(t) && t !== '-0') assert.notEqual(String(Number(t)), t, t);
  }
});

test('the byte form agrees with the text form (NaN where the text is not canonical)', () => {
  for (const t of [...CANONICAL, ...NOT]) {
    const buf = Buffer.from(`,${t},`);
    const v = canonicalIntegerOfBytes(buf, 1, buf.length - 1);
    if (isCanonicalInteger(t)) assert.equal(v, Number(t), t);
    else assert.ok(Number.isNaN(v), JSON.stringify(t));
  }
});

test('RowIds: numbers when all are canonical, else texts; at, select and toArray give the texts', () => {
  const num = RowIds.ofTexts(['5', '-2', '40']);
  assert.deepEqual(num.numbers, Float64Array.of(5, -2, 40));
  assert.equal(num.texts, null);
  assert.equal(num.length, 3);
  assert.equal(num.at(1), '-2');
  assert.deepEqual(num.select(Int32Array.of(2, 0)).toArray(), ['40', '5']);
  const text = RowIds.ofTexts(['5', '007']);
  assert.equal(text.numbers, null);
  assert.deepEqual(text.toArray(), ['5', '007']);
  assert.deepEqual(text.select([1]).toArray(), ['007']);
  assert.equal(RowIds.ofTexts([]).length, 0);
});

test('IdIndex finds an id whatever the form of either list, and lists repeats', () => {
  const rng = createRng(11);
  for (let rep = 0; rep < 30; rep++) {
    const n = 1 + rng.int(500);
    const texts = Array.from({ length: n }, () => String(rng.int(2 * n) - (rng.next() < 0.3 ? n : 0)));
    if (rep % 3 === 2) texts[rng.int(n)] = '0' + String(1 + rng.int(9)); // not canonical: the list keeps texts
    const ids = RowIds.ofTexts(texts);
    assert.equal(ids.numbers === null, rep % 3 === 2);
    const index = new IdIndex(ids);
    const first = new Map<string, number>();
    const repeats: number[] = [];
    texts.forEach((t, i) => (first.has(t) ? repeats.push(i) : first.set(t, i)));
    assert.equal(index.size, first.size);
    assert.deepEqual(index.repeats, repeats);
    const probes = RowIds.ofTexts(Array.from({ length: 50 }, () => String(rng.int(3 * n) - n)));
    for (let j = 0; j < probes.length; j++) {
      const want = first.get(probes.at(j)) ?? -1;
      assert.equal(index.indexOfIdIn(probes, j), want);
      assert.equal(index.indexOf(probes.at(j)), want);
    }
    assert.equal(index.indexOf('x'), -1);
    assert.equal(index.indexOf('-0'), first.get('-0') ?? -1);
  }
});
