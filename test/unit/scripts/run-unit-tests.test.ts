/**
 * The unit-test log (not a terminal): no colour codes even when FORCE_COLOR is set, and a failing
 * test's `test at file:line:col` names the line of its `test(` call in the TypeScript source.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('a failing test in a log: no ANSI codes, its location in the .ts source', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-run-unit-'));
  symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'test', 'unit'), { recursive: true });
  writeFileSync(
    join(dir, 'test', 'unit', 'a.test.ts'),
    [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      'interface A {',
      '  a: number;',
      '}',
      'const v: A = { a: 1 };',
      "test('fails on purpose', () => {",
      '  assert.equal(v.a, 2);',
      '});',
      '',
    ].join('\n'),
  );
  // As in `npm test`: not nested in this test runner (NODE_TEST_CONTEXT), output to a pipe.
  const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
  const r = spawnSync(process.execPath, [join(process.cwd(), 'scripts', 'run-unit-tests.mjs')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...env, FORCE_COLOR: '1', NO_COLOR: '' },
  });
  const out = r.stdout + r.stderr;
  assert.equal(r.status, 1, out);
  assert.equal(out.includes('\u001b['), false, 'colour codes in the log');
  assert.match(out, /^test at test\/unit\/a\.test\.ts:7:1$/m);
});
