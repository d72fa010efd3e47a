import type { RowIds } from './rowIds';

/** Class indices 0…C−1, one per row: one byte each when the classes fit. */
export type ClassIndices = Int32Array | Uint16Array | Uint8Array;

/**
 * The narrowest array of {@link ClassIndices} for `C` classes: 1 byte a row up to 256 classes, 2 up
 * to 65,536 (the reader allows fewer), else 4. Each run holds one type, so a loop over it stays
 * monomorphic.
 */
export function classIndexType(C: number): new (n: number) => ClassIndices {
  return C <= 256 ? Uint8Array : C <= 65536 ? Uint16Array : Int32Array;
}

/** How a confidence score is derived from class probabilities (src/core/metrics/scores.ts). */
export type ScoreKind = 'msp' | 'margin' | 'entropy';

/**
 * Per-row quantities of the class probabilities, all that the metrics read from them (the NLL,
 * Brier and top-k terms of the classification family and the confidence score of the selective
 * and calibration families): computed row by row while the file is read
 * (src/core/metrics/probabilityTerms.ts), so that the n×C matrix need not be kept.
 */
export interface ProbabilityTerms {
  /** `−ln max(p_{i,y_i}, 1e-15)`. */
  nllTerm: Float64Array;
  /** `Σ_c (p_ic − 1[y_i=c])²`. */
  brierTerm: Float64Array;
  /** 1 + the number of classes whose probability is strictly higher than the true class's. */
  trueRank: Int32Array;
  /** The confidence score of kind `scoreKind` derived from the probabilities. */
  score: Float64Array;
  scoreKind: ScoreKind;
  /**
   * Present when the reader added up the NLL and Brier terms and counted the true-class ranks as it
   * read the rows, instead of keeping them (`keepTerms: false` when loading, for a run that reads
   * them only for its point estimates): `nllTerm`, `brierTerm` and `trueRank` are then empty and
   * these sums stand for every row, in row order.
   */
  sums?: ProbabilityTermSums;
}

/** Every row's NLL and Brier terms added in row order, and the number of rows of each true-class rank. */
export interface ProbabilityTermSums {
  /** Σ of the NLL terms, from 0 in row order. */
  nll: number;
  /** Σ of the Brier terms, from 0 in row order. */
  brier: number;
  /** Entry r: the rows whose true class has rank r (1…C; entry 0 stays 0). */
  rankHist: Float64Array;
}

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
  labels: ClassIndices;
  /** Predicted class index per row, 0..C-1 (a `pred` column, else the arg-max, first on ties). */
  preds: ClassIndices;
  /**
   * Class probabilities, row-major n×C (logits already turned into probabilities by a stable
   * softmax); null when the file has only predictions, or when the reader was not asked to keep
   * them (the metrics read {@link probTerms}; the row table of the inspection shows a row's
   * best classes from the matrix).
   */
  probs: Float64Array | null;
  /** The per-row quantities of the class probabilities; null when the file has only predictions. */
  probTerms: ProbabilityTerms | null;
  /** True when the class probabilities came from logits (softmax applied). */
  fromLogits: boolean;
  /** A `confidence`/`score`/`margin` column, when present (it wins over derived scores). */
  scoreColumn: Float64Array | null;
  /** Name of the column `scoreColumn` came from. */
  scoreColumnName: string | null;
  /** Sample weights `w_i ≥ 0`; null means all 1. Scaled by 2^{@link weightShift}. */
  weights: Float64Array | null;
  /**
   * k when the weight column was multiplied by 2^k because its largest weight was tiny (see
   * scaleTinyWeights in io/weights.ts; unshiftWeight gives a weight as written). Absent: as written.
   */
  weightShift?: number;
  /** An `accept` column as 0/1, or null. */
  accept: Uint8Array | null;
  /** A `group` column's values per row, or null. */
  groupColumn: string[] | null;
  /** A `split` column's values per row (lower-cased, e.g. `val`, `test`), or null. */
  split: string[] | null;
  /** An `id` column's values per row (numbers when they are all canonical integers: rowIds.ts), or null. */
  ids: RowIds | null;
  /** Physical 1-based line of each row in the file (header = line 1). */
  lines: Int32Array;
}
