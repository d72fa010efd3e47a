/**
 * The validation/test split (docs/metrics/splits.md): with a `split` column (or `randomSplit`)
 * every family and every slice is computed on the test rows and thresholds on the validation rows;
 * `metricsOn: "all"` gives the whole-file numbers; `splitNames` maps values, an unknown value is an
 * error naming the file, line and the values expected; the importance-weighted task says it does
 * not use the split. Hand-computed examples and scikit-learn golden values (scripts/golden/splits.py).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { validateResults } from '../../../../src/core/results/validate';
import { formatMarkdown, formatTable } from '../../../../src/core/results/format';
import { randomSplitRows } from '../../../../src/core/tasks/split';
import { drillTargets } from '../../../../src/shared/drillTargets';
import { openInspection } from '../../../../src/core/inspect/open';
import { buildReportModel } from '../../../../src/shared/report/index';
import { closeAbs } from '../../helpers/numericClose';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-split-'));
const close = (a: number | null | undefined, b: number, what = ''): void => closeAbs(a ?? null, b, 1e-12, what);

function write(name: string, lines: string[], config: object = {}): { path: string; configPath: string } {
  const path = join(dir, `${name}.csv`);
  const configPath = join(dir, `${name}.json`);
  writeFileSync(path, lines.join('\n') + '\n');
  writeFileSync(configPath, JSON.stringify({ bootstrap: { n: 0 }, ...config }));
  return { path, configPath };
}

// 4 validation rows and 4 test rows, two classes, confidence column:
//   val:  .9 ok, .8 wrong, .7 ok, .6 ok            → targetCoverage 0.5: t = .8 (2 of 4 rows)
//   test: .95 ok, .85 wrong, .75 ok, .65 wrong
// test rows: accuracy = 2/4; accepted (s ≥ .8): .95, .85 → coverage 2/4, selective_risk 1/2
// all rows:  accuracy = 5/8; accepted (s ≥ .8): .9 .8 .95 .85 → coverage 4/8, risk 2/4
const SMALL = [
  'label,pred,confidence,split',
  '0,0,0.9,val',
  '0,1,0.8,val',
  '1,1,0.7,val',
  '1,1,0.6,val',
  '0,0,0.95,test',
  '1,0,0.85,test',
  '1,1,0.75,test',
  '0,1,0.65,test',
];

test('with a split column every family is computed on the test rows; thresholds on the validation rows', async () => {
  const f = write('small', SMALL, { targetCoverage: 0.5 });
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  assert.deepEqual(validateResults(r), []);
  close(r.metrics.accuracy.value, 2 / 4, 'accuracy = correct test rows / test rows');
  close(r.metrics.coverage.value, 2 / 4);
  close(r.metrics.selective_risk.value, 1 / 2);
  // ECE (15 bins) on the test rows: bins (.9, .9333]: .95 ok → |1 − .95|; (.8, .8667]: .85 wrong → |0 − .85|;
  // (.7333, .8]: .75 ok → |1 − .75|; (.6, .6667]: .65 wrong → |0 − .65|; each weight 1/4
  close(r.metrics.ece.value, (0.05 + 0.85 + 0.25 + 0.65) / 4, 'ece on the test rows');
  assert.equal(r.source.rowsUsed, 4);
  assert.deepEqual(r.source.split, {
    by: 'column',
    column: 'split',
    validationRows: 4,
    testRows: 4,
    metricsOn: 'test',
  });
  assert.equal(
    r.tables.confusion!.matrix.flat().reduce((a, b) => a + b, 0),
    4,
    'the confusion matrix counts test rows',
  );
});

test('metricsOn "all": the whole-file numbers, the threshold still chosen on the validation rows', async () => {
  const f = write('small-all', SMALL, { targetCoverage: 0.5, metricsOn: 'all' });
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  assert.deepEqual(validateResults(r), []);
  close(r.metrics.accuracy.value, 5 / 8);
  close(r.metrics.coverage.value, 4 / 8);
  close(r.metrics.selective_risk.value, 2 / 4);
  assert.equal(r.source.rowsUsed, 8);
  assert.equal(r.source.split?.metricsOn, 'all');
  assert.match(r.metrics.coverage.note!, /all 8 rows \(validation and test\)/);
});

test('the table, the Markdown and the report header say which rows the numbers cover', async () => {
  const f = write('small-shown', SMALL, { targetCoverage: 0.5 });
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  const table = formatTable(r, { maxWidth: 200 });
  assert.match(
    table,
    /Metrics on: test rows \(n = 4\) of the split column "split"; thresholds chosen on its 4 validation rows/,
  );
  assert.match(table, /metric\s+test rows \(n = 4\)/);
  const md = formatMarkdown(r);
  assert.match(md, /\| Metric \| Key \| test rows \(n = 4\) \|/);
  assert.match(md, /Metrics on: test rows \(n = 4\)/);
  const model = buildReportModel(r);
  const line = model.header.lines.find((l) => l.label === 'Metrics on');
  assert.match(line?.value ?? '', /^test rows \(n = 4\) of the split column "split"/);
  // every drill-down lists rows among the test rows
  const d = drillTargets(r, model);
  assert.deepEqual(d.mistakes?.where[0], { key: 'split_role', op: '=', value: 'test' });
  for (const spec of d.tables.perClass?.rows ?? [])
    assert.deepEqual(spec?.where[0], { key: 'split_role', op: '=', value: 'test' });
});

test('the drill-downs select the test rows by role, whatever the split column calls them', async () => {
  // `holdout` and `TUNE` mapped by splitNames: the column never says "test", yet the 4 holdout rows
  // are the measured rows, and the drill-down filter finds exactly them
  const lines = SMALL.map((l) => l.replace(/,val$/, ',TUNE').replace(/,test$/, ',holdout'));
  const f = write('holdout', lines, { splitNames: { validation: ['tune'], test: ['holdout'] } });
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  assert.equal(r.source.split?.testRows, 4);
  const d = drillTargets(r, buildReportModel(r));
  const insp = await openInspection(f.path, { configPath: f.configPath });
  assert.deepEqual([...insp.rowsMatching(d.measured ?? [])], [4, 5, 6, 7]);
  assert.deepEqual([...insp.rowsMatching(d.mistakes?.where ?? [])], [5, 7], 'the test rows predicted wrong');
  assert.deepEqual([...insp.rowsMatching([{ key: 'split_role', op: '=', value: 'validation' }])], [0, 1, 2, 3]);
  // the column's own values stay filterable as written
  assert.deepEqual([...insp.rowsMatching([{ key: 'split', op: '=', value: 'holdout' }])], [4, 5, 6, 7]);
  // with a random split too (no column: the row table writes val/test, the role says the same)
  const body = SMALL.slice(1).map((l) => l.split(',').slice(0, 3).join(','));
  const g = write('random-role', ['label,pred,confidence', ...body], { randomSplit: { validation: 0.5, seed: 7 } });
  const ig = await openInspection(g.path, { configPath: g.configPath });
  assert.deepEqual(
    [...ig.rowsMatching([{ key: 'split_role', op: '=', value: 'test' }])],
    [...randomSplitRows(8, 0.5, 7).test],
  );
});

test('splitNames maps a third split value; an unknown value is an error naming the file, line and expected values', async () => {
  const lines = SMALL.map((l, i) => (i === 2 ? l.replace(',val', ',tunev') : l));
  const bad = write('tunev', lines);
  await assert.rejects(
    evaluateFile(bad.path, { configPath: bad.configPath }),
    (e: Error) =>
      e.message.includes(`${bad.path}:3, column "split"`) &&
      e.message.includes(
        'expected a validation value (val, valid, validation, dev) or a test value (test), got "tunev"',
      ) &&
      e.message.includes('splitNames'),
  );
  const ok = write('tunev-mapped', lines, { splitNames: { validation: ['val', 'tunev'], test: ['test'] } });
  const r = await evaluateFile(ok.path, { configPath: ok.configPath, overrides: { targetCoverage: 0.5 } });
  assert.equal(r.source.split?.validationRows, 4);
  close(r.metrics.coverage.value, 2 / 4);
  const both = write('names-both', SMALL, { splitNames: { validation: ['val', 'test'], test: ['test'] } });
  await assert.rejects(
    evaluateFile(both.path, { configPath: both.configPath }),
    /names "test" both a validation and a test value/,
  );
});

test('randomSplit: a seeded permutation, ⌊n·f⌋ validation rows, the rest test; the metrics those of the test rows', async () => {
  // the split itself: sizes, disjoint parts covering every row, file order, the same for the same seed
  const { val, test: tst } = randomSplitRows(11, 0.5, 0);
  assert.equal(val.length, Math.floor(11 * 0.5));
  assert.equal(tst.length, 11 - 5);
  assert.deepEqual(
    [...val, ...tst].sort((a, b) => a - b),
    Array.from({ length: 11 }, (_, i) => i),
  );
  for (const part of [val, tst]) for (let i = 1; i < part.length; i++) assert.ok(part[i - 1]! < part[i]!);
  assert.deepEqual(randomSplitRows(11, 0.5, 0), { val, test: tst });
  assert.notDeepEqual(randomSplitRows(40, 0.5, 1).val, randomSplitRows(40, 0.5, 0).val);

  // a file without a split column: the metrics equal those of a file holding only the test rows
  const body = SMALL.slice(1).map((l) => l.split(',').slice(0, 3).join(','));
  const f = write('random', ['label,pred,confidence', ...body], { randomSplit: { validation: 0.5, seed: 7 } });
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  assert.deepEqual(validateResults(r), []);
  const parts = randomSplitRows(8, 0.5, 7);
  assert.deepEqual(r.source.split, {
    by: 'random',
    fraction: 0.5,
    seed: 7,
    validationRows: 4,
    testRows: 4,
    metricsOn: 'test',
  });
  const only = write('random-test-only', ['label,pred,confidence', ...Array.from(parts.test, (i) => body[i]!)]);
  const o = await evaluateFile(only.path, { configPath: only.configPath });
  for (const k of ['accuracy', 'macro_f1', 'aurc', 'ece']) assert.equal(r.metrics[k].value, o.metrics[k].value, k);
  // a number is the validation fraction with seed = 0
  const g = write('random-number', ['label,pred,confidence', ...body], { randomSplit: 0.5 });
  const rg = await evaluateFile(g.path, { configPath: g.configPath });
  assert.equal(rg.source.split?.seed, 0);
  assert.equal(rg.source.split?.testRows, 8 - randomSplitRows(8, 0.5, 0).val.length);
});

test('an importance-weighted file with a split column says the split is not used', async () => {
  const f = write('iw', ['label,score,stratum,split', '1,0.9,B,val', '0,0.2,Bc,test', '1,0.7,Bc,test', '0,0.6,B,val'], {
    task: 'iw-binary',
    populationSize: 100,
  });
  const r = await evaluateFile(f.path, { configPath: f.configPath });
  const w = r.warnings.find((x) => x.code === 'split-not-used');
  assert.ok(w, 'a split-not-used note');
  assert.match(w.message, /the split column "split" is not used by the importance-weighted task: every row/);
});

test('golden (scikit-learn, numpy): digits-lt logreg, test rows vs every row, threshold chosen on validation', async () => {
  const golden = JSON.parse(readFileSync('test/golden/splits.json', 'utf8')) as {
    test: Record<string, number>;
    all: Record<string, number>;
    ece_test: number;
    threshold: number;
    coverage: number;
    selective_risk: number;
  };
  const path = 'examples/digits-lt/logreg.csv';
  const overrides = { bootstrap: { n: 0, confidence: 0.95, seed: 0, stratified: false } };
  const t = await evaluateFile(path, { overrides });
  const a = await evaluateFile(path, { overrides: { ...overrides, metricsOn: 'all' as const } });
  for (const k of ['accuracy', 'balanced_accuracy', 'macro_f1', 'nll', 'brier']) {
    closeAbs(t.metrics[k].value, golden.test[k]!, 1e-9, `test ${k}`);
    closeAbs(a.metrics[k].value, golden.all[k]!, 1e-9, `all ${k}`);
  }
  closeAbs(t.metrics.ece.value, golden.ece_test, 1e-9, 'ece');
  closeAbs(t.metrics.coverage.value, golden.coverage, 1e-12, 'coverage');
  closeAbs(t.metrics.selective_risk.value, golden.selective_risk, 1e-12, 'selective_risk');
  assert.match(
    t.metrics.coverage.note!,
    new RegExp(`t = ${golden.threshold} chosen for targetCoverage 0.8 on the 150 validation rows`),
  );
});
