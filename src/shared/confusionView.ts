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
