/**
 * The shape of a report's drill targets: for a chart point, heatmap cell, table row or metric card,
 * the filter that selects the rows behind it. Types only, in a module of their own so the view
 * models can name them without importing the builder in `drillTargets.ts`.
 */
import type { FilterTerm, RowSort } from '../core/rows/types';

/** The rows behind one number: a title for the rows panel, the filter, and the sort to show them in. */
export interface DrillSpec {
  title: string;
  where: FilterTerm[];
  sort?: RowSort;
}

export interface ChartDrill {
  /** By series, then point (category) index; null where a point has no rows behind it. */
  points?: (DrillSpec | null)[][];
  /** Heatmap cells, [row][column]. */
  cells?: (DrillSpec | null)[][];
}

export interface TableDrill {
  /** One spec per table row. */
  rows?: (DrillSpec | null)[];
  /** One spec per table cell, [row][column] (the confusion matrix's counts). */
  cells?: (DrillSpec | null)[][];
}

export interface DrillTargets {
  charts: Record<string, ChartDrill>;
  tables: Record<string, TableDrill>;
  /** Metric key → the rows behind it. */
  cards: Record<string, DrillSpec>;
  /** The classic error-analysis view: the most confident mistakes (classification). */
  mistakes?: DrillSpec;
  /**
   * The filter of the rows every metric covers (`split_role = test` when the metrics cover a split's test
   * rows), already put first in every spec above; a target built in the webview from what it draws
   * (a confusion cell named by its classes) puts it first too.
   */
  measured?: FilterTerm[];
}
