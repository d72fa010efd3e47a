/**
 * Every `npx eval-lens …` line of the README's code blocks runs as written, from the repository
 * folder, and exits 0. The lines run in order in a temporary folder that sees the repository's
 * `examples/` (a symlink), so what they write lands there, and later lines can read it. Runs the
 * built CLI (`dist/cli.js`, via bin/eval-lens.js): `npm run build` first, as the README says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = process.cwd();

/** The `npx eval-lens` lines of the README's shell code blocks. */
export function readmeCliLines(readme: string): string[] {
  const blocks = [...readme.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l.startsWith('npx eval-lens '));
}

test('the README has CLI examples for evaluate, report and compare', () => {
  const lines = readmeCliLines(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  for (const cmd of ['evaluate', 'report', 'compare'])
    assert.ok(
      lines.some((l) => l.startsWith(`npx eval-lens ${cmd} `)),
      cmd,
    );
  assert.ok(lines.some((l) => l.includes('--html')));
});

test('every README `npx eval-lens …` line exits 0 as written', { timeout: 240_000 }, () => {
  assert.ok(existsSync(join(ROOT, 'dist/cli.js')), 'dist/cli.js is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-readme-'));
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'));
  const bin = join(ROOT, 'bin/eval-lens.js');
  for (const line of readmeCliLines(readFileSync(join(ROOT, 'README.md'), 'utf8'))) {
    // The shell expands globs and drops the trailing comment, as in a terminal; `npx eval-lens`
    // is the package's bin, i.e. node bin/eval-lens.js.
    const cmd = line.replace(/^npx eval-lens /, `"${process.execPath}" "${bin}" `);
    const r = spawnSync('/bin/sh', ['-c', cmd], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.status, 0, `${line}\nexit ${r.status}\n${r.stderr}`);
    assert.ok(r.stdout.length > 0 || /written to/.test(r.stderr), `${line}: prints or writes something`);
  }
});
