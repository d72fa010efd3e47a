/**
 * The typed columns of a classification prediction file after the input rules of docs/inputs.md has been
 * applied (class set, prediction, score, invalid rows). Metric families read only this.
 * Arrays are indexed by row 0..n-1 in file order (skipped rows removed).
 */
export interface ClassificationData {
  /** The input path as given (used in messages). */
  file: string;
  n: number;
  /** Class names in class order (strings even when the labels are integers). */
  classes: string[];
  /** True class index per row, 0..C-1. */
  labels: Int32Array;
  /** Predicted class index per row, 0..C-1 (a `pred` column, else the arg-max, first on ties). */
  preds: Int32Array;
  /**
   * Class probabilities, row-major n×C (logits already turned into probabilities by a stable
   * softmax), or null when the file has only predictions.
   */
  probs: Float64Array | null;
  /** True when `probs` came from logits (softmax applied). */
  fromLogits: boolean;
  /** A `confidence`/`score`/`margin` column, when present (it wins over derived scores). */
  scoreColumn: Float64Array | null;
  /** Name of the column `scoreColumn` came from. */
  scoreColumnName: string | null;
  /** Sample weights `w_i ≥ 0`; null means all 1. */
  weights: Float64Array | null;
  /** An `accept` column as 0/1, or null. */
  accept: Uint8Array | null;
  /** A `group` column's values per row, or null. */
  groupColumn: string[] | null;
  /** A `split` column's values per row (lower-cased, e.g. `val`, `test`), or null. */
  split: string[] | null;
  /** An `id` column's values per row, or null. */
  ids: string[] | null;
  /** Physical 1-based line of each row in the file (header = line 1). */
  lines: Int32Array;
}
