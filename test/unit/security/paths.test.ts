// Paths from files someone else wrote (a config's trainCounts, a results file's source.path) must
// not reach outside the workspace, also not through a symbolic link; a refused file is never read,
// so its content never appears in a message.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
