/**
 * `tables.folds` (the headline metrics per fold and their spread over the folds) as a report
 * table: one row per fold (its n and each metric), then mean, std (sample, n − 1), min and max over
 * the folds, with the convention as the table's note. Undefined when the value is not that shape
 * (a results file is untrusted); the caller then shows it generically.
 */
import type { FoldsTable } from '../../core/results/types';
import type { CellValue, TableModel } from '../model';

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function isFoldsTable(v: unknown): v is FoldsTable {
  return (
    isRecord(v) &&
    typeof v.column === 'string' &&
    typeof v.note === 'string' &&
    Array.isArray(v.metrics) &&
    v.metrics.every((m) => typeof m === 'string') &&
    Array.isArray(v.folds) &&
    v.folds.every((f) => isRecord(f) && typeof f.fold === 'string' && typeof f.n === 'number' && isRecord(f.values)) &&
    isRecord(v.summary)
  );
}

export function foldsReportTable(value: unknown): TableModel | undefined {
  if (!isFoldsTable(value)) return undefined;
  const t = value;
  const k = t.folds.filter((f) => f.n > 0).length;
  const rows: CellValue[][] = [
    ...t.folds.map((f): CellValue[] => [
      f.small ? `${f.fold} (small)` : f.fold,
      f.n,
      ...t.metrics.map((m) => num(f.values[m])),
    ]),
    ...(['mean', 'std', 'min', 'max'] as const).map((s): CellValue[] => [
      s === 'std' ? 'std (n − 1)' : s,
      s === 'mean' ? k : null,
      ...t.metrics.map((m) => {
        const sm = t.summary[m] as unknown;
        return isRecord(sm) ? num(sm[s]) : null;
      }),
    ]),
  ];
  return {
    id: 'table.folds',
    title: `Metrics per fold (column ${t.column})`,
    columns: ['fold', 'n', ...t.metrics],
    kinds: ['text', 'int', ...t.metrics.map(() => 'num' as const)],
    rows,
    note: `${t.note}; small = fewer rows than minSliceSize (still counted); a fold with n 0 has no row the metrics cover and is left out.`,
  };
}
