/**
 * NumPy reads the partial files: test/golden/partial.json is what scripts/golden/partial.py
 * (numpy.load alone) found in the partial file of the first 120 data rows of
 * examples/digits-lt/logreg.csv. The file is made again here and read back with Eval Lens's reader;
 * its arrays and sums must be the ones NumPy read. When /usr/bin/python3 has NumPy, the script also
 * runs on the file made here and must print the same JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPartial } from '../../../../src/core/partial/merge';
import { dropColumns, readText, tempDir, writePartials, writeShards } from './shards';

interface Golden {
  meta: { format: string; version: number; rows: number; classes: string[]; shard: unknown; bootstrap: { n: number } };
  arrays: Record<string, { dtype: string; shape: number[] }>;
  sums: Record<string, number | number[]>;
  checks: Record<string, boolean | number>;
}

const golden = JSON.parse(readFileSync('test/golden/partial.json', 'utf8')) as Golden;

async function goldenPartial(): Promise<string> {
  const dir = tempDir();
  const config = join(dir, 'golden.json');
  writeFileSync(
    config,
    JSON.stringify({ task: 'classification', classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], topK: [2, 3], eceBins: 10 }),
  );
  const csv = dropColumns(readText('examples/digits-lt/logreg.csv'), ['split']);
  const { shards } = writeShards(dir, 'first120', csv, [120]);
  const [part] = await writePartials([shards[0]!], config, false);
  return part!;
}

test('the partial file holds the arrays and sums NumPy read from it', async () => {
  const s = await readPartial(await goldenPartial());
  assert.equal(s.meta.format, golden.meta.format);
  assert.equal(s.meta.version, golden.meta.version);
  assert.equal(s.meta.rows, golden.meta.rows);
  assert.deepEqual(s.meta.classes, golden.meta.classes);
  const arrays = Object.fromEntries(
    [...s.arrays].filter(([name]) => name !== 'meta').map(([name, a]) => [name, { dtype: a.dtype, shape: a.shape }]),
  );
  assert.deepEqual(arrays, golden.arrays);
  const v = (name: string): number[] => Array.from(s.arrays.get(name)!.data!);
  assert.equal(v('sum/total')[0], golden.sums.total);
  assert.equal(v('sum/rows')[0], golden.sums.rows);
  assert.deepEqual(v('sum/support'), golden.sums.support);
  assert.deepEqual(v('sum/correct'), golden.sums.correct);
  assert.deepEqual(v('sum/rank_hist'), golden.sums.rank_hist);
  assert.equal(v('sum/nll')[0], golden.sums.nll);
  assert.equal(v('sum/brier')[0], golden.sums.brier);
  // NumPy's own checks of the sums against the run
  for (const [name, ok] of Object.entries(golden.checks)) if (typeof ok === 'boolean') assert.equal(ok, true, name);
  assert.equal(golden.checks.accuracy, 0.75);
});

const python = '/usr/bin/python3';
const hasNumpy = existsSync(python) && spawnSync(python, ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;

test(
  'NumPy reads a partial file made now as the golden one',
  { skip: hasNumpy ? false : 'no /usr/bin/python3 with NumPy' },
  async () => {
    const part = await goldenPartial();
    const run = spawnSync(python, ['scripts/golden/partial.py', part], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), golden);
  },
);
