import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildCompareModel,
  compareTable,
  decidingP,
  deltaTable,
  metricPairs,
  overlayCharts,
  runBarCharts,
  runScatterCharts,
  testsTable,
  TRANSPOSE_ABOVE,
} from '../../../src/shared/compareModel';
import { markTable } from '../../../src/core/compare/marks';
import { compareResults, expectedDiagonal } from '../helpers/reportFixtures';

test('comparison table: runs × metrics with best/second/third and stars from the Holm-adjusted p', () => {
  const t = compareTable(compareResults());
  assert.deepEqual(t.columns, ['run', 'accuracy', 'nll']);
  assert.deepEqual(t.rows, [
    ['a (baseline)', 0.7, 0.9],
    ['b', 0.8, 0.7],
    ['c', 0.75, null],
  ]);
  assert.deepEqual(t.marks, [
    [null, 3, 2],
    [null, 1, 1],
    [null, 2, null],
  ]);
  // b: p_holm 0.028 → *; c: p_t 0.0004 but p_holm 0.2 → no star.
  assert.deepEqual(t.suffixes, [
    ['', '', ''],
    ['', '*', ''],
    ['', '', ''],
  ]);
});

test('decidingP prefers p_holm, else p_t', () => {
  const [b] = compareResults().tests;
  assert.equal(decidingP(b!), 0.028);
  const { p_holm: _drop, ...noHolm } = b!;
  assert.equal(decidingP(noHolm), 0.014);
});

test('tests table and paired-difference charts', () => {
  const c = compareResults();
  const t = testsTable(c);
  assert.equal(t.rows.length, 2);
  assert.equal(t.rows[0]![0], 'b');
  assert.ok(Math.abs((t.rows[0]![5] as number) - 0.1) < 1e-12);
  assert.equal(t.rows[0]![6], '[0.0200, 0.1800]');
  const m = buildCompareModel(c);
  assert.deepEqual(
    m.tabs.map((x) => x.id),
    ['table', 'tests', 'runs'],
  );
  const diff = m.tabs[1]!.charts[0]!;
  assert.equal(diff.id, 'diff.accuracy');
  assert.deepEqual(diff.x.categories, ['b', 'c']);
  assert.deepEqual(diff.series[0]!.errorBars, [
    { lo: 0.02, hi: 0.18 },
    { lo: -0.03, hi: 0.13 },
  ]);
  assert.deepEqual(diff.lines, [{ axis: 'y', value: 0, label: 'no difference', colour: 'foreground' }]);
  assert.deepEqual(
    m.headline.map((h) => [h.key, h.text, h.note]),
    [
      ['accuracy', '0.8000', 'best: b'],
      ['nll', '0.7000', 'best: b'],
    ],
  );
});

test('with many metrics the table turns: metrics as rows, runs as columns, marks and stars follow', () => {
  const c = compareResults();
  const extra = Array.from({ length: TRANSPOSE_ABOVE }, (_, i) => `m${i}`);
  c.metrics = [...c.metrics, ...extra];
  for (const m of extra) c.directions[m] = 'higher';
  const t = compareTable(c);
  assert.equal(t.title, 'Metrics × runs');
  assert.deepEqual(t.columns, ['metric', 'a (baseline)', 'b', 'c']);
  assert.deepEqual(t.rows[0], ['accuracy ↑', 0.7, 0.8, 0.75]);
  assert.deepEqual(t.rows[1], ['nll ↓', 0.9, 0.7, null]);
  assert.deepEqual(t.marks![0], [null, 3, 1, 2]);
  assert.deepEqual(t.suffixes![0], ['', '', '*', '']);
  assert.deepEqual(t.rows[2], ['m0 ↑', null, null, null]);
});

test('Δ table: one row per tested metric, the baseline value, then Δ [interval] and stars per run', () => {
  const c = compareResults();
  const d = deltaTable(c)!;
  assert.deepEqual(d.columns, ['metric', 'a (baseline)', 'Δ b', 'better by (b)', 'Δ c', 'better by (c)']);
  // 0.8 − 0.7 = +0.1 with [0.02, 0.18], Holm p 0.028 → *; 0.75 − 0.7 = +0.05, p 0.2 → no star.
  // A comparison written without the paired bootstrap has no "better by": a dash.
  assert.deepEqual(d.rows, [
    ['accuracy ↑', 0.7, '+0.1000 [+0.0200, +0.1800]*', '—', '+0.0500 [−0.0300, +0.1300]', '—'],
  ]);
  // With it: better by = +0.1/0.7 = +14.3% with its interval.
  c.tests[0]!.better_by = 0.1 / 0.7;
  c.tests[0]!.better_by_ci = [0.02 / 0.7, 0.18 / 0.7];
  assert.equal(deltaTable(c)!.rows[0]![3], '+14.3% [+2.9%, +25.7%]');
  assert.match(d.note!, /paired-bootstrap 95% percentile interval \(1000 resamples/);
  // No tests: no Δ table.
  assert.equal(deltaTable({ ...c, tests: [] }), undefined);
});

test('the untested metrics are named once, in the table note and the tests tab', () => {
  const c = { ...compareResults(), untested: ['nll'] };
  const m = buildCompareModel(c);
  assert.match(compareTable(c).note!, /Not tested \(neither per-item values nor paired resamples\): nll\./);
  assert.deepEqual(m.tabs.find((t) => t.id === 'tests')!.notes, [
    'Not tested (neither per-item values nor paired resamples): nll.',
  ]);
  assert.ok(!m.header.warnings.some((w) => /per-item/.test(w)));
});

test('overlays: one chart per curve the runs share, a series per run, baseline named; metric-vs-K charts grouped', () => {
  const c = compareResults();
  c.curves = {
    riskCoverage: {
      'a.csv': { x: 'coverage', y: 'risk', xs: [0.5, 1], ys: [0.1, 0.3] },
      'b.csv': { x: 'coverage', y: 'risk', xs: [0.5, 1], ys: [0.05, 0.2] },
    },
    reliability: {
      'a.csv': { x: 'confidence', y: 'accuracy', xs: [0.6], ys: [0.5] },
      'c.csv': { x: 'confidence', y: 'accuracy', xs: [0.7], ys: [0.8] },
    },
    'metricVsK.ndcg': {
      'a.csv': { x: 'K', y: 'ndcg', xs: [1, 2], ys: [0.1, 0.2] },
      'b.csv': { x: 'K', y: 'ndcg', xs: [1, 2], ys: [0.2, 0.3] },
    },
  };
  const charts = overlayCharts(c);
  assert.deepEqual(
    charts.map((x) => x.id),
    ['overlay.riskCoverage', 'overlay.reliability', 'overlay.metricVsK.ndcg'],
  );
  const rc = charts[0]!;
  assert.deepEqual(
    rc.series.map((s) => s.label),
    ['a (baseline)', 'b'],
  );
  assert.deepEqual(
    rc.series.map((s) => s.dashed),
    [false, true],
  );
  assert.deepEqual(rc.series[1]!.points, [
    { x: 0.5, y: 0.05 },
    { x: 1, y: 0.2 },
  ]);
  assert.equal(rc.table.rows.length, 4);
  // The reliability chart has the diagonal first.
  assert.deepEqual(charts[1]!.series[0], expectedDiagonal('perfect calibration', 'dotted'));
  assert.deepEqual(charts[2]!.group, { id: 'overlay.metricVsK', title: 'Metric', option: 'ndcg' });
  const m = buildCompareModel(c);
  assert.deepEqual(
    m.tabs.map((t) => t.id),
    ['table', 'tests', 'curves', 'runs'],
  );
  assert.equal(m.targets['overlay.riskCoverage']!.tab, 'curves');
});

test('counts print as integers in the comparison table', () => {
  const c = compareResults();
  c.metrics = ['accuracy', 'users_evaluated'];
  c.directions.users_evaluated = 'higher';
  for (const [run, v] of [
    ['a.csv', 200],
    ['b.csv', 199],
    ['c.csv', 1],
  ] as const)
    c.table[run]!.users_evaluated = v;
  const t = compareTable(c);
  assert.deepEqual(t.kinds, ['text', 'num', 'int']);
});

test('headline cards: a tie for best names every tied run; all runs tied names none', () => {
  const c = compareResults();
  // a and b share the best accuracy (equal within 1e-12 relative), c is last; nll: all three tie.
  c.table = {
    'a.csv': { accuracy: 0.8, nll: 0.5 },
    'b.csv': { accuracy: 0.8 * (1 + 1e-13), nll: 0.5 },
    'c.csv': { accuracy: 0.75, nll: 0.5 },
  };
  c.marks = markTable(c);
  assert.deepEqual(c.marks.accuracy, { 'a.csv': 1, 'b.csv': 1 });
  assert.deepEqual(c.marks.nll, {});
  const m = buildCompareModel(c);
  assert.deepEqual(
    m.headline.map((h) => [h.key, h.text, h.note]),
    [['accuracy', '0.8000', 'best: a, b (tied)']],
  );
  // The header line of the tests reads as one sentence list (no ".;").
  const tests = m.header.lines.find((l) => l.label === 'Tests')!.value;
  assert.ok(!tests.includes('.;'), tests);
});

test('several runs on one chart: a metric across runs as bars with intervals, runs as points of two metrics', () => {
  const c = compareResults();
  c.intervals = { [c.runs[0]!]: { accuracy: [0.6, 0.8] }, [c.runs[1]!]: { accuracy: [0.7, 0.9] } };
  const bars = runBarCharts(c).find((ch) => ch.id === 'runs.bars.accuracy')!;
  // The baseline first, then the others in their order; each bar with its run's interval.
  assert.deepEqual(bars.x.categories, ['a (baseline)', 'b', 'c']);
  assert.deepEqual(bars.series[0]!.points, [
    { x: 0, y: 0.7 },
    { x: 1, y: 0.8 },
    { x: 2, y: 0.75 },
  ]);
  assert.deepEqual(bars.series[0]!.errorBars, [{ lo: 0.6, hi: 0.8 }, { lo: 0.7, hi: 0.9 }, null]);
  assert.equal(bars.group?.id, 'runs.bars');
  // The first two metrics when no known pair exists: one point per run with both values.
  const pairs = metricPairs(c);
  assert.deepEqual(pairs, [['accuracy', 'nll']]);
  const scatter = runScatterCharts(c)[0]!;
  assert.deepEqual(
    scatter.series.map((s) => [s.label, s.points[0]]),
    [
      ['a (baseline)', { x: 0.7, y: 0.9 }],
      ['b', { x: 0.8, y: 0.7 }],
    ],
  );
  // Ranking: coverage@K against NDCG@K for every K both have.
  assert.deepEqual(metricPairs({ ...c, metrics: ['ndcg@10', 'coverage@10', 'coverage@5', 'ndcg@20'] }), [
    ['coverage@10', 'ndcg@10'],
  ]);
  // In the model: a Runs tab with both kinds, reachable as drill-down targets.
  const m = buildCompareModel(c);
  const runsTab = m.tabs.find((t) => t.id === 'runs')!;
  assert.ok(runsTab.charts.some((ch) => ch.id === 'runs.bars.accuracy'));
  assert.ok(runsTab.charts.some((ch) => ch.id.startsWith('runs.scatter.')));
  assert.deepEqual(m.targets['runs.bars.accuracy'], { tab: 'runs', element: 'runs.bars.accuracy' });
});
