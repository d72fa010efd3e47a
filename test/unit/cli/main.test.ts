/**
 * Every error of `eval-lens` starts with the same prefix, `eval-lens: `: commander's usage errors
 * (unknown option, missing argument, a value outside the choices) as well as Eval Lens's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = process.cwd();
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

function cli(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stderr: r.stderr };
}

test('usage errors from commander carry the eval-lens: prefix, not error:', () => {
  const cases: [string[], string][] = [
    [['evaluate', '--nope', 'x.csv'], "eval-lens: unknown option '--nope'"],
    [['rows'], "eval-lens: missing required argument 'file'"],
    [
      ['evaluate', 'x.csv', '--format', 'nope'],
      "eval-lens: option '-f, --format <format>' argument 'nope' is invalid. Allowed choices are table, json, markdown, csv.",
    ],
  ];
  for (const [args, first] of cases) {
    const r = cli(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.deepEqual(r.stderr.split('\n').slice(0, 2), [first, '(run `eval-lens help <command>` for usage)']);
  }
});

test('an input error has the same prefix', () => {
  const r = cli(['evaluate', 'README.md']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^eval-lens: Cannot read README\.md: unsupported file extension \.md\./);
});
