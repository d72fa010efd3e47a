/**
 * Per-row arrays cut to a list of rows (indices in file order): the rows of a filter (inspect/
 * subset.ts) and the validation and test rows of a split (tasks/split.ts) become data holding
 * only those rows, which the metric code reads as a whole file.
 */
import type { ClassificationData } from './classificationData';

type Numeric = Float64Array | Int32Array | Uint16Array | Uint8Array;

/** `a` at `rows` (each row `stride` values wide). */
export function cut<T extends Numeric>(a: T, rows: Int32Array, stride = 1): T {
  const out = new (a.constructor as new (n: number) => T)(rows.length * stride);
  if (stride === 1) for (let j = 0; j < rows.length; j++) out[j] = a[rows[j]];
  else
    for (let j = 0; j < rows.length; j++) out.set(a.subarray(rows[j] * stride, rows[j] * stride + stride), j * stride);
  return out;
}

export function cutOrNull<T extends Numeric>(a: T | null, rows: Int32Array): T | null {
  return a ? cut(a, rows) : null;
}

export function cutList<T>(a: T[] | null, rows: Int32Array): T[] | null {
  return a ? Array.from(rows, (i) => a[i]) : null;
}

/** The classification data of `rows` only; the class set stays the whole file's. */
export function cutClassificationData(d: ClassificationData, rows: Int32Array): ClassificationData {
  if (d.probTerms?.sums)
    throw new Error('Expected per-row terms to cut rows from, but they were summed while reading.');
  return {
    ...d,
    n: rows.length,
    labels: cut(d.labels, rows),
    preds: cut(d.preds, rows),
    probs: d.probs ? cut(d.probs, rows, d.classes.length) : null,
    probTerms: d.probTerms
      ? {
          nllTerm: cut(d.probTerms.nllTerm, rows),
          brierTerm: cut(d.probTerms.brierTerm, rows),
          trueRank: cut(d.probTerms.trueRank, rows),
          score: cut(d.probTerms.score, rows),
          scoreKind: d.probTerms.scoreKind,
        }
      : null,
    scoreColumn: cutOrNull(d.scoreColumn, rows),
    weights: cutOrNull(d.weights, rows),
    accept: cutOrNull(d.accept, rows),
    groupColumn: cutList(d.groupColumn, rows),
    split: cutList(d.split, rows),
    ids: d.ids ? d.ids.select(rows) : null,
    lines: cut(d.lines, rows),
  };
}
