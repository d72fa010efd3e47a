/**
 * Subset evaluation: evaluating the rows of a filter equals evaluating a file that holds only
 * those rows (every metric value and every bootstrap interval), and the results record the filter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { parseWhere } from '../../../../src/core/inspect/index';
import { validateResults } from '../../../../src/core/results/validate';
import { derive, HEADER, TRAIN, GROUPS, writeRandomFile, type RefRow } from '../../helpers/randomFile';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-subset-'));

/** Filter, the same filter as the results write it, the rows it keeps. */
const CASES: [string, string, (r: RefRow) => boolean][] = [
  ['age>=40', 'age >= 40', (r) => Number(r.age) >= 40],
  ['shot=few and split=test', 'shot = few and split = test', (r) => derive(r).shot === 'few' && r.split === 'test'],
  [
    'city!=Oslo and confidence>0.3',
    'city != Oslo and confidence > 0.3',
    (r) => r.city !== 'Oslo' && derive(r).confidence > 0.3,
  ],
];

test('a subset evaluates as a file holding only its rows (values and intervals equal)', async () => {
  const { path, rows } = writeRandomFile(dir, 11, 600);
  const config = join(dir, 'subset.json');
  writeFileSync(
    config,
    JSON.stringify({ trainCounts: TRAIN, groups: GROUPS, acceptThreshold: 0.5, bootstrap: { n: 200, seed: 3 } }),
  );
  for (const [expr, written, keep] of CASES) {
    const only = join(dir, `only-${CASES.findIndex((c) => c[0] === expr)}.csv`);
    const kept = rows.filter(keep);
    assert.ok(kept.length > 30 && kept.length < rows.length, `${expr}: ${kept.length} rows`);
    writeFileSync(only, [HEADER, ...kept.map((r) => r.text)].join('\n') + '\n');
    const a = await evaluateFile(path, { configPath: config, subset: parseWhere(expr) });
    const b = await evaluateFile(only, { configPath: config });
    assert.deepEqual(validateResults(a), [], expr);
    assert.deepEqual(a.source.filter, { where: parseWhere(expr), expression: written });
    // the file has a split column: the metrics cover the test rows among the matching rows
    assert.equal(a.source.rowsUsed, kept.filter((r) => r.split === 'test').length);
    assert.deepEqual(Object.keys(a.metrics), Object.keys(b.metrics), expr);
    for (const key of Object.keys(b.metrics)) {
      assert.equal(a.metrics[key].value, b.metrics[key].value, `${expr}: ${key}`);
      assert.deepEqual(a.metrics[key].ci, b.metrics[key].ci, `${expr}: ci of ${key}`);
    }
    assert.deepEqual(a.tables.confusion, b.tables.confusion, expr);
    assert.deepEqual(a.curves.riskCoverage, b.curves.riskCoverage, expr);
  }
});

test('a filter that matches no row is an error naming the filter', async () => {
  const { path } = writeRandomFile(dir, 12, 50);
  await assert.rejects(
    evaluateFile(path, { configPath: join(dir, 'random-12.json'), subset: parseWhere('age>1000') }),
    /no row matches the filter age > 1000/,
  );
});
