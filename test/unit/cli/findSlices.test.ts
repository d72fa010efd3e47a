/**
 * `--find-slices` on files: a generated classification file (seeded) with one weak region — the
 * file adapter finds it first in one-run mode and, against a second run (rows in another order,
 * paired by id) that is worse only there, in two-run mode; `evaluate --find-slices --format json`
 * and `diff --find-slices` print it, text from the file escaped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findSlicesBetween } from '../../../src/core/compare/sliceFinderRuns';
import { findSlicesInFile } from '../../../src/core/inspect/sliceFinderFiles';
import { createRng } from '../../../src/core/stats/rng';

const ROOT = process.cwd();
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-find-slices-'));

// West is 15 points less accurate in A; B loses a further 15 points there only. Its name carries
// an escape sequence, which the terminal output must not print raw.
const WEST = 'west\x1b[31m';
const REGIONS = ['north', 'south', 'east', WEST, 'central'];
const rng = createRng(7);
const N = 1500;
const rows = Array.from({ length: N }, (_, i) => {
  const region = REGIONS[rng.int(REGIONS.length)];
  const device = ['mobile', 'desktop'][rng.int(2)];
  const age = 18 + rng.int(60);
  const label = ['cat', 'dog', 'bird'][rng.int(3)];
  const west = region === WEST;
  const rightA = rng.next() < (west ? 0.7 : 0.85);
  const rightB = rightA && !(west && rng.next() < 0.15 / 0.7);
  const wrong = label === 'cat' ? 'dog' : 'cat';
  return { id: `r${i}`, label, region, device, age, predA: rightA ? label : wrong, predB: rightB ? label : wrong };
});
const csv = (pred: 'predA' | 'predB', order: typeof rows): string =>
  'id,label,pred,region,device,age\n' +
  order.map((r) => `${r.id},${r.label},${r[pred]},"${r.region}",${r.device},${r.age}`).join('\n') +
  '\n';
const fileA = join(dir, 'a.csv');
const fileB = join(dir, 'b.csv');
writeFileSync(fileA, csv('predA', rows));
writeFileSync(fileB, csv('predB', [...rows].reverse()));

test('one file: region = west first, its accuracy as counted from the rows', async () => {
  const r = await findSlicesInFile(fileA);
  assert.deepEqual(r.columns, ['label', 'region', 'device', 'age']);
  const west = rows.filter((x) => x.region === WEST);
  const top = r.slices[0];
  assert.equal(top.slice, `region = ${WEST}`);
  assert.equal(top.n, west.length);
  assert.equal(top.accuracy, west.filter((x) => x.predA === x.label).length / west.length);
  assert.equal(r.n, N);
  assert.equal(r.minSupport, 30);
});

test('two files paired by id: region = west first, with its lost and gained rows', async () => {
  const r = await findSlicesBetween(fileA, fileB);
  const west = rows.filter((x) => x.region === WEST);
  const top = r.slices[0];
  assert.equal(top.slice, `region = ${WEST}`);
  assert.equal(top.lost, west.filter((x) => x.predA === x.label && x.predB !== x.label).length);
  assert.equal(top.gained, 0);
  assert.ok(r.slices.every((s) => !s.slice.startsWith('region = north')));
});

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('evaluate --find-slices --format json: {"results", "foundSlices"}', () => {
  const r = cli(['evaluate', fileA, '--bootstrap-n', '0', '--find-slices', '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { results: { metrics: object }; foundSlices: { slices: { slice: string }[] } };
  assert.ok('accuracy' in out.results.metrics);
  assert.equal(out.foundSlices.slices[0].slice, `region = ${WEST}`);
});

test('diff --find-slices: the slice table after the rows, file text escaped; a bad --min-support is a usage error', () => {
  const r = cli(['diff', fileA, fileB, '--find-slices', '--min-support', '20', '--limit', '2']);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!r.stdout.includes('\x1b'), 'no raw escape character');
  const lines = r.stdout.split('\n');
  const head = lines.findIndex((l) => l.startsWith('slice '));
  assert.ok(head > 0 && lines[head + 2].startsWith('region = west\\u001b[31m '), r.stdout);
  assert.ok(
    lines.some(
      (l) => l.startsWith('Rows of the first: eval-lens diff ') && l.endsWith("--where 'region = west\\u001b[31m'"),
    ),
  );
  const bad = cli(['diff', fileA, fileB, '--find-slices', '--min-support', 'x']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--min-support expects a whole number ≥ 1, got "x"/);
});
