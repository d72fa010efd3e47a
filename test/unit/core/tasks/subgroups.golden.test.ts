/**
 * Worst-group error over a per-row attribute (`subgroupColumn`) against a pandas groupby
 * (scripts/golden/subgroups.py): the digits example with a `group` column and a weight column `w`,
 * evaluated with the class-frequency groups of `groups` configured as well; the row query's
 * `group=<value>` selects as many rows as pandas counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { openInspection, parseWhere } from '../../../../src/core/inspect/index';
import type { EvalConfig } from '../../../../src/core/config/types';

const golden = JSON.parse(readFileSync('test/golden/subgroups.json', 'utf8')) as {
  rows: Record<string, number>;
  error: Record<string, number>;
  worst: number;
  worstGroup: string;
  weightedError: Record<string, number>;
  weightedWorst: number;
};
const FILE = join(process.cwd(), 'test/golden/subgroups.csv');
const DIGITS = JSON.parse(readFileSync('examples/digits-lt/eval-lens.json', 'utf8')) as EvalConfig;
const close = (a: number | null | undefined, b: number, what: string): void =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) <= 1e-12, `${what}: ${a} vs ${b}`);

for (const weighted of [false, true]) {
  test(`error_subgroup and worst_subgroup_error equal pandas' groupby (${weighted ? 'weighted' : 'unweighted'})`, async () => {
    const config: EvalConfig = {
      ...DIGITS,
      bootstrap: { n: 0 },
      // pandas' groupby counts every row of the split file
      metricsOn: 'all',
      subgroupColumn: 'group',
      // `w` is a weight only when named so
      ...(weighted ? { columns: { weight: 'w' } } : {}),
    };
    const r = await evaluateFile(FILE, { overrides: config });
    const want = weighted ? golden.weightedError : golden.error;
    for (const [g, e] of Object.entries(want)) close(r.metrics[`error_subgroup.${g}`]?.value, e, g);
    close(r.metrics.worst_subgroup_error?.value, weighted ? golden.weightedWorst : golden.worst, 'worst');
    // the class-frequency groups are still there under their own keys
    assert.ok('acc_group.head' in r.metrics && 'worst_error' in r.metrics);
  });
}

test('rows --where group=<value> selects the rows pandas counts, with class groups configured', async () => {
  const ins = await openInspection(FILE, { overrides: { ...DIGITS, bootstrap: { n: 0 } } });
  for (const [g, n] of Object.entries(golden.rows))
    assert.equal(ins.query({ where: parseWhere(`group=${g}`), offset: 0, limit: 1 }).total, n, g);
});
