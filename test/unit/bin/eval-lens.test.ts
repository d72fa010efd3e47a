/**
 * `bin/eval-lens.js` before `npm run build`: one line saying what to run, exit 1, no Node stack.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('without dist/cli.js: "Eval Lens is not built: run npm run build", exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-bin-'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(process.cwd(), 'bin', 'eval-lens.js'), join(dir, 'bin', 'eval-lens.js'));
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'eval-lens.js'), 'evaluate', 'x.csv'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.equal(r.stderr, 'eval-lens: Eval Lens is not built: run npm run build\n');
  assert.equal(r.stdout, '');
});
