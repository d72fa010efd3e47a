import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import type { EvalConfig } from '../../../../src/core/config/types';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { bootstrapDistribution } from '../../helpers/bootstrapReference';

const SAME = join(__dirname, '../../../fixtures/ranking/same');
const ev = (file: string, o: EvalConfig) => evaluateFile(join(SAME, file), { overrides: { task: 'ranking', ...o } });

test('keys: all families with train and embeddings; absent when their inputs are absent', async () => {
  const full = await ev('run.jsonl', {
    k: [1, 3],
    train: 'train.csv',
    itemEmbeddings: 'items.npy',
    userEmbeddings: 'users.csv',
    bootstrap: { n: 0 },
  });
  const keys = Object.keys(full.metrics);
  for (const p of [
    'recall',
    'precision',
    'ndcg',
    'map',
    'hit_rate',
    'coverage',
    'cold_start_coverage',
    'novelty',
    'diversity',
    'alignment',
  ])
    for (const k of [1, 3]) assert.ok(keys.includes(`${p}@${k}`), `${p}@${k}`);
  for (const k of ['mrr', 'users_evaluated', 'users_skipped']) assert.ok(keys.includes(k));
  assert.deepEqual(full.families.ranking, keys);
  assert.deepEqual(Object.keys(full.baselines!), ['popularity', 'random']);
  assert.ok(full.metrics['alignment@1'].note!.includes('from userEmbeddings'));
  assert.deepEqual(
    full.source.extra!.map((x) => x.role),
    ['train', 'itemEmbeddings', 'itemEmbeddingIds', 'userEmbeddings'],
  );
  assert.equal(full.source.extra![0].sha256.length, 64);
  assert.equal(full.source.columns.itemEmbeddings, 'items.npy (ids: items.ids.txt)');
  assert.equal(full.source.columns.userEmbeddings, 'users.csv');

  const bare = await ev('run.jsonl', { k: [1, 3], bootstrap: { n: 0 } });
  const bk = Object.keys(bare.metrics);
  for (const p of ['cold_start_coverage', 'novelty', 'diversity', 'alignment'])
    assert.ok(!bk.some((k) => k.startsWith(p)), p);
  assert.equal(bare.baselines, undefined);
  assert.equal(bare.tables.activityBins, undefined);
  assert.ok(bare.warnings.some((w) => w.code === 'no-train'));
  // item embeddings without train or user embeddings: diversity but no alignment
  const div = await ev('run.jsonl', { k: [3], itemEmbeddings: 'items.json', bootstrap: { n: 0 } });
  assert.ok('diversity@3' in div.metrics);
  assert.ok(!('alignment@3' in div.metrics));
});

test('notes name the conventions; map note names the normaliser', async () => {
  for (const norm of ['min', 'all', 'hits'] as const) {
    const r = await ev('run.jsonl', { k: [3], mapNormaliser: norm, bootstrap: { n: 0 } });
    assert.match(r.metrics['map@3'].note!, new RegExp(`^mapNormaliser ${norm}`));
  }
  const r = await ev('run.jsonl', { k: [3], gain: 'exp', catalogSize: 100, bootstrap: { n: 0 } });
  assert.match(r.metrics['ndcg@3'].note!, /gain exp of graded relevance/);
  assert.match(r.metrics['coverage@3'].note!, /catalogSize \(100 items\)/);
  assert.equal(r.metrics.users_skipped.direction, 'lower');
});

test('curves, per-user tables and perItem', async () => {
  const r = await ev('run.jsonl', { k: [1, 3], train: 'train.csv', bootstrap: { n: 0 }, activityBins: [2] });
  for (const m of ['recall', 'precision', 'ndcg', 'map', 'hit_rate', 'coverage'] as const) {
    const c = r.curves[`metricVsK.${m}`]!;
    assert.deepEqual(c.xs, [1, 2, 3]);
    assert.equal(c.ys[0], r.metrics[`${m}@1`].value);
    assert.equal(c.ys[2], r.metrics[`${m}@3`].value);
    assert.equal(c.extra!.popularity![2], r.baselines!.popularity[`${m}@3`].value);
    assert.equal(c.extra!.random![0], r.baselines!.random[`${m}@1`].value);
  }
  const hist = r.tables.perUserHistograms!;
  assert.equal(
    hist['ndcg@3'].counts.reduce((a, b) => a + b, 0),
    4,
  );
  const bins = r.tables.activityBins!;
  // train counts of the evaluated users u1..u4: 2, 2, 3, 1 → [0, 2): 1 user, ≥ 2: 3 users
  assert.deepEqual(
    bins.map((b) => [b.bin, b.users]),
    [
      ['[0, 2)', 1],
      ['≥ 2', 3],
    ],
  );
  assert.equal(r.perItem!.kind, 'user');
  assert.deepEqual(r.perItem!.ids, ['u1', 'u2', 'u3', 'u4']);
  assert.equal(r.perItem!.values['ndcg@3'].length, 4);
  // five accuracy metrics at both K, then the whole-list ones (mrr, r_precision)
  assert.equal(Object.keys(r.perItem!.values).length, 5 * 2 + 2);
  // the results name the first evaluated users (the user inspector's suggestions), per-user values or not
  assert.deepEqual(r.tables.rankingSummary!.sampleUsers, ['u1', 'u2', 'u3', 'u4']);
  const lean = await evaluateFile(join(SAME, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [1, 3], train: 'train.csv', bootstrap: { n: 0 } },
    perItem: false,
  });
  assert.equal(lean.perItem, undefined);
  assert.deepEqual(lean.tables.rankingSummary, r.tables.rankingSummary);
});

test('bootstrap intervals equal a direct percentile bootstrap of the user mean; same seed, same interval', async () => {
  const r1 = await ev('run.jsonl', { k: [3], bootstrap: { n: 300, seed: 9, confidence: 0.9 } });
  const r2 = await ev('run.jsonl', { k: [3], bootstrap: { n: 300, seed: 9, confidence: 0.9 } });
  assert.deepEqual(r1.metrics, r2.metrics);
  const v = r1.perItem!.values['ndcg@3'];
  const dist = bootstrapDistribution(
    v.length,
    (c) => c.reduce((s, ci, i) => s + ci * v[i], 0) / c.reduce((s, x) => s + x, 0),
    { n: 300, confidence: 0.9, seed: 9 },
  );
  const direct = percentileInterval(dist[0], 0.9)!;
  const got = r1.metrics['ndcg@3'].ci!;
  // the tool adds in four running sums: the same numbers up to the last bits
  assert.ok(Math.abs(got[0] - direct[0]) < 1e-12 && Math.abs(got[1] - direct[1]) < 1e-12, `${got} vs ${direct}`);
  // catalog-level values have no interval
  assert.equal(r1.metrics['coverage@3'].ci, undefined);
  const r0 = await ev('run.jsonl', { k: [3], bootstrap: { n: 0 } });
  assert.equal(r0.metrics['ndcg@3'].ci, undefined);
});

test('task detection and config paths relative to the config file (inside the workspace only)', async () => {
  const jsonl = await evaluateFile(join(SAME, 'run.jsonl'), { overrides: { k: [3], bootstrap: { n: 0 } } });
  assert.equal(jsonl.task, 'ranking');
  const trec = await evaluateFile(join(SAME, 'run.trec'), {
    overrides: { k: [3], relevant: 'qrels.txt', bootstrap: { n: 0 } },
  });
  assert.equal(trec.task, 'ranking');

  const root = mkdtempSync(join(tmpdir(), 'rank-ws-'));
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'cfg'));
  copyFileSync(join(SAME, 'run.csv'), join(root, 'data', 'run.csv'));
  copyFileSync(join(SAME, 'gt.csv'), join(root, 'data', 'gt.csv'));
  writeFileSync(
    join(root, 'cfg', 'eval-lens.json'),
    JSON.stringify({ task: 'ranking', k: [3], relevant: '../data/gt.csv', bootstrap: { n: 0 } }),
  );
  const r = await evaluateFile(join(root, 'data', 'run.csv'), {
    configPath: join(root, 'cfg', 'eval-lens.json'),
    root,
  });
  assert.equal(r.metrics.users_evaluated.value, 4);
  writeFileSync(join(root, 'cfg', 'bad.json'), JSON.stringify({ task: 'ranking', relevant: '../../outside.csv' }));
  await assert.rejects(
    evaluateFile(join(root, 'data', 'run.csv'), { configPath: join(root, 'cfg', 'bad.json'), root }),
    /outside the workspace/,
  );
});

test('bad ranking config values are errors naming the key', async () => {
  // (the config check of config/load.ts may catch them first; either way the key is named)
  await assert.rejects(ev('run.jsonl', { k: [0] }), /`k(\[0\])?`: expected/);
  await assert.rejects(ev('run.jsonl', { k: [3], catalogSize: -2 }), /`catalogSize`: expected/);
});

test('userMeanCis: users with an undefined value are left out of that resample mean', async () => {
  const { userMeanCis } = await import('../../helpers/bootstrapReference');
  const v = Float64Array.from([0.5, NaN, 1, 0, NaN, 0.25, 0.75]);
  const w = Float64Array.from([1, 2, 3, 4, 5, 6, 7]);
  const opts = { n: 200, confidence: 0.9, seed: 4 };
  const got = await userMeanCis({ v, w }, ['v', 'w'], 7, opts);
  const dist = bootstrapDistribution(
    7,
    (c) => {
      let num = 0;
      let den = 0;
      c.forEach((ci, i) => {
        if (!Number.isNaN(v[i])) {
          num += ci * v[i];
          den += ci;
        }
      });
      return den > 0 ? num / den : NaN;
    },
    opts,
  );
  const direct = percentileInterval(dist[0], 0.9)!;
  assert.ok(Math.abs(got.v![0] - direct[0]) < 1e-12 && Math.abs(got.v![1] - direct[1]) < 1e-12);
  assert.ok(got.w![0] >= 1 && got.w![1] <= 7);
});
