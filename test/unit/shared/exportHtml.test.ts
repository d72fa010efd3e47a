import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCompareModel } from '../../../src/shared/compareModel';
import { reportToHtml } from '../../../src/shared/exportHtml';
import { buildReportModel } from '../../../src/shared/report';
import type { ChartModel } from '../../../src/shared/model';
import { chartToSvg, escapeXml, niceTicks } from '../../../src/shared/svgChart';
import { classificationResults, compareResults, rankingResults } from '../helpers/reportFixtures';

/** Anything that would make the page load something from elsewhere or run code. */
const EXTERNAL = /<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i;

test('exported HTML is self-contained: inline CSS, inline SVG charts, no script or external resource', () => {
  for (const model of [
    buildReportModel(classificationResults()),
    buildReportModel(rankingResults()),
    buildCompareModel(compareResults()),
  ]) {
    const html = reportToHtml(model, { generator: 'Eval Lens test' });
    assert.doesNotMatch(html, EXTERNAL);
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<style>/);
    const charts = model.tabs.reduce((n, t) => n + t.charts.length, 0);
    assert.equal((html.match(/<svg /g) ?? []).length, charts);
  }
});

test('exported HTML shows the values and escapes text from the results', () => {
  const r = classificationResults();
  r.source.path = 'runs/<b>evil</b>.csv';
  const html = reportToHtml(buildReportModel(r));
  // The card shows the glossary name, the key under it and on hover.
  assert.match(
    html,
    /data-metric="accuracy" title="Accuracy \(accuracy\)\nShare of rows whose predicted class is the true class\.[^"]*"><div class="k">Accuracy ↑<\/div><div class="key">accuracy<\/div><div class="v">0\.6667<\/div><div class="ci">\[0\.5000, 0\.8333\]<\/div>/,
  );
  assert.ok(!html.includes('<b>evil</b>'));
  assert.ok(html.includes('&lt;b&gt;evil&lt;/b&gt;'));
  // the comparison marks best/second/third with classes
  const cmp = reportToHtml(buildCompareModel(compareResults()));
  assert.match(cmp, /<td class="n p1">0\.8000\*<\/td>/);
});

test('SVG charts: a title for screen readers, one path per line series, heatmap cells', () => {
  const m = buildReportModel(classificationResults());
  const rc = m.tabs.find((t) => t.id === 'selective')!.charts[0]!;
  const svg = chartToSvg(rc);
  assert.match(svg, /^<svg [^>]*role="img" aria-label="[^"]+"><title>/);
  assert.equal((svg.match(/class="line c-blue"/g) ?? []).length, 1);
  assert.equal((svg.match(/class="area c-blue"/g) ?? []).length, 1);
  const heat = chartToSvg(m.tabs[0]!.charts.find((c) => c.id === 'confusion')!);
  assert.equal((heat.match(/class="cell"/g) ?? []).length, 9);
  assert.equal(escapeXml(`<a href="x">&'`), '&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
});

test('niceTicks: steps of 1, 2 or 5 × 10^k covering the range', () => {
  assert.deepEqual(niceTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(-0.03, 0.18), [0, 0.05, 0.1, 0.15]);
  assert.deepEqual(niceTicks(0, 100), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(niceTicks(3, 3), [3]);
});

test('SVG horizontal bars: categories down the side, bar lengths along the value axis, height grows with categories', () => {
  const chart: ChartModel = {
    id: 'h',
    title: 'h',
    description: 'two categories',
    x: { label: 'category', type: 'category', categories: ['a', 'bb'] },
    y: { label: 'value', type: 'linear', min: 0, max: 1 },
    horizontal: true,
    series: [
      {
        label: 'coverage',
        colour: 'blue',
        style: 'bar',
        points: [
          { x: 0, y: 0.5 },
          { x: 1, y: 1 },
        ],
      },
    ],
    table: { id: 'h.table', title: 'h', columns: [], kinds: [], rows: [] },
  };
  const svg = chartToSvg(chart);
  const rects = [
    ...svg.matchAll(/<rect class="bar c-blue" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g),
  ];
  assert.equal(rects.length, 2);
  // Left edge = 16 + (longest name, 2 characters) × 6.4 = 28.8; right edge = 640 − 16 = 624.
  const [x0, x1] = [16 + 2 * 6.4, 624];
  assert.equal(Number(rects[0]![1]), Number(x0.toFixed(1)));
  assert.equal(Number(rects[0]![3]), Number(((x1 - x0) * 0.5).toFixed(1)));
  assert.equal(Number(rects[1]![3]), Number((x1 - x0).toFixed(1)));
  // Bars stacked down the side: the second band starts one band (28 px) lower.
  assert.ok(Math.abs(Number(rects[1]![2]) - Number(rects[0]![2]) - 28) < 0.11);
  assert.match(svg, /text-anchor="end">bb<\/text>/);
  const three = chartToSvg({ ...chart, x: { ...chart.x, categories: ['a', 'bb', 'c'] } });
  const height = (s: string): number => Number(/height="(\d+)"/.exec(s)![1]);
  assert.equal(height(three) - height(svg), 28);
});

test('SVG per-class bars carry their interval: a capped whisker per class with an interval, in the text colour', () => {
  const r = classificationResults();
  const rows = r.tables.perClass!;
  rows[0]!.ci = [1, 1];
  rows[1]!.ci = [0.25, 0.75];
  // Class c has no interval: no whisker for it.
  const bars = buildReportModel(r)
    .tabs.flatMap((t) => t.charts)
    .find((c) => c.id === 'perClassAccuracy')!;
  const svg = chartToSvg(bars);
  const whiskers = [...svg.matchAll(/<path class="line c-foreground" d="M([\d.]+),([\d.]+)V([\d.]+)M/g)];
  assert.equal(whiskers.length, 2);
  // The y axis spans 0..1 over the plot height (360 − 16 − 64 = 280 px from y = 16): lo 0.25 → 226, hi 0.75 → 86.
  assert.deepEqual(whiskers[1]!.slice(2, 4).map(Number), [16 + 280 * 0.75, 16 + 280 * 0.25]);
  // Centred on its bar: the bar's x + half its width.
  const rects = [...svg.matchAll(/<rect class="bar c-blue" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)];
  assert.equal(rects.length, 3);
  const centre = Number(rects[1]![1]) + Number(rects[1]![2]) / 2;
  assert.ok(Math.abs(Number(whiskers[1]![1]) - centre) < 0.11, `${whiskers[1]![1]} vs ${centre}`);
});
