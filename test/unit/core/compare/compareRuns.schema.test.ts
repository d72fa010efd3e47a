// Comparison and inspection outputs validate against schemas/eval-lens.compare.schema.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { compareRuns } from '../../../../src/core/compare/compareRuns';
import { readRunsTable } from '../../../../src/core/compare/runsTable';
import { classificationRun } from '../../../fixtures/compare/makeResults';

const schema = JSON.parse(readFileSync('schemas/eval-lens.compare.schema.json', 'utf8'));
const validate = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true }).compile(schema);

function check(obj: unknown): void {
  const ok = validate(JSON.parse(JSON.stringify(obj)));
  assert.ok(ok, JSON.stringify(validate.errors, null, 1));
}

test('a comparison with Holm, bootstrap and a degenerate test validates', async () => {
  const ids = ['1', '2', '3', '4', '5', '6'];
  const labels = ['a', 'b', 'a', 'b', 'a', 'b'];
  const runs = [
    classificationRun('base.csv', ids, labels, [1, 0, 1, 0, 1, 0]),
    classificationRun('x.csv', ids, labels, [1, 1, 1, 0, 1, 1]),
    classificationRun('y.csv', ids, labels, [1, 0, 1, 0, 1, 0]),
  ];
  const r = await compareRuns(runs, { bootstrap: { n: 100, confidence: 0.95, seed: 1 } });
  assert.equal(r.tests.length, 2);
  assert.ok(r.tests.every((t) => 'p_holm' in t && 'ci_diff' in t));
  check(r);
  // The documented comparison fields (docs/comparisons.md), exactly.
  assert.deepEqual(
    Object.keys(r.tests[0]).sort(),
    [
      'baseline',
      'ci_diff',
      'd_pooled',
      'd_z',
      'effect',
      'improvement',
      'mcnemar_b',
      'mcnemar_c',
      'mean',
      'mean_baseline',
      'metric',
      'n',
      'p',
      'p_adjusted',
      'p_holm',
      'p_mcnemar',
      'p_test',
      'p_t',
      'p_t_one_sided',
      'p_wilcoxon',
      'run',
      't',
      'wilcoxon',
    ].sort(),
  );
});

test('an inspected table validates', async () => {
  check(await readRunsTable('test/fixtures/compare/cf_eval_summary.csv'));
  check(await readRunsTable('test/fixtures/compare/fang2023_table4_rho0.1.csv'));
});

test('the schema rejects a test entry without its p-value', async () => {
  const ids = ['1', '2', '3'];
  const r = await compareRuns([
    classificationRun('a.csv', ids, ids, [1, 0, 1]),
    classificationRun('b.csv', ids, ids, [1, 1, 0]),
  ]);
  const bad = JSON.parse(JSON.stringify(r));
  delete bad.tests[0].p_t;
  assert.equal(validate(bad), false);
});

test('a comparison of evaluated runs with intervals, untested metrics and curves validates; the reader checks it', async () => {
  const { compareFiles } = await import('../../../../src/core/compare/files');
  const { validateCompare } = await import('../../../../src/core/compare/validate');
  const r = await compareFiles(['examples/digits-lt/logreg.csv', 'examples/digits-lt/knn.csv'], {
    overrides: { bootstrap: { n: 20 } },
  });
  // Both prediction files re-read: every compared metric has its paired test, none is untested.
  assert.ok(r.intervals && r.curves && r.settings.paired);
  assert.equal(r.untested, undefined);
  for (const m of r.metrics)
    assert.ok(
      r.tests.some((t) => t.metric === m && t.ci_diff && t.p_adjusted !== undefined),
      m,
    );
  assert.deepEqual(Object.keys(r.curves).sort(), ['reliability', 'riskCoverage', 'shift']);
  for (const byRun of Object.values(r.curves))
    for (const c of Object.values(byRun)) assert.ok(c.xs.length <= 400 && c.xs.length === c.ys.length);
  check(r);
  assert.deepEqual(validateCompare(JSON.parse(JSON.stringify(r))), []);
  const bad = JSON.parse(JSON.stringify(r));
  bad.curves.riskCoverage[r.runs[0]!].xs = 'many';
  bad.names = ['only one'];
  assert.deepEqual(validateCompare(bad), [
    'compare.curves.riskCoverage.examples/digits-lt/logreg.csv.xs: expected an array, got "many"',
  ]);
  bad.curves = r.curves;
  assert.deepEqual(validateCompare(bad), ['compare.names: has 1 names for 2 runs']);
});
