/**
 * The operating points of a `targetCoverage` list (`tables.operatingPoints`) as text: the terminal
 * table and the Markdown table that `eval-lens evaluate` prints after the metrics, one row per
 * target coverage, each value followed by its bootstrap percentile interval `[lo, hi]` when the run
 * has one. An undefined value is `—`.
 */
import type { OperatingPointRow, Results } from './types';
import { csvCell } from '../text/csvCell';
import { escapeMarkdown } from '../text/markdownText';
import { titledMarkdownTable, titledTextTable } from '../text/textTable';

/** The rows, or none when the results have no operating-point table. */
export function operatingPointRowsOf(results: Pick<Results, 'tables'>): OperatingPointRow[] {
  const t = results.tables?.operatingPoints;
  return Array.isArray(t) ? t : [];
}

/** Column fields after `target coverage`, in order: the table's own, then one per group. */
export function operatingPointFields(rows: readonly OperatingPointRow[]): string[] {
  const groups = Object.keys(rows[0]?.error_group ?? {});
  return [
    'threshold',
    'coverage',
    'selective_risk',
    ...(rows.some((r) => r.balanced_error !== undefined) ? ['balanced_error', 'worst_error'] : []),
    ...groups.map((g) => `error_group.${g}`),
  ];
}

/** The value of `field` (`error_group.<g>` for a group) in `row`. */
export function operatingPointValue(row: OperatingPointRow, field: string): number | null {
  if (field.startsWith('error_group.')) return row.error_group?.[field.slice('error_group.'.length)] ?? null;
  const v = (row as unknown as Record<string, unknown>)[field];
  return typeof v === 'number' ? v : null;
}

/** `value [lo, hi]` (the interval only when the row has one for the field). */
export function operatingPointCell(row: OperatingPointRow, field: string, digits = 4): string {
  const v = operatingPointValue(row, field);
  if (v === null || !Number.isFinite(v)) return '—';
  const ci = row.ci?.[field];
  return ci ? `${v.toFixed(digits)} [${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : v.toFixed(digits);
}

/** What the table's rows are, said once above it. */
export function operatingPointsTitle(rows: readonly OperatingPointRow[], results: Pick<Results, 'config'>): string {
  const on = rows[0]?.thresholdOn === 'validation' ? 'the validation rows' : 'the evaluated rows';
  const bs = results.config?.bootstrap;
  const ci =
    bs && (bs.n ?? 0) > 0
      ? `; [lo, hi] = ${Math.round((bs.confidence ?? 0.95) * 100)}% bootstrap percentile interval${rows[0]?.thresholdOn === 'validation' ? ' (thresholds fixed)' : ' (threshold re-chosen per resample)'}`
      : '';
  const rw = results.config?.reweight ? '; group errors reweighted to the train class frequencies, as error_group' : '';
  return `Operating points (one per targetCoverage; threshold chosen on ${on}${rw}; the operating-point keys above are those of the first row${ci})`;
}

/** The terminal table (two-space indent); empty without operating points. */
export function formatOperatingPointsTable(results: Results, digits = 4): string {
  const rows = operatingPointRowsOf(results);
  if (rows.length === 0) return '';
  const fields = operatingPointFields(rows);
  const head = ['target', ...fields];
  const body = rows.map((r) => [String(r.targetCoverage), ...fields.map((f) => operatingPointCell(r, f, digits))]);
  return titledTextTable({ title: operatingPointsTitle(rows, results), head, body, leftAligned: 0 });
}

/** The Markdown table under a `###` heading; empty without operating points. */
export function operatingPointsMarkdown(results: Results, digits = 4): string {
  const rows = operatingPointRowsOf(results);
  if (rows.length === 0) return '';
  const fields = operatingPointFields(rows);
  return titledMarkdownTable({
    title: operatingPointsTitle(rows, results),
    head: ['target coverage', ...fields.map(escapeMarkdown)],
    body: rows.map((r) => [String(r.targetCoverage), ...fields.map((f) => operatingPointCell(r, f, digits))]),
    leftAligned: 0,
  });
}

const csvNumber = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '' : String(v);

/**
 * The operating points as a CSV table of their own (`report --table operating_points`):
 * `target_coverage,threshold_on`, then each field followed by its interval (`<field>_lo`,
 * `<field>_hi`), at full precision; an empty cell when undefined. Null without operating points.
 */
export function operatingPointsCsv(results: Pick<Results, 'tables'>): string | null {
  const rows = operatingPointRowsOf(results);
  if (rows.length === 0) return null;
  const fields = operatingPointFields(rows);
  const lines = [
    ['target_coverage', 'threshold_on', ...fields.flatMap((f) => [f, `${f}_lo`, `${f}_hi`])],
    ...rows.map((r) => [
      csvNumber(r.targetCoverage),
      r.thresholdOn,
      ...fields.flatMap((f) => [
        csvNumber(operatingPointValue(r, f)),
        csvNumber(r.ci?.[f]?.[0]),
        csvNumber(r.ci?.[f]?.[1]),
      ]),
    ]),
  ];
  return lines.map((l) => l.map(csvCell).join(',')).join('\n') + '\n';
}
