/**
 * Text fields compare numbers as labels are looked up: integers digit for digit (never as rounded
 * doubles), codes with a leading zero as text; sorting orders large integers exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ascendingOrder, termPredicate, type Field } from '../../../../src/core/rows/fields';
import { openInspection, parseWhere } from '../../../../src/core/inspect/index';

function category(values: string[]): Field {
  const names = [...new Set(values)];
  return { kind: 'category', codes: values.map((v) => names.indexOf(v)), names };
}

function matching(values: string[], expr: string): string[] {
  const [term] = parseWhere(expr);
  const pred = termPredicate(category(values), term);
  return values.filter((_, i) => pred(i));
}

const ids = ['9007199254740992', '9007199254740993', '7', '007', '1.0', '1', '1e3', 'r7'];

test('= on integers compares every digit: 2^53 and 2^53 + 1 are two ids', () => {
  assert.deepEqual(matching(ids, 'id=9007199254740993'), ['9007199254740993']);
  assert.deepEqual(matching(ids, 'id=9007199254740992'), ['9007199254740992']);
  assert.deepEqual(
    matching(ids, 'id!=9007199254740993'),
    ids.filter((s) => s !== '9007199254740993'),
  );
});

test('= keeps a code with a leading zero apart: 7 is not 007', () => {
  assert.deepEqual(matching(ids, 'id=7'), ['7']);
  assert.deepEqual(matching(ids, 'id=007'), ['007']);
  assert.deepEqual(matching(ids, 'id!=7').includes('007'), true);
});

test('= still merges numbers written as numbers: 1.0 = 1, 1000 = 1e3', () => {
  assert.deepEqual(matching(ids, 'id=1'), ['1.0', '1']);
  assert.deepEqual(matching(ids, 'id=1000'), ['1e3']);
});

test('< and > on integers beyond 2^53 compare exactly', () => {
  assert.deepEqual(matching(ids, 'id>9007199254740992'), ['9007199254740993']);
  assert.deepEqual(matching(ids, 'id>=9007199254740993'), ['9007199254740993']);
  assert.deepEqual(
    matching(ids, 'id<9007199254740993'),
    ids.filter((s) => s !== '9007199254740993' && s !== 'r7'),
  );
});

test('sorting integer ids orders 2^53 + 1 after 2^53, and 2^60 + k by k', () => {
  const big = [
    '1152921504606846979',
    '1152921504606846977',
    '1152921504606846978',
    '9007199254740993',
    '9007199254740992',
  ];
  const { order, key } = ascendingOrder(category(big), big.length);
  assert.deepEqual(
    Array.from(order, (i) => big[i]),
    ['9007199254740992', '9007199254740993', '1152921504606846977', '1152921504606846978', '1152921504606846979'],
  );
  assert.equal(new Set(key).size, 5);
});

test('rows of a file: one row per large id, id=7 leaves 007 out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-fields-'));
  const path = join(dir, 'ids.csv');
  writeFileSync(
    path,
    ['id,label,pred', '9007199254740992,a,a', '9007199254740993,a,b', '7,b,b', '007,b,a', ''].join('\n'),
  );
  const ins = await openInspection(path, { overrides: { bootstrap: { n: 0 } } });
  const q = (expr: string): (string | null)[] =>
    ins
      .query({ where: parseWhere(expr), offset: 0, limit: 100 })
      .rows.map((r) => (r.kind === 'classification' ? r.id : null));
  assert.deepEqual(q('id=9007199254740993'), ['9007199254740993']);
  assert.deepEqual(q('id=7'), ['7']);
  assert.deepEqual(q('id=007'), ['007']);
  const sorted = ins.query({ where: [], sort: { key: 'id', dir: 'desc' }, offset: 0, limit: 100 });
  assert.deepEqual(
    sorted.rows.map((r) => (r.kind === 'classification' ? r.id : null)),
    ['9007199254740993', '9007199254740992', '7', '007'],
  );
});
