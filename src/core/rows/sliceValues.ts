/**
 * How a column is cut into slice values (`slices`, `sliceBins`; docs/configuration.md):
 *
 * - A column whose non-empty cells are all numbers and that has more distinct values than
 *   `sliceBins` is cut into `sliceBins` quantile bins. The edges are values of the column: with
 *   the N non-empty values sorted, e_k = x_(⌊k·N/B⌋) for k = 0…B−1 (repeated edges merged), and
 *   bin j holds e_j ≤ x < e_{j+1}; the last bin holds x ≥ e_last (up to the maximum). Labels are
 *   the ranges, `[18, 32)` … `[61, 77]`.
 * - Any other column is sliced by value; when it has more than 50 distinct values, the values
 *   beyond the 50 most frequent (ties by value) are grouped as `other`.
 * - Empty cells form their own value, `(empty)`.
 *
 * Each slice value also carries the filter terms that select its rows (`where`), so a click on a
 * slice can open its rows or evaluate the subset with the row query's own filter.
 */
import type { TextColumn } from '../data/textColumn';
import { parseNumberText } from '../io/numbers';
import type { FilterTerm } from './types';

/** Most frequent values kept by value; the rest are grouped as `other`. */
export const MAX_SLICE_VALUES = 50;
export const OTHER = 'other';
export const EMPTY = '(empty)';

export interface SliceValues {
  column: string;
  kind: 'bins' | 'values';
  /** Label per slice value. */
  labels: string[];
  /** Filter terms selecting each slice value's rows. */
  where: FilterTerm[][];
  /** Slice value index per row. */
  codes: Int32Array;
}

const num = (s: string): number => parseNumberText(s.trim());

/** A short label for an edge (4 significant digits); the filter terms keep the exact value. */
function short(x: number): string {
  return String(+x.toPrecision(4));
}

export function sliceValues(col: TextColumn, bins: number): SliceValues {
  const { values, codes, name } = col;
  const n = codes.length;
  const asNum = values.map(num);
  const numeric = values.every((v, k) => v.trim() === '' || Number.isFinite(asNum[k]));
  const distinctNumbers = new Set(asNum.filter((x) => Number.isFinite(x))).size;
  if (numeric && distinctNumbers > bins) return quantileBins(col, asNum, bins);

  const counts = new Float64Array(values.length);
  for (let i = 0; i < n; i++) counts[codes[i]]++;
  const order = values
    .map((_, k) => k)
    .sort((a, b) => counts[b] - counts[a] || (values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : 0));
  const kept = order.slice(0, MAX_SLICE_VALUES);
  const slot = new Int32Array(values.length).fill(kept.length);
  kept.forEach((k, s) => (slot[k] = s));
  const labels = kept.map((k) => (values[k] === '' ? EMPTY : values[k]));
  const where: FilterTerm[][] = kept.map((k) => [{ key: name, op: '=', value: values[k] }]);
  if (order.length > kept.length) {
    labels.push(OTHER);
    where.push(kept.map((k) => ({ key: name, op: '!=', value: values[k] })));
  }
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = slot[codes[i]];
  return { column: name, kind: 'values', labels, where, codes: out };
}

function quantileBins(col: TextColumn, asNum: number[], B: number): SliceValues {
  const { codes, name } = col;
  const n = codes.length;
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = asNum[codes[i]];
    if (Number.isFinite(x)) xs.push(x);
  }
  const sorted = Float64Array.from(xs).sort();
  const N = sorted.length;
  const edges: number[] = [];
  for (let k = 0; k < B; k++) {
    const e = sorted[Math.floor((k * N) / B)];
    if (edges.length === 0 || e > edges[edges.length - 1]) edges.push(e);
  }
  const max = sorted[N - 1];
  const labels = edges.map((lo, j) =>
    j + 1 < edges.length ? `[${short(lo)}, ${short(edges[j + 1])})` : `[${short(lo)}, ${short(max)}]`,
  );
  const where: FilterTerm[][] = edges.map((lo, j) => [
    { key: name, op: '>=', value: String(lo) },
    ...(j + 1 < edges.length ? [{ key: name, op: '<' as const, value: String(edges[j + 1]) }] : []),
  ]);
  const emptyCode = edges.length;
  let hasEmpty = false;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = asNum[codes[i]];
    if (!Number.isFinite(x)) {
      out[i] = emptyCode;
      hasEmpty = true;
      continue;
    }
    // the last edge ≤ x
    let lo = 0;
    let hi = edges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (edges[mid] <= x) lo = mid;
      else hi = mid - 1;
    }
    out[i] = lo;
  }
  if (hasEmpty) {
    labels.push(EMPTY);
    where.push([{ key: name, op: '=', value: '' }]);
  }
  return { column: name, kind: 'bins', labels, where, codes: out };
}

/**
 * Slice values of numbers cut at given bins (bin q holds lo_q ≤ x < hi_q, the last one has no upper
 * bound), labelled as given: the ranking slices by `trainCount` take the activity bins of the
 * Ranking tab's table this way, so both views show the same bins. Bins without members are kept
 * (computeSlices leaves them out).
 */
export function binnedSliceValues(
  column: string,
  bins: readonly { label: string; lo: number; hi: number | null }[],
  codes: Int32Array,
): SliceValues {
  return {
    column,
    kind: 'bins',
    labels: bins.map((b) => b.label),
    where: bins.map((b) => [
      { key: column, op: '>=', value: String(b.lo) },
      ...(b.hi !== null ? [{ key: column, op: '<' as const, value: String(b.hi) }] : []),
    ]),
    codes,
  };
}

/**
 * Columns a report may offer for slicing when `slices` is not given: every column without a role
 * that has at most {@link MAX_SLICE_VALUES} distinct values (in header order), with its count.
 */
export function sliceCandidates(
  columns: Record<string, TextColumn> | TextColumn[],
): { column: string; distinct: number }[] {
  const list = Array.isArray(columns) ? columns : Object.values(columns);
  return list
    .filter((c) => c.values.length <= MAX_SLICE_VALUES)
    .map((c) => ({ column: c.name, distinct: c.values.length }));
}
