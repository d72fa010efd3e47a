/**
 * The report as a file, the same from the extension's "Export Report…" and from `eval-lens report`
 * / `eval-lens evaluate --html`: self-contained HTML, Markdown (metrics, per-class, group and slice
 * tables; for a comparison the marked table, Δ against the baseline and the paired tests), CSV
 * (spreadsheet-safe cells) or LaTeX (booktabs, best bold, second underlined).
 *
 * The input is a parsed JSON object that is checked against its schema first
 * ({@link reportInputFromJson}): a hand-edited or hostile file gives a message naming the field,
 * never a broken page.
 */
import { renderCsvTable, renderLatexTable, renderMarkdownTable } from '../core/compare/render';
import { renderLongCsv, renderLongLatex, renderLongMarkdown } from '../core/compare/longForm';
import type { MarkedRunsTable } from '../core/compare/runsTable';
import type { CompareResults, RunTable } from '../core/compare/types';
import { validateCompare } from '../core/compare/validate';
import { EvalLensError } from '../core/diagnostics';
import { formatCsv, formatMarkdown } from '../core/results/format';
import { RESULTS_SCHEMA_ID, type Results } from '../core/results/types';
import { checkResults, invalidFileError } from '../core/results/validate';
import { buildCompareModel } from './compareModel';
import { reportToHtml, type HtmlTheme } from './exportHtml';
import { formatCi } from './format';
import { headlineKeys } from './headline';
import type { CellValue, ReportModel, TableModel } from './model';
import { buildReportModel } from './report';
import { escapeMarkdown } from '../core/text/markdownText';
import { tableToMarkdown } from './tableText';
import { categoryTable } from './categoryTable';
import { csvCell } from '../core/text/csvCell';
import { groupAnalysisCsv, groupAnalysisCsvRows } from '../core/results/groupAnalysisText';
import { foldsCsv, foldsCsvRows } from '../core/results/foldsText';
import { operatingPointsCsv } from '../core/results/operatingPointsText';
import { curveOf } from '../core/results/curves';
import type { Curve, CurveName } from '../core/results/types';

export const REPORT_FORMATS = ['html', 'md', 'csv', 'latex'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Tables of a results file that `report --format csv --table NAME` writes on their own, with the
 * results entry each comes from.
 */
export const REPORT_TABLES = {
  rc_grid: {
    from: 'curves.riskCoverageGrid101',
    curve: 'riskCoverageGrid101',
    what: 'the 101-point risk–coverage grid of the *_grid101 keys',
  },
  rc_exact: {
    from: 'curves.riskCoverage',
    curve: 'riskCoverage',
    what: 'the exact risk–coverage curve (at most 2,001 stored points)',
  },
  cost_sweep: { from: 'curves.costSweep', curve: 'costSweep', what: 'the rejection-cost sweep' },
  groups: { from: 'tables.groupAnalysis', what: 'the group analysis at the operating point' },
  folds: { from: 'tables.folds', what: 'the metrics per fold and their mean, std (n − 1), min and max over the folds' },
  operating_points: {
    from: 'tables.operatingPoints',
    what: 'the operating points of a targetCoverage list, each value with its bootstrap interval',
  },
} as const satisfies Record<string, { from: string; curve?: CurveName; what: string }>;
export type ReportTable = keyof typeof REPORT_TABLES;

/** The curve a `--table` of {@link REPORT_TABLES} is read from, if it is a curve. */
function curveOfTable(table: ReportTable): CurveName | undefined {
  const t = REPORT_TABLES[table];
  return 'curve' in t ? t.curve : undefined;
}

/** A curve as CSV: its x and y columns (named as in the results), then each extra column; full precision, empty for null. */
export function curveCsv(c: Curve): string {
  const extra = Object.entries(c.extra ?? {});
  const cell = (v: number | null | undefined): string =>
    v === null || v === undefined || !Number.isFinite(v) ? '' : String(v);
  const lines = [
    [c.x, c.y, ...extra.map(([k]) => k)],
    ...c.xs.map((x, i) => [cell(x), cell(c.ys[i]), ...extra.map(([, v]) => cell(v[i]))]),
  ];
  return lines.map((l) => l.map(csvCell).join(',')).join('\n') + '\n';
}

/**
 * One table of a results file as CSV (`report --table`).
 * @throws EvalLensError `report-table-missing` naming the file and what it lacks (a comparison, or
 *   results without that curve or table: no scores, no groups, fewer than 101 rows for the grid).
 */
export function reportTableCsv(input: ReportInput, table: ReportTable, file: string): string {
  const t = REPORT_TABLES[table];
  if (input.kind !== 'results')
    throw new EvalLensError(
      'report-table-missing',
      `${file}: --table ${table} needs a results file (*.eval.json); this is a ${input.kind === 'compare' ? 'comparison' : 'table inspection'}.`,
      { file },
    );
  const r = input.results;
  const text =
    table === 'groups'
      ? groupAnalysisCsv(r)
      : table === 'operating_points'
        ? operatingPointsCsv(r)
        : table === 'folds'
          ? foldsCsv(r)
          : csvOfCurve(r, curveOfTable(table));
  if (text === null) {
    const why =
      table === 'operating_points'
        ? '`targetCoverage` is a single number (a list, e.g. [0.6, 0.7, 0.8, 0.9], writes one row per coverage), or the file has no scores'
        : table === 'folds'
          ? 'the file has no fold column (a column named fold, or `columns.fold` in eval-lens.json; classification only)'
          : table === 'groups'
            ? 'the selective family ran without class groups (`groups` and a train distribution) or without acceptance'
            : table === 'rc_grid'
              ? 'the file has no scores or fewer than 101 rows, or the results were written by an earlier version'
              : 'the file has no confidence scores';
    throw new EvalLensError(
      'report-table-missing',
      `${file}: no ${t.from} (${t.what}) in these results: ${why}. Tables present: ${presentTables(r).join(', ') || 'none'}.`,
      { file },
    );
  }
  return text;
}

function csvOfCurve(r: Results, name: CurveName | undefined): string | null {
  const c = name === undefined ? undefined : curveOf(r, name);
  return c ? curveCsv(c) : null;
}

function presentTables(r: Results): string[] {
  return (Object.keys(REPORT_TABLES) as ReportTable[]).filter((k) => {
    if (k === 'folds') return foldsCsv(r) !== null;
    if (k === 'operating_points') return operatingPointsCsv(r) !== null;
    if (k === 'groups') return groupAnalysisCsv(r) !== null;
    const curve = curveOfTable(k);
    return curve !== undefined && curveOf(r, curve) !== undefined;
  });
}

export type ReportInput =
  | { kind: 'results'; results: Results }
  | { kind: 'compare'; compare: CompareResults }
  | { kind: 'inspection'; table: MarkedRunsTable };

export interface ExportOptions {
  /** Written in a `<meta name="generator">` of the HTML. */
  generator?: string;
  /** HTML colours: the reader's system setting (default), or fixed light / dark. */
  theme?: HtmlTheme;
  /** LaTeX: the metric columns (default: the headline metrics). */
  metrics?: string[];
  /** LaTeX: add ± half the width of each value's interval. */
  ci?: boolean;
}

/**
 * A results or comparison object, checked against its schema.
 * @throws EvalLensError `report-invalid-input` naming the file and the failing fields.
 */
export function reportInputFromJson(obj: unknown, file: string): ReportInput {
  const schema = obj !== null && typeof obj === 'object' ? (obj as { schema?: unknown }).schema : undefined;
  const fail = (problems: string[], what: string): never => {
    throw invalidFileError('report-invalid-input', file, what, problems);
  };
  if (schema === RESULTS_SCHEMA_ID) {
    const checked = checkResults(obj);
    if (!checked.ok) return fail(checked.problems, `${RESULTS_SCHEMA_ID} results file`);
    return { kind: 'results', results: checked.results };
  }
  const problems = validateCompare(obj);
  if (problems.length > 0) {
    if (typeof schema !== 'string' || !schema.startsWith('eval-lens/compare')) {
      throw new EvalLensError(
        'report-invalid-input',
        `${file}: not an Eval Lens results or comparison file: expected "schema": "${RESULTS_SCHEMA_ID}" or "eval-lens/compare@1", got ${schema === undefined ? 'no "schema" key' : JSON.stringify(schema)}.`,
        { file },
      );
    }
    fail(problems, 'eval-lens/compare@1 comparison file');
  }
  const c = obj as CompareResults | MarkedRunsTable;
  return c.kind === 'inspection' ? { kind: 'inspection', table: c } : { kind: 'compare', compare: c };
}

/**
 * `tables.slices` (metrics per slice of the rows) as a table: `slice`, `value`, `n`, then each
 * metric of the rows (`{value, ci}`) with its interval. Undefined when absent or not rows.
 */
export function slicesTable(value: unknown): TableModel | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const rows = value.filter(
    (r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r),
  );
  if (rows.length === 0) return undefined;
  const isMetric = (v: unknown): v is { value: number | null; ci?: [number, number] | null } =>
    v !== null &&
    typeof v === 'object' &&
    'value' in v &&
    (typeof (v as { value: unknown }).value === 'number' || (v as { value: unknown }).value === null);
  const metrics: string[] = [];
  for (const r of rows)
    for (const [k, v] of Object.entries(r)) if (isMetric(v) && !metrics.includes(k)) metrics.push(k);
  const hasCi = (m: string): boolean =>
    rows.some((r) => isMetric(r[m]) && Array.isArray((r[m] as { ci?: unknown }).ci));
  const text = (v: unknown): CellValue =>
    typeof v === 'string' ? v : typeof v === 'number' ? v : v === null || v === undefined ? null : JSON.stringify(v);
  const columns = ['slice', 'value', 'n'];
  const kinds: TableModel['kinds'] = ['text', 'text', 'int'];
  for (const m of metrics) {
    columns.push(m);
    kinds.push('num');
    if (hasCi(m)) {
      columns.push(`${m} interval`);
      kinds.push('text');
    }
  }
  return {
    id: 'slices',
    title: 'Metrics per slice',
    columns,
    kinds,
    rows: rows.map((r) => {
      const n = typeof r.n === 'number' ? r.n : null;
      const out: CellValue[] = [text(r.slice), text(r.value), n];
      for (const m of metrics) {
        const v = isMetric(r[m]) ? (r[m] as { value: number | null; ci?: [number, number] | null }) : undefined;
        out.push(v?.value ?? null);
        if (hasCi(m)) out.push(v?.ci && Array.isArray(v.ci) && v.ci.length === 2 ? formatCi(v.ci, m) : '');
      }
      return out;
    }),
  };
}

/**
 * The report model of a results file, with the slice table when the results hold one (it takes
 * the place of the generic rendering of an unknown table, if the report drew it that way).
 */
export function resultsModel(results: Results): ReportModel {
  const model = buildReportModel(results);
  const slices = slicesTable(results.tables?.slices);
  if (!slices || model.tabs.some((t) => t.tables.some((x) => x.id === 'slices'))) return model;
  for (const tab of model.tabs) {
    const at = tab.tables.findIndex((x) => x.id === 'table.slices');
    if (at >= 0) {
      tab.tables[at] = slices;
      return model;
    }
  }
  const tab = model.tabs[0];
  if (tab) tab.tables.push(slices);
  else model.tabs.push({ id: 'slices', title: 'Slices', cards: [], charts: [], tables: [slices], notes: [] });
  return model;
}

/** The marked runs × metrics table of an inspected table, as a report model. */
function markedTableModel(t: MarkedRunsTable): ReportModel {
  const table: TableModel = {
    id: 'inspection.table',
    title: 'Runs × metrics',
    columns: ['run', ...t.metrics],
    kinds: ['text', ...t.metrics.map(() => 'num' as const)],
    rows: t.runs.map((run, i) => [
      t.names[i] ?? run,
      ...t.metrics.map((m) => t.display?.[run]?.[m] ?? t.table[run]?.[m] ?? null),
    ]),
    marks: t.runs.map((run) => [null, ...t.metrics.map((m) => t.marks[m]?.[run] ?? null)]),
    note: `Bold = best, underlined = second, italic = third in the column, by each metric's direction.${t.unmarked.length > 0 ? ` Not marked (no known direction): ${t.unmarked.join(', ')}.` : ''}`,
  };
  return {
    kind: 'table',
    title: `Runs of ${t.source}`,
    header: {
      title: `Runs of ${t.source}`,
      lines: [
        { label: 'Table', value: t.source },
        { label: 'Run column', value: t.runColumn },
      ],
      warnings: t.warnings.map((w) => w.message),
    },
    headline: [],
    tabs: [{ id: 'table', title: 'Table', cards: [], charts: [], tables: [table], notes: [] }],
    targets: {},
  };
}

export function reportModel(input: ReportInput): ReportModel {
  return input.kind === 'results'
    ? resultsModel(input.results)
    : input.kind === 'compare'
      ? buildCompareModel(input.compare)
      : markedTableModel(input.table);
}

function tableSection(t: TableModel): string {
  // Titles and notes name runs, classes and columns from the files: escaped as the cells are.
  return `### ${escapeMarkdown(t.title)}\n\n${tableToMarkdown(t)}${t.note ? `\n${escapeMarkdown(t.note)}\n` : ''}`;
}

/** Markdown of a results file: the metric tables, then every table of the report (per class, groups, slices). */
function resultsMarkdown(results: Results): string {
  const out = [formatMarkdown(results)];
  const model = resultsModel(results);
  for (const tab of model.tabs) for (const t of tab.tables) out.push(tableSection(t));
  return out.join('\n');
}

function compareMarkdown(c: CompareResults, opts: ExportOptions): string {
  return `## Comparison of ${c.runs.length} runs against ${escapeMarkdown(c.names[c.runs.indexOf(c.baseline)] ?? c.baseline)}\n\n${renderLongMarkdown(c, { metrics: opts.metrics })}\n`;
}

/**
 * The category breakdown as more rows of the metrics CSV (same columns, so the file stays one
 * table): family `category`, metric `coverage@K [category: name]` (likewise `share`, `recall`),
 * the counts behind each rate in the note column; an undefined recall has an empty value.
 */
function categoryCsvRows(results: Results): string {
  const t = categoryTable(results.tables?.categoryBreakdown);
  const b = results.tables?.categoryBreakdown;
  if (!t || !b) return '';
  const pad = Object.keys(results.baselines ?? {}).map(() => '');
  const num = (v: number | null): string => (v === null ? '' : String(v));
  const rows = b.rows.flatMap((r) => [
    [
      'category',
      `coverage@${b.k} [category: ${r.category}]`,
      num(r.coverage),
      '',
      '',
      'higher',
      `${r.recommendedItems} of ${r.catalogItems} catalogue items recommended`,
      ...pad,
    ],
    [
      'category',
      `share@${b.k} [category: ${r.category}]`,
      num(r.share),
      '',
      '',
      '',
      'share of all recommendation slots',
      ...pad,
    ],
    [
      'category',
      `recall@${b.k} [category: ${r.category}]`,
      num(r.recall),
      '',
      '',
      'higher',
      r.recall === null
        ? 'undefined: no evaluated user has a relevant item in this category'
        : `${r.hits} of ${r.relevant} relevant items found`,
      ...pad,
    ],
  ]);
  return rows.map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

/** The metrics of a LaTeX table: those asked for (that exist), else the headline ones. */
function latexMetrics(
  task: Results['task'] | undefined,
  available: readonly string[],
  asked: readonly string[] | undefined,
): string[] {
  if (asked && asked.length > 0) {
    const missing = asked.filter((m) => !available.includes(m));
    if (missing.length > 0)
      throw new EvalLensError(
        'report-unknown-metric',
        `expected metric keys of the report, but ${missing.map((m) => `"${m}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not among them. Known keys: ${available.join(', ')}.`,
      );
    return [...asked];
  }
  return task
    ? headlineKeys(
        { task, metrics: Object.fromEntries(available.map((m) => [m, { value: null, direction: 'higher' as const }])) },
        6,
      )
    : [...available];
}

function resultsLatex(r: Results, opts: ExportOptions): string {
  const metrics = latexMetrics(r.task, Object.keys(r.metrics), opts.metrics);
  const run = r.source.path;
  const name = run
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[^.]+$/, '');
  const t: RunTable = {
    runs: [run],
    names: [name],
    metrics,
    directions: Object.fromEntries(metrics.map((m) => [m, r.metrics[m]!.direction])),
    table: { [run]: Object.fromEntries(metrics.map((m) => [m, r.metrics[m]!.value])) },
    marks: {},
  };
  const intervals = opts.ci
    ? { [run]: Object.fromEntries(metrics.flatMap((m) => (r.metrics[m]!.ci ? [[m, r.metrics[m]!.ci!]] : []))) }
    : undefined;
  return (
    renderLatexTable(t, {
      metrics,
      intervals,
      confidence: r.config?.bootstrap?.confidence,
      caption: `Results of ${name}.`,
    }) + '\n'
  );
}

function compareLatex(c: CompareResults, opts: ExportOptions): string {
  const metrics = latexMetrics(c.task, c.metrics, opts.metrics);
  const table = renderLatexTable(c, {
    baseline: c.baseline,
    metrics,
    intervals: opts.ci ? c.intervals : undefined,
    confidence: c.settings?.bootstrap?.confidence,
  });
  return `${table}\n\n${renderLongLatex(c, { metrics, caption: `Paired comparison against ${c.names[c.runs.indexOf(c.baseline)] ?? c.baseline}.` })}\n`;
}

/** The report in `format`. */
export function exportReport(input: ReportInput, format: ReportFormat, opts: ExportOptions = {}): string {
  switch (format) {
    case 'html':
      return reportToHtml(reportModel(input), { generator: opts.generator, theme: opts.theme });
    case 'md':
      if (input.kind === 'results') return resultsMarkdown(input.results);
      if (input.kind === 'compare') return compareMarkdown(input.compare, opts);
      return renderMarkdownTable(input.table) + '\n';
    case 'csv':
      if (input.kind === 'results')
        return (
          formatCsv(input.results) +
          groupAnalysisCsvRows(input.results) +
          foldsCsvRows(input.results) +
          categoryCsvRows(input.results)
        );
      return input.kind === 'compare'
        ? renderLongCsv(input.compare, { metrics: opts.metrics })
        : renderCsvTable(input.table);
    case 'latex':
      if (input.kind === 'results') return resultsLatex(input.results, opts);
      if (input.kind === 'compare') return compareLatex(input.compare, opts);
      return renderLatexTable(input.table, { metrics: opts.metrics, caption: `Runs of ${input.table.source}.` }) + '\n';
  }
}
