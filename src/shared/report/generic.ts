/**
 * Curves and tables the report has no dedicated chart for, drawn generically (a line, a table), and
 * the names of those it does know.
 */
import type { Curve } from '../../core/results/types';
import type { CellValue, ChartModel, ColumnKind, TableModel } from '../model';
import { curveTable, pts } from './common';

/** An array of records, a record of scalars, or columnar arrays → a table; otherwise undefined. */
export function genericTable(id: string, title: string, value: unknown): TableModel | undefined {
  const cell = (v: unknown): CellValue =>
    v === null || v === undefined
      ? null
      : typeof v === 'number' || typeof v === 'string'
        ? v
        : typeof v === 'boolean'
          ? String(v)
          : JSON.stringify(v);
  const kindOf = (vals: CellValue[]): ColumnKind =>
    vals.every((v) => v === null || typeof v === 'number')
      ? vals.every((v) => v === null || Number.isInteger(v))
        ? 'int'
        : 'num'
      : 'text';
  if (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))
  ) {
    const cols = [...new Set(value.flatMap((r) => Object.keys(r as object)))];
    const rows = value.map((r) => cols.map((c) => cell((r as Record<string, unknown>)[c])));
    return { id, title, columns: cols, kinds: cols.map((_, j) => kindOf(rows.map((r) => r[j]!))), rows };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return undefined;
    const arrays = entries.filter(([, v]) => Array.isArray(v));
    if (
      arrays.length === entries.length &&
      arrays.every(([, v]) => (v as unknown[]).every((x) => x === null || typeof x !== 'object'))
    ) {
      const n = Math.max(...arrays.map(([, v]) => (v as unknown[]).length));
      const rows = Array.from({ length: n }, (_, i) => arrays.map(([, v]) => cell((v as unknown[])[i])));
      return {
        id,
        title,
        columns: arrays.map(([k]) => k),
        kinds: arrays.map((_, j) => kindOf(rows.map((r) => r[j]!))),
        rows,
      };
    }
    const rows = entries.map(([k, v]) => [k, cell(v)]);
    return { id, title, columns: ['key', 'value'], kinds: ['text', kindOf(rows.map((r) => r[1]!))], rows };
  }
  return undefined;
}

export function genericCurveChart(name: string, c: Curve): ChartModel {
  return {
    id: `curve.${name}`,
    title: name,
    description: `Line of ${c.y} (y) against ${c.x} (x), ${c.xs.length} points.`,
    x: { label: c.x, type: 'linear' },
    y: { label: c.y, type: 'linear' },
    series: [{ label: c.y, colour: 'blue', style: 'line', points: pts(c.xs, c.ys) }],
    table: curveTable(`curve.${name}.table`, name, c),
    note: c.note,
  };
}

export const KNOWN_TABLES = new Set([
  'perClass',
  'confusion',
  'groupAnalysis',
  'operatingPoints',
  'reliability',
  'perUserHistograms',
  'activityBins',
  'categoryBreakdown',
  'itemMap',
]);
/** Where unknown curves/tables of a family go, by name prefix. */
export const RANKING_NAMES = /^(metricVsK|perUser|activity|users|cold|popularity|ranking)/i;
