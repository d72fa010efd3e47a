/**
 * `tables.itemMap` (items on the first two principal components of their vectors) as a scatter
 * chart with its table, and the highlighting of one user's recommended items on it. Points are
 * coloured by category when the item table has a category column (the {@link NAMED_CATEGORIES}
 * largest categories by their own colour, every other category as one group), else by popularity —
 * the train count, or the item table's `itemPopularity` column when the map says so
 * (`popularityColumn`) — in quartile bins of the shown items, else in one colour. Item ids, names and categories come from
 * the user's files: they stay plain text here, and every renderer escapes them.
 */
import type { ItemMapTable } from '../core/metrics/ranking/itemMap';
import { formatAxisValue, formatCount } from './format';
import type { CellValue, ChartModel, Colour, ColumnKind, Series, TableModel } from './model';

export const ITEM_MAP_TITLE = 'Item map';
/** Categories with a colour of their own (the largest); the rest share one. */
export const NAMED_CATEGORIES = 4;
/** Colours of the groups; red and green are kept for a highlighted user's recommendations and hits. */
const GROUP_COLOURS: readonly Colour[] = ['blue', 'orange', 'purple', 'yellow'];
const OTHER = 'other categories';
const NONE = '(no category)';

const isNums = (v: unknown, n: number): v is number[] =>
  Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x));
const isTexts = (v: unknown, n: number): v is (string | null)[] =>
  Array.isArray(v) && v.length === n && v.every((x) => x === null || typeof x === 'string');

/** The map when `value` has the stored shape (a results file is untrusted), else undefined. */
export function asItemMap(value: unknown): ItemMapTable | undefined {
  const m = value as ItemMapTable;
  if (!m || typeof m !== 'object' || !Array.isArray(m.ids) || !m.ids.every((x) => typeof x === 'string'))
    return undefined;
  const n = m.ids.length;
  if (n === 0 || !isNums(m.x, n) || !isNums(m.y, n) || !isNums(m.recommended, n)) return undefined;
  if (!isNums(m.explainedVarianceRatio, 2) || typeof m.k !== 'number' || typeof m.file !== 'string') return undefined;
  if (m.popularity !== undefined && !isNums(m.popularity, n)) return undefined;
  if (m.popularityColumn !== undefined && typeof m.popularityColumn !== 'string') return undefined;
  if (m.categories !== undefined && !isTexts(m.categories, n)) return undefined;
  if (m.names !== undefined && !isTexts(m.names, n)) return undefined;
  return m;
}

/** The first category of a cell (`a|b` → `a`); null for none. */
function firstCategory(cell: string | null | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  const first = cell.split('|')[0]!.trim();
  return first === '' ? null : first;
}

interface Grouping {
  labels: string[];
  colours: Colour[];
  /** Group index per item. */
  of: number[];
  note: string;
}

function byCategory(m: ItemMapTable): Grouping {
  const cats = m.categories!.map(firstCategory);
  const counts = new Map<string, number>();
  for (const c of cats) if (c !== null) counts.set(c, (counts.get(c) ?? 0) + 1);
  const named = [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, NAMED_CATEGORIES)
    .map((e) => e[0]);
  const rest = cats.some((c) => c === null || !named.includes(c));
  const labels = [...named, ...(rest ? [counts.size > named.length ? OTHER : NONE] : [])];
  const of = cats.map((c) => {
    const i = c === null ? -1 : named.indexOf(c);
    return i >= 0 ? i : named.length;
  });
  return {
    labels,
    colours: labels.map((_, i) => (i < named.length ? GROUP_COLOURS[i]! : 'foreground')),
    of,
    note: `Colour: the item's category (column \u201c${m.categoryColumn ?? 'category'}\u201d, the first one listed); the ${named.length} largest categories have their own colour${rest ? ', the others and items without a category share one' : ''}.`,
  };
}

/** What the map's popularity is: "train count", or the item table's column (`itemPopularity`). */
const popularityName = (m: ItemMapTable): string => m.popularityColumn ?? 'train count';

/** A popularity value: a train count as a count, a column's value as written on axes. */
const popularityText = (m: ItemMapTable, v: number): string =>
  m.popularityColumn === undefined ? formatCount(v) : formatAxisValue(v);

/** Quartile bins of the shown items' popularity (equal bounds merged). */
function byPopularity(m: ItemMapTable): Grouping {
  const pop = m.popularity!;
  const sorted = [...pop].sort((a, b) => a - b);
  const q = (f: number): number => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]!;
  const cuts = [...new Set([q(0.25), q(0.5), q(0.75)])].filter((c) => c < sorted[sorted.length - 1]!);
  // Bin b holds values in (cuts[b − 1], cuts[b]]; the last one everything above. A train count's bin
  // starts at the integer above the cut; a column's real values at the smallest value in the bin.
  const of = pop.map((p) => {
    const b = cuts.findIndex((c) => p <= c);
    return b < 0 ? cuts.length : b;
  });
  const lo =
    m.popularityColumn === undefined
      ? [sorted[0]!, ...cuts.map((c) => c + 1)]
      : [sorted[0]!, ...cuts.map((c) => sorted.find((v) => v > c)!)];
  const hi = [...cuts, sorted[sorted.length - 1]!];
  const name = popularityName(m);
  const labels = lo.map((l, b) =>
    l === hi[b] ? `${name} ${popularityText(m, l)}` : `${name} ${popularityText(m, l)}–${popularityText(m, hi[b]!)}`,
  );
  return {
    labels,
    colours: labels.map((_, i) => GROUP_COLOURS[i]!),
    of,
    note:
      m.popularityColumn === undefined
        ? 'Colour: the item\u2019s train interactions, in quartile bins of the items shown.'
        : `Colour: the item\u2019s popularity: column \u201c${m.popularityColumn}\u201d from the item table (itemPopularity), in quartile bins of the items shown.`,
  };
}

function pointLabel(m: ItemMapTable, i: number): string {
  const name = m.names?.[i];
  const cat = m.categories?.[i];
  const parts = [
    name ? `${m.ids[i]} \u2014 ${name}` : m.ids[i]!,
    ...(cat ? [`${m.categoryColumn ?? 'category'} ${cat}`] : []),
    ...(m.popularity ? [`${popularityName(m)} ${popularityText(m, m.popularity[i]!)}`] : []),
    `in the top ${m.k} of ${formatCount(m.recommended[i]!)} user${m.recommended[i] === 1 ? '' : 's'}`,
  ];
  return parts.join(' \u00b7 ');
}

const pct = (r: number): string => `${(100 * r).toFixed(1)}%`;

function itemMapTable(m: ItemMapTable): TableModel {
  const cols: [string, ColumnKind][] = [
    ['item', 'text'],
    ...(m.names ? [[m.nameColumn ?? 'name', 'text'] as [string, ColumnKind]] : []),
    ...(m.categories ? [[m.categoryColumn ?? 'category', 'text'] as [string, ColumnKind]] : []),
    ['PC 1', 'num'],
    ['PC 2', 'num'],
    ...(m.popularity
      ? [[popularityName(m), m.popularityColumn === undefined ? 'int' : 'num'] as [string, ColumnKind]]
      : []),
    [`users with it in their top ${m.k}`, 'int'],
  ];
  const rows: CellValue[][] = m.ids.map((id, i) => [
    id,
    ...(m.names ? [m.names[i] ?? null] : []),
    ...(m.categories ? [m.categories[i] ?? null] : []),
    m.x[i]!,
    m.y[i]!,
    ...(m.popularity ? [m.popularity[i]!] : []),
    m.recommended[i]!,
  ]);
  return {
    id: 'itemMap.chart.table',
    title: `${ITEM_MAP_TITLE}: coordinates`,
    columns: cols.map((c) => c[0]),
    kinds: cols.map((c) => c[1]),
    rows,
  };
}

/** The scatter of the map, or undefined when the results hold none (or a malformed one). */
export function itemMapChart(value: unknown): ChartModel | undefined {
  const m = asItemMap(value);
  if (!m) return undefined;
  const n = m.ids.length;
  const g = m.categories ? byCategory(m) : m.popularity ? byPopularity(m) : undefined;
  const labels = g?.labels ?? ['items'];
  const radius = n > 1000 ? 2 : 3;
  const series: Series[] = labels.map((label, s) => {
    const idx = m.ids.map((_, i) => i).filter((i) => (g ? g.of[i] === s : true));
    return {
      label,
      colour: g?.colours[s] ?? 'blue',
      style: 'points',
      radius,
      points: idx.map((i) => ({ x: m.x[i]!, y: m.y[i]! })),
      pointLabels: idx.map((i) => pointLabel(m, i)),
      pointIds: idx.map((i) => m.ids[i]!),
    };
  });
  const [r1, r2] = m.explainedVarianceRatio;
  const from =
    m.source === 'itemEmbeddings' ? `embeddings (${m.file})` : `factors (${m.file}, in the users' score metric)`;
  const shown =
    n < m.itemsWithVectors
      ? ` ${formatCount(n)} of the ${formatCount(m.itemsWithVectors)} items are shown: those in the most users' top ${m.k}, then the most popular.`
      : '';
  return {
    id: 'itemMap.chart',
    title: `${ITEM_MAP_TITLE} (principal components of the item ${m.source === 'itemEmbeddings' ? 'embeddings' : 'factors'})`,
    description: `Scatter of ${formatCount(n)} items on the first two principal components of their ${m.dim}-dimensional ${from}; PC 1 holds ${pct(r1!)} and PC 2 ${pct(r2!)} of the variance.${g ? ` ${g.labels.length} colour groups.` : ''}`,
    x: { label: `PC 1 (${pct(r1!)} of the variance)`, type: 'linear' },
    y: { label: `PC 2 (${pct(r2!)} of the variance)`, type: 'linear' },
    series,
    itemMap: { k: m.k, items: n },
    table: itemMapTable(m),
    note:
      `${formatCount(m.itemsWithVectors)} items with a vector, placed by principal component analysis of their ${m.dim}-dimensional ${from}: nearby items have similar vectors. ` +
      (g ? `${g.note} ` : '') +
      shown,
  };
}

/** A user's top-K list as the item inspector returns it. */
export interface HighlightItem {
  item: string;
  hit: boolean;
}

export interface Highlight {
  /** The map with the user's items drawn on top (the other points faint). */
  chart: ChartModel;
  /** Recommended items found on the map, hits among them, and items not on the map. */
  onMap: number;
  hits: number;
  missing: string[];
  /** The user's relevant items outside the top K that are on the map, and those that are not. */
  missedOnMap: number;
  missedMissing: string[];
}

/**
 * The map (as {@link itemMapChart} built it) with one user's recommended items, hits apart, and
 * their relevant items outside the top K (`missed`, a marker of their own), drawn over the faded points.
 */
export function highlightUser(
  chart: ChartModel,
  user: string,
  items: readonly HighlightItem[],
  missed: readonly string[] = [],
): Highlight {
  const where = new Map<string, { x: number; y: number; label: string }>();
  for (const s of chart.series)
    s.pointIds?.forEach((id, i) =>
      where.set(id, { x: s.points[i]!.x, y: s.points[i]!.y ?? 0, label: s.pointLabels?.[i] ?? id }),
    );
  const rec: Series = {
    label: `top ${items.length} of ${user}`,
    colour: 'red',
    style: 'points',
    radius: 6,
    points: [],
    pointLabels: [],
    pointIds: [],
  };
  const hit: Series = {
    label: `hits of ${user}`,
    colour: 'green',
    style: 'points',
    radius: 7,
    points: [],
    pointLabels: [],
    pointIds: [],
  };
  const missing: string[] = [];
  items.forEach((it, rank) => {
    const p = where.get(it.item);
    if (!p) {
      missing.push(it.item);
      return;
    }
    const s = it.hit ? hit : rec;
    s.points.push({ x: p.x, y: p.y });
    s.pointLabels!.push(`rank ${rank + 1}${it.hit ? ', a hit' : ''}: ${p.label}`);
    s.pointIds!.push(it.item);
  });
  // Relevant but not recommended: green as the hits (relevant), with a plus sign, a marker no other series of the map uses.
  const miss: Series = {
    label: `missed: relevant to ${user}, not in the top ${items.length}`,
    colour: 'green',
    marker: 'cross',
    style: 'points',
    radius: 7,
    points: [],
    pointLabels: [],
    pointIds: [],
  };
  const missedMissing: string[] = [];
  for (const id of missed) {
    const p = where.get(id);
    if (!p) {
      missedMissing.push(id);
      continue;
    }
    miss.points.push({ x: p.x, y: p.y });
    miss.pointLabels!.push(`missed (relevant, not recommended): ${p.label}`);
    miss.pointIds!.push(id);
  }
  return {
    chart: {
      ...chart,
      series: [...chart.series.map((s) => ({ ...s, faded: true })), rec, hit, ...(missed.length > 0 ? [miss] : [])],
      description: `${chart.description} The ${rec.points.length + hit.points.length} recommended items of ${user} on the map are drawn large: ${hit.points.length} hits, ${rec.points.length} others; plus signs mark the ${miss.points.length} relevant items missed (not in the top ${items.length}).`,
    },
    onMap: rec.points.length + hit.points.length,
    hits: hit.points.length,
    missing,
    missedOnMap: miss.points.length,
    missedMissing,
  };
}
