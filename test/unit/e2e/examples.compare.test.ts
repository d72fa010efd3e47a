// The bundled examples, compared as a user would: in every folder with two runs or more, every
// compared metric gets Δ, a paired-bootstrap interval and a p-value (with the test that produced
// it), and the selective-classification example prints AURC's improvement with its interval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { compareFiles } from '../../../src/core/compare/files';
import { UNRANKED_KEYS } from '../../../src/core/compare/marks';

const FOLDERS: [string, string[]][] = [
  ['examples/digits-lt', ['logreg.csv', 'knn.csv', 'svc_rbf.csv']],
  ['examples/cifar100-lt-like', ['logreg.csv', 'logreg_balanced.csv']],
  ['examples/iw-breast-cancer', ['logreg.csv', 'gaussian_nb.csv']],
  ['examples/ranking-debian-deps', ['popularity.jsonl', 'cooccurrence.jsonl']],
];

for (const [dir, runs] of FOLDERS) {
  test(`${dir}: every compared metric has Δ, an interval and a p`, async () => {
    const c = await compareFiles(
      runs.map((r) => `${dir}/${r}`),
      { bootstrap: { n: 200, confidence: 0.95, seed: 0 } },
    );
    assert.ok(c.settings.paired, 'the paired bootstrap ran');
    const counted = c.metrics.filter((m) => !UNRANKED_KEYS.has(m));
    assert.ok(counted.length >= 6, `${counted.length} metrics`);
    for (const run of c.runs.filter((r) => r !== c.baseline)) {
      for (const m of counted) {
        const t = c.tests.find((x) => x.run === run && x.metric === m);
        assert.ok(t, `${run} ${m}: a test`);
        assert.ok(t.ci_diff && t.ci_diff[0] <= t.ci_diff[1], `${run} ${m}: an interval`);
        assert.ok(typeof t.p === 'number' && t.p > 0 && t.p <= 1 && t.p_test, `${run} ${m}: a p and its test`);
        assert.equal(typeof t.delta, 'number', `${run} ${m}: Δ`);
      }
    }
    assert.equal(c.untested, undefined);
    // A spread over users (ndcg_std@K, diversity_std@K) is shown, but it has no per-user values and
    // no better direction: no test, no paired interval, no mark.
    const spreads = c.metrics.filter((m) => /_std@\d+$/.test(m));
    if (dir.includes('ranking')) assert.ok(spreads.includes('ndcg_std@10'), c.metrics.join(' '));
    for (const m of spreads) {
      assert.ok(UNRANKED_KEYS.has(m), m);
      assert.equal(
        c.tests.find((t) => t.metric === m),
        undefined,
        `${m}: no test`,
      );
      assert.equal(c.marks[m], undefined, `${m}: no mark`);
    }
  });
}

test('the selective example prints the AURC improvement with its interval (the headline of such a paper)', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(process.cwd(), 'src/cli/main.ts'),
      'compare',
      'logreg.csv',
      'logreg_balanced.csv',
      '--metrics',
      'aurc',
      '--bootstrap-n',
      '200',
    ],
    { cwd: 'examples/cifar100-lt-like', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  assert.equal(r.status, 0, r.stderr);
  // AURC 0.2757 → 0.2191: better by (0.2757 − 0.2191)/0.2757 ≈ +20.5%, with its interval and the bootstrap's p.
  assert.match(
    r.stdout,
    /^aurc ↓\s+0\.2757\s+0\.2191 \[1\]\s+−0\.0566 \[−\d\.\d{4}, −\d\.\d{4}\]\s+\+20\.5% \[\+\d+\.\d%, \+\d+\.\d%\]\s+[\d.e-]+ b\s+[\d.e-]+$/m,
  );
});
