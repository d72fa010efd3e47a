/**
 * The selective group analysis (`tables.groupAnalysis`) as text: the terminal table and Markdown
 * that `eval-lens evaluate` prints after the metrics, rows of the metrics CSV (`evaluate --format
 * csv`, `report --format csv`) and a CSV table of its own (`report --table groups`). An undefined
 * value (no score in the file, no accepted or no rejected row, 0/0) is `—` in the text tables and an
 * empty cell in CSV, never 0.
 */
import type { GroupAnalysisRow } from '../metrics/selective';
import type { Results } from './types';
import { csvCell } from '../text/csvCell';
import { escapeMarkdown } from '../text/markdownText';
import { titledMarkdownTable, titledTextTable } from '../text/textTable';

type Field = Exclude<keyof GroupAnalysisRow, 'group'>;

type Direction = 'higher' | 'lower' | '';

/** Columns after `group`, in order: the JSON field, its heading, its good direction. */
const HEADS: readonly (readonly [Field, string, Direction])[] = [
  ['size', 'size', ''],
  ['coverage', 'coverage', 'higher'],
  ['error', 'error', 'lower'],
  ['errorUniform', 'error (uniform)', 'lower'],
  ['errorReweighted', 'error (reweighted)', 'lower'],
  ['tpr', 'TPR', 'higher'],
  ['fpr', 'FPR', 'lower'],
  ['scoreMean', 'score mean', ''],
  ['scoreStd', 'score sd', ''],
  ['scoreMin', 'score min', ''],
  ['scoreMax', 'score max', ''],
  ['scoreMeanAccepted', 'accepted mean', ''],
  ['scoreMeanRejected', 'rejected mean', ''],
  ['scoreGap', 'gap', 'higher'],
];

/** What each column is: the note of its rows in the metrics CSV. */
const MEANINGS: Readonly<Record<Field, string>> = {
  size: 'rows whose true class is in the group',
  coverage: "accepted share of the group's rows",
  error: 'error_group.<g>: error on the accepted rows of the group (1.0 when none is accepted)',
  errorUniform: 'with reweight: the error with every row at its sample weight, no train reweighting',
  errorReweighted: 'with reweight: the error reweighted to the train class frequencies, e_g(w^trn) (= error)',
  tpr: 'accepted and correct / correct',
  fpr: 'accepted and wrong / wrong',
  scoreMean: "mean score of the group's rows",
  scoreStd: 'standard deviation of the scores (n − 1)',
  scoreMin: 'smallest score',
  scoreMax: 'largest score',
  scoreMeanAccepted: "mean score of the group's accepted rows",
  scoreMeanRejected: "mean score of the group's rejected rows",
  scoreGap: 'accepted mean − rejected mean: how far the scores separate accepted from rejected rows',
};

/** Columns after `group`: the JSON field, its heading, its good direction, what it is. */
export const GROUP_ANALYSIS_COLUMNS: readonly { field: Field; head: string; direction: Direction; meaning: string }[] =
  HEADS.map(([field, head, direction]) => ({ field, head, direction, meaning: MEANINGS[field] }));

/** What the table's rows are, said once above it. */
export const GROUP_ANALYSIS_TITLE =
  'Group analysis at the operating point (groups of the true class; coverage, error, TPR, FPR weighted, score statistics over rows; gap = accepted mean − rejected mean; — undefined)';

function rowsOf(results: Results): GroupAnalysisRow[] {
  const t = results.tables?.groupAnalysis;
  return Array.isArray(t) ? t : [];
}

/** The columns present: the newer score-separation columns only when the results hold them. */
function columnsOf(rows: readonly GroupAnalysisRow[]): typeof GROUP_ANALYSIS_COLUMNS {
  return GROUP_ANALYSIS_COLUMNS.filter((c) => rows.some((r) => r[c.field] !== undefined));
}

function fmt(v: number | null | undefined, field: Field, digits: number): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (field === 'size' && Number.isInteger(v)) return String(v);
  return v.toFixed(digits);
}

/** The terminal table (two-space indent, numbers right-aligned); empty without a group analysis. */
export function formatGroupAnalysisTable(results: Results, digits = 4): string {
  const rows = rowsOf(results);
  if (rows.length === 0) return '';
  const cols = columnsOf(rows);
  const head = ['group', ...cols.map((c) => c.head)];
  const body = rows.map((r) => [r.group, ...cols.map((c) => fmt(r[c.field], c.field, digits))]);
  return titledTextTable({ title: GROUP_ANALYSIS_TITLE, head, body });
}

/** The Markdown table under a `###` heading; empty without a group analysis. */
export function groupAnalysisMarkdown(results: Results, digits = 4): string {
  const rows = rowsOf(results);
  if (rows.length === 0) return '';
  const cols = columnsOf(rows);
  return titledMarkdownTable({
    title: GROUP_ANALYSIS_TITLE,
    head: ['group', ...cols.map((c) => c.head)],
    body: rows.map((r) => [escapeMarkdown(r.group), ...cols.map((c) => fmt(r[c.field], c.field, digits))]),
  });
}

const csvNumber = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '' : String(v);

/**
 * Rows of the metrics CSV (`family,metric,value,ci_lower,ci_upper,direction,note`, then one empty
 * cell per baseline): family `groupAnalysis`, metric `<field> [group: <name>]`, the value at full
 * precision (empty when undefined). Empty without a group analysis.
 */
export function groupAnalysisCsvRows(results: Results): string {
  const rows = rowsOf(results);
  if (rows.length === 0) return '';
  const cols = columnsOf(rows);
  const pad = Object.keys(results.baselines ?? {}).map(() => '');
  const lines = rows.flatMap((r) =>
    cols.map((c) =>
      ['groupAnalysis', `${c.field} [group: ${r.group}]`, csvNumber(r[c.field]), '', '', c.direction, c.meaning, ...pad]
        .map(csvCell)
        .join(','),
    ),
  );
  return lines.join('\n') + '\n';
}

/** The group analysis as a CSV table of its own: `group` then one column per JSON field. */
export function groupAnalysisCsv(results: Results): string | null {
  const rows = rowsOf(results);
  if (rows.length === 0) return null;
  const cols = columnsOf(rows);
  const lines = [
    ['group', ...cols.map((c) => c.field)],
    ...rows.map((r) => [r.group, ...cols.map((c) => csvNumber(r[c.field]))]),
  ];
  return lines.map((l) => l.map(csvCell).join(',')).join('\n') + '\n';
}
