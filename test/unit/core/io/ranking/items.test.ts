// The `items` metadata table: CSV/TSV/JSONL/Parquet, values kept as written, errors with file and
// line (row for Parquet), items without a row counted in a warning, the path resolved like every
// config path. The Parquet files are written by scripts/golden/parquet.mjs (DuckDB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { evaluateFile } from '../../../../../src/core/evaluate';
import { openInspection } from '../../../../../src/core/inspect';
import { EvalLensError, Warnings } from '../../../../../src/core/diagnostics';
import { loadItemMetadata, warnItemsWithoutMetadata } from '../../../../../src/core/io/ranking/items';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-items-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('CSV: the item column found by name, other columns as text, quoted cells, CRLF, BOM, blank lines', async () => {
  const p = file(
    'items.csv',
    '\uFEFFname,item_id,category\r\n"Widget, large",w1,tools\r\n\r\nGadget,w2,\r\n"say ""hi""",3,toys\r\n',
  );
  const m = await loadItemMetadata(p, 'items.csv');
  assert.deepEqual(m.columns, ['name', 'category']);
  assert.deepEqual(Object.fromEntries(m.byItem), {
    w1: { name: 'Widget, large', category: 'tools' },
    w2: { name: 'Gadget' },
    '3': { name: 'say "hi"', category: 'toys' },
  });
});

test('TSV and JSONL (numbers and booleans as text, null left out, blank lines skipped)', async () => {
  const t = await loadItemMetadata(file('items.tsv', 'item\tbrand\na\tAcme\nb\tBolt\n'), 'items.tsv');
  assert.deepEqual(t.byItem.get('b'), { brand: 'Bolt' });
  const j = await loadItemMetadata(
    file('items.jsonl', '{"item": "a", "price": 2.5, "new": true, "brand": null}\n\n{"item": 7, "brand": "Zed"}\n'),
    'items.jsonl',
  );
  assert.deepEqual(j.columns, ['price', 'new', 'brand']);
  assert.deepEqual(j.byItem.get('a'), { price: '2.5', new: 'true' });
  assert.deepEqual(j.byItem.get('7'), { brand: 'Zed' });
});

async function rejects(name: string, text: string, line: number | undefined, what: RegExp): Promise<void> {
  const p = file(name, text);
  await assert.rejects(loadItemMetadata(p, name), (e: unknown) => {
    assert.ok(e instanceof EvalLensError, String(e));
    assert.equal(e.location?.file, name);
    assert.equal(e.location?.line, line, e.message);
    assert.match(e.message, what);
    return true;
  });
}

test('bad lines: an error naming the file, the line and what was expected', async () => {
  await rejects('ragged.csv', 'item,name\na,A\nb,B,extra\n', 3, /ragged\.csv:3: expected 2 cells \(item,name\), got 3/);
  await rejects('noid.csv', 'item,name\n,A\n', 2, /expected an item id in column "item", got an empty cell/);
  await rejects(
    'dup.csv',
    'item,name\na,A\nb,B\na,C\n',
    4,
    /expected each item once, got item "a" again \(first at line 2\)/,
  );
  await rejects(
    'nocol.csv',
    'sku,name\na,A\n',
    1,
    /expected an item id column \(item, item_id.*got the columns "sku", "name"/,
  );
  await rejects('empty.csv', '', 1, /got an empty file/);
  await rejects('twice.csv', 'item,name,name\n', 1, /expected distinct column names, got "name" twice/);
  await rejects('quote.csv', 'item,name\na,"open\n', 2, /expected a closing quote/);
  await rejects('bad.jsonl', '{"item": "a"}\n{"item": \n', 2, /expected one JSON object per line, got invalid JSON/);
  await rejects(
    'nested.jsonl',
    '{"item": "a", "tags": ["x"]}\n',
    1,
    /expected "tags" to be text, a number or a boolean, got an array/,
  );
  await rejects('nokey.jsonl', '{"name": "a"}\n', 1, /expected an item id key .* got the keys "name"/);
  await rejects(
    'items.xlsx',
    'x',
    undefined,
    /items\.xlsx: expected an item metadata table as \.csv, \.tsv, \.jsonl or \.parquet, got "\.xlsx"/,
  );
});

const PQ = resolve('test/fixtures/parquet');

async function rejectsParquet(name: string, line: number | undefined, what: RegExp): Promise<void> {
  await assert.rejects(loadItemMetadata(join(PQ, name), name), (e: unknown) => {
    assert.ok(e instanceof EvalLensError, String(e));
    assert.equal(e.location?.file, name);
    assert.equal(e.location?.line, line, e.message);
    assert.match(e.message, what);
    return true;
  });
}

test('Parquet: INT64 ids, numbers and booleans as text, null left out; no rows is an empty table', async () => {
  const m = await loadItemMetadata(join(PQ, 'items-typed.parquet'), 'items-typed.parquet');
  assert.deepEqual(m.columns, ['price', 'new', 'brand']);
  assert.deepEqual(Object.fromEntries(m.byItem), {
    '7': { price: '2.5', new: 'true', brand: 'Zed' },
    '8': { new: 'false' },
  });
  const e = await loadItemMetadata(join(PQ, 'items-empty.parquet'), 'items-empty.parquet');
  assert.deepEqual(e.columns, ['name']);
  assert.equal(e.byItem.size, 0);
});

test('Parquet: the CSV rules, errors located by data row', async () => {
  await rejectsParquet(
    'items-dup.parquet',
    4,
    /^items-dup\.parquet, row 3: expected each item once, got item "a" again \(first at row 1\)\.$/,
  );
  await rejectsParquet(
    'items-noid.parquet',
    3,
    /^items-noid\.parquet, row 2: expected an item id in column "item", got an empty cell\.$/,
  );
  await rejectsParquet(
    'items-list.parquet',
    2,
    /^items-list\.parquet, row 1, column "tags": expected text, a number or a boolean, got a list\.$/,
  );
  await rejectsParquet(
    'items-nocol.parquet',
    undefined,
    /^items-nocol\.parquet: expected an item id column \(item, item_id.*got the columns "sku", "name"\.$/,
  );
  const text = file('text.parquet', 'item,name\na,A\n');
  await assert.rejects(
    loadItemMetadata(text, 'text.parquet'),
    (e: unknown) =>
      e instanceof EvalLensError && e.code === 'bad-parquet' && e.message.includes('cannot read the file as Parquet'),
  );
});

test("golden: the example's items.csv and the same table as Parquet give the same metadata, inspector rows and results", async () => {
  const ex = 'examples/ranking-debian-deps';
  const csv = await loadItemMetadata(join(ex, 'items.csv'), 'items.csv');
  const pq = await loadItemMetadata(join(PQ, 'debian-items.parquet'), 'debian-items.parquet');
  assert.ok(csv.byItem.size > 2000, `${csv.byItem.size} items`);
  assert.deepEqual(pq.columns, csv.columns);
  assert.deepEqual(pq.byItem, csv.byItem);
  // Through evaluation and the user inspector: the same for every user of the example's run.
  const pqRel = '../../test/fixtures/parquet/debian-items.parquet';
  const opts = (items: string) => ({ overrides: { items, bootstrap: { n: 0 } }, root: process.cwd() });
  const [a, b] = [
    await evaluateFile(join(ex, 'cooccurrence.jsonl'), opts('items.csv')),
    await evaluateFile(join(ex, 'cooccurrence.jsonl'), opts(pqRel)),
  ];
  assert.equal(b.source.columns.items, `${pqRel} (${csv.columns.join(', ')})`);
  assert.deepEqual(b.metrics, a.metrics);
  assert.deepEqual(b.perItem, a.perItem);
  assert.deepEqual(
    b.warnings.map((w) => w.message.replace(pqRel, 'items.csv')),
    a.warnings.map((w) => w.message),
  );
  const [ia, ib] = [
    await openInspection(join(ex, 'cooccurrence.jsonl'), opts('items.csv')),
    await openInspection(join(ex, 'cooccurrence.jsonl'), opts(pqRel)),
  ];
  const all = { where: [], offset: 0, limit: 1_000_000 };
  const [pa, pb] = [ia.query(all), ib.query(all)];
  assert.ok(pa.total > 500, `${pa.total} users`);
  assert.equal(pb.total, pa.total);
  assert.ok(
    pa.rows.some((r) => (r as { items: { meta?: unknown }[] }).items.some((i) => i.meta !== undefined)),
    'metadata shown',
  );
  assert.deepEqual(pb.rows, pa.rows);
});

test('ids not found: one warning with the count and the first ids', async () => {
  const m = await loadItemMetadata(file('some.csv', 'item,name\na,A\nb,B\n'), 'some.csv');
  const w = new Warnings();
  assert.equal(warnItemsWithoutMetadata(m, ['a', 'x', 'b', 'y'], w), 2);
  assert.equal(w.list.length, 1);
  assert.match(w.list[0]!.message, /some\.csv: 2 of the 4 items .* \(first: "x", "y"\)/);
  assert.equal(warnItemsWithoutMetadata(m, ['a'], new Warnings()), 0);
});

test('through evaluation: recorded in the source, items without a row warned, a path outside the workspace refused', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'eval-lens-items-ws-'));
  writeFileSync(
    join(ws, 'run.jsonl'),
    '{"user": "u1", "items": ["a", "b", "c"], "relevant": ["b"]}\n{"user": "u2", "items": ["c", "a"], "relevant": ["d"]}\n',
  );
  writeFileSync(join(ws, 'items.csv'), 'item,name\na,Apple\nb,Banana\nc,Cherry\n');
  const r = await evaluateFile(join(ws, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [2], items: 'items.csv', bootstrap: { n: 0 } },
    root: ws,
  });
  assert.equal(r.source.columns.items, 'items.csv (name)');
  assert.ok(r.source.extra?.some((e) => e.role === 'items' && e.path.endsWith('items.csv')));
  const warn = r.warnings.find((x) => x.code === 'items-without-metadata');
  assert.match(warn!.message, /1 of the 4 items .* \(first: "d"\)/);
  // metrics do not depend on the table
  const plain = await evaluateFile(join(ws, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [2], bootstrap: { n: 0 } },
    root: ws,
  });
  assert.deepEqual(r.metrics, plain.metrics);
  await assert.rejects(
    evaluateFile(join(ws, 'run.jsonl'), {
      overrides: { task: 'ranking', items: '../elsewhere.csv', bootstrap: { n: 0 } },
      root: ws,
    }),
    /`items`.*outside the workspace/,
  );
});

test('itemPopularity column: numbers by item, empty cells absent; errors name the file, the line or row and the column', async () => {
  const csv = file('units.csv', 'item,units,name\na,5,A\nb,,B\nc,0.25,C\nd,1e3,D\n');
  const m = await loadItemMetadata(csv, 'units.csv', 'units');
  assert.deepEqual(
    [...m.numeric!],
    [
      ['a', 5],
      ['c', 0.25],
      ['d', 1000],
    ],
  );
  assert.equal(m.byItem.get('a')!.units, '5'); // still shown as written
  // Parquet: a DOUBLE column (null = no value); a BOOLEAN or text cell is refused at its data row.
  const pq = await loadItemMetadata(join(PQ, 'items-typed.parquet'), 'items-typed.parquet', 'price');
  assert.deepEqual([...pq.numeric!], [['7', 2.5]]);
  const rejects = async (path: string, label: string, column: string, line: number | undefined, message: string) =>
    assert.rejects(loadItemMetadata(path, label, column), (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      assert.equal(e.location?.line, line, e.message);
      assert.equal(e.message, message);
      return true;
    });
  const NUMBER = "expected a number ≥ 0 (the item's popularity, `itemPopularity`)";
  await rejects(
    join(PQ, 'items-typed.parquet'),
    'items-typed.parquet',
    'new',
    2,
    `items-typed.parquet, row 1, column "new": ${NUMBER}, got "true".`,
  );
  await rejects(
    join(PQ, 'items-typed.parquet'),
    'items-typed.parquet',
    'units',
    undefined,
    'items-typed.parquet: expected a column "units" (named by `itemPopularity`), got the columns "price", "new", "brand".',
  );
  await rejects(
    file('hex.tsv', 'item\tunits\na\t0x10\n'),
    'hex.tsv',
    'units',
    2,
    `hex.tsv:2, column "units": ${NUMBER}, got "0x10".`,
  );
  await rejects(
    file('none.csv', 'item\na\n'),
    'none.csv',
    'units',
    1,
    'none.csv:1: expected a column "units" (named by `itemPopularity`), got no column besides the item id.',
  );
});
