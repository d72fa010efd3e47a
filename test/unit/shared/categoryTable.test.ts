import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CategoryBreakdown } from '../../../src/core/metrics/ranking/categories';
import type { Results } from '../../../src/core/results/types';
import { categoryChart, categoryTable, CATEGORY_TITLE } from '../../../src/shared/categoryTable';
import { exportReport } from '../../../src/shared/exportReport';
import { buildReportModel } from '../../../src/shared/report';
import { tableToCsv, tableToMarkdown } from '../../../src/shared/tableText';
import { classificationResults } from '../helpers/reportFixtures';

/** A name that breaks Markdown tables, HTML, and CSV unless each export escapes it. */
const NASTY = 'a|b <script>alert(1)</script>, "q"';

// Hand-made: 2 users, K = 2. games: 4 items, 2 recommended, 3 of the 4 list slots, 1 of 2 relevant found;
// NASTY: 2 items, 1 recommended, 1 slot, no relevant item → recall null.
const breakdown: CategoryBreakdown = {
  column: 'section',
  k: 2,
  users: 2,
  rows: [
    {
      category: 'games',
      catalogItems: 4,
      recommendedItems: 2,
      coverage: 2 / 4,
      share: 3 / 4,
      relevant: 2,
      hits: 1,
      recall: 1 / 2,
    },
    {
      category: NASTY,
      catalogItems: 2,
      recommendedItems: 1,
      coverage: 1 / 2,
      share: 1 / 4,
      relevant: 0,
      hits: 0,
      recall: null,
    },
  ],
};

function results(): Results {
  return classificationResults({
    task: 'ranking',
    metrics: { 'recall@2': { value: 0.5, direction: 'higher' } },
    families: { ranking: ['recall@2'] },
    curves: {},
    tables: { categoryBreakdown: breakdown },
  });
}

test('categoryTable: one row per category with counts, rates and the reason for an undefined recall', () => {
  const t = categoryTable(breakdown)!;
  assert.equal(t.title, CATEGORY_TITLE);
  assert.deepEqual(t.columns, [
    'category',
    'catalogue items',
    'recommended',
    'coverage',
    'share of recommendations',
    'recall',
    'hits',
    'relevant',
  ]);
  assert.deepEqual(t.rows, [
    ['games', 4, 2, 0.5, 0.75, 0.5, 1, 2],
    [NASTY, 2, 1, 0.5, 0.25, null, 0, 0],
  ]);
  assert.equal(t.cellTitles?.[0]?.[5], null);
  assert.match(t.cellTitles![1]![5]!, /no evaluated user has a relevant item/);
  assert.match(t.note!, /Top-2 lists of 2 evaluated users/);
  // Formatted like the other tables: 4 decimals, null as a dash.
  assert.match(tableToMarkdown(t), /\| games \| 4 \| 2 \| 0\.5000 \| 0\.7500 \| 0\.5000 \| 1 \| 2 \|/);
  assert.match(tableToMarkdown(t), /\| 0\.2500 \| — \| 0 \| 0 \|/);
});

test('categoryTable: absent or malformed breakdowns give no table', () => {
  assert.equal(categoryTable(undefined), undefined);
  assert.equal(categoryTable({ rows: [{ category: 3 }], k: 2 }), undefined);
  assert.equal(categoryTable({ ...breakdown, rows: [] }), undefined);
});

test('categoryChart: coverage and recall bars per category, horizontal, with the table as its alternative', () => {
  const c = categoryChart(breakdown)!;
  assert.equal(c.horizontal, true);
  assert.deepEqual(c.x.categories, ['games', NASTY]);
  assert.deepEqual(
    c.series.map((s) => [s.label, s.points.map((p) => p.y)]),
    [
      ['coverage', [0.5, 0.5]],
      ['recall', [0.5, null]],
    ],
  );
  assert.match(c.description, /2 item categories/);
  assert.equal(c.table.rows.length, 2);
});

test('report model: the ranking tab holds the chart and the table, and no generic dump of the breakdown', () => {
  const m = buildReportModel(results());
  const tab = m.tabs.find((t) => t.id === 'ranking')!;
  assert.ok(tab.charts.some((c) => c.id === 'categoryBreakdown.chart'));
  assert.deepEqual(
    tab.tables.map((t) => t.id),
    ['categoryBreakdown'],
  );
  assert.ok(!m.tabs.some((t) => t.tables.some((x) => x.id === 'table.categoryBreakdown')));
});

test('exports: the category table is escaped in HTML, Markdown and CSV', () => {
  const html = exportReport({ kind: 'results', results: results() }, 'html');
  assert.ok(!html.includes('<script>'), 'no raw script tag in the HTML');
  assert.ok(html.includes('a|b &lt;script&gt;alert(1)&lt;/script&gt;, &quot;q&quot;'));
  assert.match(html, /title="Undefined: no evaluated user has a relevant item in this category\."/);
  const md = exportReport({ kind: 'results', results: results() }, 'md');
  assert.ok(md.includes(`### ${CATEGORY_TITLE}`));
  // The pipe is escaped, so the row still has 8 cells.
  const row = md.split('\n').find((l) => l.includes('alert(1)'))!;
  assert.equal(row.split(/(?<!\\)\|/).length - 2, 8);
  const csv = exportReport({ kind: 'results', results: results() }, 'csv');
  // The metrics CSV gets three rows per category in its own columns; the name is quoted, its quotes doubled.
  assert.ok(
    csv.includes(
      '\ncategory,"recall@2 [category: a|b <script>alert(1)</script>, ""q""]",,,,higher,undefined: no evaluated user has a relevant item in this category\n',
    ),
    csv,
  );
  assert.ok(
    csv.includes('\ncategory,coverage@2 [category: games],0.5,,,higher,2 of 4 catalogue items recommended\n'),
    csv,
  );
  assert.ok(tableToCsv(categoryTable(breakdown)!).includes('"a|b <script>alert(1)</script>, ""q""",2,1,0.5,0.25,,0,0'));
});
