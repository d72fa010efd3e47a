/**
 * The fold table (`tables.folds`, tasks/folds.ts) as text: the terminal table and Markdown that
 * `eval-lens evaluate` prints after the metrics, rows of the metrics CSV (`evaluate --format csv`,
 * `report --format csv`) and a CSV table of its own (`report --table folds`). One row per fold (its
 * n and each metric), then the spread over the folds: mean ± std (sample standard deviation,
 * dividing by K − 1), min and max. An undefined value is `—` in the text tables and an empty cell in
 * CSV, never 0.
 */
import type { FoldsTable, Results } from './types';
import { csvCell } from '../text/csvCell';
import { escapeMarkdown } from '../text/markdownText';
import { titledMarkdownTable, titledTextTable } from '../text/textTable';

function tableOf(results: Results): FoldsTable | null {
  const t = results.tables?.folds;
  return t && Array.isArray(t.folds) && Array.isArray(t.metrics) ? t : null;
}

/** What the table is, said once above it. */
function title(t: FoldsTable): string {
  return `Per fold (column ${t.column}; small = fewer rows than minSliceSize; — undefined): ${t.note}`;
}

const num = (v: number | null | undefined, digits: number): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits);

/** Heading and body cells: fold, n, one column per metric; then mean ± std, min, max. */
function cells(t: FoldsTable, digits: number): { head: string[]; body: string[][] } {
  const head = ['fold', 'n', ...t.metrics];
  const body = t.folds.map((f) => [
    f.small ? `${f.fold} (small)` : f.fold,
    String(f.n),
    ...t.metrics.map((m) => num(f.values[m], digits)),
  ]);
  const k = t.folds.filter((f) => f.n > 0).length;
  body.push([
    'mean ± std',
    String(k),
    ...t.metrics.map((m) => {
      const s = t.summary[m];
      if (!s || s.mean === null) return '—';
      return `${num(s.mean, digits)} ± ${num(s.std, digits)}`;
    }),
  ]);
  for (const stat of ['min', 'max'] as const)
    body.push([stat, '', ...t.metrics.map((m) => num(t.summary[m]?.[stat], digits))]);
  return { head, body };
}

/** The terminal table (two-space indent, numbers right-aligned); empty without a fold table. */
export function formatFoldsTable(results: Results, digits = 4): string {
  const t = tableOf(results);
  if (!t) return '';
  const { head, body } = cells(t, digits);
  return titledTextTable({ title: title(t), head, body });
}

/** The Markdown table under a `###` heading; empty without a fold table. */
export function foldsMarkdown(results: Results, digits = 4): string {
  const t = tableOf(results);
  if (!t) return '';
  const { head, body } = cells(t, digits);
  const esc = (row: string[]): string[] => row.map(escapeMarkdown);
  return titledMarkdownTable({ title: title(t), head: esc(head), body: body.map(esc) });
}

const csvNumber = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '' : String(v);

/**
 * Rows of the metrics CSV (`family,metric,value,ci_lower,ci_upper,direction,note`, then one empty
 * cell per baseline): family `folds`, metric `<key> [fold: <name>]` per fold, then `<key> [mean over
 * folds]`, `[std over folds]`, `[min over folds]`, `[max over folds]`, at full precision (empty when
 * undefined). Empty without a fold table.
 */
export function foldsCsvRows(results: Results): string {
  const t = tableOf(results);
  if (!t) return '';
  const pad = Object.keys(results.baselines ?? {}).map(() => '');
  const row = (metric: string, v: number | null | undefined, note: string): string =>
    ['folds', metric, csvNumber(v), '', '', '', note, ...pad].map(csvCell).join(',');
  const lines = t.metrics.flatMap((m) => [
    ...t.folds.map((f) => row(`${m} [fold: ${f.fold}]`, f.values[m], `n = ${f.n}${f.small ? ', small' : ''}`)),
    row(`${m} [mean over folds]`, t.summary[m]?.mean, t.note),
    row(`${m} [std over folds]`, t.summary[m]?.std, 'sample standard deviation (n − 1)'),
    row(`${m} [min over folds]`, t.summary[m]?.min, ''),
    row(`${m} [max over folds]`, t.summary[m]?.max, ''),
  ]);
  return lines.join('\n') + '\n';
}

/**
 * The fold table as a CSV table of its own: `row,fold,n,small,<metrics>`; `row` is `fold` for
 * each fold, then `mean`, `std` (sample, n − 1), `min`, `max` over the folds (their `n` is the
 * number of folds with rows). Null without a fold table.
 */
export function foldsCsv(results: Results): string | null {
  const t = tableOf(results);
  if (!t) return null;
  const k = t.folds.filter((f) => f.n > 0).length;
  const lines = [
    ['row', 'fold', 'n', 'small', ...t.metrics],
    ...t.folds.map((f) => [
      'fold',
      f.fold,
      String(f.n),
      f.small ? 'true' : '',
      ...t.metrics.map((m) => csvNumber(f.values[m])),
    ]),
    ...(['mean', 'std', 'min', 'max'] as const).map((s) => [
      s,
      '',
      String(k),
      '',
      ...t.metrics.map((m) => csvNumber(t.summary[m]?.[s])),
    ]),
  ];
  return lines.map((l) => l.map(csvCell).join(',')).join('\n') + '\n';
}
