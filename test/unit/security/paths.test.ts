// Paths from files someone else wrote (a config's trainCounts, a results file's source.path) must
// not reach outside the workspace, also not through a symbolic link; a refused file is never read,
// so its content never appears in a message.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EvalLensError } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { resolveConfigPath } from '../../../src/core/config/load';
import { resolveRecordedSource } from '../../../src/core/workspacePath';

const base = mkdtempSync(join(tmpdir(), 'eval-lens-paths-'));
after(() => rmSync(base, { recursive: true, force: true }));
const ws = join(base, 'ws');
const outside = join(base, 'outside');
mkdirSync(join(ws, 'runs'), { recursive: true });
mkdirSync(outside, { recursive: true });
const SECRET = 'SECRET-LINE-abc123';
writeFileSync(join(outside, 'secret.csv'), `class,count\n${SECRET},notanumber\n`);
writeFileSync(join(outside, 'preds.csv'), 'label,pred\na,a\n');
symlinkSync(join(outside, 'secret.csv'), join(ws, 'counts.csv'));
symlinkSync(outside, join(ws, 'linked'));
writeFileSync(join(ws, 'inside.csv'), 'class,count\na,10\nb,5\n');
symlinkSync(join(ws, 'inside.csv'), join(ws, 'alias.csv'));
writeFileSync(join(ws, 'runs', 'preds.csv'), 'label,pred\na,a\nb,a\n');

test('a config path that is a symbolic link to a file outside the workspace is refused, its content never shown', async () => {
  assert.throws(
    () => resolveConfigPath('counts.csv', ws, { root: ws, key: 'trainCounts' }),
    (e: unknown) => {
      assert.ok(e instanceof EvalLensError);
      assert.equal(e.code, 'config-path');
      assert.match(e.message, /symbolic link/);
      assert.match(e.message, /outside the workspace/);
      return true;
    },
  );
  assert.throws(
    () => resolveConfigPath('linked/secret.csv', ws, { root: ws, key: 'trainCounts' }),
    /outside the workspace/,
  );
  writeFileSync(
    join(ws, 'runs', 'eval-lens.json'),
    JSON.stringify({ trainCounts: '../counts.csv', bootstrap: { n: 0 } }),
  );
  try {
    await assert.rejects(evaluateFile(join(ws, 'runs', 'preds.csv'), { root: ws }), (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      assert.ok(!e.message.includes(SECRET), e.message);
      assert.equal(e.code, 'config-path');
      return true;
    });
  } finally {
    rmSync(join(ws, 'runs', 'eval-lens.json'));
  }
});

test('a symbolic link that stays inside the workspace is followed', () => {
  assert.equal(resolveConfigPath('alias.csv', ws, { root: ws, key: 'trainCounts' }), join(ws, 'alias.csv'));
});

test('re-evaluate: a recorded source path outside the workspace (absolute, .., symlink) is refused', async () => {
  const results = join(ws, 'runs', 'preds.eval.json');
  const ok = await resolveRecordedSource('runs/preds.csv', results, ws);
  assert.deepEqual(ok, { path: join(ws, 'runs', 'preds.csv') });
  for (const recorded of [
    join(outside, 'preds.csv'),
    '../outside/preds.csv',
    'runs/../../outside/preds.csv',
    'linked/preds.csv',
  ]) {
    const r = await resolveRecordedSource(recorded, results, ws);
    assert.ok('refused' in r, `${recorded}: ${JSON.stringify(r)}`);
    assert.match(r.refused, /outside the workspace/);
  }
  const missing = await resolveRecordedSource('runs/nothere.csv', results, ws);
  assert.ok('missing' in missing);
});

test('every config path key refuses a symbolic link out of the workspace, without showing the linked content', async () => {
  // Each key points at a link to a file outside whose first line is a secret (and not valid for
  // that key, so a read would quote it in a message).
  symlinkSync(join(outside, 'secret.csv'), join(ws, 'secret-link.csv'));
  writeFileSync(join(outside, 'secret.json'), `{"${SECRET}": "x"}`);
  symlinkSync(join(outside, 'secret.json'), join(ws, 'secret-link.json'));
  mkdirSync(join(ws, 'cls'), { recursive: true });
  mkdirSync(join(ws, 'rank'), { recursive: true });
  writeFileSync(join(ws, 'cls', 'p.csv'), 'label,pred\na,a\nb,a\n');
  writeFileSync(join(ws, 'rank', 'run.jsonl'), '{"user":"u1","items":["a","b"],"relevant":["a"]}\n');
  writeFileSync(join(ws, 'rank', 'norel.jsonl'), '{"user":"u1","items":["a","b"]}\n');
  writeFileSync(join(ws, 'rank', 'train.csv'), 'user,item\nu1,c\n');
  const cases: [string, string, Record<string, unknown>][] = [
    ['cls/p.csv', 'trainCounts', {}],
    ['cls/p.csv', 'classWeights', {}],
    ['cls/p.csv', 'groups', { trainCounts: { a: 10, b: 1 } }],
    ['rank/norel.jsonl', 'relevant', { task: 'ranking' }],
    ['rank/run.jsonl', 'train', { task: 'ranking' }],
    ['rank/run.jsonl', 'itemEmbeddings', { task: 'ranking' }],
    ['rank/run.jsonl', 'userEmbeddings', { task: 'ranking', train: 'train.csv', itemEmbeddings: 'emb.json' }],
    ['rank/run.jsonl', 'items', { task: 'ranking' }],
  ];
  writeFileSync(join(ws, 'rank', 'emb.json'), '{"a": [1, 0], "b": [0, 1], "c": [1, 1]}');
  for (const [input, key, extra] of cases) {
    const link = key === 'itemEmbeddings' || key === 'userEmbeddings' ? '../secret-link.json' : '../secret-link.csv';
    const config = join(ws, dirname(input), 'eval-lens.json');
    writeFileSync(config, JSON.stringify({ ...extra, [key]: link, bootstrap: { n: 0 } }));
    try {
      await assert.rejects(evaluateFile(join(ws, input), { root: ws }), (e: unknown) => {
        assert.ok(e instanceof EvalLensError, `${key}: ${String(e)}`);
        assert.equal(e.code, 'config-path', `${key}: ${e.message}`);
        assert.match(e.message, new RegExp(`\`${key}\`.*symbolic link.*outside the workspace`), key);
        assert.ok(!e.message.includes(SECRET), `${key}: ${e.message}`);
        return true;
      });
    } finally {
      rmSync(config);
    }
  }
});
