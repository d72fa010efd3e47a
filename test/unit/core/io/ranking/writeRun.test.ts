// `eval-lens evaluate … --write-run`: the lists generated from factor matrices are written as a JSONL
// run equal to the NumPy reference's top-K lists (the "ties" case of scripts/golden/factors.py), and
// evaluating that run with the same config minus the factor keys gives the same metrics. The
// guards: never over an input, another output, a folder or a file that is not a run; factor input only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatRunJsonl } from '../../../../../src/core/io/ranking/writeRun';
import type { Results } from '../../../../../src/core/results/types';
import { npy, tiesCase } from '../../../helpers/factors';

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

const { g, userIds, itemIds } = tiesCase();

function setup(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-write-run-'));
  writeFileSync(join(dir, 'U.npy'), npy(g.U));
  writeFileSync(join(dir, 'V.npy'), npy(g.V));
  writeFileSync(join(dir, 'users.txt'), userIds.join('\n') + '\n');
  writeFileSync(join(dir, 'items.txt'), itemIds.join('\n') + '\n');
  const train = g.train.flatMap((a, u) => a.map((i) => `u${u},item${i}`));
  writeFileSync(join(dir, 'train.csv'), ['user,item', ...train].join('\n') + '\n');
  const relevant = userIds.flatMap((u, j) => [`${u},item${(j * 2) % 9}`, `${u},item${(j * 5 + 3) % 9}`]);
  writeFileSync(join(dir, 'relevant.csv'), ['user,item', ...relevant].join('\n') + '\n');
  const cfg: Record<string, unknown> = {
    task: 'ranking',
    userFactors: 'U.npy',
    itemFactors: 'V.npy',
    userIds: 'users.txt',
    itemIds: 'items.txt',
    train: 'train.csv',
    relevant: 'relevant.csv',
    k: [1, 2, g.k],
    bootstrap: { n: 50 },
  };
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify(cfg));
  for (const key of ['userFactors', 'itemFactors', 'userIds', 'itemIds']) delete cfg[key];
  writeFileSync(join(dir, 'run.json'), JSON.stringify(cfg));
  return dir;
}

test('--write-run writes the NumPy top-K lists, and the run evaluates to the same metrics', () => {
  const dir = setup();
  const a = cli(
    ['evaluate', 'U.npy', '--config', 'eval-lens.json', '--write-run', 'out/run.jsonl', '--format', 'json'],
    dir,
  );
  assert.equal(a.status, 0, a.stderr);
  assert.match(a.stderr, /Run written to out\/run\.jsonl \(6 lists\)/);
  const expected =
    g.topk.map((items, u) => JSON.stringify({ user: userIds[u], items: items.map((i) => itemIds[i]) })).join('\n') +
    '\n';
  assert.equal(readFileSync(join(dir, 'out/run.jsonl'), 'utf8'), expected);
  const b = cli(['evaluate', 'out/run.jsonl', '--config', 'run.json', '--format', 'json'], dir);
  assert.equal(b.status, 0, b.stderr);
  const ra = JSON.parse(a.stdout) as Results;
  const rb = JSON.parse(b.stdout) as Results;
  assert.ok(Object.keys(ra.metrics).length > 5);
  assert.deepEqual(ra.metrics, rb.metrics);
  assert.deepEqual(ra.baselines, rb.baselines);
  // Writing again replaces the run written before.
  const again = cli(['evaluate', 'U.npy', '--config', 'eval-lens.json', '--write-run', 'out/run.jsonl'], dir);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(readFileSync(join(dir, 'out/run.jsonl'), 'utf8'), expected);
});

test('--write-run refuses inputs, other outputs, folders, other files and run-file input', () => {
  const dir = setup();
  const before = readFileSync(join(dir, 'relevant.csv'), 'utf8');
  for (const [target, why] of [
    ['U.npy', /--write-run U\.npy is an input of this evaluation \(U\.npy\); refusing to overwrite it/],
    ['relevant.csv', /is an input of this evaluation \(relevant\.csv\)/],
    ['items.txt', /is an input of this evaluation \(items\.txt\)/],
    ['eval-lens.json', /is an input of this evaluation \(eval-lens\.json\)/],
  ] as const) {
    const r = cli(['evaluate', 'U.npy', '--config', 'eval-lens.json', '--write-run', target], dir);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, why);
  }
  assert.equal(readFileSync(join(dir, 'relevant.csv'), 'utf8'), before);
  const same = cli(
    ['evaluate', 'U.npy', '--config', 'eval-lens.json', '--write-run', 'x.json', '--out', 'x.json'],
    dir,
  );
  assert.equal(same.status, 2);
  assert.match(same.stderr, /is another output of this evaluation \(x\.json\)/);
  mkdirSync(join(dir, 'folder'));
  const folder = cli(['evaluate', 'U.npy', '--config', 'eval-lens.json', '--write-run', 'folder'], dir);
  assert.equal(folder.status, 2);
  assert.match(folder.stderr, /--write-run folder is a folder/);
  writeFileSync(join(dir, 'notes.txt'), 'my notes\n');
  const other = cli(['evaluate', 'U.npy', '--config', 'eval-lens.json', '--write-run', 'notes.txt'], dir);
  assert.equal(other.status, 2);
  assert.match(other.stderr, /--write-run notes\.txt exists and is not a JSONL run; refusing to overwrite it/);
  assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'my notes\n');
  writeFileSync(join(dir, 'given.jsonl'), '{"user": "u0", "items": ["item1"]}\n');
  const run = cli(['evaluate', 'given.jsonl', '--config', 'run.json', '--write-run', 'copy.jsonl'], dir);
  assert.equal(run.status, 2);
  assert.match(
    run.stderr,
    /--write-run writes the top-K lists generated from factor matrices .*given\.jsonl is a ranking run, whose lists are already in that file/,
  );
  assert.ok(!existsSync(join(dir, 'copy.jsonl')));
});

test('formatRunJsonl: lists in order, empty lists kept, a repeated item refused', () => {
  const lists = { user: Int32Array.of(1, 0), offsets: Int32Array.of(0, 2, 2), items: Int32Array.of(2, 0) };
  assert.equal(
    formatRunJsonl({ lists, userIds: ['a', 'b'], itemIds: ['x', 'y', 'z "q"'] }),
    '{"user":"b","items":["z \\"q\\"","x"]}\n{"user":"a","items":[]}\n',
  );
  const dup = { user: Int32Array.of(0), offsets: Int32Array.of(0, 2), items: Int32Array.of(1, -1) };
  assert.throws(() => formatRunJsonl({ lists: dup, userIds: ['a'], itemIds: ['x', 'y'] }), /user "a" repeats an item/);
});
