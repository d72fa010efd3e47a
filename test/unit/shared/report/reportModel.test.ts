import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfusionMatrix } from '../../../../src/core/results/types';
import { headlineKeys, primaryKey } from '../../../../src/shared/headline';
import { buildReportModel } from '../../../../src/shared/report';
import { binLabels, EXTREME_CAVEAT, niceLogCeil, niceLogFloor } from '../../../../src/shared/report/common';
import { confusionChart, FULL_HEATMAP_MAX, topConfusions } from '../../../../src/shared/report/classification';
import { genericTable } from '../../../../src/shared/report/generic';
import { histogram, metricVsKChart, perUserHistograms, storedHistograms } from '../../../../src/shared/report/ranking';
import { pairedCurveChart } from '../../../../src/shared/report/importance';
import { classificationResults, expectedDiagonal, rankingResults } from '../../helpers/reportFixtures';

test('results → tabs in family order, cards with value text and CI, unknown keys under Other', () => {
  const m = buildReportModel(classificationResults());
  assert.deepEqual(
    m.tabs.map((t) => t.id),
    ['classification', 'longtail', 'selective', 'calibration', 'other'],
  );
  const acc = m.tabs[0]!.cards.find((c) => c.key === 'accuracy')!;
  assert.equal(acc.text, '0.6667');
  assert.equal(acc.ci, '[0.5000, 0.8333]');
  assert.equal(acc.value, 4 / 6);
  assert.deepEqual(
    m.tabs.find((t) => t.id === 'other')!.cards.map((c) => c.key),
    ['mystery'],
  );
  assert.equal(m.header.title, 'preds.csv');
  assert.equal(m.header.warnings.length, 1);
  assert.match(
    m.header.warnings[0]!,
    /probabilities-not-normalised: rows do not sum to 1 \(runs\/preds\.csv:3\) \[2\]/,
  );
});

test('a max-type metric with an interval carries the caveat; one without does not', () => {
  const m = buildReportModel(classificationResults());
  const cards = m.tabs.flatMap((t) => t.cards);
  assert.equal(cards.find((c) => c.key === 'worst_error')!.caveat, EXTREME_CAVEAT);
  assert.equal(cards.find((c) => c.key === 'aurc')!.caveat, undefined);
});

test('charts present only for curves in the results; targets point metrics at their chart', () => {
  const m = buildReportModel(classificationResults());
  const ids = m.tabs.flatMap((t) => t.charts.map((c) => c.id));
  assert.deepEqual(
    ids.sort(),
    [
      'confusion',
      'curve.oddCurve',
      'perClassAccuracy',
      'perClassVsTrain',
      'reliability',
      'reliabilityCounts',
      'riskCoverage',
    ].sort(),
  );
  assert.ok(!ids.includes('shift'), 'no shift curve → no shift chart');
  assert.ok(!ids.includes('pr'));
  assert.deepEqual(m.targets.aurc, { tab: 'selective', element: 'riskCoverage' });
  assert.deepEqual(m.targets.ece, { tab: 'calibration', element: 'reliability' });
  assert.deepEqual(m.targets.acc_few, { tab: 'longtail', element: 'perClassVsTrain' });
  // The generic table lands in Other.
  assert.ok(m.tabs.find((t) => t.id === 'other')!.tables.some((t) => t.id === 'table.extraTable'));
});

test('risk–coverage: the standard curve is filled (AURC) and labelled with its value', () => {
  const rc = buildReportModel(classificationResults()).tabs.find((t) => t.id === 'selective')!.charts[0]!;
  assert.equal(rc.series[0]!.fill, true);
  assert.equal(rc.series[0]!.label, 'standard (AURC 0.1250)');
  assert.deepEqual(rc.series[0]!.points, [
    { x: 0.5, y: 0 },
    { x: 1, y: 1 / 3 },
  ]);
  assert.deepEqual(rc.table.columns, ['coverage', 'risk', 'threshold']);
});

test('per-class vs train count: log axis, one series per shot, shot bands at the thresholds', () => {
  const c = buildReportModel(classificationResults()).tabs.find((t) => t.id === 'longtail')!.charts[0]!;
  assert.equal(c.x.type, 'log');
  assert.deepEqual(
    c.series.map((s) => s.label),
    ['many-shot', 'medium-shot', 'few-shot'],
  );
  // counts 5…500 → axis 5…1000 (nice bounds); few < 20 ≤ medium ≤ 100 < many
  assert.equal(c.x.min, 5);
  assert.equal(c.x.max, 1000);
  assert.deepEqual(
    c.bands!.map((b) => [b.from, b.to]),
    [
      [5, 20],
      [20, 100],
      [100, 1000],
    ],
  );
});

test('bin labels share their decimals', () => {
  assert.deepEqual(binLabels([0, 0.05, 0.1], [0.05, 0.1, 0.15]), ['0.00–0.05', '0.05–0.10', '0.10–0.15']);
  assert.deepEqual(binLabels([0, 5], [5, 10]), ['0–5', '5–10']);
});

test('nice log bounds are 1, 2 or 5 × 10^k', () => {
  assert.equal(niceLogFloor(3), 2);
  assert.equal(niceLogFloor(5), 5);
  assert.equal(niceLogFloor(0.7), 0.5);
  assert.equal(niceLogCeil(151.2), 200);
  assert.equal(niceLogCeil(500), 500);
  assert.equal(niceLogCeil(600), 1000);
});

test('topConfusions: off-diagonal, largest first, ties by true then predicted index, zeros dropped', () => {
  const c: ConfusionMatrix = {
    labels: ['a', 'b', 'c'],
    matrix: [
      [5, 2, 2],
      [3, 4, 0],
      [2, 0, 9],
    ],
  };
  assert.deepEqual(topConfusions(c, 10), [
    { true: 'b', pred: 'a', count: 3 },
    { true: 'a', pred: 'b', count: 2 },
    { true: 'a', pred: 'c', count: 2 },
    { true: 'c', pred: 'a', count: 2 },
  ]);
  assert.equal(topConfusions(c, 2).length, 2);
});

test('confusion heatmap: full matrix up to the limit, else the classes of the top confusions', () => {
  const small = confusionChart({
    labels: ['a', 'b'],
    matrix: [
      [1, 2],
      [3, 4],
    ],
  });
  assert.deepEqual(small.heatmap!.rows, ['a', 'b']);
  assert.deepEqual(small.heatmap!.values, [
    [1, 2],
    [3, 4],
  ]);
  const k = 100;
  const labels = Array.from({ length: k }, (_, i) => `c${i}`);
  const matrix: number[][] = labels.map((_, i) => labels.map((__, j) => (i === j ? 50 : 0)));
  matrix[10]![70] = 9; // the largest confusion
  matrix[3]![4] = 5;
  matrix[99]![0] = 1;
  const big = confusionChart({ labels, matrix });
  assert.deepEqual(big.heatmap!.rows, ['c0', 'c3', 'c4', 'c10', 'c70', 'c99']);
  assert.equal(big.heatmap!.values[3]![4], 9); // c10 → c70
  assert.ok(big.heatmap!.rows.length <= FULL_HEATMAP_MAX);
  assert.deepEqual(big.table.rows[0], ['c10', 'c70', 9]);
  assert.match(big.note!, /100 classes/);
});

test('histogram: equal-width bins, the top edge in the last bin, non-finite and out-of-range values dropped', () => {
  assert.deepEqual(histogram([0, 0.1, 0.5, 0.99, 1, Number.NaN, 2], 2, 0, 1), [2, 3]);
  assert.deepEqual(histogram([], 3, 0, 1), [0, 0, 0]);
  assert.deepEqual(histogram([0.5, 0.5], 4, 0.5, 0.5), [2, 0, 0, 0]);
});

test('ranking: metric-vs-K from the @K keys with baselines dashed, per-user histograms as a select group', () => {
  const r = rankingResults();
  const c = metricVsKChart(r)!;
  assert.deepEqual(
    c.series.map((s) => [s.label, Boolean(s.dashed)]),
    [
      ['NDCG', false],
      ['NDCG (popularity)', true],
      ['Recall', false],
    ],
    'series carry the glossary names',
  );
  assert.deepEqual(c.series[0]!.points, [
    { x: 5, y: 0.1 },
    { x: 10, y: 0.2 },
    { x: 20, y: 0.4 },
  ]);
  assert.deepEqual(c.table.rows[1], [10, 0.2, 0.02, 0.1]);
  const m = buildReportModel(r);
  const rank = m.tabs.find((t) => t.id === 'ranking')!;
  const hist = rank.charts.filter((x) => x.group?.id === 'perUser');
  assert.deepEqual(
    hist.map((h) => h.group!.option),
    ['NDCG at 10', 'Mean reciprocal rank'],
  );
  // ndcg@10 per user 0, 0.25, 1, 1 in 10 bins of [0, 1]
  assert.deepEqual(
    hist[0]!.series[0]!.points.map((p) => p.y),
    [1, 0, 1, 0, 0, 0, 0, 0, 0, 2],
  );
  // headline: ndcg@10 first, then recall@10, mrr
  assert.deepEqual(headlineKeys(r), ['ndcg@10', 'recall@10', 'mrr']);
  assert.deepEqual(m.headline[0]!.extra, ['popularity 0.0200']);
});

test('headline keys per task', () => {
  assert.deepEqual(headlineKeys(classificationResults(), 3), ['accuracy', 'balanced_accuracy', 'acc_few']);
  assert.equal(
    primaryKey({
      task: 'iw-binary',
      metrics: { roc_auc: { value: 1, direction: 'higher' }, average_precision: { value: 1, direction: 'higher' } },
    }),
    'average_precision',
  );
  assert.deepEqual(headlineKeys({ task: 'classification', metrics: { foo: { value: 1, direction: 'higher' } } }), [
    'foo',
  ]);
});

test('genericTable: records, columnar arrays, scalar maps; other shapes are left out', () => {
  assert.deepEqual(genericTable('t', 'T', [{ a: 1, b: 'x' }, { a: 2.5 }])!.rows, [
    [1, 'x'],
    [2.5, null],
  ]);
  assert.deepEqual(genericTable('t', 'T', [{ a: 1 }, { a: 2 }])!.kinds, ['int']);
  const col = genericTable('t', 'T', { k: [1, 2], v: [0.5, 0.25] })!;
  assert.deepEqual(
    [col.columns, col.rows],
    [
      ['k', 'v'],
      [
        [1, 0.5],
        [2, 0.25],
      ],
    ],
  );
  assert.deepEqual(genericTable('t', 'T', { threshold: 0.5, nested: { a: 1 } })!.rows, [
    ['threshold', 0.5],
    ['nested', '{"a":1}'],
  ]);
  assert.equal(genericTable('t', 'T', 3), undefined);
  assert.equal(genericTable('t', 'T', []), undefined);
});

test('ranking family output: dense metric-vs-K curves with baselines, stored per-user histograms, activity bins', () => {
  const r = rankingResults();
  r.curves['metricVsK.ndcg'] = {
    x: 'K',
    y: 'ndcg',
    xs: [1, 2, 3],
    ys: [0.5, 0.4, 0.45],
    extra: { popularity: [0.1, 0.12, 0.13] },
  };
  r.tables.perUserHistograms = { 'ndcg@10': { edges: [0, 0.5, 1], counts: [3, 1], undefinedUsers: 0, mean: 0.3 } };
  r.tables.activityBins = [
    { bin: '[0, 6)', lo: 0, hi: 6, users: 3, 'ndcg@10': 0.2 },
    { bin: '[6, ∞)', lo: 6, hi: null, users: 1, 'ndcg@10': 0.6 },
  ];
  const m = buildReportModel(r);
  const rank = m.tabs.find((t) => t.id === 'ranking')!;
  const vsK = rank.charts.find((c) => c.id === 'metricVsK')!;
  assert.deepEqual(
    vsK.series.map((s) => [s.label, Boolean(s.dashed), s.points.length]),
    [
      ['NDCG', false, 3],
      ['NDCG (popularity)', true, 3],
    ],
  );
  assert.ok(!rank.charts.some((c) => c.id.startsWith('curve.metricVsK')), 'the dense curves are not drawn twice');
  const hist = rank.charts.filter((c) => c.group?.id === 'perUser');
  assert.deepEqual(
    hist.map((h) => h.id),
    ['perUser.ndcg@10'],
  );
  assert.deepEqual(hist[0]!.x.categories, ['0.0–0.5', '0.5–1.0']);
  assert.deepEqual(
    hist[0]!.series[0]!.points.map((p) => p.y),
    [3, 1],
  );
  const act = rank.charts.find((c) => c.id === 'activityBins')!;
  assert.deepEqual(act.x.categories, ['[0, 6) (3 users)', '[6, ∞) (1 users)']);
  assert.deepEqual(
    act.series.map((s) => [s.label, s.points.map((p) => p.y)]),
    [['NDCG at 10', [0.2, 0.6]]],
  );
});

test('the diagonal y = x: dashed, foreground, from (0, 0) to (1, 1) on the reliability diagram and a ROC chart', () => {
  const diagonal = (label: string) => expectedDiagonal(label, 'dashed');
  const m = buildReportModel(classificationResults());
  const reliability = m.tabs.flatMap((t) => t.charts).find((c) => c.id === 'reliability')!;
  assert.deepEqual(reliability.series[0], diagonal('perfect calibration'));
  const curve = { x: 'fpr', y: 'tpr', xs: [0, 0.5, 1], ys: [0, 0.8, 1] };
  const roc = pairedCurveChart('iw.roc', 'ROC', curve, curve, true, 'ROC')!;
  assert.deepEqual(roc.series[0], diagonal('chance'));
  assert.deepEqual(
    roc.series.map((s) => s.label),
    ['chance', 'importance-weighted', 'unweighted'],
  );
  const pr = pairedCurveChart('iw.pr', 'PR', curve, undefined, false, 'PR')!;
  assert.deepEqual(
    pr.series.map((s) => s.label),
    ['importance-weighted'],
  );
});

test('per-user histogram: the stored bins and the bins counted from per-user values give the same chart', () => {
  // Per-user ndcg@10 of 5 users in [0, 1] → 10 bins of width 0.1: 0.05 and 0.07 in bin 0, 0.42 in bin 4,
  // 1 in the last bin (hi goes in the last bin); NaN (an undefined user) is left out.
  const r = rankingResults();
  r.perItem = { kind: 'user', ids: null, values: { 'ndcg@10': [0.05, 0.42, NaN, 1, 0.07] } };
  const counted = perUserHistograms(r);
  const edges = Array.from({ length: 11 }, (_, i) => 0 + ((1 - 0) * i) / 10);
  const counts = [2, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const stored = storedHistograms({ 'ndcg@10': { edges, counts } });
  assert.equal(counted.length, 1);
  assert.deepEqual(stored, counted);
  const chart = counted[0]!;
  assert.equal(chart.id, 'perUser.ndcg@10');
  assert.match(chart.description, / over 4 users in 10 bins\.$/);
  assert.deepEqual(
    chart.series[0]!.points.map((p) => p.y),
    counts,
  );
  assert.deepEqual(chart.table!.rows[4], ['0.4–0.5', 1]);
  assert.equal(chart.note, undefined);
  assert.deepEqual(chart.group, { id: 'perUser', title: 'Per-user distribution', option: chart.x.label });
  // The stored form may carry the mean and the undefined users: a note under the chart.
  const noted = storedHistograms({ 'ndcg@10': { edges, counts, mean: 0.385, undefinedUsers: 1 } })[0]!;
  assert.equal(noted.note, 'mean 0.3850, 1 users undefined');
  assert.deepEqual({ ...noted, note: undefined }, { ...chart, note: undefined });
});
