/**
 * The selective tab's figures of the protocol: risk–coverage over the practical range (coverage
 * 0.2–1), AURC (standard / balanced / worst) as bars, the error of each class group at the operating
 * point as bars — in the report model and drawn as SVG in the HTML export, with the results' values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateFile } from '../../../../src/core/evaluate';
import { trapz } from '../../../../src/core/metrics/riskCoverage';
import { reportToHtml } from '../../../../src/shared/exportHtml';
import { buildReportModel } from '../../../../src/shared/report';
import { chartToSvg } from '../../../../src/shared/svgChart';

const made = evaluateFile('examples/digits-lt/logreg.csv', { overrides: { bootstrap: { n: 50 } } });

test('practical range: the grid points with coverage ≥ 0.2, whose area / 0.8 is each *_grid101_0.2_1 key', async () => {
  const r = await made;
  const chart = buildReportModel(r)
    .tabs.find((t) => t.id === 'selective')!
    .charts.find((c) => c.id === 'riskCoveragePractical')!;
  assert.ok(chart);
  assert.deepEqual([chart.x.min, chart.x.max], [0.2, 1]);
  const grid = r.curves.riskCoverageGrid101!;
  const from = grid.xs.findIndex((x) => x >= 0.2);
  const [std, bal, worst] = chart.series;
  assert.equal(std!.points.length, 101 - from);
  assert.deepEqual(
    std!.points.map((p) => p.x),
    grid.xs.slice(from),
  );
  const area = (ys: (number | null)[]) =>
    trapz(
      ys.map((y) => y!),
      std!.points.map((p) => p.x),
      0,
    ) / 0.8;
  assert.equal(area(std!.points.map((p) => p.y)), r.metrics['aurc_grid101_0.2_1']!.value);
  assert.equal(area(bal!.points.map((p) => p.y)), r.metrics['aurc_balanced_grid101_0.2_1']!.value);
  assert.equal(area(worst!.points.map((p) => p.y)), r.metrics['aurc_worst_grid101_0.2_1']!.value);
  assert.match(std!.label, /AURC 0\.2–1/);
  const svg = chartToSvg(chart);
  assert.equal((svg.match(/<path class="line c-(blue|orange|red)[^"]*"/g) ?? []).length, 3);
});

test('AURC bars: exact (0–1) and grid (0.2–1) per risk, with intervals; drawn to scale in the SVG', async () => {
  const r = await made;
  const m = r.metrics;
  const chart = buildReportModel(r)
    .tabs.find((t) => t.id === 'selective')!
    .charts.find((c) => c.id === 'aurcBars')!;
  assert.deepEqual(chart.x.categories, ['standard', 'balanced', 'worst group']);
  const [exact, grid] = chart.series;
  assert.deepEqual(
    exact!.points.map((p) => p.y),
    [m.aurc!.value, m.aurc_balanced!.value, m.aurc_worst!.value],
  );
  assert.deepEqual(
    grid!.points.map((p) => p.y),
    [m['aurc_grid101_0.2_1']!.value, m['aurc_balanced_grid101_0.2_1']!.value, m['aurc_worst_grid101_0.2_1']!.value],
  );
  assert.deepEqual(exact!.errorBars![1], { lo: m.aurc_balanced!.ci![0], hi: m.aurc_balanced!.ci![1] });
  const svg = chartToSvg(chart);
  const heights = (c: string) =>
    [
      ...svg.matchAll(
        new RegExp(`<rect class="bar c-${c}" x="[\\d.]+" y="[\\d.]+" width="[\\d.]+" height="([\\d.]+)"`, 'g'),
      ),
    ].map((x) => Number(x[1]));
  const h = heights('blue');
  assert.equal(h.length, 3);
  // heights are proportional to the values (the y axis starts at 0), up to the 0.1 px rounding
  const ratio = h[2]! / h[0]!;
  const want = m.aurc_worst!.value! / m.aurc!.value!;
  assert.ok(Math.abs(ratio - want) < 0.01 * want, `${ratio} vs ${want}`);
  assert.equal(heights('orange').length, 3);
  assert.equal((svg.match(/<path class="line c-foreground" d="M/g) ?? []).length, 6); // a whisker per bar
});

test('group error bars: error_group.<g> at the operating point with intervals, balanced and worst as lines', async () => {
  const r = await made;
  const m = r.metrics;
  const model = buildReportModel(r);
  const chart = model.tabs.find((t) => t.id === 'selective')!.charts.find((c) => c.id === 'groupErrorBars')!;
  assert.deepEqual(chart.x.categories, ['head', 'tail']);
  assert.deepEqual(
    chart.series[0]!.points.map((p) => p.y),
    [m['error_group.head']!.value, m['error_group.tail']!.value],
  );
  assert.deepEqual(
    chart.lines!.map((l) => l.value),
    [m.balanced_error!.value, m.worst_error!.value],
  );
  // balanced = mean of the two, worst = max (hand check of what the lines show)
  assert.equal(m.balanced_error!.value, (m['error_group.head']!.value! + m['error_group.tail']!.value!) / 2);
  const svg = chartToSvg(chart);
  const rects = [
    ...svg.matchAll(/<rect class="bar c-purple" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g),
  ];
  assert.equal(rects.length, 2);
  // y axis 0..1 over 280 px: a bar's height is 280 × its error (0.1 px rounding)
  rects.forEach((x, i) => {
    const v = [m['error_group.head']!.value!, m['error_group.tail']!.value!][i]!;
    assert.ok(Math.abs(Number(x[2]) - 280 * v) <= 0.1, `${x[2]} vs ${280 * v}`);
  });
  assert.equal((svg.match(/<line class="ref c-(orange|red)"/g) ?? []).length, 2);
  // and the HTML export draws all three in the Selective section
  const html = reportToHtml(model);
  for (const title of [
    'Risk–coverage, practical range (coverage 0.2–1)',
    'AURC: standard, balanced, worst group',
    'Error per class group at the operating point',
  ])
    assert.ok(html.includes(title), title);
  assert.ok(html.includes('<rect class="bar c-purple"'));
});
