// Text from a file never reaches a terminal raw: the control characters of column names and cells
// (ESC sequences that set the window title, clear the screen or recolour the text; BEL, CR, …)
// are printed as \u00XX escapes in every table and message of the CLI, and the Markdown report
// escapes them and `~` (strikethrough) as well.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeMarkdown } from '../../../src/core/text/markdownText';

const ROOT = process.cwd();
/** tsx by absolute URL: the command runs in the test's folder. */
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-terminal-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const TITLE = '\u001b]0;pwned\u0007'; // sets the terminal window title
const CLEAR = '\u001b[2J'; // clears the screen
const RED = '\u001b[31m';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// ESC (0x1b) and BEL (0x07): neither may appear in anything printed.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex

writeFileSync(join(dir, 'p.csv'), `label,pred,g${CLEAR}rp\na,a,x${TITLE}y\nb,b,plain\n`);

test('rows: a column name in the usage error is escaped', () => {
  const r = cli('rows', 'p.csv', '--where', 'nope=1');
  assert.equal(r.status, 2, r.stderr);
  assert.doesNotMatch(r.stderr, RAW);
  assert.equal(
    r.stderr.split('\n')[0],
    'eval-lens: --where: unknown key "nope"; expected one of: label, pred, correct, line, g\\u001b[2Jrp.',
  );
});

test('rows: column names and cells of the table are escaped', () => {
  const r = cli('rows', 'p.csv');
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, RAW);
  const lines = r.stdout.split('\n');
  assert.match(lines[0]!, / g\\u001b\[2Jrp$/);
  assert.match(lines[2]!, /^2 .* a .* a .* true .* x\\u001b\]0;pwned\\u0007y$/);
});

test('evaluate --slice-by: slice values in the slice table are escaped', () => {
  writeFileSync(join(dir, 's.csv'), `label,pred,grp\na,a,x${TITLE}y\nb,b,x${TITLE}y\na,b,plain\n`);
  const r = cli('evaluate', 's.csv', '--bootstrap-n', '0', '--slice-by', 'grp', '--min-slice-size', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, RAW);
  const row = r.stdout.split('\n').find((l) => l.startsWith('grp ') && l.includes('pwned'));
  assert.match(row ?? '', /^grp +x\\u001b\]0;pwned\\u0007y +2 +1\.0000 /, r.stdout);
});

test('report --format md: ESC and ~ in class names are escaped', () => {
  writeFileSync(join(dir, 'm.csv'), `label,pred\n~~a~~${RED},~~a~~${RED}\nb,b\n`);
  assert.equal(cli('evaluate', 'm.csv', '--bootstrap-n', '0', '--out', 'm.eval.json').status, 0);
  const r = cli('report', 'm.eval.json', '--format', 'md');
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, RAW);
  assert.ok(r.stdout.includes('\n| \\~\\~a\\~\\~\\u001b\\[31m | 1 | 1.0000 |'), r.stdout);
});

test('escapeMarkdown: control characters as \\u00XX, ~ escaped', () => {
  assert.equal(escapeMarkdown(`~~x~~${CLEAR}\u0000`), '\\~\\~x\\~\\~\\u001b\\[2J\\u0000');
});
