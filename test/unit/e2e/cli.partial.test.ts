/**
 * `eval-lens partial` and `eval-lens merge` end to end, spawned as `node --import tsx
 * src/cli/main.ts …`: two shards of examples/digits-lt/logreg.csv (its split column removed), their
 * partial files merged into a results file equal to `evaluate --bootstrap-n 0` of the whole file;
 * the usage errors (an interval asked for, a bad --shard, --out over a prediction file) and a
 * refused shard (exit 1, the file named).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Results } from '../../../src/core/results/types';
import { dropColumns, readText, tempDir, writeShards } from '../core/partial/shards';

const ROOT = process.cwd();
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

function cli(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('partial on two shards, merge, and the whole file evaluated give the same results', () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ task: 'classification', classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], targetCoverage: 0.8, topK: [2] }),
  );
  writeShards(dir, 'p', dropColumns(readText('examples/digits-lt/logreg.csv'), ['split']), [120]);
  const p1 = cli(['partial', 'p.part1.csv', '--shard', '1/2', '-o', 'part-1.npz'], dir);
  assert.equal(p1.status, 0, p1.stderr);
  assert.match(
    p1.stderr,
    /the bootstrap is set to 1000 resamples \(the configuration or the default\); `eval-lens partial` computes point estimates only/,
  );
  assert.match(p1.stderr, /Partial statistics of 120 rows \(shard 1\/2\) written to part-1\.npz/);
  assert.equal(cli(['partial', 'p.part2.csv', '--shard', '2/2', '-o', 'part-2.npz'], dir).status, 0);
  const m = cli(['merge', 'part-2.npz', 'part-1.npz', '-o', 'merged.eval.json'], dir);
  assert.equal(m.status, 0, m.stderr);
  assert.match(m.stdout, /accuracy\s+0\.7500/);
  assert.match(m.stderr, /Results of 2 shards written to merged\.eval\.json/);
  const e = cli(['evaluate', 'p.csv', '--bootstrap-n', '0', '-o', 'whole.eval.json'], dir);
  assert.equal(e.status, 0, e.stderr);
  const merged = JSON.parse(readFileSync(join(dir, 'merged.eval.json'), 'utf8')) as Results;
  const whole = JSON.parse(readFileSync(join(dir, 'whole.eval.json'), 'utf8')) as Results;
  for (const k of ['metrics', 'families', 'curves', 'tables', 'config'] as const)
    assert.deepEqual(merged[k], whole[k], k);
  assert.deepEqual(
    merged.source.extra?.map((x) => [x.role, x.path]),
    [
      ['shard 1/2 partial', 'part-1.npz'],
      ['shard 1/2 source', 'p.part1.csv'],
      ['shard 2/2 partial', 'part-2.npz'],
      ['shard 2/2 source', 'p.part2.csv'],
    ],
  );
  // usage errors: exit 2
  const n = cli(['partial', 'p.part1.csv', '--bootstrap-n', '200', '-o', 'x.npz'], dir);
  assert.equal(n.status, 2);
  assert.match(n.stderr, /--bootstrap-n 200: `eval-lens partial` computes point estimates only in this version/);
  const z = cli(['partial', 'p.part1.csv', '--bootstrap-n', '0', '-o', 'x.npz'], dir);
  assert.equal(z.status, 0, z.stderr);
  assert.doesNotMatch(z.stderr, /bootstrap is set to/, 'no note when --bootstrap-n 0 asks for no intervals');
  const s = cli(['partial', 'p.part1.csv', '--shard', '3/2', '-o', 'x.npz'], dir);
  assert.equal(s.status, 2);
  assert.match(s.stderr, /--shard expects i\/N with 1 ≤ i ≤ N/);
  const o = cli(['partial', 'p.part1.csv', '-o', 'p.part2.csv'], dir);
  assert.equal(o.status, 2);
  assert.match(o.stderr, /--out p\.part2\.csv exists and is not an \.npz file; refusing to overwrite it/);
  const r = cli(['merge', 'part-1.npz', 'part-2.npz', '-o', 'p.csv'], dir);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /is not an Eval Lens results file/);
  // a refused shard: exit 1, the file named
  const bad = cli(['merge', 'part-1.npz', 'p.csv'], dir);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /p\.csv: cannot read the file as \.npz/);
  const help = cli(['help', 'partial'], dir);
  assert.match(help.stdout, /no\s+bootstrap\s+intervals\s+in\s+this\s+version/);
  assert.match(help.stdout, /Intervals: none in this version/);
});
