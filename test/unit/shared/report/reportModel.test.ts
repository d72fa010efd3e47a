import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfusionMatrix } from '../../../../src/core/results/types';
import { headlineKeys } from '../../../../src/shared/headline';
import { buildReportModel } from '../../../../src/shared/report';
import { reportToHtml } from '../../../../src/shared/exportHtml';
import { binLabels, EXTREME_CAVEAT, niceLogCeil, niceLogFloor } from '../../../../src/shared/report/common';
import { confusionChart, FULL_HEATMAP_MAX, topConfusions } from '../../../../src/shared/report/classification';
import { genericTable } from '../../../../src/shared/report/generic';
import { countedHistogram } from '../../../../src/core/metrics/ranking/perUser';
import { metricVsKChart, perUserHistograms, storedHistograms } from '../../../../src/shared/report/ranking';
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
      // aurc is present: its bars; the exact curve reaches coverage ≥ 0.2: the practical range
      'aurcBars',
      'confusion',
      'curve.oddCurve',
      'perClassAccuracy',
      'perClassVsTrain',
      'reliability',
      'reliabilityCounts',
      'riskCoverage',
      'riskCoveragePractical',
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

test("counted per-user histogram: the evaluation's 20 bins over [min(0, min v), max(1, max v)], null and non-finite values undefined", () => {
  // In [0, 1]: width 1/20; 0 → bin 0, 0.1/0.05 = 2 → bin 2, 0.99/0.05 = 19.8 → bin 19, 1 → the last bin.
  const h = countedHistogram([0, 0.1, 0.99, 1, null, Number.NaN, Number.POSITIVE_INFINITY]);
  assert.equal(h.edges.length, 21);
  assert.equal(h.edges[0], 0);
  assert.equal(h.edges[20], 1);
  assert.equal(h.edges[2], 2 * (1 / 20));
  const counts = new Array(20).fill(0);
  counts[0] = 1;
  counts[2] = 1;
  counts[19] = 2;
  assert.deepEqual(h.counts, counts);
  assert.equal(h.undefinedUsers, 3);
  assert.equal(h.mean, (0 + 0.1 + 0.99 + 1) / 4);
  // Out of [0, 1]: lo = min(0, −2) = −2, hi = max(1, 3) = 3, width 5/20 = 0.25; 3 goes in the last bin.
  const wide = countedHistogram([-2, 0.5, 3]);
  assert.equal(wide.edges[0], -2);
  assert.equal(wide.edges[20], 3);
  assert.equal(wide.counts[0], 1);
  assert.equal(wide.counts[Math.floor((0.5 + 2) / 0.25)], 1);
  assert.equal(wide.counts[19], 1);
  // As many users as a large ranking file holds: no argument-list limit (the report once spread them into Math.min).
  const many = countedHistogram(Array.from({ length: 300_000 }, (_, i) => (i % 7) - 3));
  assert.equal(
    many.counts.reduce((a, b) => a + b, 0),
    300_000,
  );
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
  // ndcg@10 per user 0, 0.25, 1, 1 in the evaluation's 20 bins of [0, 1]: 0.25/0.05 = 5 → bin 5, 1 → the last bin
  const expected = new Array(20).fill(0);
  expected[0] = 1;
  expected[5] = 1;
  expected[19] = 2;
  assert.deepEqual(
    hist[0]!.series[0]!.points.map((p) => p.y),
    expected,
  );
  // headline: ndcg@10 first, then recall@10, mrr
  assert.deepEqual(headlineKeys(r), ['ndcg@10', 'recall@10', 'mrr']);
  assert.deepEqual(m.headline[0]!.extra, ['popularity 0.0200']);
});

test('headline keys per task', () => {
  assert.deepEqual(headlineKeys(classificationResults(), 3), ['accuracy', 'balanced_accuracy', 'acc_few']);
  assert.equal(
    headlineKeys(
      {
        task: 'iw-binary',
        metrics: { roc_auc: { value: 1, direction: 'higher' }, average_precision: { value: 1, direction: 'higher' } },
      },
      1,
    )[0],
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

test('per-user histogram: the bins counted from per-user values are the stored bins, with the mean and undefined users', () => {
  // Per-user ndcg@10 of 5 users in [0, 1] → 20 bins of width 0.05: 0.05/0.05 = 1 and 0.07/0.05 = 1.4 in
  // bin 1, 0.42/0.05 = 8.4 in bin 8, 1 in the last bin (hi goes in the last bin); NaN is an undefined user.
  const r = rankingResults();
  r.perItem = { kind: 'user', ids: null, values: { 'ndcg@10': [0.05, 0.42, NaN, 1, 0.07] } };
  const counted = perUserHistograms(r);
  const edges = Array.from({ length: 21 }, (_, b) => (b === 20 ? 1 : 0 + b * (1 / 20)));
  const counts = new Array(20).fill(0);
  counts[1] = 2;
  counts[8] = 1;
  counts[19] = 1;
  const mean = (0.05 + 0.42 + 1 + 0.07) / 4;
  const stored = storedHistograms({ 'ndcg@10': { edges, counts, mean, undefinedUsers: 1 } });
  assert.equal(counted.length, 1);
  assert.deepEqual(stored, counted);
  const chart = counted[0]!;
  assert.equal(chart.id, 'perUser.ndcg@10');
  assert.match(chart.description, / over 4 users in 20 bins\.$/);
  assert.deepEqual(
    chart.series[0]!.points.map((p) => p.y),
    counts,
  );
  assert.deepEqual(chart.table!.rows[8], ['0.40–0.45', 1]);
  assert.equal(chart.note, 'mean 0.3850, 1 users undefined');
  assert.deepEqual(chart.group, { id: 'perUser', title: 'Per-user distribution', option: chart.x.label });
  // Without the mean and the undefined users, no note.
  const plain = storedHistograms({ 'ndcg@10': { edges, counts, mean: null, undefinedUsers: 0 } })[0]!;
  assert.equal(plain.note, undefined);
  assert.deepEqual({ ...plain, note: chart.note }, chart);
});

test('a count (users evaluated) shows no direction: its card has none, the HTML export draws no arrow', () => {
  // The results file stores `higher` for every ranking key; the glossary knows the count has no good direction.
  const r = rankingResults();
  r.metrics['users_evaluated'] = { value: 3, direction: 'higher' };
  const m = buildReportModel(r);
  const cards = m.tabs.flatMap((t) => t.cards);
  assert.equal(cards.find((c) => c.key === 'users_evaluated')!.direction, 'none');
  const html = reportToHtml(m);
  const cardHtml = /<div class="card" data-metric="users_evaluated"[^]*?<\/div><\/div>/.exec(html)?.[0] ?? '';
  assert.match(cardHtml, /<div class="k">Users evaluated<\/div>/);
});
