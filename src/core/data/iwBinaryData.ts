/**
 * The typed columns of an importance-weighted binary file (docs/inputs.md and docs/metrics/importance.md) after the
 * rows have been checked: labels as 0/1, finite scores, strata, optional weights and ids. Arrays are
 * indexed by row 0..n-1 in file order (skipped rows removed). Metric code reads only this.
 */

import type { RowIds } from './rowIds';

/** Stratum codes in {@link IwBinaryData.strata}. */
export const STRATUM_B = 0;
export const STRATUM_BC = 1;

export interface IwBinaryData {
  /** The input path as given (used in messages). */
  file: string;
  n: number;
  /** 1 = positive, 0 = negative. */
  labels: Uint8Array;
  /** Finite scores; higher = more likely positive. */
  scores: Float64Array;
  /** {@link STRATUM_B} or {@link STRATUM_BC} per row, or null when the file has no stratum column. */
  strata: Int32Array | null;
  /** A `weight` column (finite, ≥ 0), or null. It overrides the stratum weights. */
  weightColumn: Float64Array | null;
  /** An `id` column's values, or null. */
  ids: RowIds | null;
  /** Physical 1-based line of each row (header = line 1). */
  lines: Int32Array;
  /** How the positive class was written in the file (e.g. `1`, or `positiveLabel`). */
  positiveLabel: string;
  /** How the negative class was written, null when no negative row was seen. */
  negativeLabel: string | null;
  /** B-rows and Bc-rows (0 when there is no stratum column). */
  b: number;
  m: number;
  /** Role → column name, as detected or configured. */
  columns: Record<string, string>;
}
