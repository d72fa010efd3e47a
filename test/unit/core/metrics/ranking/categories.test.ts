import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  categoryBreakdown,
  categoryColumn,
  splitCategories,
  NO_CATEGORY,
} from '../../../../../src/core/metrics/ranking/categories';
import { VOID_ITEM } from '../../../../../src/core/data/rankingData';

// Items by index: a=0, b=1, c=2, d=3, f=4 (known to the evaluation); e only in the metadata.
// Categories: a: x, b: x|y, c: y, d: absent from the metadata, f: empty cell, e: z.
const meta: Record<string, string | undefined> = { a: 'x', b: 'x| y ', c: 'y', f: '', e: 'z' };
const input = {
  // u0's list [a, b, c], u1's list [c, (repeat), d]; K = 2.
  lists: {
    user: Int32Array.from([0, 1]),
    offsets: Int32Array.from([0, 3, 6]),
    items: Int32Array.from([0, 1, 2, 2, VOID_ITEM, 3]),
  },
  evaluated: Int32Array.from([0, 1]),
  // R(u0) = {b, c}, R(u1) = {d}.
  relOffsets: Int32Array.from([0, 2, 3]),
  relItems: Int32Array.from([1, 2, 3]),
  itemIds: ['a', 'b', 'c', 'd', 'f'],
  categoryOf: (id: string) => meta[id],
  metadataIds: ['a', 'b', 'c', 'e', 'f'],
  column: 'category',
  k: 2,
};

test('hand-computed breakdown: several categories, none, metadata-only and repeated items', () => {
  const out = categoryBreakdown(input);
  assert.equal(out.users, 2);
  assert.deepEqual(
    out.rows.map((r) => r.category),
    [NO_CATEGORY, 'x', 'y', 'z'],
  );
  const row = (c: string) => out.rows.find((r) => r.category === c)!;
  // Top-2 slots: u0 [a, b], u1 [c] (the repeat earns nothing) → 3 slots.
  // x: catalogue {a, b}; recommended {a, b}; slots a, b → 2/3; relevant b (u0), hit b → 1/1.
  assert.deepEqual(row('x'), {
    category: 'x',
    catalogItems: 2,
    recommendedItems: 2,
    coverage: 2 / 2,
    share: 2 / 3,
    relevant: 1,
    hits: 1,
    recall: 1 / 1,
  });
  // y: catalogue {b, c}; recommended {b, c}; slots b (u0), c (u1) → 2/3; relevant b, c (u0), hit b only (c at rank 3 > K).
  assert.deepEqual(row('y'), {
    category: 'y',
    catalogItems: 2,
    recommendedItems: 2,
    coverage: 2 / 2,
    share: 2 / 3,
    relevant: 2,
    hits: 1,
    recall: 1 / 2,
  });
  // No category: d (not in the metadata) and f (empty cell); d relevant to u1, at rank 3 > K.
  assert.deepEqual(row(NO_CATEGORY), {
    category: NO_CATEGORY,
    catalogItems: 2,
    recommendedItems: 0,
    coverage: 0,
    share: 0,
    relevant: 1,
    hits: 0,
    recall: 0,
  });
  // z: only in the metadata, never recommended nor relevant: recall undefined.
  assert.deepEqual(row('z'), {
    category: 'z',
    catalogItems: 1,
    recommendedItems: 0,
    coverage: 0,
    share: 0,
    relevant: 0,
    hits: 0,
    recall: null,
  });
});

test('recall is micro over users: Σ hits / Σ relevant, not a mean of per-user recalls', () => {
  // u0: R = {b, c} (y: 1 hit of 2), u1: R = {c} with c first (y: 1 hit of 1) → 2/3, not (1/2 + 1)/2.
  const out = categoryBreakdown({
    ...input,
    lists: {
      user: Int32Array.from([0, 1]),
      offsets: Int32Array.from([0, 3, 5]),
      items: Int32Array.from([0, 1, 2, 2, 0]),
    },
    relOffsets: Int32Array.from([0, 2, 3]),
    relItems: Int32Array.from([1, 2, 2]),
  });
  assert.equal(out.rows.find((r) => r.category === 'y')!.recall, 2 / 3);
});

test('no evaluated user: shares undefined, catalogue still counted', () => {
  const out = categoryBreakdown({ ...input, evaluated: new Int32Array(0) });
  for (const r of out.rows) {
    assert.equal(r.share, null);
    assert.equal(r.recall, null);
  }
  assert.equal(out.rows.find((r) => r.category === 'x')!.catalogItems, 2);
});

test('category cells and column names', () => {
  assert.deepEqual(splitCategories(' a | b |a||'), ['a', 'b']);
  assert.deepEqual(splitCategories(undefined), []);
  assert.equal(categoryColumn(['name', 'Section']), 'Section');
  assert.equal(categoryColumn(['name', 'genre', 'Category']), 'Category');
  assert.equal(categoryColumn(['name']), null);
});

test('through evaluation: tables.categoryBreakdown at the largest K from the items table (a "Section" column)', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { evaluateFile } = await import('../../../../../src/core/evaluate');
  const ws = mkdtempSync(join(tmpdir(), 'eval-lens-categories-'));
  writeFileSync(
    join(ws, 'run.jsonl'),
    '{"user": "u1", "items": ["a", "b", "c"], "relevant": ["b"]}\n{"user": "u2", "items": ["c", "a"], "relevant": ["d"]}\n',
  );
  writeFileSync(join(ws, 'items.csv'), 'item,Section\na,fruit\nb,fruit|yellow\nc,\ne,veg\n');
  const r = await evaluateFile(join(ws, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [1, 2], items: 'items.csv', bootstrap: { n: 0 } },
    root: ws,
  });
  const t = r.tables.categoryBreakdown!;
  assert.equal(t.column, 'Section');
  assert.equal(t.k, 2);
  assert.equal(t.users, 2);
  // Top-2 lists: u1 [a, b], u2 [c, a] → 4 slots; known items a, b, c, d; e only in the table.
  assert.deepEqual(t.rows, [
    {
      category: NO_CATEGORY,
      catalogItems: 2,
      recommendedItems: 1,
      coverage: 1 / 2,
      share: 1 / 4,
      relevant: 1,
      hits: 0,
      recall: 0,
    },
    {
      category: 'fruit',
      catalogItems: 2,
      recommendedItems: 2,
      coverage: 1,
      share: 3 / 4,
      relevant: 1,
      hits: 1,
      recall: 1,
    },
    {
      category: 'veg',
      catalogItems: 1,
      recommendedItems: 0,
      coverage: 0,
      share: 0,
      relevant: 0,
      hits: 0,
      recall: null,
    },
    {
      category: 'yellow',
      catalogItems: 1,
      recommendedItems: 1,
      coverage: 1,
      share: 1 / 4,
      relevant: 1,
      hits: 1,
      recall: 1,
    },
  ]);
  // Without a category column there is no table.
  writeFileSync(join(ws, 'names.csv'), 'item,name\na,Apple\n');
  const plain = await evaluateFile(join(ws, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [2], items: 'names.csv', bootstrap: { n: 0 } },
    root: ws,
  });
  assert.equal(plain.tables.categoryBreakdown, undefined);
});
