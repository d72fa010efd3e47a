/**
 * A per-row `group` column and the class-frequency groups of `groups` side by side: the row query
 * keeps `group` for the file's column (as written) and names the class-frequency group
 * `class_group`; the slice candidates offer the group column; `subgroupColumn` gives the
 * worst-group error over the column's values (Sagawa et al., ICLR 2020), hand-computed here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { openInspection, parseWhere, type ClassificationRowView } from '../../../../src/core/inspect/index';
import { renderRows } from '../../../../src/cli/rows';
import { validateResults } from '../../../../src/core/results/validate';
import { buildReportModel } from '../../../../src/shared/report';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-group-column-'));

// Classes a, b (head: train ranks 1–2) and c (tail). Predictions are the argmax; wrong rows: 2, 4,
// 5, 6, 8 (by id). By group: north 1 3 4 8 → 2 wrong of 4; south 2 5 9 → 2 of 3; east 6 7 → 1 of 2.
const CSV = [
  'id,label,prob_a,prob_b,prob_c,group',
  '1,a,0.8,0.1,0.1,north',
  '2,a,0.3,0.6,0.1,south',
  '3,b,0.1,0.8,0.1,north',
  '4,c,0.5,0.2,0.3,north',
  '5,c,0.1,0.8,0.1,south',
  '6,b,0.2,0.3,0.5,east',
  '7,a,0.7,0.2,0.1,east',
  '8,c,0.2,0.5,0.3,north',
  '9,a,0.6,0.3,0.1,south',
].join('\n');
const path = join(dir, 'preds.csv');
writeFileSync(path, CSV + '\n');
const LONG_TAIL = { trainCounts: { a: 100, b: 50, c: 5 }, groups: [2], bootstrap: { n: 0 } };
const configPath = join(dir, 'eval-lens.json');
writeFileSync(configPath, JSON.stringify(LONG_TAIL));

const ids = (rows: unknown[]): string[] => rows.map((r) => (r as ClassificationRowView).id!);

test('with `groups` configured, `group` is still the file’s column and `class_group` the class-frequency group', async () => {
  const ins = await openInspection(path, { configPath });
  const where = (expr: string): string[] => ids(ins.query({ where: parseWhere(expr), offset: 0, limit: 100 }).rows);
  assert.deepEqual(where('group=north'), ['1', '3', '4', '8']);
  assert.deepEqual(where('group=south'), ['2', '5', '9']);
  assert.deepEqual(where('class_group=tail'), ['4', '5', '8']);
  assert.deepEqual(where('class_group=head and group=south'), ['2', '9']);
  assert.deepEqual(where('group=north and class_group=tail and correct=false'), ['4', '8']);
  assert.ok(ins.filterKeys.includes('group') && ins.filterKeys.includes('class_group'));
  const rows = ins.query({ where: [], offset: 0, limit: 100 }).rows as ClassificationRowView[];
  assert.deepEqual(
    rows.map((r) => [r.group, r.classGroup]),
    [
      ['north', 'head'],
      ['south', 'head'],
      ['north', 'head'],
      ['north', 'tail'],
      ['south', 'tail'],
      ['east', 'head'],
      ['east', 'head'],
      ['north', 'tail'],
      ['south', 'head'],
    ],
  );
  // the CLI's table names both columns apart
  const csv = renderRows(ins.query({ where: parseWhere('id=4'), offset: 0, limit: 10 }), 'csv').split('\n');
  const head = csv[0]!.split(',');
  const cells = csv[1]!.split(',');
  assert.equal(cells[head.indexOf('group')], 'north');
  assert.equal(cells[head.indexOf('class_group')], 'tail');
  // the Slices picker offers the group column, with its three values
  assert.deepEqual(
    ins.sliceCandidates.find((c) => c.column === 'group'),
    { column: 'group', distinct: 3 },
  );
});

test('without `groups`, the file’s group column is `group` and there is no `class_group`', async () => {
  const bare = join(dir, 'bare.json');
  writeFileSync(bare, JSON.stringify({ bootstrap: { n: 0 } }));
  const ins = await openInspection(path, { configPath: bare });
  assert.deepEqual(ids(ins.query({ where: parseWhere('group=east'), offset: 0, limit: 100 }).rows), ['6', '7']);
  assert.ok(!ins.filterKeys.includes('class_group'));
  assert.deepEqual(
    ins.sliceCandidates.map((c) => c.column),
    ['group'],
  );
});

test('slicing by the group column with `groups` configured keeps the column’s values', async () => {
  const r = await evaluateFile(path, { configPath, overrides: { slices: ['group'], minSliceSize: 1 } });
  const slices = r.tables.slices!;
  const byValue = Object.fromEntries(slices.map((s) => [s.value, s.n]));
  assert.deepEqual(byValue, { north: 4, south: 3, east: 2 });
  // each slice's filter selects its own rows in the row query
  const ins = await openInspection(path, { configPath });
  for (const s of slices)
    assert.equal(ins.query({ where: s.where as never, offset: 0, limit: 100 }).total, s.n, s.value);
});

test('subgroupColumn: worst-group error over the column’s values, hand-computed, beside the class-group keys', async () => {
  const cfg = join(dir, 'subgroups.json');
  writeFileSync(cfg, JSON.stringify({ ...LONG_TAIL, subgroupColumn: 'group', acceptThreshold: 0 }));
  const r = await evaluateFile(path, { configPath: cfg });
  assert.deepEqual(validateResults(r), []);
  const m = r.metrics;
  assert.equal(m['error_subgroup.north']!.value, 2 / 4);
  assert.equal(m['error_subgroup.south']!.value, 2 / 3);
  assert.equal(m['error_subgroup.east']!.value, 1 / 2);
  assert.equal(m.worst_subgroup_error!.value, 2 / 3);
  assert.equal(m.worst_subgroup_error!.direction, 'lower');
  assert.match(m.worst_subgroup_error!.note!, /worst: south/);
  // the class-frequency keys are unchanged: every row accepted, tail = ids 4 5 8 (3 wrong of 3),
  // head = 1 2 3 6 7 9 (2 wrong of 6)
  assert.equal(m['error_group.tail']!.value, 1);
  assert.equal(m['error_group.head']!.value, 2 / 6);
  assert.equal(m.worst_error!.value, 1);
  assert.ok(r.families.classification!.includes('worst_subgroup_error'));
  // the report labels each worst-group error with its grouping, and each tab points to the other
  const report = buildReportModel(r);
  const tab = (id: string) => report.tabs.find((t) => t.id === id)!;
  const cards = (id: string) => tab(id).cards.map((c) => [c.key, c.name]);
  assert.deepEqual(
    cards('classification').find(([k]) => k === 'worst_subgroup_error'),
    ['worst_subgroup_error', 'Worst-group error (per-row attribute)'],
  );
  assert.deepEqual(
    cards('selective').find(([k]) => k === 'worst_error'),
    ['worst_error', 'Worst class-group selective error'],
  );
  assert.ok(tab('classification').notes.some((n) => n.includes('per-row column “group”') && n.includes('worst_error')));
  assert.ok(
    tab('selective').notes.some((n) => n.includes('class-frequency groups') && n.includes('worst_subgroup_error')),
  );
});

test('subgroupColumn: rows weighted by the weight column; any column may be named', async () => {
  const weighted = join(dir, 'weighted.csv');
  const w = [1, 2, 1, 3, 1, 2, 1, 1, 4];
  writeFileSync(
    weighted,
    CSV.split('\n')
      .map((line, i) => (i === 0 ? line.replace('group', 'region') + ',weight' : `${line},${w[i - 1]}`))
      .join('\n') + '\n',
  );
  const cfg = join(dir, 'weighted.json');
  writeFileSync(cfg, JSON.stringify({ subgroupColumn: 'region', bootstrap: { n: 0 } }));
  const m = (await evaluateFile(weighted, { configPath: cfg })).metrics;
  // north ids 1 3 4 8, weights 1 1 3 1, wrong 4 8 → 4/6; south 2 5 9, weights 2 1 4, wrong 2 5 → 3/7;
  // east 6 7, weights 2 1, wrong 6 → 2/3
  assert.ok(Math.abs(m['error_subgroup.north']!.value! - 4 / 6) < 1e-15);
  assert.ok(Math.abs(m['error_subgroup.south']!.value! - 3 / 7) < 1e-15);
  assert.ok(Math.abs(m['error_subgroup.east']!.value! - 2 / 3) < 1e-15);
  assert.ok(Math.abs(m.worst_subgroup_error!.value! - 2 / 3) < 1e-15);
});

test('subgroupColumn with a bootstrap: the other metrics get intervals, the subgroup keys none and no warning about it', async () => {
  const cfg = join(dir, 'subgroups-boot.json');
  writeFileSync(cfg, JSON.stringify({ ...LONG_TAIL, subgroupColumn: 'group', bootstrap: { n: 50, seed: 1 } }));
  const r = await evaluateFile(path, { configPath: cfg });
  assert.ok(r.metrics.accuracy!.ci);
  assert.equal(r.metrics.worst_subgroup_error!.value, 2 / 3);
  assert.equal(r.metrics.worst_subgroup_error!.ci, undefined);
  assert.equal(r.metrics['error_subgroup.north']!.ci, undefined);
  assert.ok(!JSON.stringify(r.warnings).includes('subgroup'), JSON.stringify(r.warnings));
});

test('subgroupColumn naming a column the file does not have is an error naming the columns found', async () => {
  const cfg = join(dir, 'missing.json');
  writeFileSync(cfg, JSON.stringify({ subgroupColumn: 'regoin', bootstrap: { n: 0 } }));
  await assert.rejects(evaluateFile(path, { configPath: cfg }), /no column "?regoin"?.*subgroupColumn.*group/s);
});
