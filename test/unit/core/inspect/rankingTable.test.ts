/**
 * A user's row shows the list as the metrics read it: every slot with its rank, a repeated item in
 * its slot marked as a repeat of its first rank and never a hit, so later items keep their ranks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInspection, parseWhere, type RankingRowView } from '../../../../src/core/inspect/index';

test('a repeated item keeps its slot: every item shown with the rank the metrics used', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-rank-table-'));
  const path = join(dir, 'run.jsonl');
  writeFileSync(
    path,
    [
      JSON.stringify({ user: 'u1', items: ['a', 'b', 'a', 'c', 'b', 'd'], relevant: ['a', 'c', 'e'] }),
      JSON.stringify({ user: 'u2', items: ['x', 'y'], relevant: ['y'] }),
    ].join('\n') + '\n',
  );
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ task: 'ranking', k: [1, 5], bootstrap: { n: 0 } }));
  const ins = await openInspection(path);
  const row = ins.query({ where: parseWhere('user=u1'), offset: 0, limit: 1 }).rows[0] as RankingRowView;
  assert.deepEqual(
    row.items.map((i) => ({ item: i.item, rank: i.rank, hit: i.hit, repeatOf: i.repeatOf })),
    [
      { item: 'a', rank: 1, hit: true, repeatOf: undefined },
      { item: 'b', rank: 2, hit: false, repeatOf: undefined },
      { item: 'a', rank: 3, hit: false, repeatOf: 1 },
      { item: 'c', rank: 4, hit: true, repeatOf: undefined },
      { item: 'b', rank: 5, hit: false, repeatOf: 2 },
    ],
  );
  assert.deepEqual(row.missed, ['e']);
  // The metrics count c at rank 4: DCG = 1 + 1/log2(5), ideal 1 + 1/log2(3) + 1/2.
  const ndcg = (1 + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3) + 0.5);
  assert.ok(Math.abs(row.metrics['ndcg@5'] - ndcg) < 1e-12, String(row.metrics['ndcg@5']));
  assert.equal(row.metrics['recall@5'], 2 / 3);
  const u2 = ins.query({ where: parseWhere('user=u2'), offset: 0, limit: 1 }).rows[0] as RankingRowView;
  assert.deepEqual(
    u2.items.map((i) => [i.item, i.rank, i.hit, i.repeatOf]),
    [
      ['x', 1, false, undefined],
      ['y', 2, true, undefined],
    ],
  );
});
