/**
 * The shape of `eval-lens diff`'s answer (diffRows.ts computes it): types only, so that the report
 * webview can name them without the file readers behind the computation.
 */
import type { Direction } from '../results/types';

export interface DiffRow {
  /** Row id (classification) or user (ranking); null when the files have no ids. */
  id: string | null;
  label?: string;
  lineA: number;
  lineB: number;
  predA?: string;
  predB?: string;
  /** The row's value of the metric in each run (1/0 for accuracy). */
  a: number | null;
  b: number | null;
  /** b − a. */
  change: number | null;
  /** change / number of matched rows: the row's share of Δ. */
  contribution: number | null;
}

export interface RowDiff {
  task: string;
  runs: [string, string];
  metric: string;
  /** The per-row metrics that can be chosen for these runs (accuracy and nll, or the per-user keys). */
  metrics: string[];
  direction: Direction;
  /** Matched rows (after the filter). */
  n: number;
  /** Rows whose value changed. */
  changed: number;
  /** Accuracy: the four cells and McNemar's exact test. */
  cells: { bothRight: number; lost: number; gained: number; bothWrong: number } | null;
  mcnemar: { b: number; c: number; p: number } | null;
  /** Δ = mean(B) − mean(A) over the matched rows. */
  delta: number | null;
  /** The changed rows, worst for B first, at most `limit`. */
  rows: DiffRow[];
  /** Parquet / `.npz`: line numbers are data rows, there is no line to open. */
  rowAddressed: boolean;
  where: string | null;
  /** With a split: the rows compared are A's test rows, `testRows` of the file's `rowsInFile`; null for every row. */
  measured?: { testRows: number; rowsInFile: number } | null;
}
