import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ItemMapTable } from '../../../src/core/metrics/ranking/itemMap';
import { asItemMap, highlightUser, itemMapChart, NAMED_CATEGORIES } from '../../../src/shared/itemMapChart';
import { chartToSvg } from '../../../src/shared/svgChart';
import { reportToHtml } from '../../../src/shared/exportHtml';
import { buildReportModel } from '../../../src/shared/report';
import { rankingResults } from '../helpers/sampleResults';

const map = (): ItemMapTable => ({
  source: 'itemEmbeddings',
  file: 'emb.npy',
  dim: 8,
  itemsWithVectors: 9,
  explainedVariance: [3, 1],
  explainedVarianceRatio: [0.5, 0.25],
  k: 10,
  limit: 5000,
  ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'],
  x: [0, 1, 2, 3, 4, 5, 6, 7, 8],
  y: [8, 7, 6, 5, 4, 3, 2, 1, 0],
  recommended: [5, 0, 1, 0, 0, 2, 0, 0, 1],
  popularity: [1, 1, 2, 3, 4, 5, 9, 20, 100],
  categoryColumn: 'section',
  // p × 3, q × 2, r, s, t and one without a category; "p|q" counts as p.
  categories: ['p', 'p|q', 'p', 'q', 'q', 'r', 's', 't', null],
  nameColumn: 'name',
  names: ['Alpha', null, null, null, null, null, null, null, '<b>Eye</b>'],
});

test('by category: the largest categories get their own colour, the rest one group', () => {
  const c = itemMapChart(map())!;
  assert.equal(NAMED_CATEGORIES, 4);
  // p (3), q (2), then r, s by name among the singletons; t and the item without a category share "other".
  assert.deepEqual(
    c.series.map((s) => [s.label, s.colour, s.pointIds]),
    [
      ['p', 'blue', ['a', 'b', 'c']],
      ['q', 'orange', ['d', 'e']],
      ['r', 'purple', ['f']],
      ['s', 'yellow', ['g']],
      ['other categories', 'foreground', ['h', 'i']],
    ],
  );
  assert.equal(c.x.label, 'PC 1 (50.0% of the variance)');
  assert.equal(c.y.label, 'PC 2 (25.0% of the variance)');
  assert.deepEqual(c.itemMap, { k: 10, items: 9 });
  assert.equal(
    c.series[0]!.pointLabels![0],
    'a \u2014 Alpha \u00b7 section p \u00b7 train count 1 \u00b7 in the top 10 of 5 users',
  );
  assert.equal(c.table.rows.length, 9);
  assert.deepEqual(c.table.columns, [
    'item',
    'name',
    'section',
    'PC 1',
    'PC 2',
    'train count',
    'users with it in their top 10',
  ]);
});

test('by popularity: quartile bins of the train counts when there is no category', () => {
  const m = { ...map(), categories: undefined, categoryColumn: undefined };
  const c = itemMapChart(m)!;
  // Sorted counts 1 1 2 3 4 5 9 20 100: quartile cuts at index ⌊0.25·9⌋ = 2 → 2, ⌊4.5⌋ = 4 → 4, ⌊6.75⌋ = 6 → 9.
  assert.deepEqual(
    c.series.map((s) => [s.label, s.pointIds]),
    [
      ['train count 1–2', ['a', 'b', 'c']],
      ['train count 3–4', ['d', 'e']],
      ['train count 5–9', ['f', 'g']],
      ['train count 10–100', ['h', 'i']],
    ],
  );
  // No categories and no train counts: one colour.
  const plain = itemMapChart({ ...m, popularity: undefined })!;
  assert.deepEqual(
    plain.series.map((s) => s.label),
    ['items'],
  );
});

test('by popularity from the item table (itemPopularity): the column names the bins, labels and table column', () => {
  const m = {
    ...map(),
    categories: undefined,
    categoryColumn: undefined,
    popularity: [0.5, 1, 1.5, 3, 4.25, 5, 9, 20, 100.5],
    popularityColumn: 'units',
  };
  const c = itemMapChart(m)!;
  // Quartile cuts at sorted index 2 → 1.5, 4 → 4.25, 6 → 9; each bin from its smallest value (real
  // numbers: no "cut + 1") to its cut.
  assert.deepEqual(
    c.series.map((s) => [s.label, s.pointIds]),
    [
      ['units 0.5000–1.5000', ['a', 'b', 'c']],
      ['units 3–4.2500', ['d', 'e']],
      ['units 5–9', ['f', 'g']],
      ['units 20–100.5000', ['h', 'i']],
    ],
  );
  assert.equal(c.series[0]!.pointLabels![0], 'a \u2014 Alpha \u00b7 units 0.5000 \u00b7 in the top 10 of 5 users');
  assert.deepEqual(c.table.columns, ['item', 'name', 'PC 1', 'PC 2', 'units', 'users with it in their top 10']);
  assert.equal(c.table.kinds[4], 'num');
  assert.match(c.note!, /popularity: column \u201cunits\u201d from the item table \(itemPopularity\)/);
  // the train counts say so
  assert.match(
    itemMapChart({ ...m, popularity: map().popularity, popularityColumn: undefined })!.note!,
    /train interactions/,
  );
  assert.equal(asItemMap({ ...m, popularityColumn: 3 }), undefined);
});

test('malformed maps give no chart', () => {
  assert.equal(itemMapChart(undefined), undefined);
  assert.equal(asItemMap({ ...map(), x: [1] }), undefined);
  assert.equal(asItemMap({ ...map(), ids: [] }), undefined);
  assert.equal(asItemMap({ ...map(), y: map().y.map(() => NaN) }), undefined);
  assert.equal(asItemMap({ ...map(), categories: [1] }), undefined);
  assert.equal(asItemMap({ ...map(), names: 'x' }), undefined);
});

test('highlightUser: the recommended items on the map, hits apart, the rest faded; items off the map listed', () => {
  const c = itemMapChart(map())!;
  const h = highlightUser(c, 'u1', [
    { item: 'c', hit: true },
    { item: 'zz', hit: false },
    { item: 'a', hit: false },
    { item: 'i', hit: true },
  ]);
  assert.equal(h.onMap, 3);
  assert.equal(h.hits, 2);
  assert.deepEqual(h.missing, ['zz']);
  const last = h.chart.series.slice(-2);
  assert.deepEqual(
    last.map((s) => [s.label, s.colour, s.pointIds, s.points]),
    [
      ['top 4 of u1', 'red', ['a'], [{ x: 0, y: 8 }]],
      [
        'hits of u1',
        'green',
        ['c', 'i'],
        [
          { x: 2, y: 6 },
          { x: 8, y: 0 },
        ],
      ],
    ],
  );
  assert.ok(h.chart.series.slice(0, -2).every((s) => s.faded));
  assert.ok(!c.series.some((s) => s.faded), 'the original model is not changed');
});

test("highlightUser: the user's relevant items missed (not in the top K) as plus signs of their own, off-map ones listed", () => {
  const c = itemMapChart(map())!;
  const h = highlightUser(
    c,
    'u1',
    [
      { item: 'c', hit: true },
      { item: 'a', hit: false },
    ],
    ['e', 'nowhere', 'h'],
  );
  assert.equal(h.missedOnMap, 2);
  assert.deepEqual(h.missedMissing, ['nowhere']);
  const miss = h.chart.series.at(-1)!;
  assert.deepEqual(
    [miss.label, miss.colour, miss.marker, miss.style, miss.pointIds, miss.points],
    [
      'missed: relevant to u1, not in the top 2',
      'green',
      'cross',
      'points',
      ['e', 'h'],
      [
        { x: 4, y: 4 },
        { x: 7, y: 1 },
      ],
    ],
  );
  // No other series of the map has that marker; without missed items there is no such series.
  assert.ok(h.chart.series.slice(0, -1).every((s) => s.marker === undefined));
  assert.equal(highlightUser(c, 'u1', [{ item: 'c', hit: true }]).chart.series.at(-1)!.label, 'hits of u1');
});

test('the report places the map in the ranking tab; the HTML export draws it as SVG with text escaped', () => {
  const r = rankingResults();
  r.tables.itemMap = map();
  const model = buildReportModel(r);
  const ranking = model.tabs.find((t) => t.id === 'ranking')!;
  const chart = ranking.charts.find((c) => c.id === 'itemMap.chart')!;
  assert.ok(chart);
  assert.equal(model.targets['itemMap.chart']?.tab, 'ranking');
  assert.ok(!ranking.tables.some((t) => t.id === 'table.itemMap'), 'not also shown as a generic table');
  const svg = chartToSvg(chart);
  assert.equal(svg.match(/<circle /g)?.length, 9);
  const html = reportToHtml(model);
  assert.ok(!html.includes('<b>Eye</b>'));
  assert.ok(html.includes('&lt;b&gt;Eye&lt;/b&gt;'));
});
