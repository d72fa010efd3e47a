/**
 * What the confusion-matrix view shows, as pure functions shared by the webview and the tests:
 * the three readings of the matrix that scikit-learn's `confusion_matrix(normalize=…)` offers —
 * raw counts, normalised over each true class (row sums are 1: the diagonal is each class's
 * recall) and normalised over each predicted class (column sums are 1: the diagonal is each
 * class's precision) — with their cell texts and shades.
 *
 * A row (column) whose total is 0 has no normalised value: the cells are `null` and print as `—`
 * (scikit-learn prints 0 there after a division warning; a 0 would read as "never predicted").
 *
 * Reference: Pedregosa et al., "Scikit-learn: Machine Learning in Python", JMLR 12, 2011;
 * `sklearn.metrics.confusion_matrix`, https://scikit-learn.org/stable/modules/generated/sklearn.metrics.confusion_matrix.html.
 */
import { formatCount } from './format';

/** `counts`; `true`: divided by the true class's total (row); `pred`: by the predicted class's total (column). */
export type ConfusionNorm = 'counts' | 'true' | 'pred';

export const CONFUSION_NORMS: readonly { id: ConfusionNorm; label: string; legend: string }[] = [
  { id: 'counts', label: 'Counts', legend: 'number of rows' },
  {
    id: 'true',
    label: 'Share of the true class (rows sum to 1; diagonal = recall)',
    legend: 'share of the true class',
  },
  {
    id: 'pred',
    label: 'Share of the predicted class (columns sum to 1; diagonal = precision)',
    legend: 'share of the predicted class',
  },
];

export function isConfusionNorm(x: unknown): x is ConfusionNorm {
  return x === 'counts' || x === 'true' || x === 'pred';
}

/**
 * The shown matrix under `norm`. `rowTotals[i]` / `colTotals[j]` are the totals of the shown
 * rows / columns over the whole matrix (a sub-matrix of the largest confusions still divides by
 * the full class totals); without them, the sums of `values`.
 */
export function normaliseConfusion(
  values: readonly (readonly number[])[],
  norm: ConfusionNorm,
  rowTotals?: readonly number[],
  colTotals?: readonly number[],
): (number | null)[][] {
  if (norm === 'counts') return values.map((r) => [...r]);
  const rows = rowTotals ?? values.map((r) => r.reduce((a, b) => a + b, 0));
  const cols = colTotals ?? (values[0] ?? []).map((_, j) => values.reduce((a, r) => a + (r[j] ?? 0), 0));
  return values.map((r, i) =>
    r.map((v, j) => {
      const total = norm === 'true' ? rows[i]! : cols[j]!;
      return total > 0 ? v / total : null;
    }),
  );
}

/** A cell's text: counts as integers (`12,345`), shares with 2 decimals (`0.95`, as scikit-learn's display), `—` when undefined. */
export function confusionCellText(v: number | null, norm: ConfusionNorm): string {
  if (v === null || !Number.isFinite(v)) return '—';
  return norm === 'counts' ? formatCount(v) : v.toFixed(2);
}

/** The top of the colour scale: the largest count, or 1 for shares. */
export function scaleMax(values: readonly (readonly (number | null)[])[], norm: ConfusionNorm): number {
  if (norm !== 'counts') return 1;
  let max = 0;
  for (const r of values) for (const v of r) if (v !== null && v > max) max = v;
  return Math.max(1, max);
}

/** Shade in [0, 1] of a cell on a linear scale from 0 to `max` (0 for undefined cells). */
export function shade(v: number | null, max: number): number {
  if (v === null || !Number.isFinite(v) || max <= 0) return 0;
  return Math.min(1, Math.max(0, v / max));
}

/** Tick values of the colour legend: 0, the middle and the top of the scale. */
export function legendTicks(max: number, norm: ConfusionNorm): { at: number; text: string }[] {
  const mid = norm === 'counts' ? Math.round(max / 2) : 0.5;
  return [0, mid, max].map((v) => ({ at: max > 0 ? v / max : 0, text: confusionCellText(v, norm) }));
}

/** The longest cell text of the matrix under `norm` (to size every cell alike). */
export function widestCellText(values: readonly (readonly (number | null)[])[], norm: ConfusionNorm): number {
  let w = 1;
  for (const r of values) for (const v of r) w = Math.max(w, confusionCellText(v, norm).length);
  return w;
}

/** Which classes a matrix of many classes shows. */
export type ClassChoice = 'confusions' | 'recall' | 'support' | 'picked';

export const CLASS_CHOICES: readonly { id: ClassChoice; label: string }[] = [
  { id: 'confusions', label: 'Classes in the largest confusions' },
  { id: 'recall', label: 'Lowest recall' },
  { id: 'support', label: 'Most test rows' },
  { id: 'picked', label: 'Chosen classes…' },
];

export function isClassChoice(x: unknown): x is ClassChoice {
  return CLASS_CHOICES.some((c) => c.id === x);
}

/** Off-diagonal cells with a positive count, largest first (ties: true class, then predicted class, by index). */
export function largestConfusionCells(
  matrix: readonly (readonly number[])[],
  n: number,
): { i: number; j: number; count: number }[] {
  const cells: { i: number; j: number; count: number }[] = [];
  matrix.forEach((row, i) =>
    row.forEach((count, j) => {
      if (i !== j && count > 0) cells.push({ i, j, count });
    }),
  );
  cells.sort((a, b) => b.count - a.count || a.i - b.i || a.j - b.j);
  return cells.slice(0, n);
}

/**
 * The indices (in label order) of at most `max` classes to show: `confusions` — the classes of the
 * 30 largest confusions, taken largest first while there is room; `recall` — the lowest recall
 * (diagonal / row total; classes without test rows have none and come last); `support` — the most
 * test rows. Ties go to the earlier class.
 */
export function chooseClasses(
  matrix: readonly (readonly number[])[],
  by: Exclude<ClassChoice, 'picked'>,
  max: number,
): number[] {
  const k = matrix.length;
  const totals = matrix.map((r) => r.reduce((a, b) => a + b, 0));
  let chosen: number[];
  if (by === 'confusions') {
    const set = new Set<number>();
    for (const t of largestConfusionCells(matrix, 30))
      for (const i of [t.i, t.j]) if (set.size < max || set.has(i)) set.add(i);
    chosen = [...set];
  } else {
    const idx = Array.from({ length: k }, (_, i) => i);
    const recall = (i: number): number => (totals[i]! > 0 ? matrix[i]![i]! / totals[i]! : Infinity);
    idx.sort((a, b) => (by === 'recall' ? recall(a) - recall(b) : totals[b]! - totals[a]!) || a - b);
    chosen = idx.slice(0, max);
  }
  return chosen.sort((a, b) => a - b);
}

/** The "other" row and column of a matrix showing some of its classes. */
export interface ConfusionOther {
  /** Per shown true class: its rows predicted as a class not shown. */
  col: number[];
  /** Per shown predicted class: rows of a true class not shown predicted as it. */
  row: number[];
  /** Rows of a true class not shown predicted as a class not shown. */
  corner: number;
  /** Number of classes not shown. */
  classes: number;
}

/**
 * The sub-matrix of the classes `shown` (indices into `labels`, shown in that order) with the
 * totals of the whole matrix and, when some classes are left out, an "other" column and row that
 * sum them: each shown row plus its "other" cell adds up to the class's test rows (its support),
 * and each shown column plus its "other" cell to the rows predicted as the class.
 */
export function confusionSubset(
  labels: readonly string[],
  matrix: readonly (readonly number[])[],
  shown: readonly number[],
): {
  rows: string[];
  cols: string[];
  values: number[][];
  rowTotals: number[];
  colTotals: number[];
  other?: ConfusionOther;
} {
  const k = labels.length;
  const rowTotals = matrix.map((r) => r.reduce((a, b) => a + b, 0));
  const colTotals = labels.map((_, j) => matrix.reduce((a, r) => a + (r[j] ?? 0), 0));
  const isShown = new Set(shown);
  const values = shown.map((i) => shown.map((j) => matrix[i]![j]!));
  const out = {
    rows: shown.map((i) => labels[i]!),
    cols: shown.map((i) => labels[i]!),
    values,
    rowTotals: shown.map((i) => rowTotals[i]!),
    colTotals: shown.map((j) => colTotals[j]!),
  };
  if (isShown.size === k) return out;
  const hidden = labels.map((_, i) => i).filter((i) => !isShown.has(i));
  const sumOver = (i: number, cols: readonly number[]): number => cols.reduce((a, j) => a + matrix[i]![j]!, 0);
  return {
    ...out,
    other: {
      col: shown.map((i) => sumOver(i, hidden)),
      row: shown.map((j) => hidden.reduce((a, i) => a + matrix[i]![j]!, 0)),
      corner: hidden.reduce((a, i) => a + sumOver(i, hidden), 0),
      classes: hidden.length,
    },
  };
}

/**
 * The shown matrix with its "other" row and column appended (when it has them), and the totals to
 * normalise it by: the shown classes' whole-matrix totals, then the totals of the classes not shown.
 * Every row of the result sums to its row total and every column to its column total.
 */
export function withOther(h: {
  values: readonly (readonly number[])[];
  rowTotals?: readonly number[];
  colTotals?: readonly number[];
  other?: ConfusionOther;
}): { values: number[][]; rowTotals: number[]; colTotals: number[] } {
  const rowTotals = h.rowTotals ? [...h.rowTotals] : h.values.map((r) => r.reduce((a, b) => a + b, 0));
  const colTotals = h.colTotals
    ? [...h.colTotals]
    : (h.values[0] ?? []).map((_, j) => h.values.reduce((a, r) => a + (r[j] ?? 0), 0));
  const o = h.other;
  if (!o) return { values: h.values.map((r) => [...r]), rowTotals, colTotals };
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    values: [...h.values.map((r, i) => [...r, o.col[i]!]), [...o.row, o.corner]],
    rowTotals: [...rowTotals, sum(o.row) + o.corner],
    colTotals: [...colTotals, sum(o.col) + o.corner],
  };
}
