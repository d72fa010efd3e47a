/**
 * `eval-lens merge` of the shards' partial files gives the results of evaluating the whole file
 * (bootstrap off): every metric, family, curve and table equal, bit for bit. Example files cut into
 * 2–4 shards at row boundaries, and a generated file with many tied scores and a weight column;
 * one shard merged alone equals its own evaluation; the order of the shards does not matter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergePartialFiles } from '../../../../src/core/partial/merge';
import { validateResults } from '../../../../src/core/results/validate';
import { createRng } from '../../../../src/core/stats/rng';
import { assertSameResults, dropColumns, evaluateWhole, readText, tempDir, writePartials, writeShards } from './shards';

const CONFIG = {
  task: 'classification',
  classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  targetCoverage: 0.8,
  topK: [2, 3],
  eceBins: 10,
};

function writeConfig(dir: string, config: object): string {
  const p = join(dir, 'eval-lens.json');
  writeFileSync(p, JSON.stringify(config));
  return p;
}

const EXAMPLES: { file: string; cuts: number[] }[] = [
  { file: 'examples/digits-lt/logreg.csv', cuts: [150] },
  { file: 'examples/digits-lt/knn.csv', cuts: [37, 140, 222] },
  { file: 'examples/digits-lt/logreg_logits.csv', cuts: [100, 200] },
  { file: 'examples/digits-lt/random_forest.csv', cuts: [1, 299] },
];

for (const { file, cuts } of EXAMPLES) {
  test(`${file} in ${cuts.length + 1} shards merges to the whole file's results`, async () => {
    const dir = tempDir();
    const config = writeConfig(dir, CONFIG);
    // The examples' split column would split the rows into validation and test (not supported by partial yet).
    const csv = dropColumns(readText(file), ['split']);
    const { whole, shards } = writeShards(dir, 'preds', csv, cuts);
    const parts = await writePartials(shards, config);
    const merged = await mergePartialFiles(parts);
    const expected = await evaluateWhole(whole, config);
    assertSameResults(merged, expected, file);
    assert.deepEqual(validateResults(JSON.parse(JSON.stringify(merged))), [], 'schema-valid results');
    // the source names every shard's partial file and source file with their SHA-256
    const extra = merged.source.extra ?? [];
    assert.equal(extra.length, 2 * shards.length);
    assert.deepEqual(
      extra.filter((e) => e.role.endsWith('source')).map((e) => e.path),
      shards,
    );
    for (const e of extra) assert.match(e.sha256, /^[0-9a-f]{64}$/);
    assert.equal(merged.source.rows, 300);
  });
}

test('the order of the shards does not matter; one shard merges to its own evaluation', async () => {
  const dir = tempDir();
  const config = writeConfig(dir, CONFIG);
  const csv = dropColumns(readText('examples/digits-lt/svc_rbf.csv'), ['split']);
  const { whole, shards } = writeShards(dir, 'svc', csv, [70, 150, 260]);
  const parts = await writePartials(shards, config);
  const inOrder = await mergePartialFiles(parts);
  const shuffled = await mergePartialFiles([parts[2]!, parts[0]!, parts[3]!, parts[1]!]);
  assertSameResults(shuffled, inOrder, 'shuffled');
  assertSameResults(inOrder, await evaluateWhole(whole, config), 'whole');
  // one shard, made without --shard: its merge is its evaluation, source hash included
  const [alone] = await writePartials([shards[1]!], config, false);
  const own = await evaluateWhole(shards[1]!, config);
  const mergedAlone = await mergePartialFiles([alone!]);
  assertSameResults(mergedAlone, own, 'one shard');
  assert.equal(mergedAlone.source.sha256, own.source.sha256);
  assert.equal(mergedAlone.source.path, own.source.path);
});

/** A generated file: 4 classes, scores on a coarse grid (many ties, across shards too), weights. */
function generated(n: number, seed: number): string {
  const rng = createRng(seed);
  const rand = (): number => rng.next();
  const lines = ['label,pred,confidence,weight,accept'];
  for (let i = 0; i < n; i++) {
    const y = Math.floor(rand() * 4);
    const p = rand() < 0.7 ? y : Math.floor(rand() * 4);
    const conf = Math.round(rand() * 10) / 10; // 11 distinct scores
    const w = [0.5, 1, 2, 0][Math.floor(rand() * 4)];
    lines.push(`${y},${p},${conf},${w},${rand() < 0.8 ? 1 : 0}`);
  }
  return lines.join('\n') + '\n';
}

test('a generated file with tied scores, weights and an accept column merges exactly', async () => {
  const dir = tempDir();
  const config = writeConfig(dir, { task: 'classification', classes: [0, 1, 2, 3], eceBins: 5 });
  const { whole, shards } = writeShards(dir, 'gen', generated(2000, 7), [500, 1234, 1999]);
  const parts = await writePartials(shards, config);
  const merged = await mergePartialFiles([parts[3]!, parts[1]!, parts[0]!, parts[2]!]);
  const expected = await evaluateWhole(whole, config);
  assertSameResults(merged, expected, 'generated');
  assert.ok(Object.keys(expected.metrics).length > 10, 'the selective and calibration keys are there');
  assert.ok('aurc' in expected.metrics && 'ece' in expected.metrics);
});

test('a generated file with class probabilities and ties merges exactly, also with targetCoverage', async () => {
  const dir = tempDir();
  const config = writeConfig(dir, {
    task: 'classification',
    classes: ['a', 'b', 'c'],
    targetCoverage: [0.5, 0.9],
    costGrid: [0.1, 0.3],
  });
  const rng = createRng(11);
  const rand = (): number => rng.next();
  const lines = ['label,prob_a,prob_b,prob_c'];
  for (let i = 0; i < 900; i++) {
    // probabilities on a grid of tenths: many rows share their top probability
    const a = Math.floor(rand() * 6);
    const b = Math.floor(rand() * (10 - a));
    lines.push(`${'abc'[Math.floor(rand() * 3)]},${a / 10},${b / 10},${(10 - a - b) / 10}`);
  }
  const { whole, shards } = writeShards(dir, 'probs', lines.join('\n') + '\n', [300, 301]);
  const parts = await writePartials(shards, config);
  assertSameResults(await mergePartialFiles(parts), await evaluateWhole(whole, config), 'probabilities');
});

test('the partial file holds the sums of its rows (read back)', async () => {
  const dir = tempDir();
  const config = writeConfig(dir, CONFIG);
  const csv = dropColumns(readText('examples/digits-lt/logreg.csv'), ['split']);
  const { shards } = writeShards(dir, 'sum', csv, [100]);
  const [p] = await writePartials([shards[0]!], config, false);
  const { readPartial } = await import('../../../../src/core/partial/merge');
  const s = await readPartial(p!);
  assert.equal(s.meta.rows, 100);
  assert.equal(s.arrays.get('sum/total')!.data![0], 100);
  assert.equal(
    s.arrays.get('sum/confusion')!.data!.reduce((a, b) => a + b, 0),
    100,
  );
  assert.deepEqual(s.arrays.get('sum/rows')!.data![0], 100);
  assert.equal(readFileSync(p!).subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
});
