/**
 * Several operating points (`targetCoverage` as a list, docs/metrics/selective.md): one row of
 * `tables.operatingPoints` per coverage with its threshold (chosen on the validation rows with a
 * split), coverage, selective risk, balanced, worst-group and per-group error, each with a bootstrap
 * interval; the operating-point keys keep the first coverage, and a single number writes no table.
 * Hand-computed examples and numpy golden values (scripts/golden/operating_points.py).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { validateResults } from '../../../../src/core/results/validate';
import { formatOperatingPointsTable, operatingPointsMarkdown } from '../../../../src/core/results/operatingPointsText';
import type { OperatingPointRow, Results } from '../../../../src/core/results/types';
import { buildReportModel } from '../../../../src/shared/report/index';
import { renderReportFile } from '../../../../src/cli/report';
import { closeAbs } from '../../helpers/numericClose';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-opoints-'));
const close = (a: number | null | undefined, b: number, what = ''): void => closeAbs(a ?? null, b, 1e-12, what);
const rowsOf = (r: Results): OperatingPointRow[] => r.tables.operatingPoints!;

function write(name: string, lines: string[], config: object): { path: string; configPath: string } {
  const path = join(dir, `${name}.csv`);
  const configPath = join(dir, `${name}.json`);
  writeFileSync(path, lines.join('\n') + '\n');
  writeFileSync(configPath, JSON.stringify({ bootstrap: { n: 0 }, ...config }));
  return { path, configPath };
}

// Two classes, class 0 in group head and class 1 in tail (train counts 10 and 2, boundary [1]):
//   .9 ok head, .8 ok tail, .7 wrong head, .6 wrong tail, .5 ok head, .4 ok tail
// c = 0.5: the shortest prefix reaching 3/6 → t = .7; accepted .9 .8 .7 → coverage 3/6,
//          risk 1/3, head 1/2, tail 0/1, balanced (1/2 + 0)/2 = 1/4, worst 1/2
// c = 1:   t = .4, every row → coverage 1, risk 2/6, head 1/3, tail 1/3, balanced 1/3, worst 1/3
const TINY = ['label,pred,confidence', '0,0,0.9', '1,1,0.8', '0,1,0.7', '1,0,0.6', '0,0,0.5', '1,1,0.4'];
const GROUPS = { trainCounts: [10, 2], groups: [1], groupNames: ['head', 'tail'] };

test('targetCoverage [0.5, 1]: one row per coverage, hand-computed; the keys use the first coverage', async () => {
  const f = write('tiny', TINY, { ...GROUPS, targetCoverage: [0.5, 1] });
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  assert.deepEqual(validateResults(r), []);
  const [a, b] = rowsOf(r);
  assert.equal(rowsOf(r).length, 2);
  assert.equal(a!.targetCoverage, 0.5);
  assert.equal(a!.thresholdOn, 'evaluated');
  close(a!.threshold, 0.7);
  close(a!.coverage, 3 / 6);
  close(a!.selective_risk, 1 / 3);
  close(a!.error_group!.head, 1 / 2);
  close(a!.error_group!.tail, 0);
  close(a!.balanced_error, (1 / 2 + 0) / 2);
  close(a!.worst_error, 1 / 2);
  assert.equal(b!.targetCoverage, 1);
  close(b!.threshold, 0.4);
  close(b!.coverage, 1);
  close(b!.selective_risk, 2 / 6);
  close(b!.error_group!.head, 1 / 3);
  close(b!.error_group!.tail, 1 / 3);
  close(b!.balanced_error, 1 / 3);
  close(b!.worst_error, 1 / 3);
  // the operating-point keys are those of the first coverage
  close(r.metrics.coverage!.value, 3 / 6);
  close(r.metrics.selective_risk!.value, 1 / 3);
  close(r.metrics.balanced_error!.value, 1 / 4);
  assert.deepEqual(a!.ci, {}, 'no bootstrap, no interval');
});

test('with a split each threshold is chosen on the validation rows and measured on the test rows', async () => {
  // val (rows in any order) .62 ok, .93 ok, .71 ok, .84 wrong → sorted .93 .84 .71 .62:
  //   c = 0.5: t = .84 (2 of 4 rows); c = 0.75: t = .71 (3 of 4)
  // test .96 ok, .88 wrong, .72 ok, .64 wrong → t = .84: .96 .88 (coverage 2/4, risk 1/2);
  //                                             t = .71: .96 .88 .72 (coverage 3/4, risk 1/3)
  const f = write(
    'split',
    'label,pred,confidence,split|1,1,0.62,val|0,0,0.93,val|1,1,0.71,val|0,1,0.84,val|1,1,0.96,test|0,1,0.88,test|0,0,0.72,test|1,0,0.64,test'.split(
      '|',
    ),
    { targetCoverage: [0.5, 0.75] },
  );
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  assert.deepEqual(validateResults(r), []);
  const [a, b] = rowsOf(r);
  assert.equal(a!.thresholdOn, 'validation');
  close(a!.threshold, 0.84);
  close(a!.coverage, 2 / 4);
  close(a!.selective_risk, 1 / 2);
  close(b!.threshold, 0.71);
  close(b!.coverage, 3 / 4);
  close(b!.selective_risk, 1 / 3);
  assert.equal(a!.error_group, undefined, 'no groups, no group columns');
});

test('digits-lt logreg at 0.6 / 0.7 / 0.8 / 0.9: numpy golden values (val thresholds, test rows)', async () => {
  const golden = JSON.parse(readFileSync(join(__dirname, '../../../golden/operating_points.json'), 'utf8')) as {
    operatingPoints: (Omit<OperatingPointRow, 'ci' | 'thresholdOn'> & { error_group: Record<string, number> })[];
  };
  const ex = join(__dirname, '../../../../examples/digits-lt');
  const r = await evaluateFile(join(ex, 'logreg.csv'), {
    configPath: join(ex, 'eval-lens.json'),
    overrides: { targetCoverage: [0.6, 0.7, 0.8, 0.9], bootstrap: { n: 0 } },
  });
  assert.deepEqual(validateResults(r), []);
  const rows = rowsOf(r);
  assert.equal(rows.length, golden.operatingPoints.length);
  golden.operatingPoints.forEach((g, i) => {
    const row = rows[i]!;
    const at = `targetCoverage ${g.targetCoverage}`;
    assert.equal(row.targetCoverage, g.targetCoverage);
    assert.equal(row.thresholdOn, 'validation');
    close(row.threshold, g.threshold!, `${at} threshold`);
    close(row.coverage, g.coverage!, `${at} coverage`);
    close(row.selective_risk, g.selective_risk!, `${at} selective_risk`);
    close(row.balanced_error, g.balanced_error!, `${at} balanced_error`);
    close(row.worst_error, g.worst_error!, `${at} worst_error`);
    for (const [name, e] of Object.entries(g.error_group)) close(row.error_group![name], e, `${at} ${name}`);
  });
});

/** The headline keys and intervals of a run with one number, and the table of a list. */
async function single(path: string, configPath: string, c: number, extra: object = {}): Promise<Results> {
  return evaluateFile(path, { configPath, overrides: { targetCoverage: c, bootstrap: { n: 300, seed: 3 }, ...extra } });
}

for (const withSplit of [true, false]) {
  test(`each row's values and intervals are those of a run with that coverage alone (${withSplit ? 'split' : 'no split'})`, async () => {
    const ex = join(__dirname, '../../../../examples/digits-lt');
    const configPath = join(ex, 'eval-lens.json');
    let path = join(ex, 'logreg.csv');
    if (!withSplit) {
      // without the split column: every row measured, the threshold re-chosen on every resample
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      const at = lines[0]!.split(',').indexOf('split');
      path = join(dir, 'logreg-nosplit.csv');
      writeFileSync(
        path,
        lines
          .map((l) =>
            l
              .split(',')
              .filter((_, j) => j !== at)
              .join(','),
          )
          .join('\n') + '\n',
      );
    }
    const extra = {};
    const list = await evaluateFile(path, {
      configPath,
      overrides: { targetCoverage: [0.8, 0.6], bootstrap: { n: 300, seed: 3 }, ...extra },
    });
    const rows = rowsOf(list);
    const alone = [await single(path, configPath, 0.8, extra), await single(path, configPath, 0.6, extra)];
    alone.forEach((one, i) => {
      assert.equal(one.tables.operatingPoints, undefined, 'a single number writes no operating-point table');
      const row = rows[i]!;
      for (const key of ['coverage', 'selective_risk', 'balanced_error', 'worst_error', 'error_group.tail']) {
        const m = one.metrics[key]!;
        const v = key.startsWith('error_group.') ? row.error_group!.tail : (row[key as 'coverage'] as number);
        close(v, m.value!, `${key} at ${row.targetCoverage}`);
        assert.ok(m.ci, `${key} has an interval`);
        close(row.ci[key]![0], m.ci![0], `${key} lower at ${row.targetCoverage}`);
        close(row.ci[key]![1], m.ci![1], `${key} upper at ${row.targetCoverage}`);
      }
      assert.equal(row.ci.threshold === undefined, withSplit, 'a threshold chosen on validation rows is fixed');
    });
    // the keys of the list's run are those of its first coverage, intervals included
    for (const key of ['coverage', 'selective_risk', 'aurc', 'ece', 'accuracy'])
      assert.deepEqual(list.metrics[key], alone[0]!.metrics[key], key);
    const text = formatOperatingPointsTable(list);
    assert.match(text, /Operating points \(one per targetCoverage/);
    assert.match(
      text,
      new RegExp(`0\\.8\\s+${rows[0]!.threshold!.toFixed(4)}( \\[[^\\]]*\\])?\\s+${rows[0]!.coverage!.toFixed(4)} \\[`),
    );
    assert.match(operatingPointsMarkdown(list), /\| target coverage \| threshold \| coverage \|/);
    // the report (HTML export and panel): one table row per coverage, each value then its interval
    const t = buildReportModel(list)
      .tabs.flatMap((tab) => tab.tables)
      .filter((x) => x.id === 'operatingPoints');
    assert.equal(t.length, 1, 'one operating-point table, not also a generic one');
    assert.deepEqual(t[0]!.columns.slice(0, 3), [
      'target coverage',
      'threshold',
      withSplit ? 'coverage' : 'threshold interval',
    ]);
    assert.deepEqual(
      t[0]!.rows.map((r) => r[0]),
      [0.8, 0.6],
    );
    const cov = t[0]!.columns.indexOf('coverage');
    assert.equal(t[0]!.rows[1]![cov], rows[1]!.coverage);
    assert.ok(String(t[0]!.rows[1]![cov + 1]).includes(rows[1]!.ci.coverage![0].toFixed(4)));
  });
}

test('a targetCoverage list with a value outside (0, 1] is refused', async () => {
  const f = write('bad', TINY, { targetCoverage: [0.5, 1.5] });
  await assert.rejects(evaluateFile(f.path, { configPath: f.configPath }), /targetCoverage/);
});

test('report --format csv --table operating_points: one row per coverage, hand-computed, names CSV-escaped', async () => {
  // the tail group named with a comma and a quote: its header cells must be quoted, quotes doubled
  const f = write('tiny-csv', TINY, { ...GROUPS, groupNames: ['head', 'tail, "rare"'], targetCoverage: [0.5, 1] });
  const resultsPath = join(dir, 'tiny-csv.eval.json');
  writeFileSync(resultsPath, JSON.stringify(await evaluateFile(f.path, { configPath: f.configPath })));
  const csv = await renderReportFile(resultsPath, 'tiny-csv.eval.json', 'csv', { table: 'operating_points' });
  const lines = csv.trimEnd().split('\n');
  const fields = ['threshold', 'coverage', 'selective_risk', 'balanced_error', 'worst_error', 'error_group.head'];
  const tail = '"error_group.tail, ""rare"""';
  assert.equal(
    lines[0],
    ['target_coverage', 'threshold_on', ...fields.flatMap((x) => [x, `${x}_lo`, `${x}_hi`])].join(',') +
      `,${tail},"error_group.tail, ""rare""_lo","error_group.tail, ""rare""_hi"`,
  );
  assert.equal(lines.length, 3);
  // bootstrap n = 0: no interval, empty cells; values as hand-computed above the first test
  const expect = (target: number, values: number[]): string =>
    [String(target), 'evaluated', ...values.flatMap((v) => [String(v), '', ''])].join(',');
  assert.equal(lines[1], expect(0.5, [0.7, 3 / 6, 1 / 3, (1 / 2 + 0) / 2, 1 / 2, 1 / 2, 0]));
  assert.equal(lines[2], expect(1, [0.4, 1, 2 / 6, 1 / 3, 1 / 3, 1 / 3, 1 / 3]));
  // a single targetCoverage writes no table: a clear error naming the file
  const g = write('tiny-single', TINY, { ...GROUPS, targetCoverage: 0.5 });
  const single = join(dir, 'tiny-single.eval.json');
  writeFileSync(single, JSON.stringify(await evaluateFile(g.path, { configPath: g.configPath })));
  await assert.rejects(
    renderReportFile(single, 'tiny-single.eval.json', 'csv', { table: 'operating_points' }),
    /tiny-single\.eval\.json: no tables\.operatingPoints .*single number/,
  );
});
