import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { IdIndex } from '../../../../src/core/data/rankingData';
import { Warnings } from '../../../../src/core/diagnostics';
import { resolveConfig } from '../../../../src/core/config/load';
import { loadRanking } from '../../../../src/core/io/ranking/load';
import { createRng } from '../../../../src/core/stats/rng';

test('IdIndex: after its lookup map is released, get and intern give the same integers and go on numbering', () => {
  const rng = createRng(9);
  const index = new IdIndex();
  const ids = Array.from({ length: 500 }, () => `id${rng.int(300)}é`);
  const first = ids.map((id) => index.intern(id));
  // Integers in order of first sight: the k-th distinct id gets k.
  const distinct = [...new Set(ids)];
  assert.deepEqual(
    first,
    ids.map((id) => distinct.indexOf(id)),
  );
  assert.equal(index.size, distinct.length);

  index.releaseLookup();
  assert.deepEqual(
    ids.map((id) => index.get(id)),
    first,
  );
  assert.equal(index.get('never seen'), -1);
  index.releaseLookup();
  assert.deepEqual(
    ids.map((id) => index.intern(id)),
    first,
  );
  assert.equal(index.intern('new one'), distinct.length);
  assert.equal(index.ids[distinct.length], 'new one');
  assert.equal(index.size, distinct.length + 1);
});

test('loadRanking: the returned user and item indices still look ids up after loading released their maps', async () => {
  const dir = join(__dirname, '../../../fixtures/ranking/same');
  const config = resolveConfig([{ task: 'ranking', train: 'train.csv' }], join(dir, 'eval-lens.json'));
  const data = await loadRanking({ path: join(dir, 'run.jsonl'), baseDir: dir, config, warnings: new Warnings() });
  assert.ok(data.users.size > 0 && data.items.size > 0);
  for (const index of [data.users, data.items])
    index.ids.forEach((id, k) => {
      assert.equal(index.get(id), k);
      assert.equal(index.intern(id), k);
    });
});
