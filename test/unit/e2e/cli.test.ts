/**
 * The `eval-lens` command end to end: spawned as `node --import tsx src/cli/main.ts …` from the
 * project folder, on a small classification file made here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateResults } from '../../../src/core/results/validate';
import { TOOL_VERSION } from '../../../src/core/version';
import type { Results } from '../../../src/core/results/types';

const ROOT = process.cwd();
/** tsx by absolute URL, so that the command also runs from folders outside the project. */
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-cli-'));

function cli(args: string[], cwd = ROOT): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** 24 rows, 3 classes, probabilities; row i: label i mod 3, predicted right unless i mod 4 = 0. */
function writePreds(folder: string, name = 'preds.csv'): string {
  mkdirSync(folder, { recursive: true });
  const lines = ['id,label,prob_a,prob_b,prob_c'];
  const classes = ['a', 'b', 'c'];
  for (let i = 0; i < 24; i++) {
    const y = i % 3;
    const p = [0.1, 0.1, 0.1];
    p[i % 4 === 0 ? (y + 1) % 3 : y] = 0.8;
    lines.push(`r${i},${classes[y]},${p.join(',')}`);
  }
  const path = join(folder, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const preds = writePreds(join(dir, 'basic'));
const EXPECTED_ACCURACY = 18 / 24; // rows 0, 4, 8, …, 20 are wrong

test('--help and --version exit 0', () => {
  let r = cli(['--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /Usage: eval-lens/);
  assert.match(r.stdout, /evaluate \[options\] <file>/);
  r = cli(['evaluate', '--help']);
  assert.equal(r.status, 0);
  for (const flag of [
    '--config <file>',
    '--out <file>',
    '--format <format>',
    '--top-k <list>',
    '--bootstrap-n <n>',
    '--train-counts <list|map|path>',
    '--shift-points <integer>',
    '--map-normaliser <min|all|hits>',
    '--progress',
  ]) {
    assert.ok(r.stdout.includes(flag), flag);
  }
  // Every input format, and examples at the end.
  for (const format of ['CSV', 'TSV', 'JSONL', 'TREC', 'Parquet', '.npz', '.npy'])
    assert.ok(r.stdout.includes(format), format);
  assert.match(r.stdout, /\nExamples:\n {2}eval-lens evaluate preds\.csv /);
  r = cli(['--version']);
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trim(), TOOL_VERSION);
});

test('bad usage exits 2 with a message on stderr', () => {
  const cases: [string[], RegExp][] = [
    [[], /Usage: eval-lens/],
    [['evaluate'], /missing required argument 'file'/],
    [['evaluate', preds, '--bogus'], /unknown option '--bogus'/],
    [['evaluate', preds, '--top-kk', '1'], /unknown option '--top-kk'[\s\S]*Did you mean --top-k\?/],
    [['evaluate', preds, '--format', 'xml'], /Allowed choices are table, json, markdown, csv/],
    [['evaluate', preds, '--top-k', '0'], /invalid value for --top-k: `topK\[0\]`: expected an integer ≥ 1, got 0/],
    [
      ['evaluate', preds, '--bootstrap-n', 'many'],
      /invalid value for --bootstrap-n: `bootstrap\.n`: expected an integer, got "many"/,
    ],
    [['evaluate', preds, '--task', 'clasification'], /invalid value for --task: .*Did you mean "classification"\?/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ];
  for (const [args, re] of cases) {
    const r = cli(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
});

test('bad input exits 1 with the message and no stack', () => {
  let r = cli(['evaluate', join(dir, 'missing.csv')]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^eval-lens: .*missing\.csv: no such file\.\n$/);
  const bad = join(dir, 'badconfig');
  const p = writePreds(bad);
  writeFileSync(join(bad, 'eval-lens.json'), '{\n  "task": "classification",\n  "trainCount": [1, 2, 3]\n}\n');
  r = cli(['evaluate', p]);
  assert.equal(r.status, 1);
  assert.ok(
    r.stderr.includes('eval-lens.json:3: Unknown key `trainCount` at line 3. Did you mean `trainCounts`?'),
    r.stderr,
  );
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  const ragged = join(dir, 'ragged');
  mkdirSync(ragged);
  writeFileSync(join(ragged, 'p.csv'), 'label,pred\na,a\nb\n');
  r = cli(['evaluate', join(ragged, 'p.csv')]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /p\.csv:3/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('evaluate prints a table and writes nothing without --out', () => {
  const before = readdirSync(join(dir, 'basic')).sort();
  const r = cli(['evaluate', preds, '--bootstrap-n', '50']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Eval Lens \d+\.\d+\.\d+ results\n/);
  assert.match(r.stdout, new RegExp(`accuracy +${EXPECTED_ACCURACY.toFixed(4)} +\\[`));
  assert.match(r.stdout, /bootstrap 50 resamples, 95% CI, seed = 0/);
  assert.deepEqual(readdirSync(join(dir, 'basic')).sort(), before);
  assert.equal(r.stderr, '');
});

test('--progress prints the stages on stderr and leaves stdout unchanged', () => {
  const plain = cli(['evaluate', preds, '--bootstrap-n', '1000']);
  assert.equal(plain.status, 0, plain.stderr);
  const r = cli(['evaluate', preds, '--bootstrap-n', '1000', '--progress']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, plain.stdout);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 3, r.stderr);
  assert.match(lines[0], /^eval-lens: point estimates ready \(\d+\.\d s\)$/);
  assert.match(lines[1], /^intervals: provisional, 200 of 1,000 resamples \(\d+\.\d s\)$/);
  assert.match(lines[2], /^intervals: final, 1,000 resamples \(\d+\.\d s\)$/);
  const small = cli(['evaluate', preds, '--bootstrap-n', '100', '--progress']);
  assert.deepEqual(
    small.stderr
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/ \(\d+\.\d s\)$/, '')),
    ['eval-lens: point estimates ready', 'intervals: final, 100 resamples'],
  );
  const none = cli(['evaluate', preds, '--bootstrap-n', '0', '--progress']);
  assert.deepEqual(
    none.stderr
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/ \(\d+\.\d s\)$/, '')),
    ['eval-lens: point estimates ready', 'eval-lens: done, no bootstrap intervals (bootstrap.n is 0)'],
  );
});

test('--out writes valid results (folders created); the same seed gives the same intervals', () => {
  const out = join(dir, 'results', 'nested', 'preds.eval.json');
  // The same arguments twice: the second run overwrites the first results file.
  const args = [
    'evaluate',
    preds,
    '--out',
    out,
    '--bootstrap-n',
    '100',
    '--seed',
    '3',
    '--confidence',
    '0.9',
    '--top-k',
    '1,2',
  ];
  const r = cli(args);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /Results written to /);
  const results = JSON.parse(readFileSync(out, 'utf8')) as Results;
  assert.deepEqual(validateResults(results), []);
  assert.equal(results.metrics.accuracy!.value, EXPECTED_ACCURACY);
  assert.deepEqual(results.config.bootstrap, { n: 100, confidence: 0.9, seed: 3, stratified: false });
  assert.deepEqual(results.config.topK, [1, 2]);
  assert.ok('top1_accuracy' in results.metrics && 'top2_accuracy' in results.metrics);
  assert.equal(results.metrics.top1_accuracy!.value, EXPECTED_ACCURACY);
  assert.ok(results.metrics.accuracy!.ci);
  assert.match(r.stdout, /90% CI/);
  // Overwriting an earlier results file is fine, and deterministic.
  const again = cli(args);
  assert.equal(again.status, 0);
  assert.deepEqual(
    (JSON.parse(readFileSync(out, 'utf8')) as Results).metrics.accuracy!.ci,
    results.metrics.accuracy!.ci,
  );
});

test('--out never overwrites the input, the config, or a file that is not a results file', () => {
  const folder = join(dir, 'guard');
  const p = writePreds(folder);
  writeFileSync(join(folder, 'eval-lens.json'), '{"bootstrap": {"n": 0}}');
  writeFileSync(join(folder, 'notes.txt'), 'keep me');
  const original = readFileSync(p, 'utf8');
  const cases: [string, RegExp][] = [
    [p, /is an input of this evaluation \(preds\.csv\); refusing to overwrite it/],
    [join(folder, '..', 'guard', 'preds.csv'), /is an input of this evaluation/],
    [
      join(folder, 'eval-lens.json'),
      /is an input of this evaluation \(eval-lens\.json\); refusing to overwrite it\. Choose another file, e\.g\. preds\.eval\.json\./,
    ],
    [join(folder, 'notes.txt'), /exists and is not an Eval Lens results file; refusing to overwrite it/],
    [folder, /is a folder/],
  ];
  for (const [out, re] of cases) {
    const r = cli(['evaluate', p, '--out', out]);
    assert.equal(r.status, 2, out);
    assert.match(r.stderr, re);
  }
  // A folder as an output: the message suggests a file in it, for each output option.
  for (const [flag, example] of [
    ['--out', 'results.eval.json'],
    ['--html', 'report.html'],
  ]) {
    const r = cli(['evaluate', p, '--bootstrap-n', '0', flag, folder]);
    assert.equal(r.status, 2, flag);
    assert.ok(
      r.stderr.includes(`${flag} ${folder} is a folder; give a file name, e.g. ${folder}/${example}.`),
      r.stderr,
    );
  }
  const rel = cli(['evaluate', 'preds.csv', '--out', './preds.csv'], folder);
  assert.equal(rel.status, 2);
  assert.equal(readFileSync(p, 'utf8'), original);
  assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'keep me');
});

test('--format json, markdown and csv', () => {
  const json = cli(['evaluate', preds, '--format', 'json', '--bootstrap-n', '0']);
  assert.equal(json.status, 0);
  const results = JSON.parse(json.stdout) as Results;
  assert.deepEqual(validateResults(results), []);
  assert.equal(results.metrics.accuracy!.ci, undefined, '--bootstrap-n 0 turns intervals off');
  const md = cli(['evaluate', preds, '--format', 'markdown', '--bootstrap-n', '0']);
  assert.equal(md.status, 0);
  assert.match(md.stdout, /^## Eval Lens results: \S*preds\.csv\n/);
  assert.match(md.stdout, new RegExp(`\\| accuracy \\| ${EXPECTED_ACCURACY.toFixed(4)} \\|`));
  const csv = cli(['evaluate', preds, '-f', 'csv', '--bootstrap-n', '0']);
  assert.equal(csv.status, 0);
  assert.equal(csv.stdout.split('\n')[0], 'family,metric,value,ci_lower,ci_upper,direction,note');
  assert.ok(csv.stdout.includes(`classification,accuracy,${EXPECTED_ACCURACY},,,higher,`));
  const pct = cli(['evaluate', preds, '--percent', '--bootstrap-n', '0']);
  assert.match(pct.stdout, /accuracy +75\.00%/);
});

test('the config beside the file is used; --config and flags override it', () => {
  const folder = join(dir, 'layers');
  const p = writePreds(folder);
  writeFileSync(join(folder, 'eval-lens.json'), '{"bootstrap": {"n": 0}, "topK": [2], "eceBins": 4}');
  const other = join(dir, 'other.json');
  writeFileSync(other, '{"bootstrap": {"n": 0}, "eceBins": 6}');
  let r = JSON.parse(cli(['evaluate', p, '-f', 'json']).stdout) as Results;
  assert.equal(r.config.configFile, join(folder, 'eval-lens.json'));
  assert.deepEqual(r.config.topK, [2]);
  assert.equal(r.config.eceBins, 4);
  r = JSON.parse(cli(['evaluate', p, '-f', 'json', '--ece-bins', '8']).stdout) as Results;
  assert.equal(r.config.eceBins, 8);
  r = JSON.parse(cli(['evaluate', p, '-f', 'json', '--config', other, '--bootstrap', '{"seed": 4}']).stdout) as Results;
  assert.equal(r.config.configFile, other);
  assert.equal(r.config.eceBins, 6);
  assert.deepEqual(r.config.topK, [5], 'the config beside the file is not read when --config is given');
  assert.deepEqual(r.config.bootstrap, { n: 0, confidence: 0.95, seed: 4, stratified: false });
  const missing = cli(['evaluate', p, '--config', join(dir, 'none.json')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /none\.json: cannot read the config file: no such file/);
});

test('a path in the config may not leave the workspace root', () => {
  const folder = join(dir, 'escape', 'run');
  const p = writePreds(folder);
  writeFileSync(join(dir, 'escape', 'counts.json'), '[10, 5, 1]');
  writeFileSync(join(folder, 'eval-lens.json'), '{\n  "bootstrap": {"n": 0},\n  "trainCounts": "../counts.json"\n}');
  // Run from the example folder: the root is that folder, so ../counts.json escapes it.
  const r = cli(['evaluate', 'preds.csv'], folder);
  assert.equal(r.status, 1, r.stderr);
  assert.match(
    r.stderr,
    /eval-lens\.json:3: `trainCounts` at line 3: the path "\.\.\/counts\.json" resolves to .*outside the workspace/,
  );
  assert.ok(existsSync(join(dir, 'escape', 'counts.json')));
  void p;
});
