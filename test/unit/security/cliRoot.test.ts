// One rule decides the workspace root of every CLI command: --root when given, else the current
// folder when the config (or the first input, without a config) lies inside it, else the config's
// folder. `compare` used to take the current folder always and refused a config outside it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRoot } from '../../../src/cli/files';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-root-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

test("defaultRoot: the current folder when the anchor is inside it, else the anchor's folder", () => {
  assert.equal(defaultRoot('/w', '/w/sub/eval-lens.json'), '/w');
  assert.equal(defaultRoot('/w', '/elsewhere/eval-lens.json'), '/elsewhere');
  // a folder whose name starts with two dots is inside, not above (the one path rule of workspacePath.ts)
  assert.equal(defaultRoot('/w', '/w/..data/eval-lens.json'), '/w');
  assert.notEqual(defaultRoot('/w', '/w/../data/eval-lens.json'), '/w');
});

test('compare follows the documented --root default: a config outside the current folder with a relative trainCounts', () => {
  const rows = (wrong: number[]) =>
    [
      'id,label,pred',
      ...Array.from(
        { length: 12 },
        (_, i) => `r${i},${'ab'[i % 2]},${wrong.includes(i) ? 'ab'[(i + 1) % 2] : 'ab'[i % 2]}`,
      ),
    ].join('\n') + '\n';
  writeFileSync(join(dir, 'a.csv'), rows([1, 2, 3]));
  writeFileSync(join(dir, 'b.csv'), rows([1]));
  writeFileSync(join(dir, 'counts.json'), '{"a": 100, "b": 5}');
  writeFileSync(join(dir, 'eval-lens.json'), '{"trainCounts": "counts.json", "bootstrap": {"n": 0}}');
  const ev = cli(['evaluate', join(dir, 'a.csv')]);
  assert.equal(ev.status, 0, ev.stderr);
  const cmp = cli(['compare', join(dir, 'a.csv'), join(dir, 'b.csv')]);
  assert.equal(cmp.status, 0, cmp.stderr);
  assert.match(cmp.stdout, /accuracy/);
});
