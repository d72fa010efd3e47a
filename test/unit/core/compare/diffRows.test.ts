// `eval-lens diff`: the cells, the flipped rows and the rows whose loss changed equal a pandas
// computation on the bundled digits-lt runs (scripts/golden/diff_rows.py); filters, ranking users,
// and mismatched runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffRuns } from '../../../../src/core/compare/diffRows';
import { parseWhere } from '../../../../src/core/rows/where';
import { mcnemarExact } from '../../../../src/core/stats/tests';

const golden = JSON.parse(readFileSync('test/golden/diff_rows.json', 'utf8')) as Record<
  string,
  {
    cells: { bothRight: number; lost: number; gained: number; bothWrong: number };
    flipped: string[];
    delta_accuracy: number;
    nll_changed: string[];
    nll_change: number[];
    nll_changed_count: number;
    delta_nll: number;
  }
>;
const D = 'examples/digits-lt';

for (const other of ['knn.csv', 'svc_rbf.csv']) {
  test(`logreg → ${other}: the four cells, McNemar and the flipped rows (worst for B first) = pandas`, async () => {
    const g = golden[other]!;
    const d = await diffRuns(`${D}/logreg.csv`, `${D}/${other}`, { limit: 1000, overrides: { metricsOn: 'all' } });
    assert.deepEqual(d.cells, g.cells);
    assert.deepEqual(d.mcnemar, mcnemarExact(g.cells.lost, g.cells.gained));
    assert.deepEqual(
      d.rows.map((r) => r.id),
      g.flipped,
    );
    assert.equal(d.changed, g.flipped.length);
    assert.ok(Math.abs(d.delta! - g.delta_accuracy) < 1e-15);
    // Each flipped row: its share of Δ is ±1/n, and the lines point at the same id in both files.
    for (const r of d.rows) {
      assert.equal(r.contribution, r.change! / 300);
      const lineOf = (file: string): string =>
        readFileSync(`${D}/${file}`, 'utf8').split('\n')[r.lineA - 1]!.split(',')[0]!;
      assert.equal(lineOf('logreg.csv'), r.id);
    }
  });

  test(`logreg → ${other}: --metric nll, the rows whose loss grew most first = pandas`, async () => {
    const g = golden[other]!;
    const d = await diffRuns(`${D}/logreg.csv`, `${D}/${other}`, {
      metric: 'nll',
      limit: 20,
      overrides: { metricsOn: 'all' },
    });
    assert.equal(d.changed, g.nll_changed_count);
    assert.deepEqual(
      d.rows.map((r) => r.id),
      g.nll_changed,
    );
    d.rows.forEach((r, k) => assert.ok(Math.abs(r.change! - g.nll_change[k]!) < 1e-12, `${r.id}`));
    assert.ok(Math.abs(d.delta! - g.delta_nll) < 1e-12);
    assert.equal(d.cells!.lost, g.cells.lost); // the cells are the rows' correctness whatever the metric
  });
}

test('--where filters on A’s rows: the cells and the flipped rows of that subset only', async () => {
  const all = await diffRuns(`${D}/logreg.csv`, `${D}/knn.csv`, { limit: 1000, overrides: { metricsOn: 'all' } });
  const nine = await diffRuns(`${D}/logreg.csv`, `${D}/knn.csv`, {
    limit: 1000,
    where: parseWhere('label=9'),
    overrides: { metricsOn: 'all' },
  });
  const labels = new Map(
    readFileSync(`${D}/logreg.csv`, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => [l.split(',')[0]!, l.split(',')[1]!] as const),
  );
  assert.equal(nine.n, [...labels.values()].filter((y) => y === '9').length);
  assert.deepEqual(
    nine.rows.map((r) => r.id),
    all.rows.filter((r) => labels.get(r.id!) === '9').map((r) => r.id),
  );
});

test('ranking users: per-user ndcg@10 changes, worst for B first; mismatched runs are refused', async () => {
  const R = 'examples/ranking-debian-deps';
  const d = await diffRuns(`${R}/popularity.jsonl`, `${R}/cooccurrence.jsonl`, { limit: 5 });
  assert.equal(d.metric, 'ndcg@10');
  assert.equal(d.cells, null);
  assert.equal(d.n, 1202);
  for (let k = 1; k < d.rows.length; k++) assert.ok(d.rows[k - 1]!.change! <= d.rows[k]!.change!);
  const dir = mkdtempSync(join(tmpdir(), 'diff-'));
  const short = join(dir, 'short.csv');
  writeFileSync(short, readFileSync(`${D}/knn.csv`, 'utf8').split('\n').slice(0, 100).join('\n') + '\n');
  await assert.rejects(diffRuns(`${D}/logreg.csv`, short), /expected every id of .*logreg\.csv here/);
  await assert.rejects(
    diffRuns(`${D}/logreg.csv`, `${D}/knn.csv`, { metric: 'aurc' }),
    /expected a per-row metric of this run \(accuracy, nll\), but got "aurc"/,
  );
});
