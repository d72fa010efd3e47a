/**
 * Per-fold stability (`tables.folds`): with a `fold` column, the headline classification metrics
 * (the slice table's: accuracy, macro_f1, and ece and aurc when the file has scores) computed on
 * each fold's rows as if the fold were a file of its own (a fold is a slice, slices.ts), then per
 * metric the mean, sample standard deviation (n − 1), minimum and maximum over the folds.
 *
 * The rows are the rows the metrics cover: with a validation/test split, the test rows. A fold
 * value with no row among them (all its rows are validation rows) is listed with n 0 and null
 * metrics and left out of the summary. A fold with fewer than `minSliceSize` rows is listed,
 * flagged `small`, and counted in the summary (every fold of a cross-validation is a run of it).
 *
 * The standard deviation divides by K − 1 (the sample standard deviation, pandas' `std()` default;
 * numpy's `std()` divides by K unless `ddof=1`). It describes how much the metric moves from fold
 * to fold; it is not the standard error of the mean, and folds of one cross-validation share
 * training data, so K − 1 understates the variance of the mean (Bengio & Grandvalet, "No Unbiased
 * Estimator of the Variance of K-Fold Cross-Validation", JMLR 5, 2004).
 */
import { EvalLensError } from '../diagnostics';
import type { TextColumn } from '../data/textColumn';
import { pointOf, rowsByCode, type SliceMetrics } from './slices';
import type { FoldRow, FoldSummary, FoldsTable } from '../results/types';

/** The note written beside the summary. */
export function foldsNote(k: number): string {
  return `mean ± std over ${k} fold${k === 1 ? '' : 's'} (sample std, n−1)`;
}

/** Mean, sample std (ddof = 1), min and max of the finite values. */
export function foldSummary(values: readonly (number | null)[]): FoldSummary {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const k = xs.length;
  if (k === 0) return { k, mean: null, std: null, min: null, max: null };
  let s = 0;
  for (const x of xs) s += x;
  const mean = s / k;
  let ss = 0;
  for (const x of xs) ss += (x - mean) * (x - mean);
  return { k, mean, std: k >= 2 ? Math.sqrt(ss / (k - 1)) : null, min: Math.min(...xs), max: Math.max(...xs) };
}

/**
 * The fold table over `n` rows. `lines[i]` is row i's line in the file (for the message about a
 * missing fold value, which is an error: every row the metrics cover must say its fold).
 */
export function computeFolds(
  column: TextColumn,
  metrics: SliceMetrics,
  n: number,
  minSize: number,
  file: string,
  lines: ArrayLike<number>,
): FoldsTable {
  for (let i = 0; i < n; i++) {
    if (column.values[column.codes[i]].trim() === '') {
      throw new EvalLensError(
        'missing-fold',
        `${file}:${lines[i]}, column "${column.name}": the fold is missing; every row the metrics are computed on needs a fold value (the fold column is "${column.name}"; name another with \`columns.fold\` in eval-lens.json).`,
        { file, line: lines[i], column: column.name },
      );
    }
  }
  const members = rowsByCode(column.codes, column.values.length, n);
  const folds: FoldRow[] = [];
  column.values.forEach((value, s) => {
    if (value.trim() === '') return;
    const size = members[s].length;
    const small = size > 0 && size < minSize;
    const row: FoldRow = { fold: value, n: size, ...(small ? { small: true as const } : {}), values: {} };
    const v = size > 0 ? pointOf(metrics.prepare(members[s]), metrics.keys.length) : null;
    metrics.keys.forEach((key, k) => {
      const x = v ? v[k] : NaN;
      row.values[key] = Number.isFinite(x) ? x : null;
    });
    folds.push(row);
  });
  const measured = folds.filter((f) => f.n > 0);
  const summary: Record<string, FoldSummary> = {};
  for (const key of metrics.keys) summary[key] = foldSummary(measured.map((f) => f.values[key]));
  return { column: column.name, note: foldsNote(measured.length), metrics: [...metrics.keys], folds, summary };
}
