import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drillTargets, MISTAKES } from '../../../src/shared/drillTargets';
import { intervalWhere, readSliceTable, worstFirst } from '../../../src/shared/inspectModel';
import { buildReportModel } from '../../../src/shared/report';
import { classificationResults, rankingResults } from '../helpers/reportFixtures';

const term = (key: string, op: string, value: string): { key: string; op: string; value: string } => ({
  key,
  op,
  value,
});

test('confusion heatmap cells and the matrix table filter on the true and the predicted class', () => {
  const r = classificationResults();
  const d = drillTargets(r, buildReportModel(r));
  const labels = r.tables.confusion!.labels;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      assert.deepEqual(d.charts.confusion!.cells![i]![j]!.where, [
        term('label', '=', labels[i]!),
        term('pred', '=', labels[j]!),
      ]);
      // The table's column 0 is the true class; column j + 1 the predicted one.
      assert.deepEqual(d.tables['confusion.table']!.cells![i]![j + 1]!.where, [
        term('label', '=', labels[i]!),
        term('pred', '=', labels[j]!),
      ]);
    }
    assert.equal(d.tables['confusion.table']!.cells![i]![0], null);
  }
});

test('per-class bars and table rows filter on the class; cards on shot, group and mistakes', () => {
  const r = classificationResults();
  r.metrics['acc_group.tail'] = { value: 0.4, direction: 'higher' };
  const d = drillTargets(r, buildReportModel(r));
  assert.deepEqual(
    d.charts.perClassAccuracy!.points![0]!.map((s) => s!.where),
    [[term('label', '=', 'a')], [term('label', '=', 'b')], [term('label', '=', 'c')]],
  );
  assert.deepEqual(
    d.tables.perClass!.rows!.map((s) => s!.where[0]!.value),
    ['a', 'b', 'c'],
  );
  // The scatter's series are shot groups; each point still filters on its own class.
  const scatter = d.charts
    .perClassVsTrain!.points!.flat()
    .map((s) => s!.where[0]!.value)
    .sort();
  assert.deepEqual(scatter, ['a', 'b', 'c']);
  assert.deepEqual(d.cards.acc_few!.where, [term('shot', '=', 'few')]);
  assert.deepEqual(d.cards['acc_group.tail']!.where, [term('class_group', '=', 'tail')]);
  assert.deepEqual(d.cards.accuracy, MISTAKES);
  assert.deepEqual(MISTAKES.where, [term('correct', '=', 'false')]);
  assert.deepEqual(MISTAKES.sort, { key: 'confidence', dir: 'desc' });
  assert.equal(d.cards.ece, undefined);
});

test('reliability bins use the exact edges (lo, hi]; the line chart only has the non-empty bins', () => {
  const r = classificationResults();
  r.tables.reliability = [
    { lo: 0, hi: 1 / 15, count: 0, accuracy: null, confidence: null },
    { lo: 1 / 15, hi: 2 / 15, count: 3, accuracy: 0.5, confidence: 0.1 },
  ];
  const d = drillTargets(r, buildReportModel(r));
  assert.deepEqual(
    d.tables['reliability.table']!.rows!.map((s) => s!.where),
    [
      [term('confidence', '>', '0'), term('confidence', '<=', String(1 / 15))],
      [term('confidence', '>', String(1 / 15)), term('confidence', '<=', String(2 / 15))],
    ],
  );
  assert.deepEqual(d.charts.reliability!.points![1], [d.tables['reliability.table']!.rows![1]]);
  assert.equal(d.charts.reliabilityCounts!.points![0]!.length, 2);
});

test('a risk–coverage point lists the rows accepted at its threshold', () => {
  const r = classificationResults();
  const d = drillTargets(r, buildReportModel(r));
  assert.deepEqual(
    d.charts.riskCoverage!.points![0]!.map((s) => s!.where),
    [[term('confidence', '>=', '0.9')], [term('confidence', '>=', '0.4')]],
  );
});

test('ranking: per-user histogram bars filter on the metric range, the last bin closed; no mistakes view', () => {
  const r = rankingResults();
  const d = drillTargets(r, buildReportModel(r));
  assert.equal(d.mistakes, undefined);
  const bins = d.charts['perUser.ndcg@10']!.points![0]!;
  // The results hold no stored histograms: the bins are counted as the evaluation does (20 of width 0.05).
  assert.equal(bins.length, 20);
  assert.deepEqual(bins[0]!.where, [term('ndcg@10', '>=', '0'), term('ndcg@10', '<', '0.05')]);
  // the edge exactly as the bins were counted (0 + 19 · 1/20), so the filter lists the users the bar counts
  assert.deepEqual(bins[19]!.where, [term('ndcg@10', '>=', String(0 + 19 * (1 / 20))), term('ndcg@10', '<=', '1')]);
});

test('slice tables: read from the results, worst first, small slices left out, filters from values and bins', () => {
  const t = readSliceTable(
    [
      {
        slice: 'split',
        value: 'a',
        n: 100,
        accuracy: { value: 0.9, ci: [0.85, 0.95], diff: { value: 0.1, ci: [0.05, 0.15] } },
        ece: { value: 0.02 },
      },
      { slice: 'split', value: 'b', n: 40, accuracy: { value: 0.6, ci: [0.5, 0.7] }, ece: { value: 0.1 } },
      { slice: 'split', value: 'c', n: 10, accuracy: { value: 0.1 }, ece: { value: 0.5 } },
      { slice: 'age', value: '[20, 30)', n: 50, accuracy: { value: 0.6 }, ece: { value: null } },
    ],
    { accuracy: 'higher', ece: 'lower' },
  )!;
  assert.deepEqual(t.metrics, [
    { key: 'accuracy', direction: 'higher' },
    { key: 'ece', direction: 'lower' },
  ]);
  assert.deepEqual(t.rows[0]!.metrics.accuracy, { value: 0.9, ci: [0.85, 0.95], diff: 0.1, diffCi: [0.05, 0.15] });
  assert.deepEqual(t.rows[0]!.where, [term('split', '=', 'a')]);
  assert.deepEqual(t.rows[3]!.where, [term('age', '>=', '20'), term('age', '<', '30')]);
  // accuracy: higher is better → lowest first; equal values → the larger slice first; c (10 rows) left out.
  assert.deepEqual(
    worstFirst(t, 'accuracy', 30).map((r) => r.value),
    ['[20, 30)', 'b', 'a'],
  );
  assert.deepEqual(
    worstFirst(t, 'accuracy', 1).map((r) => r.value),
    ['c', '[20, 30)', 'b', 'a'],
  );
  // ece: lower is better → highest first; a slice without a value last.
  assert.deepEqual(
    worstFirst(t, 'ece', 1).map((r) => r.value),
    ['c', 'b', 'a', '[20, 30)'],
  );
  assert.equal(readSliceTable({ not: 'a table' }, {}), undefined);
  assert.equal(readSliceTable([{ slice: 'x' }], {}), undefined);
});

test('intervalWhere: open and closed ends, infinite ends dropped, other text not an interval', () => {
  assert.deepEqual(intervalWhere('x', '(0.5, 1]'), [term('x', '>', '0.5'), term('x', '<=', '1')]);
  assert.deepEqual(intervalWhere('x', '[-inf, 3)'), [term('x', '<', '3')]);
  assert.deepEqual(intervalWhere('x', '[2, inf]'), [term('x', '>=', '2')]);
  assert.equal(intervalWhere('x', 'other'), undefined);
  assert.equal(intervalWhere('x', '1-2'), undefined);
});

test('under the val/test protocol the selective targets keep to the test rows', () => {
  const r = classificationResults();
  r.curves.riskCoverage!.note =
    'exact curve: one point per distinct score; score: msp (max probability); the 150 test rows';
  r.metrics.selective_risk = { value: 0.1, direction: 'lower' };
  const d = drillTargets(r, buildReportModel(r));
  assert.deepEqual(d.charts.riskCoverage!.points![0]![0]!.where, [
    term('split_role', '=', 'test'),
    term('confidence', '>=', '0.9'),
  ]);
  assert.deepEqual(d.cards.selective_risk!.where, [
    term('split_role', '=', 'test'),
    term('accepted', '=', 'true'),
    term('correct', '=', 'false'),
  ]);
});
