/**
 * Charts that stay readable with many classes and many series: per-class bars turn horizontal with
 * every class labelled (panel spec and exported SVG), metric × K gives each metric its colour and
 * each baseline its own dash (drawn in the legend), and a confusion matrix of many classes has an
 * "other" column and row so that every row adds up to its class's support.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PerClassRow } from '../../../src/core/results/types';
import { chooseClasses, confusionSubset, normaliseConfusion, withOther } from '../../../src/shared/confusionView';
import { DASH_PATTERNS } from '../../../src/shared/model';
import { confusionChart, perClassBar, PER_CLASS_VERTICAL_MAX } from '../../../src/shared/report/classification';
import { metricVsKChart } from '../../../src/shared/report/ranking';
import { buildReportModel } from '../../../src/shared/report';
import { reportToHtml } from '../../../src/shared/exportHtml';
import { categoryTickDrop, chartToSvg, dashClass, escapeXml } from '../../../src/shared/svgChart';
import { classificationResults, rankingResults } from '../helpers/reportFixtures';

/** 30 classes, some with non-Latin names (as on the data the issue was found with). */
const NAMES = Array.from({ length: 30 }, (_, i) =>
  i === 3
    ? 'Ærøskøbing ferry'
    : i === 11
      ? '東京 (Tokyo)'
      : i === 20
        ? 'class "<b>&"'
        : `class_${String(i).padStart(2, '0')}`,
);

function perClassRows(names: string[]): PerClassRow[] {
  return names.map((c, i) => ({
    class: c,
    support: 10 + i,
    accuracy: (i % 10) / 10,
    ci: [Math.max(0, (i % 10) / 10 - 0.05), Math.min(1, (i % 10) / 10 + 0.05)] as [number, number],
  }));
}

/** The `<text class="tick" …>` elements of an SVG: their position and text (the full name when cut). */
function ticks(svg: string): { x: number; y: number; text: string; transform?: string }[] {
  const out: { x: number; y: number; text: string; transform?: string }[] = [];
  for (const m of svg.matchAll(/<text class="tick"([^>]*)>(.*?)<\/text>/g)) {
    const attrs = m[1]!;
    const body = m[2]!;
    const title = /<title>(.*?)<\/title>/.exec(body);
    const t = /transform="translate\(([-\d.]+),([-\d.]+)\)/.exec(attrs);
    const x = t ? Number(t[1]) : Number(/ x="([-\d.]+)"/.exec(attrs)![1]);
    const y = t ? Number(t[2]) : Number(/ y="([-\d.]+)"/.exec(attrs)![1]);
    out.push({ x, y, text: title ? title[1]! : body, ...(t ? { transform: t[0] } : {}) });
  }
  return out;
}

test('per-class bars: up to 12 classes stand side by side; more run across with every class on the category axis', () => {
  const few = perClassBar(perClassRows(NAMES.slice(0, PER_CLASS_VERTICAL_MAX)), classificationResults());
  assert.equal(few.horizontal, undefined);
  const many = perClassBar(perClassRows(NAMES), classificationResults());
  assert.equal(many.horizontal, true);
  assert.deepEqual(many.x.categories, NAMES);
  assert.equal(many.series[0]!.points.length, 30);
  assert.match(many.description, /^Horizontal bar chart of accuracy for each of 30 classes/);
});

test('per-class bars of 30 classes in the HTML export: every class labelled, labels 28 px apart (11 px font), whiskers with caps, axis title below the value ticks', () => {
  const svg = chartToSvg(perClassBar(perClassRows(NAMES), classificationResults()));
  const t = ticks(svg);
  const classTicks = t.filter((x) => NAMES.map(escapeXml).includes(x.text));
  assert.deepEqual(
    classTicks.map((x) => x.text),
    NAMES.map(escapeXml),
    'every class name, in order, once',
  );
  // A label's box is its baseline − 9 (ascent of an 11 px font) to + 3 (descent): boxes of successive
  // labels do not overlap when baselines are at least 12 px apart; they are 28 px apart.
  for (let i = 1; i < classTicks.length; i++) {
    const gap = classTicks[i]!.y - classTicks[i - 1]!.y;
    assert.equal(gap, 28, `rows ${i - 1} and ${i}`);
    assert.ok(gap >= 12);
  }
  // The value axis's ticks sit under the last row; the axis title under them.
  const valueTicks = t.filter((x) => !NAMES.map(escapeXml).includes(x.text));
  const lastRow = classTicks[classTicks.length - 1]!.y;
  assert.ok(valueTicks.length >= 3);
  for (const v of valueTicks) assert.ok(v.y - 9 > lastRow + 3, `value tick ${v.text} below the last class`);
  const title = /<text class="axis-label" x="[-\d.]+" y="([-\d.]+)"[^>]*>accuracy<\/text>/.exec(svg);
  assert.ok(title, 'the value axis title');
  for (const v of valueTicks) assert.ok(Number(title[1]) - 9 > v.y + 3, 'axis title below the tick labels');
  // The svg is tall enough for all rows and the title.
  const height = Number(/<svg [^>]*height="(\d+)"/.exec(svg)![1]);
  assert.ok(height >= Number(title[1]) + 3);
  // Each bar's interval: a line with a cap at each end (M…H…M…V…M…V…), in the text colour.
  const whiskers = [
    ...svg.matchAll(
      /<path class="line c-foreground" d="M[\d.]+,[\d.]+H[\d.]+M[\d.]+,[\d.]+V[\d.]+M[\d.]+,[\d.]+V[\d.]+"\/>/g,
    ),
  ];
  assert.equal(whiskers.length, 30);
});

test('vertical category charts in the HTML export: the x axis title sits below the rotated labels, never on them', () => {
  const names = ['a very long class name one', 'another long class name', 'short'];
  const svg = chartToSvg(perClassBar(perClassRows(names), classificationResults()));
  const t = ticks(svg).filter((x) => x.transform);
  assert.deepEqual(
    t.map((x) => x.text),
    names,
  );
  const y0 = Number(/<line class="axis" x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/.exec(svg)![1]);
  // Lowest point of a label cut to 14 characters, rotated 35°: 12 + 14 × 6.4 × sin 35° + 11 × cos 35°.
  const drop = 12 + 14 * 6.4 * Math.sin((35 * Math.PI) / 180) + 11 * Math.cos((35 * Math.PI) / 180);
  assert.ok(Math.abs(categoryTickDrop(names.map((label) => ({ label }))) - drop) < 1e-9);
  const title = Number(/<text class="axis-label" x="[-\d.]+" y="([-\d.]+)"[^>]*>class<\/text>/.exec(svg)![1]);
  // The title's box (baseline − 9) starts below the labels' lowest point.
  assert.ok(title - 9 > y0 + drop, `title at ${title}, labels reach ${y0 + drop}`);
  const height = Number(/<svg [^>]*height="(\d+)"/.exec(svg)![1]);
  assert.ok(height >= title + 3, 'the svg holds the title');
});

/** Dense metric-vs-K curves of `metrics`, each with the baselines `baselines`. */
function denseRanking(metrics: string[], baselines: string[]) {
  const r = rankingResults();
  const xs = [1, 2, 3, 4, 5];
  metrics.forEach((m, mi) => {
    // any metric name: `mrr` and `hitrate` are a later version's (the chart draws them with the rest)
    Object.assign(r.curves, {
      [`metricVsK.${m}`]: {
        x: 'K',
        y: m,
        xs,
        ys: xs.map((k) => 0.1 * mi + 0.01 * k),
        extra: Object.fromEntries(baselines.map((b, bi) => [b, xs.map((k) => 0.01 * bi + 0.001 * k)])),
      },
    });
  });
  return r;
}

test('metric × K with 6 metrics and 2 baselines (18 series): a colour per metric, its baselines in that colour with one dash pattern per baseline kind', () => {
  const metrics = ['ndcg', 'recall', 'precision', 'map', 'mrr', 'hitrate'];
  const c = metricVsKChart(denseRanking(metrics, ['popularity', 'random']))!;
  assert.equal(c.series.length, 18);
  const runs = c.series.filter((s) => !s.lineDash);
  assert.equal(runs.length, 6);
  assert.equal(new Set(runs.map((s) => s.colour)).size, 6, 'six distinct colours');
  for (const s of runs) assert.ok(!s.dashed && !s.dotted, `${s.label} solid`);
  const pop = c.series.filter((s) => s.label.endsWith('(popularity)'));
  const rnd = c.series.filter((s) => s.label.endsWith('(random)'));
  assert.equal(pop.length, 6);
  assert.equal(rnd.length, 6);
  runs.forEach((run, i) => {
    assert.equal(pop[i]!.colour, run.colour, `${pop[i]!.label} in its metric's colour`);
    assert.equal(rnd[i]!.colour, run.colour, `${rnd[i]!.label} in its metric's colour`);
    assert.deepEqual(pop[i]!.lineDash, [...DASH_PATTERNS[0]!]);
    assert.deepEqual(rnd[i]!.lineDash, [...DASH_PATTERNS[1]!]);
  });
  assert.notDeepEqual(DASH_PATTERNS[0], DASH_PATTERNS[1]);
  assert.equal(new Set(DASH_PATTERNS.map((d) => d.join(' '))).size, DASH_PATTERNS.length, 'every pattern differs');
  // The @K path (no dense curves): the same rule.
  const k = metricVsKChart(rankingResults())!;
  assert.deepEqual(
    k.series.map((s) => [s.label, s.colour, s.lineDash ?? null]),
    [
      ['NDCG', 'blue', null],
      ['NDCG (popularity)', 'blue', [...DASH_PATTERNS[0]!]],
      ['Recall', 'orange', null],
    ],
  );
});

test('metric × K in the HTML export: every legend entry is a stretch of its line in its colour and dash, fitting the width', () => {
  const metrics = ['ndcg', 'recall', 'precision', 'map', 'mrr', 'hitrate'];
  const c = metricVsKChart(denseRanking(metrics, ['popularity', 'random']))!;
  const svg = chartToSvg(c);
  const entries = [
    ...svg.matchAll(
      /<line class="legend-line c-(\w+)(?: (dash-\d))?" x1="([\d.]+)" x2="([\d.]+)" y1="[\d.]+" y2="[\d.]+"\/><text class="legend" x="([\d.]+)" y="([\d.]+)"><tspan class="c-\w+-text">([^<]*)<\/tspan><\/text>/g,
    ),
  ].map((e) => ({
    colour: e[1]!,
    dash: e[2] ?? '',
    x1: Number(e[3]),
    x2: Number(e[4]),
    textX: Number(e[5]),
    y: e[6]!,
    text: e[7]!,
  }));
  assert.deepEqual(
    entries.map((e) => e.text),
    c.series.map((s) => s.label),
    'one legend entry per series, in order',
  );
  entries.forEach((e, i) => {
    const s = c.series[i]!;
    assert.equal(e.colour, s.colour);
    assert.equal(
      e.dash,
      s.lineDash ? `dash-${DASH_PATTERNS.findIndex((d) => d.join() === s.lineDash!.join())}` : '',
      `${s.label}'s dash`,
    );
    assert.equal(e.dash, dashClass(s));
    assert.ok(e.x2 <= 640 - 16 + 1e-9 && e.textX < 640, `${s.label} inside the chart's width`);
  });
  // The page's stylesheet draws each dash class with its pattern.
  const css = reportToHtml(buildReportModel(denseRanking(metrics, ['popularity', 'random'])));
  assert.ok(css.includes('svg .dash-0{stroke-dasharray:6 4}'));
  assert.ok(css.includes('svg .dash-1{stroke-dasharray:2 3}'));
  // Entries of one legend row do not overlap: each starts after the previous one's text.
  for (let i = 1; i < entries.length; i++) {
    const [prev, cur] = [entries[i - 1]!, entries[i]!];
    if (prev.y !== cur.y) continue;
    assert.ok(cur.x1 >= prev.textX + [...prev.text].length * 6.4, `${cur.text} after ${prev.text}`);
  }
  // The plotted baselines carry the same dash as their legend entries.
  assert.equal([...svg.matchAll(/<path class="line c-\w+ dash-0" d="[^"]+"\/>/g)].length, 6);
  assert.equal([...svg.matchAll(/<path class="line c-\w+ dash-1" d="[^"]+"\/>/g)].length, 6);
});

/** 25 classes: each class c has 100 + c rows; c is right 60 + c times, the rest go to (c + 1) % 25 and (c + 7) % 25. */
function bigMatrix(): { labels: string[]; matrix: number[][] } {
  const k = 25;
  const labels = Array.from({ length: k }, (_, i) => `k${i}`);
  const matrix = labels.map(() => new Array<number>(k).fill(0));
  for (let c = 0; c < k; c++) {
    const wrong = 100 + c - (60 + c);
    matrix[c]![c] = 60 + c;
    matrix[c]![(c + 1) % k]! += Math.floor(wrong / 2) + (c % 5);
    matrix[c]![(c + 7) % k]! += wrong - Math.floor(wrong / 2) - (c % 5);
  }
  return { labels, matrix };
}

test('a confusion matrix of 25 classes shows 20 with an "other" column and row: every row adds up to its class support, every column to its predictions', () => {
  const { labels, matrix } = bigMatrix();
  const support = matrix.map((r) => r.reduce((a, b) => a + b, 0));
  assert.deepEqual(
    support,
    labels.map((_, c) => 100 + c),
  );
  const h = confusionChart({ labels, matrix }).heatmap!;
  assert.equal(h.rows.length, 20);
  assert.equal(h.other!.classes, 5);
  assert.deepEqual(h.all!.labels, labels);
  const a = withOther(h);
  const at = new Map(labels.map((l, i) => [l, i]));
  h.rows.forEach((r, i) =>
    assert.equal(
      a.values[i]!.reduce((x, y) => x + y, 0),
      support[at.get(r)!],
      `row ${r} adds up to its support`,
    ),
  );
  const predicted = labels.map((_, j) => matrix.reduce((x, r) => x + r[j]!, 0));
  h.cols.forEach((c, j) =>
    assert.equal(
      a.values.reduce((x, r) => x + r[j]!, 0),
      predicted[at.get(c)!],
      `column ${c} adds up to its predictions`,
    ),
  );
  // The other row holds the hidden classes' rows; the grand total is every row of the file.
  const hidden = labels.filter((l) => !h.rows.includes(l));
  assert.equal(
    a.values[20]!.reduce((x, y) => x + y, 0),
    hidden.reduce((x, l) => x + support[at.get(l)!]!, 0),
  );
  assert.equal(
    a.values.flat().reduce((x, y) => x + y, 0),
    support.reduce((x, y) => x + y, 0),
  );
  // Shares of the true class: each row, "other" included, sums to 1.
  for (const row of normaliseConfusion(a.values, 'true', a.rowTotals, a.colTotals))
    assert.ok(Math.abs(row.reduce<number>((x, y) => x + (y ?? 0), 0) - 1) < 1e-12);
  const cols = normaliseConfusion(a.values, 'pred', a.rowTotals, a.colTotals);
  for (let j = 0; j <= 20; j++) assert.ok(Math.abs(cols.reduce((x, r) => x + (r[j] ?? 0), 0) - 1) < 1e-12);
});

test('choosing the classes: lowest recall, most rows, picked; the other cells follow the choice', () => {
  const { labels, matrix } = bigMatrix();
  // Recall of c is (60 + c) / (100 + c), increasing in c: the lowest are k0…k3.
  assert.deepEqual(chooseClasses(matrix, 'recall', 4), [0, 1, 2, 3]);
  // Support 100 + c: the most rows are k24…k21 (shown in label order).
  assert.deepEqual(chooseClasses(matrix, 'support', 4), [21, 22, 23, 24]);
  // A class without rows has no recall: it comes last.
  const withEmpty = matrix.map((r) => [...r, 0]).concat([new Array<number>(26).fill(0)]);
  assert.ok(!chooseClasses(withEmpty, 'recall', 25).includes(25));
  // Two picked classes: k0 and k5. Row k0 = 60 right, 20 + 0 to k1, 20 − 0 to k7 → other 40.
  const s = confusionSubset(labels, matrix, [0, 5]);
  assert.deepEqual(s.rows, ['k0', 'k5']);
  assert.deepEqual(s.values[0], [60, 0]);
  assert.equal(s.other!.col[0], 40);
  assert.equal(s.values[0]![0]! + s.values[0]![1]! + s.other!.col[0]!, 100);
  // Column k5 gets k4's (c + 1) share (20 + 4) and k23's (c + 7) share (20 − 3): both hidden → other row.
  assert.equal(s.other!.row[1], 24 + 17);
  assert.equal(s.other!.classes, 23);
  // Every class shown: no other row or column.
  assert.equal(
    confusionSubset(
      labels,
      matrix,
      labels.map((_, i) => i),
    ).other,
    undefined,
  );
});

test('the exported SVG heatmap of many classes draws the other row and column, with the hidden-class count', () => {
  const { labels, matrix } = bigMatrix();
  const svg = chartToSvg(confusionChart({ labels, matrix }));
  assert.equal([...svg.matchAll(/<rect class="cell"/g)].length, 21 * 21);
  assert.equal([...svg.matchAll(/>other \(5 classes\)</g)].length, 2);
  // Row k0's other cell: its 40 misses (to k1 and k7) are both shown? k0's confusions go to k1 and k7.
  const h = confusionChart({ labels, matrix }).heatmap!;
  const i = h.rows.indexOf('k0');
  if (i >= 0) {
    const hiddenOf0 = [1, 7].filter((j) => !h.rows.includes(`k${j}`)).reduce((x, j) => x + matrix[0]![j]!, 0);
    assert.equal(h.other!.col[i], hiddenOf0);
  }
});
