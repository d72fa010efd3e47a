/**
 * What the report needs to inspect the rows behind its numbers: whether rows can be queried, the
 * subset the report currently shows, and the slice table (from the results' `tables.slices`, or
 * computed on demand). Plain JSON; built on the host, read by the webview. No vscode, no DOM.
 */
import type { FilterTerm } from '../core/rows/types';
import type { DrillTargets } from './drillSpec';
import { directionOf } from '../core/results/directions';

/** A column the report can be sliced by (a non-role column with few distinct values). */
export interface SliceCandidate {
  column: string;
  /** Distinct values in the file, when counted. */
  distinct?: number;
  /** A per-row number cut into bins (ranking: per-user numbers). */
  numeric: boolean;
  /** How a number is binned, when not in quantile bins (a ranking run's train interactions: the activity bins). */
  binning?: string;
}

/** One metric of one slice: its value and interval, and its difference to the whole file. */
export interface SliceCell {
  value: number | null;
  ci?: [number, number];
  diff?: number | null;
  diffCi?: [number, number];
}

export interface SliceRow {
  /** The column (or columns, joined by ` × `) sliced by. */
  slice: string;
  /** The slice's value as shown (a category, or a bin such as `[0.2, 0.5)`). */
  value: string;
  n: number;
  metrics: Record<string, SliceCell>;
  /** The filter selecting this slice's rows (empty when it cannot be written as one). */
  where: FilterTerm[];
}

export interface SliceTable {
  /** Metric keys in column order, with which direction is better. */
  metrics: { key: string; direction: 'higher' | 'lower' }[];
  rows: SliceRow[];
  note?: string;
}

/**
 * What the intervals of the Slices table are, shown under it: the same slice's report (a slice
 * clicked) resamples the slice's rows alone, so the two intervals of one slice differ, and each
 * place says which it shows.
 */
export const SLICE_INTERVALS_NOTE =
  "Intervals: one bootstrap of the whole file. Each resample draws rows from the whole file and a slice's value is computed from its rows in the draw, so a slice and the whole file are paired and the difference's interval accounts for the slice being part of the file. A slice's own report (click the slice) resamples that slice's rows alone, so its intervals differ a little.";

/** The same, in the report of one slice. */
export const SUBSET_INTERVALS_NOTE =
  "Intervals: a bootstrap of these rows alone. The whole file's Slices table resamples the whole file, so its interval for this slice differs a little.";

/** The report's inspection state (absent: the report cannot query rows, e.g. a comparison). */
export interface InspectModel {
  task: 'classification' | 'iw-binary' | 'ranking';
  /** Slices smaller than this are left out of the slice table and chart (setting `evalLens.minSliceSize`). */
  minSliceSize: number;
  /** The results' own slice table, when the evaluation sliced. */
  slices?: SliceTable;
  /** Chart points, table rows and cards that open the rows behind them. */
  drill: DrillTargets;
  /** The report shows only the rows matching this filter (a slice click); absent = the whole file. */
  subset?: { where: FilterTerm[]; rows: number };
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const pair = (x: unknown): [number, number] | undefined =>
  Array.isArray(x) && x.length === 2 && typeof x[0] === 'number' && typeof x[1] === 'number' ? [x[0], x[1]] : undefined;
const ROW_FIELDS = new Set(['slice', 'value', 'n', 'where', 'diff', 'delta']);

/**
 * `[lo, hi)` / `(lo, hi]` / `[lo, hi]` bin text → the filter of its rows on `column`; undefined
 * when the text is not an interval.
 */
export function intervalWhere(column: string, text: string): FilterTerm[] | undefined {
  const m =
    /^\s*([[(])\s*(-?[\d.eE+-]+|-inf(?:inity)?|−∞|-∞)\s*,\s*(-?[\d.eE+-]+|\+?inf(?:inity)?|∞|\+∞)\s*([\])])\s*$/i.exec(
      text,
    );
  if (!m) return undefined;
  const out: FilterTerm[] = [];
  const lo = Number(m[2]);
  const hi = Number(m[3]);
  if (Number.isFinite(lo)) out.push({ key: column, op: m[1] === '[' ? '>=' : '>', value: m[2]! });
  if (Number.isFinite(hi)) out.push({ key: column, op: m[4] === ']' ? '<=' : '<', value: m[3]! });
  return out;
}

/** The filter of one slice row: its own `where` when given, else `column = value` or the bin's interval. */
function whereOf(r: Obj, slice: string, value: string): FilterTerm[] {
  if (
    Array.isArray(r.where) &&
    r.where.every(
      (t) => isObj(t) && typeof t.key === 'string' && typeof t.op === 'string' && typeof t.value === 'string',
    )
  )
    return r.where as FilterTerm[];
  if (slice.includes(' × ') || slice.includes(',')) return [];
  return intervalWhere(slice, value) ?? [{ key: slice, op: '=', value }];
}

/**
 * The results' `tables.slices` (rows `{slice, value, n, <metric>: {value, ci, diff?, diffCi?}}`,
 * a difference also accepted as `diff: {<metric>: {value, ci}}`) → a {@link SliceTable};
 * undefined when the value is not such a table. Directions come from the results' metrics.
 */
export function readSliceTable(value: unknown, directions: Record<string, 'higher' | 'lower'>): SliceTable | undefined {
  const list = Array.isArray(value) ? value : isObj(value) && Array.isArray(value.rows) ? value.rows : undefined;
  if (!list) return undefined;
  const rows: SliceRow[] = [];
  const keys: string[] = [];
  for (const r of list) {
    if (
      !isObj(r) ||
      (typeof r.slice !== 'string' && !Array.isArray(r.slice)) ||
      r.value === undefined ||
      typeof r.n !== 'number'
    )
      return undefined;
    const slice = Array.isArray(r.slice) ? r.slice.map(String).join(' × ') : r.slice;
    const v = Array.isArray(r.value) ? r.value.map(String).join(' × ') : String(r.value);
    const diffs = isObj(r.diff) ? r.diff : isObj(r.delta) ? r.delta : {};
    const metrics: Record<string, SliceCell> = {};
    for (const [k, m] of Object.entries(r)) {
      if (ROW_FIELDS.has(k) || !isObj(m) || !('value' in m)) continue;
      const cell: SliceCell = { value: num(m.value) };
      const ci = pair(m.ci);
      if (ci) cell.ci = ci;
      const d = isObj(m.diff)
        ? m.diff
        : isObj(diffs[k])
          ? (diffs[k] as Obj)
          : typeof m.diff === 'number'
            ? { value: m.diff, ci: m.diffCi }
            : undefined;
      if (d) {
        cell.diff = num(d.value);
        const dci = pair(d.ci);
        if (dci) cell.diffCi = dci;
      }
      metrics[k] = cell;
      if (!keys.includes(k)) keys.push(k);
    }
    rows.push({ slice, value: v, n: r.n, metrics, where: whereOf(r, slice, v) });
  }
  return {
    metrics: keys.map((key) => ({
      key,
      direction: directions[key] ?? directionOf(key),
    })),
    rows,
  };
}

/**
 * The rows of a slice table shown for one metric: slices of at least `minSize` rows, worst first
 * (lowest value of a higher-is-better metric), slices without a value last, ties by size (larger
 * first) then name.
 */
export function worstFirst(t: SliceTable, metric: string, minSize: number): SliceRow[] {
  const dir = t.metrics.find((m) => m.key === metric)?.direction ?? 'higher';
  const v = (r: SliceRow): number | null => r.metrics[metric]?.value ?? null;
  return t.rows
    .filter((r) => r.n >= minSize)
    .sort((a, b) => {
      const x = v(a);
      const y = v(b);
      if (x === null || y === null) return x === null && y === null ? 0 : x === null ? 1 : -1;
      return (
        (dir === 'higher' ? x - y : y - x) ||
        b.n - a.n ||
        `${a.slice}=${a.value}`.localeCompare(`${b.slice}=${b.value}`)
      );
    });
}
