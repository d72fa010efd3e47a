/**
 * The report's view model: what the webview draws and what the HTML export writes, built from a
 * results object (or a comparison, or a foreign JSON's numeric leaves) by pure functions in
 * `reportModel.ts` / `compareModel.ts`. Plain JSON so that it crosses `postMessage` as is; no
 * vscode, no DOM.
 */
import type { OperatingPointModel } from './operatingPoint';
import type { UserInspectorModel } from './userInspector';
import type { InspectModel } from './inspectModel';
import type { ConfusionOther } from './confusionView';

export type CellValue = string | number | null;
/** How a column's numbers are printed: `int` counts, `num` 4 decimals, `p` p-values, `text` as is. */
export type ColumnKind = 'text' | 'int' | 'num' | 'p';
/** 1 = best, 2 = second, 3 = third in its column. */
export type Place = 1 | 2 | 3;

export interface TableModel {
  id: string;
  title: string;
  columns: string[];
  kinds: ColumnKind[];
  rows: CellValue[][];
  /** Optional best/second/third per cell, aligned with `rows`. */
  marks?: (Place | null)[][];
  /** Optional text appended to a cell (significance stars), aligned with `rows`. */
  suffixes?: string[][];
  /**
   * Display names of the columns (a metric key's glossary name), aligned with `columns`; `columns`
   * keep the keys, which are shown on hover and used when the table is copied.
   */
  columnNames?: (string | null)[];
  /** Display names of each row's first cell, likewise (the cell keeps the key). */
  rowNames?: (string | null)[];
  /** Optional hover text per cell, aligned with `rows` (why a value is missing). */
  cellTitles?: (string | null)[][];
  note?: string;
}

/** Theme colour names; the webview maps them to `--vscode-charts-*` variables. */
export type Colour = 'blue' | 'red' | 'green' | 'yellow' | 'orange' | 'purple' | 'foreground';
export const SERIES_COLOURS: readonly Colour[] = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'];
/**
 * Dash patterns told apart at a glance (dash, gap, … in CSS pixels), for lines of one colour that
 * differ in kind (a run's baselines): dashes, dots, dash-dot, long dashes, dash-dot-dot.
 */
export const DASH_PATTERNS: readonly (readonly number[])[] = [
  [6, 4],
  [2, 3],
  [8, 3, 2, 3],
  [14, 4],
  [8, 3, 2, 3, 2, 3],
];

export interface Axis {
  label: string;
  type: 'linear' | 'log' | 'category';
  min?: number;
  max?: number;
  /** Category names for `type: 'category'`; points use the index as x. */
  categories?: string[];
}

export interface Point {
  x: number;
  y: number | null;
}

export interface Series {
  label: string;
  colour: Colour;
  points: Point[];
  style: 'line' | 'points' | 'bar' | 'step';
  /** Shade the area under the line (AURC). */
  fill?: boolean;
  dashed?: boolean;
  /** A finer dash than `dashed` (a second baseline beside the first). */
  dotted?: boolean;
  /**
   * The line's dash pattern (dash, gap, … in CSS pixels), overriding `dashed` / `dotted`: a chart
   * with several kinds of dashed line gives each kind its own pattern (see {@link DASH_PATTERNS}).
   */
  lineDash?: number[];
  /** Vertical error bars aligned with `points`. */
  errorBars?: ({ lo: number; hi: number } | null)[];
  /** Text per point for tooltips (class names, bin ranges). */
  pointLabels?: string[];
  /** Item id per point (the item map: a user's recommended items are found by id). */
  pointIds?: string[];
  /** Point radius in CSS pixels (a scatter of thousands of points draws them small). */
  radius?: number;
  /** Drawn faint (the item map's points while a user's items are highlighted). */
  faded?: boolean;
  /**
   * The point marker, instead of the one that goes with the series' colour (a series that shares
   * its colour with another but is a different kind: the item map's missed relevant items).
   */
  marker?: 'cross';
}

/** A shaded x-range behind the data (shot groups). */
export interface Band {
  from: number;
  to: number;
  label: string;
  colour: Colour;
}

/** A horizontal (`axis: 'y'`) or vertical (`axis: 'x'`) reference line. */
export interface RefLine {
  axis: 'x' | 'y';
  value: number;
  label: string;
  colour: Colour;
}

export interface HeatmapModel {
  rowTitle: string;
  colTitle: string;
  rows: string[];
  cols: string[];
  values: number[][];
  /** Totals of the shown rows / columns over the whole matrix (normalising a sub-matrix needs them). */
  rowTotals?: number[];
  colTotals?: number[];
  /** Number of classes of the whole matrix (more than shown when only the largest confusions are). */
  classes?: number;
  /** The largest off-diagonal cells, largest first; `share` = count / the true class's total. */
  top?: { true: string; pred: string; count: number; share: number | null }[];
  /** When some classes are not shown: the "other" column and row that sum them (rows then add up to each class's support). */
  other?: ConfusionOther;
  /** The whole matrix, when not every class is shown: the viewer can choose the classes shown. */
  all?: { labels: string[]; matrix: number[][] };
}

export interface ChartModel {
  id: string;
  title: string;
  /** One sentence for screen readers (aria-label). */
  description: string;
  x: Axis;
  y: Axis;
  series: Series[];
  bands?: Band[];
  lines?: RefLine[];
  /** When present the chart is a heatmap and `series` is empty. */
  heatmap?: HeatmapModel;
  /** The same data as a table (the accessible alternative and the copy source). */
  table: TableModel;
  note?: string;
  /** Bars drawn along the y axis (categories down the side, values across): long category names stay legible. */
  horizontal?: boolean;
  /** The item map: the report offers a user picker that highlights the user's top-K items. */
  itemMap?: { k: number; items: number };
  /** Charts sharing a group are alternatives chosen with a select (per-user histograms). */
  group?: { id: string; title: string; option: string };
}

export interface CardModel {
  key: string;
  /** Human name from the glossary ("AURC, 101-point grid, coverage 0.2–1"); the key when unknown. */
  name?: string;
  /** Hover text from the glossary: meaning, formula, short citation. */
  explain?: string;
  family: string;
  value: number | null;
  text: string;
  ci: string;
  /** The good direction; 'none' for a count (users evaluated, rows skipped): no arrow, nobody wins on it. */
  direction: 'higher' | 'lower' | 'none';
  note?: string;
  /** A caveat shown under the card (intervals of extremes; an interval that excludes the point). */
  caveat?: string;
  /** Extra values shown small (baselines), e.g. `unweighted 0.81`. */
  extra?: string[];
}

export interface TabModel {
  id: string;
  title: string;
  cards: CardModel[];
  /** Tables shown right after the cards, before the charts (the ranking metric × K table). */
  leadTables?: TableModel[];
  charts: ChartModel[];
  tables: TableModel[];
  notes: string[];
  /** The threshold explorer of this tab (selective, importance-weighted). */
  explorer?: OperatingPointModel;
  /** The user inspector of this tab (ranking). */
  userInspector?: UserInspectorModel;
  /** The Changed rows view of a comparison (filled by the webview from the host's answers). */
  changedRows?: ChangedRowsModel;
}

export interface HeaderModel {
  title: string;
  lines: { label: string; value: string }[];
  warnings: string[];
  /**
   * Set while the report shows results before the final ones ("point estimates, intervals
   * pending", "provisional intervals"): the webview says so in a banner until the final results.
   */
  stage?: string;
  /** Entries that inform rather than warn (a metric left out by design), listed apart from the warnings. */
  notes?: string[];
}

export interface ReportModel {
  kind: 'results' | 'compare' | 'table';
  title: string;
  header: HeaderModel;
  headline: CardModel[];
  tabs: TabModel[];
  /** Metric key / chart id → where it is shown: for "open the report at that chart". */
  targets: Record<string, { tab: string; element?: string }>;
  /** Row drill-down and slices (set by the extension host for results reports). */
  inspect?: InspectModel;
  /** A comparison's Slices tab ("Where B loses"): its baseline (A) and the runs B may be. */
  compareSlices?: { baseline: string; runs: { id: string; name: string }[] };
}

/** The Changed rows tab of a comparison: its runs and the metrics offered before the first answer. */
export interface ChangedRowsModel {
  task: string;
  /** The baseline (run A), as the comparison names it, and its display name. */
  baseline: { run: string; name: string };
  /** The other runs (run B candidates), in the comparison's order. */
  runs: { run: string; name: string }[];
  /**
   * The metrics offered before the first answer: accuracy and NLL for rows with a class; none for
   * ranking, whose per-user keys come with the first answer.
   */
  metrics: string[];
}
