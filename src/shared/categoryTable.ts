/**
 * `tables.categoryBreakdown` (coverage and recall by item category at one cutoff K) as a report
 * table and a chart. Category names come from the user's metadata file: they stay plain cell
 * text here and every renderer escapes them.
 */
import type { CategoryBreakdown } from '../core/metrics/ranking/categories';
import { formatCount } from './format';
import type { CellValue, ChartModel, ColumnKind, TableModel } from './model';

export const CATEGORY_TITLE = 'Coverage and recall by item category';

/** Why a cell is empty (shown as the cell's hover text), or null when it has a value. */
const WHY = {
  coverage: 'No catalogue item in this category.',
  share: 'The top-K lists hold no item at all.',
  recall: 'Undefined: no evaluated user has a relevant item in this category.',
};

function isBreakdown(v: unknown): v is CategoryBreakdown {
  const b = v as CategoryBreakdown;
  return (
    !!b &&
    typeof b === 'object' &&
    Array.isArray(b.rows) &&
    typeof b.k === 'number' &&
    b.rows.every((r) => r && typeof r.category === 'string')
  );
}

/** The table: one row per category, in the stored order (largest catalogue first). Undefined when absent or malformed. */
export function categoryTable(value: unknown): TableModel | undefined {
  if (!isBreakdown(value) || value.rows.length === 0) return undefined;
  const cols: [string, ColumnKind][] = [
    ['category', 'text'],
    ['catalogue items', 'int'],
    ['recommended', 'int'],
    ['coverage', 'num'],
    ['share of recommendations', 'num'],
    ['recall', 'num'],
    ['hits', 'int'],
    ['relevant', 'int'],
  ];
  const rows: CellValue[][] = value.rows.map((r) => [
    r.category,
    r.catalogItems,
    r.recommendedItems,
    r.coverage,
    r.share,
    r.recall,
    r.hits,
    r.relevant,
  ]);
  const cellTitles = value.rows.map((r) => [
    null,
    null,
    null,
    r.coverage === null ? WHY.coverage : null,
    r.share === null ? WHY.share : null,
    r.recall === null ? WHY.recall : null,
    null,
    null,
  ]);
  const undefinedRecall = value.rows.filter((r) => r.recall === null).length;
  return {
    id: 'categoryBreakdown',
    title: CATEGORY_TITLE,
    columns: cols.map((c) => c[0]),
    kinds: cols.map((c) => c[1]),
    rows,
    cellTitles,
    note:
      `Top-${value.k} lists of ${formatCount(value.users)} evaluated users; categories from the item metadata column \u201c${value.column}\u201d (an item with several categories counts in each). ` +
      'Coverage: recommended items of the category / its catalogue items. Share: the part of all recommendation slots holding an item of the category. ' +
      'Recall: hits / relevant, summed over users (micro average).' +
      (undefinedRecall > 0
        ? ` Recall \u2014: no evaluated user has a relevant item in the category (${undefinedRecall} ${undefinedRecall === 1 ? 'category' : 'categories'}).`
        : ''),
  };
}

/** Horizontal bars of coverage and recall per category; the table above is its text alternative. */
export function categoryChart(value: unknown): ChartModel | undefined {
  const t = categoryTable(value);
  if (!t || !isBreakdown(value)) return undefined;
  const rows = value.rows;
  return {
    id: 'categoryBreakdown.chart',
    title: `${CATEGORY_TITLE} (K = ${value.k})`,
    description: `Horizontal bars of coverage and recall at K = ${value.k} for ${rows.length} item categories, largest catalogue first; categories without relevant items have no recall bar.`,
    x: { label: 'category', type: 'category', categories: rows.map((r) => r.category) },
    y: { label: 'value', type: 'linear', min: 0, max: 1 },
    horizontal: true,
    series: [
      {
        label: 'coverage',
        colour: 'blue',
        style: 'bar',
        points: rows.map((r, i) => ({ x: i, y: r.coverage })),
        pointLabels: rows.map(
          (r) => `${formatCount(r.recommendedItems)} of ${formatCount(r.catalogItems)} items recommended`,
        ),
      },
      {
        label: 'recall',
        colour: 'orange',
        style: 'bar',
        points: rows.map((r, i) => ({ x: i, y: r.recall })),
        pointLabels: rows.map((r) =>
          r.recall === null
            ? 'no relevant item'
            : `${formatCount(r.hits)} of ${formatCount(r.relevant)} relevant items found`,
        ),
      },
    ],
    table: { ...t, id: 'categoryBreakdown.chart.table' },
  };
}
