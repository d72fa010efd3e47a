// `eval-lens explain`: one entry, the index, JSON, and unknown keys (exit 2 with suggestions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('explain KEY: name, meaning, formula with the parameter filled in, direction, references with links', () => {
  const r = cli(['explain', 'ndcg@10']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], 'NDCG at 10  (ndcg@10)');
  assert.match(r.stdout, /^Formula: +DCG@10 \/ IDCG@10, DCG = Σ_\{i≤10\} gain\(rel_i\) \/ log2\(i \+ 1\)/m);
  assert.match(r.stdout, /^Better: +higher is better$/m);
  assert.match(r.stdout, /^Family: +Ranking \(key pattern ndcg@<K>\)$/m);
  assert.match(
    r.stdout,
    /K\. Järvelin, J\. Kekäläinen \(2002\)\. Cumulated gain-based evaluation of IR techniques\. ACM Transactions on Information Systems 20\(4\):422–446\. https:\/\/doi\.org\/10\.1145\/582415\.582418/,
  );
});

test('explain without KEY lists every family; --format json gives the entry with reference links', () => {
  const idx = cli(['explain']);
  assert.equal(idx.status, 0);
  for (const f of [
    'Classification',
    'Long tail',
    'Evolving test distributions',
    'Selective classification',
    'Calibration',
    'Importance-weighted binary',
    'Ranking',
    'Comparison tests',
  ])
    assert.ok(idx.stdout.includes(`${f} — `), f);
  assert.match(idx.stdout, /^ {2}aurc_grid101_0\.2_1 +AURC, 101-point grid, coverage 0\.2–1$/m);
  const j = cli(['explain', 'p_holm', '--format', 'json']);
  assert.equal(j.status, 0);
  const e = JSON.parse(j.stdout) as { key: string; name: string; direction: string; references: { link: string }[] };
  assert.equal(e.key, 'p_holm');
  assert.equal(e.direction, 'none');
  assert.deepEqual(
    e.references.map((r) => r.link),
    ['https://www.jstor.org/stable/4615733'],
  );
});

test('an unknown key is a usage error that suggests close keys', () => {
  const r = cli(['explain', 'aurcc']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown metric key "aurcc"\. Did you mean: aurc, eaurc\?/);
  assert.equal(r.stdout, '');
  // two swapped pairs are two edits (the config's "did you mean" distance counts an adjacent
  // transposition as one edit; plain Levenshtein counts four)
  const swapped = cli(['explain', 'uacr']);
  assert.equal(swapped.status, 2);
  assert.match(swapped.stderr, /Did you mean: [^?]*\baurc\b/);
});
