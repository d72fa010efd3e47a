/**
 * `eval-lens compare` end to end: spawned as `node --import tsx src/cli/main.ts compare …` on
 * small prediction files made here and on the fixtures of test/fixtures/compare/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { pairedTTest } from '../../../src/core/stats/tests';
import type { CompareResults } from '../../../src/core/compare/types';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-compare-'));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'compare', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// 30 rows, 3 classes; a run is wrong on the rows listed. Row order is reversed in run b.
const N = 30;
const label = (i: number): string => ['a', 'b', 'c'][i % 3];
function writeRun(name: string, wrong: Set<number>, reverse = false, ids = true): string {
  const rows: string[] = [];
  for (let i = 0; i < N; i++) {
    const y = i % 3;
    const pred = wrong.has(i) ? (y + 1) % 3 : y;
    rows.push(`${ids ? `r${i},` : ''}${label(i)},${['a', 'b', 'c'][pred]}`);
  }
  if (reverse) rows.reverse();
  const path = join(dir, name);
  writeFileSync(path, `${ids ? 'id,' : ''}label,pred\n${rows.join('\n')}\n`);
  return path;
}
const wrongA = new Set([0, 3, 5, 8, 11, 14, 17, 20, 23, 26]);
const wrongB = new Set([0, 5, 14, 26]);
const wrongC = new Set([1, 3, 5, 8, 9, 11, 14, 17, 20, 23, 26, 29]);
const a = writeRun('a.csv', wrongA);
const b = writeRun('b.csv', wrongB, true);
const c = writeRun('c.csv', wrongC);
const correct = (w: Set<number>): number[] => Array.from({ length: N }, (_, i) => (w.has(i) ? 0 : 1));

test('compare three runs: table, tests, exit 0; the JSON validates and matches the core', () => {
  const out = join(dir, 'abc.compare.json');
  const r = cli([a, b, c, '--metrics', 'accuracy', '--out', out, '--bootstrap-n', '200']);
  assert.equal(r.status, 0, r.stderr);
  // Long form: one row per metric and run; the baseline's value on the metric's first row.
  assert.match(r.stdout, /^metric\s+run\s+a \(baseline\)\s+value\s+Δ \[95% CI\]\s+better by\s+p\s+p Holm$/m);
  assert.match(r.stdout, /^accuracy ↑\s+b\s+0\.6667 \[2\]\s+0\.8667 \[1\]\s+\+0\.2000 \[/m);
  assert.match(r.stdout, /^\s+c\s+0\.6000\s+−0\.0667 \[/m);
  assert.match(r.stdout, /p: M: McNemar exact/);
  const text = readFileSync(out, 'utf8');
  const json = JSON.parse(text) as CompareResults;
  const schema = JSON.parse(readFileSync('schemas/eval-lens.compare.schema.json', 'utf8'));
  const validate = new Ajv({ allowUnionTypes: true }).compile(schema);
  assert.ok(validate(JSON.parse(text)), JSON.stringify(validate.errors));
  assert.equal(json.baseline, a);
  assert.equal(json.tests.length, 2);
  const tb = json.tests.find((t) => t.run === b)!;
  assert.equal(tb.t, pairedTTest(correct(wrongB), correct(wrongA)).t);
  assert.equal(tb.n, N);
  assert.ok('p_holm' in tb && Array.isArray(tb.ci_diff));
});

test('markdown and latex mark best and second; the last of three is plain', () => {
  const md = cli([a, b, c, '--metrics', 'accuracy', '--format', 'markdown', '--baseline', 'c.csv']);
  assert.equal(md.status, 0, md.stderr);
  // Long form: | metric | run | baseline value | value | Δ | …; the baseline c is the last of three: plain.
  assert.match(md.stdout, /^\| metric \| run \| c \(baseline\) \| value \|/m);
  assert.match(md.stdout, /^\| accuracy ↑ \| a \| 0\.6000 \| <u>0\.6667<\/u> \| \+0\.0667 \\\[/m);
  assert.match(md.stdout, /^\| {2}\| b \| {2}\| \*\*0\.8667\*\* \| \+0\.2667 \\\[/m);
  const tex = cli([a, b, c, '--metrics', 'accuracy', '--format', 'latex']);
  assert.equal(tex.status, 0, tex.stderr);
  assert.match(tex.stdout, /\\toprule/);
  assert.match(tex.stdout, /b & \\textbf\{0\.8667\} \\\\/);
  assert.match(tex.stdout, /a \(baseline\) & \\underline\{0\.6667\} \\\\/);
  assert.match(tex.stdout, /\nc & 0\.6000 \\\\/);
});

test('one CSV table of runs × metrics: inspection mode; csv format has place columns', () => {
  const r = cli(['test/fixtures/compare/cf_eval_summary.csv', '--format', 'csv']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(
    lines[0],
    'run,factors,factors_place,reg,reg_place,alpha,alpha_place,recall@10,recall@10_place,recall@20,recall@20_place,ndcg@10,ndcg@10_place,ndcg@20,ndcg@20_place,coverage,coverage_place,training_time,training_time_place',
  );
  assert.equal(lines[2], 'bpr,64,,0.0001,,,,0.242,1,0.321,1,0.195,1,0.228,1,0.301,1,1824.5,');
  assert.match(r.stderr, /no direction known for "factors", "reg", "alpha", "training_time"/);
});

test('mismatched runs exit 1 with the reason; usage mistakes exit 2', () => {
  const fewer = join(dir, 'fewer.csv');
  writeFileSync(fewer, readFileSync(a, 'utf8').split('\n').slice(0, 20).join('\n') + '\n');
  const r1 = cli([a, fewer]);
  assert.equal(r1.status, 1);
  assert.match(r1.stderr, /fewer\.csv: expected the same ids as the baseline .*a\.csv, but found 11 only in/);
  const r2 = cli([a, fewer, '--on-mismatch', 'intersect', '--metrics', 'accuracy']);
  assert.equal(r2.status, 0, r2.stderr);
  assert.match(r2.stderr, /tests use the 19 common ids/);
  const noIds = writeRun('noids.csv', wrongB, false, false);
  assert.equal(cli([a, noIds]).status, 1);
  assert.equal(cli([a]).status, 2);
  assert.equal(cli([a, b, '--format', 'html']).status, 2);
  const notOurs = join(dir, 'keep.json');
  writeFileSync(notOurs, '{"x": 1}\n');
  const r3 = cli([a, b, '--out', notOurs]);
  assert.equal(r3.status, 2);
  assert.match(r3.stderr, /exists and is not an Eval Lens comparison file/);
  assert.equal(readFileSync(notOurs, 'utf8'), '{"x": 1}\n');
  const r4 = cli([a, b, '--out', `${dir}/`]);
  assert.equal(r4.status, 2);
  assert.ok(
    r4.stderr.includes(`--out ${dir}/ is a folder; give a file name, e.g. ${dir}/runs.compare.json.`),
    r4.stderr,
  );
  assert.equal(cli([a, join(dir, 'missing.csv')]).status, 1);
});

test('the gate: exit 3 and one line per broken rule on a worse run; exit 0 on an equal one; a Markdown summary', () => {
  // c is worse than a: accuracy 18/30 against 20/30, Δ = −0.0667 < −0.05.
  const worse = cli([a, c, '--metrics', 'accuracy', '--fail-if', 'accuracy<-0.05', '--bootstrap-n', '200']);
  assert.equal(worse.status, 3, worse.stderr);
  assert.match(
    worse.stderr,
    /^gate: accuracy: c − baseline = −0\.0667 \(interval \[[^\]]+\]\) breaks "accuracy<-0\.05" \(tolerance -0\.05\)\.$/m,
  );
  assert.match(worse.stderr, /^gate: failed \(1 rule broken\)\.$/m);
  const copy = join(dir, 'a_copy.csv');
  writeFileSync(copy, readFileSync(a, 'utf8'));
  const equal = cli([
    a,
    copy,
    '--metrics',
    'accuracy',
    '--fail-if',
    'accuracy<-0.05',
    '--format',
    'md',
    '--bootstrap-n',
    '200',
  ]);
  assert.equal(equal.status, 0, equal.stderr);
  assert.match(equal.stdout, /\*\*Gate: passed\*\* \(`accuracy<-0\.05`\)\./);
  const md = cli([
    a,
    c,
    '--metrics',
    'accuracy',
    '--fail-if',
    'accuracy<-0.05',
    '--format',
    'md',
    '--bootstrap-n',
    '200',
  ]);
  assert.equal(md.status, 3);
  assert.match(md.stdout, /\*\*Gate: failed\*\* \(`accuracy<-0\.05`\):\n\n- accuracy: c − baseline = −0\.0667/);
  // A rule on a metric that is not compared: exit 1, naming it.
  const bad = cli([a, c, '--metrics', 'accuracy', '--fail-if', 'aurc>0']);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /names "aurc", which is not compared here/);
});

test('the gate from the config: compare.gate rules apply with --config, and add to --fail-if', () => {
  const cfgDir = mkdtempSync(join(tmpdir(), 'eval-lens-gate-'));
  const config = join(cfgDir, 'eval-lens.json');
  writeFileSync(config, JSON.stringify({ compare: { gate: ['accuracy<-0.05'] } }));
  const r = cli([a, c, '--metrics', 'accuracy', '--config', config, '--bootstrap-n', '100']);
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, /^gate: accuracy: c − baseline = −0\.0667 .* breaks "accuracy<-0\.05"/m);
  // A malformed rule in the config is refused by the config's schema, naming the key.
  writeFileSync(config, JSON.stringify({ compare: { gate: ['accuracy=0'] } }));
  const bad = cli([a, c, '--metrics', 'accuracy', '--config', config]);
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stderr, /gate/);
});
