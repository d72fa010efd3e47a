import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MetricValue, Results } from '../../../src/core/results/types';
import { reportHeadlineKeys } from '../../../src/shared/headline';
import { buildReportModel } from '../../../src/shared/report';
import { metricsAtK, rankingTable } from '../../../src/shared/rankingTable';
import { classificationResults } from '../helpers/reportFixtures';
import { rankingSummary } from '../helpers/sampleResults';

const mv = (value: number, ci?: [number, number]): MetricValue => ({
  value,
  direction: 'higher',
  ...(ci ? { ci } : {}),
});

function rankingResults(): Results {
  const metrics: Record<string, MetricValue> = {};
  const popularity: Record<string, MetricValue> = {};
  for (const [i, name] of ['ndcg', 'recall', 'coverage', 'novelty', 'precision', 'map', 'hit_rate'].entries()) {
    for (const k of [5, 10, 20]) {
      metrics[`${name}@${k}`] = mv(i / 10 + k / 1000, name === 'coverage' ? undefined : [i / 10, i / 10 + 0.05]);
      if (name !== 'novelty') popularity[`${name}@${k}`] = mv(k / 10000);
    }
  }
  metrics.mrr = mv(0.3, [0.28, 0.32]);
  metrics.users_evaluated = mv(200);
  metrics.users_skipped = { value: 0, direction: 'lower' };
  return classificationResults({
    task: 'ranking',
    metrics,
    baselines: { popularity },
    families: { ranking: Object.keys(metrics) },
    curves: {},
    tables: {},
  });
}

test('metricsAtK: accuracy metrics in the papers\u2019 order, then beyond-accuracy ones', () => {
  assert.deepEqual(metricsAtK(rankingResults().metrics), [
    'recall',
    'precision',
    'ndcg',
    'map',
    'hit_rate',
    'coverage',
    'novelty',
  ]);
});

test('metricsAtK: a spread over users right after its metric; unknown names last, by name', () => {
  const keys = [
    'alignment_std',
    'zeta',
    'diversity_std',
    'ndcg_std',
    'alignment',
    'recall',
    'ndcg',
    'diversity',
    'beta_std',
  ];
  assert.deepEqual(metricsAtK(Object.fromEntries(keys.map((n) => [`${n}@10`, null]))), [
    'recall',
    'ndcg',
    'ndcg_std',
    'diversity',
    'diversity_std',
    'alignment',
    'alignment_std',
    'beta_std',
    'zeta',
  ]);
});

test('rankingTable: metric rows with baselines as sub-rows, one column per K, the run\u2019s intervals as suffixes', () => {
  const r = rankingResults();
  const t = rankingTable(r)!;
  assert.deepEqual(t.columns, ['metric', 'ranking', '@5', '@10', '@20']);
  assert.deepEqual(t.kinds, ['text', 'text', 'num', 'num', 'num']);
  // recall (i = 1): run, then popularity.
  assert.deepEqual(t.rows[0], ['recall', 'run', 0.1 + 0.005, 0.1 + 0.01, 0.1 + 0.02]);
  assert.deepEqual(t.rows[1], ['', 'popularity', 0.0005, 0.001, 0.002]);
  assert.equal(t.suffixes![0]![2], ' [0.1000, 0.1500]');
  assert.equal(t.suffixes![1]![2], '');
  // novelty has no baseline: no sub-row; coverage has no interval.
  const novelty = t.rows.findIndex((row) => row[0] === 'novelty');
  assert.equal(t.rows[novelty + 1], undefined);
  const coverage = t.rows.findIndex((row) => row[0] === 'coverage');
  assert.equal(t.suffixes![coverage]![3], '');
  assert.equal(t.rows.length, 7 + 6);
  assert.match(t.note!, /popularity baseline/);
  assert.match(t.note!, /catalog/);
});

test('the ranking report: a few headline cards, the table instead of one card per metric@K', () => {
  const r = rankingResults();
  assert.deepEqual(reportHeadlineKeys(r), ['ndcg@10', 'recall@10', 'map@10', 'mrr', 'users_evaluated']);
  const m = buildReportModel(r);
  assert.deepEqual(
    m.headline.map((c) => c.key),
    ['ndcg@10', 'recall@10', 'map@10', 'mrr', 'users_evaluated'],
  );
  const tab = m.tabs.find((t) => t.id === 'ranking')!;
  assert.deepEqual(
    tab.cards.map((c) => c.key),
    ['mrr', 'users_evaluated', 'users_skipped'],
  );
  assert.equal(tab.leadTables?.[0]?.id, 'rankingByK');
  // Every metric@K still has a target (the tree's "open at").
  assert.equal(m.targets['ndcg@20']?.tab, 'ranking');
  assert.equal(m.headline.find((c) => c.key === 'users_evaluated')!.text, '200');
  // Classification reports are unchanged: no lead table.
  assert.ok(buildReportModel(classificationResults()).tabs.every((t) => !t.leadTables));
});

test('risk-coverage tooltips name the threshold; metric-vs-K ends at the longest list; per-class bars say they have no interval', () => {
  const c = classificationResults();
  const m = buildReportModel(c);
  const rc = m.tabs.flatMap((t) => t.charts).find((x) => x.id === 'riskCoverage')!;
  assert.deepEqual(rc.series[0]!.pointLabels, ['threshold 0.9000', 'threshold 0.4000']);
  const bars = m.tabs.flatMap((t) => t.charts).find((x) => x.id === 'perClassAccuracy')!;
  assert.match(bars.note!, /No interval bars/);
  const r = rankingResults();
  const xs = Array.from({ length: 50 }, (_, i) => i + 1);
  r.curves['metricVsK.ndcg'] = {
    x: 'K',
    y: 'ndcg',
    xs,
    ys: xs.map((k) => Math.min(k, 12) / 100),
    extra: { popularity: xs.map(() => 0.01) },
  };
  r.tables.rankingSummary = rankingSummary({ longestList: 12 });
  const mk = buildReportModel(r)
    .tabs.flatMap((t) => t.charts)
    .find((x) => x.id === 'metricVsK')!;
  assert.equal(mk.x.max, 12);
  assert.equal(mk.x.min, 1);
  for (const s of mk.series) assert.equal(Math.max(...s.points.map((p) => p.x)), 12);
  delete r.tables.rankingSummary;
  assert.equal(
    buildReportModel(r)
      .tabs.flatMap((t) => t.charts)
      .find((x) => x.id === 'metricVsK')!.x.max,
    50,
  );
});
