// Output targets that are not regular files: a FIFO would make a write (or the check that reads
// what is there) hang, and the rename of the temporary file would replace a device such as
// /dev/null. Every command that writes refuses them (exit 2, naming the flag and the path) and
// leaves them as they are. Two outputs that are the same file through a linked folder are refused
// before anything is written.
//
// The character device is reached through a symbolic link to /dev/null in the test's folder: the
// rename would replace the link, never /dev/null itself, whichever code runs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EvalLensError } from '../../../src/core/diagnostics';
import { writeAtomically } from '../../../src/cli/files';
import { writeFactorModel } from '../helpers/factors';

const ROOT = process.cwd();
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-targets-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  // A hang (the failure this guards against) ends as a failed test, not a stuck run.
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

writeFileSync(join(dir, 'p.csv'), 'label,pred\na,a\nb,b\na,b\n');
writeFileSync(join(dir, 'q.csv'), 'label,pred\na,a\nb,a\na,b\n');
const fm = join(dir, 'fm');
mkdirSync(fm);
const factorKeys = writeFactorModel(
  fm,
  [
    [1, 0],
    [0, 1],
  ],
  [
    [1, 0],
    [0, 1],
    [1, 1],
  ],
  ['u1', 'u2'],
  ['i1', 'i2', 'i3'],
);
writeFileSync(join(fm, 'relevant.csv'), 'user,item\nu1,i1\nu2,i2\n');
writeFileSync(
  join(fm, 'eval-lens.json'),
  JSON.stringify({ ...factorKeys, relevant: 'relevant.csv', k: [1], bootstrap: { n: 0 } }),
);

const mkfifo = (p: string): void => {
  const r = spawnSync('mkfifo', [p]);
  assert.equal(r.status, 0, String(r.stderr));
};
const noTmp = (): void =>
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );

test('setup: two results files for report and compare', () => {
  assert.equal(cli('evaluate', 'p.csv', '--bootstrap-n', '0', '--out', 'p.eval.json').status, 0);
  assert.equal(cli('evaluate', 'q.csv', '--bootstrap-n', '0', '--out', 'q.eval.json').status, 0);
});

const FIFO_CASES: [string, string, string[], string][] = [
  ['evaluate --out', '--out', ['evaluate', 'p.csv', '--bootstrap-n', '0'], 'results.eval.json'],
  ['evaluate --html', '--html', ['evaluate', 'p.csv', '--bootstrap-n', '0'], 'report.html'],
  ['evaluate --write-run', '--write-run', ['evaluate', 'fm/U.npy', '--config', 'fm/eval-lens.json'], 'run.jsonl'],
  ['report --out', '--out', ['report', 'p.eval.json', '--format', 'md'], 'report.html'],
  ['compare --out', '--out', ['compare', 'p.eval.json', 'q.eval.json'], 'runs.compare.json'],
];

for (const [name, flag, args, example] of FIFO_CASES) {
  test(`${name} onto a FIFO is refused at once, the FIFO left as it is`, () => {
    const fifo = join(dir, 'pipe');
    mkfifo(fifo);
    try {
      const r = cli(...args, flag, 'pipe');
      assert.equal(r.status, 2, r.stderr);
      assert.equal(
        r.stderr.split('\n')[0],
        `eval-lens: ${flag} pipe is a FIFO (named pipe), not a regular file; refusing to write to it. Give the name of a file, e.g. ${example}.`,
      );
      assert.ok(lstatSync(fifo).isFIFO());
      noTmp();
    } finally {
      rmSync(fifo);
    }
  });
}

const DEVICE_CASES: [string, string, string[], string][] = [
  ['evaluate --out', '--out', ['evaluate', 'p.csv', '--bootstrap-n', '0'], 'results.eval.json'],
  ['evaluate --html', '--html', ['evaluate', 'p.csv', '--bootstrap-n', '0'], 'report.html'],
  ['evaluate --write-run', '--write-run', ['evaluate', 'fm/U.npy', '--config', 'fm/eval-lens.json'], 'run.jsonl'],
  ['report --out', '--out', ['report', 'p.eval.json', '--format', 'md'], 'report.html'],
];

for (const [name, flag, args, example] of DEVICE_CASES) {
  test(`${name} onto a character device (a link to /dev/null) is refused, the link left as it is`, () => {
    const link = join(dir, 'null.out');
    symlinkSync('/dev/null', link);
    try {
      const r = cli(...args, flag, 'null.out');
      assert.equal(r.status, 2, r.stderr);
      assert.equal(
        r.stderr.split('\n')[0],
        `eval-lens: ${flag} null.out is a character device, not a regular file; refusing to write to it. Give the name of a file, e.g. ${example}.`,
      );
      assert.ok(lstatSync(link).isSymbolicLink(), 'the link is not replaced by a file');
      assert.equal(readlinkSync(link), '/dev/null');
      assert.ok(statSync('/dev/null').isCharacterDevice());
      noTmp();
    } finally {
      rmSync(link);
    }
  });
}

test('writeAtomically itself never replaces a FIFO: an input error naming the file', async () => {
  const fifo = join(dir, 'direct.pipe');
  mkfifo(fifo);
  try {
    await assert.rejects(writeAtomically(fifo, 'x', 'the report'), (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      assert.equal(e.code, 'output-write');
      assert.equal(
        e.message,
        `${fifo}: cannot write the report: it is a FIFO (named pipe), not a regular file; refusing to replace it.`,
      );
      return true;
    });
    assert.ok(lstatSync(fifo).isFIFO());
    noTmp();
  } finally {
    rmSync(fifo);
  }
});

const SAME_FILE_CASES: [string, string[], string][] = [
  [
    '--html',
    ['evaluate', 'p.csv', '--bootstrap-n', '0', '--out', 'outdir/r.eval.json', '--html', 'alias/r.eval.json'],
    '--html alias/r.eval.json is another file of this evaluation (r.eval.json); choose another name, e.g. report.html.',
  ],
  [
    '--write-run',
    [
      'evaluate',
      'fm/U.npy',
      '--config',
      'fm/eval-lens.json',
      '--out',
      'outdir/r.jsonl',
      '--write-run',
      'alias/r.jsonl',
    ],
    '--write-run alias/r.jsonl is another output of this evaluation (r.jsonl); choose another name, e.g. run.jsonl.',
  ],
];

for (const [flag, args, message] of SAME_FILE_CASES) {
  test(`--out and ${flag} naming one new file through a linked folder are refused, nothing written`, () => {
    mkdirSync(join(dir, 'outdir'), { recursive: true });
    if (!existsSync(join(dir, 'alias'))) symlinkSync(join(dir, 'outdir'), join(dir, 'alias'));
    const r = cli(...args);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.split('\n')[0], `eval-lens: ${message}`);
    assert.deepEqual(readdirSync(join(dir, 'outdir')), []);
  });
}
