import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedRowsModel, withChangedRowsTab } from '../../../src/shared/changedRowsModel';
import type { CompareResults } from '../../../src/core/compare/types';
import type { ReportModel } from '../../../src/shared/model';

function comparison(over: Partial<CompareResults>): CompareResults {
  return {
    kind: 'comparison',
    task: 'classification',
    runs: ['digits-lt/logreg.csv', 'digits-lt/knn.csv', 'digits-lt/svc_rbf.csv'],
    names: ['logreg', 'knn', 'svc_rbf'],
    baseline: 'digits-lt/knn.csv',
    ...over,
  } as CompareResults;
}

const model = (): ReportModel => ({
  kind: 'compare',
  title: 'Comparison of 3 runs',
  header: { title: 'Comparison of 3 runs', lines: [], warnings: [] },
  headline: [],
  tabs: [{ id: 'table', title: 'Comparison', cards: [], charts: [], tables: [], notes: [] }],
  targets: {},
});

test('Changed rows: the baseline is run A, every other run (in the comparison order) a run B; accuracy and nll', () => {
  assert.deepEqual(changedRowsModel(comparison({})), {
    task: 'classification',
    baseline: { run: 'digits-lt/knn.csv', name: 'knn' },
    runs: [
      { run: 'digits-lt/logreg.csv', name: 'logreg' },
      { run: 'digits-lt/svc_rbf.csv', name: 'svc_rbf' },
    ],
    metrics: ['accuracy', 'nll'],
  });
  // Ranking: the per-user keys come with the first answer.
  assert.deepEqual(changedRowsModel(comparison({ task: 'ranking' }))?.metrics, []);
});

test('Changed rows: the tab is added last, once, and only when there are two runs and a baseline among them', () => {
  const m = withChangedRowsTab(model(), comparison({}));
  assert.deepEqual(
    m.tabs.map((t) => [t.id, t.title]),
    [
      ['table', 'Comparison'],
      ['changed', 'Changed rows'],
    ],
  );
  assert.equal(withChangedRowsTab(m, comparison({})).tabs.length, 2);
  const one = comparison({ runs: ['a.csv'], names: ['a'], baseline: 'a.csv' });
  assert.equal(withChangedRowsTab(model(), one).tabs.length, 1);
  assert.equal(withChangedRowsTab(model(), comparison({ baseline: 'elsewhere.csv' })).tabs.length, 1);
});

test('Changed rows: a baseline run made from a run input has no file, so it is never run A or a run B', () => {
  const majority = 'baseline:majority (of digits-lt/logreg.csv)';
  // Tested against the majority-class baseline: nothing to open side by side, no tab.
  const against = comparison({
    runs: [majority, 'digits-lt/logreg.csv'],
    names: ['baseline:majority (of logreg)', 'logreg'],
    baseline: majority,
  });
  assert.equal(changedRowsModel(against), undefined);
  assert.equal(withChangedRowsTab(model(), against).tabs.length, 1);
  // A file baseline with a derived run among the others: only the file runs are offered as B.
  const mixed = comparison({
    runs: ['digits-lt/knn.csv', majority, 'digits-lt/logreg.csv'],
    names: ['knn', 'baseline:majority (of logreg)', 'logreg'],
  });
  assert.deepEqual(changedRowsModel(mixed)?.runs, [{ run: 'digits-lt/logreg.csv', name: 'logreg' }]);
});
