// A factor model evaluated end to end: the generated lists go through the ranking pipeline and give
// the same metrics as the same lists written as a JSONL run (the NumPy reference's lists of the
// "ties" case of scripts/golden/factors.py); unknown ids in train/relevant; bad inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';
import { tiesCase, writeFactorModel } from '../helpers/factors';

const { g, userIds, itemIds } = tiesCase();
// Relevant items: two per user from a fixed pattern, plus an id that is in no id list.
const relevant = userIds
  .flatMap((u, j) => [`${u},item${(j * 2) % 9}`, `${u},item${(j * 5 + 3) % 9}`])
  .concat('u1,item-unknown');

function setup(extra: Record<string, unknown> = {}, U = g.U, V = g.V): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-factors-'));
  const model = writeFactorModel(dir, U, V, userIds, itemIds);
  const train = g.train.flatMap((a, u) => a.map((i) => `u${u},item${i}`)).concat('nobody,item1', 'u0,item-unknown');
  writeFileSync(join(dir, 'train.csv'), ['user,item', ...train].join('\n') + '\n');
  writeFileSync(join(dir, 'relevant.csv'), ['user,item', ...relevant].join('\n') + '\n');
  const cfg = {
    ...model,
    train: 'train.csv',
    relevant: 'relevant.csv',
    k: [1, 2, 4],
    bootstrap: { n: 0 },
    ...extra,
  };
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify(cfg));
  return dir;
}

test('factor model: same metrics as the NumPy lists written as a JSONL run', async () => {
  const dir = setup();
  const fromFactors = await evaluateFile(join(dir, 'U.npy'), { configPath: join(dir, 'eval-lens.json') });
  const run =
    g.topk.map((items, u) => JSON.stringify({ user: userIds[u], items: items.map((i) => itemIds[i]) })).join('\n') +
    '\n';
  writeFileSync(join(dir, 'run.jsonl'), run);
  const cfg = JSON.parse(readFileSync(join(dir, 'eval-lens.json'), 'utf8')) as Record<string, unknown>;
  for (const key of ['userFactors', 'itemFactors', 'userIds', 'itemIds']) delete cfg[key];
  writeFileSync(join(dir, 'run.json'), JSON.stringify(cfg));
  const fromRun = await evaluateFile(join(dir, 'run.jsonl'), { configPath: join(dir, 'run.json') });
  assert.deepEqual(fromFactors.metrics, fromRun.metrics);
  assert.ok(Object.keys(fromFactors.metrics).length > 5);
  // 9 items: a block holds min(1024, 4·2^20 / 9) = 1024 users.
  assert.equal(fromFactors.source.columns?.blockUsers, '1024');
  assert.equal(fromFactors.source.columns?.userFactors, 'U.npy');
});

test('factor model: dimension mismatch and id count errors name the file', async () => {
  const bad = setup(
    {},
    g.U,
    g.V.map((r) => [...r, 0]),
  );
  await assert.rejects(
    evaluateFile(join(bad, 'U.npy'), { configPath: join(bad, 'eval-lens.json') }),
    /V\.npy: expected 3 factors per item \(the number of columns of U\.npy\), got 4/,
  );
  const few = setup({}, g.U.slice(0, 5));
  await assert.rejects(
    evaluateFile(join(few, 'U.npy'), { configPath: join(few, 'eval-lens.json') }),
    /users\.txt: expected 5 ids \(one per row of U\.npy\), got 6/,
  );
  const nan = setup(
    {},
    g.U.map((r, u) => (u === 2 ? [r[0], NaN, r[2]] : r)),
  );
  await assert.rejects(
    evaluateFile(join(nan, 'U.npy'), { configPath: join(nan, 'eval-lens.json') }),
    /U\.npy: row 3, factor 2: expected a finite number, got NaN/,
  );
  const missing = setup({ itemIds: undefined });
  await assert.rejects(
    evaluateFile(join(missing, 'U.npy'), { configPath: join(missing, 'eval-lens.json') }),
    /`userFactors` needs `itemIds`/,
  );
});
