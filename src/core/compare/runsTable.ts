/**
 * An existing table of runs × metrics read and marked (a CSV/TSV summary written by a training
 * script, or a paper's table typed in): the same best / second / third marking as a comparison,
 * with each column's direction inferred from its name. Its JSON says `kind: "inspection"`, the name
 * the format has always had; in the code it is a marked runs table, so that "inspect" means the
 * row query alone.
 *
 * Reading rules (docs/comparisons.md):
 * - The first line is the header. The run column is `runColumn` if given, else the first column
 *   named model / method / run / name / system / experiment / approach, else the first column.
 * - Cells: surrounding markup (`**x**`, `<b>x</b>`, `\textbf{x}`) is stripped; `NA`, `N/A`, `NaN`,
 *   `null`, `none`, `-`, `—` and empty cells are missing; `48.8%` is the fraction 0.488;
 *   `48.8±0.3`, `48.8 +- 0.3`, `48.8+/-0.3` and `48.8 (0.3)` are 48.8 (the spread is ignored);
 *   `1,824.5` is 1824.5; a Unicode minus is a minus. The source text is kept for display.
 * - A column whose non-missing cells are all numbers is numeric; any other cell makes it text.
 * - Direction of a numeric column, first that applies: `directions` (by the header as written or
 *   by its normalised name), an arrow in the header (`↑` higher, `↓` lower), the metric name
 *   (`directionOf` on the normalised name) when the name is a known metric word. Numeric columns
 *   with none of these (hyper-parameters such as `factors`, `reg`, costs such as
 *   `training_time`) are shown but not marked; a warning lists them. With `metrics`, only those
 *   columns are kept, each marked (by `directionOf` when nothing else says).
 * - Duplicate run names or column names get ` (2)`, ` (3)`… and a warning; a row with a different
 *   number of cells than the header is an error naming its line.
 */
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { fail, type EvalWarning } from '../diagnostics';
import type { Direction } from '../results/types';
import { directionOf } from '../results/directions';
import { markTable } from './marks';
import { COMPARE_SCHEMA_ID, type RunTable } from './types';

export interface InspectOptions {
  /** Direction overrides by column name (config `compare.directions`). */
  directions?: Record<string, Direction>;
  /** Keep only these columns (by header as written or normalised name). */
  metrics?: string[];
  /** The column holding the run names. */
  runColumn?: string;
}

export interface MarkedRunsTable extends RunTable {
  schema: typeof COMPARE_SCHEMA_ID;
  kind: 'inspection';
  /** The table file as given. */
  source: string;
  runColumn: string;
  /** Numeric columns without a known direction (shown, not marked). */
  unmarked: string[];
  /** Text columns other than the run column (shown, not marked). */
  textColumns: string[];
  warnings: EvalWarning[];
}

export interface ParsedCell {
  value: number | null;
  kind: 'number' | 'missing' | 'text';
  percent?: boolean;
}

const MISSING = new Set(['', 'na', 'n/a', 'nan', 'null', 'none', '-', '—', '–', '--']);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const THOUSANDS = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;

function stripMarkup(s: string): string {
  let t = s.trim();
  t = t.replace(/<[^>]+>/g, '');
  for (;;) {
    const m = /^\\(textbf|underline|textit|emph|mathbf)\{(.*)\}$/.exec(t);
    if (!m) break;
    t = m[2].trim();
  }
  t = t.replace(/^(\*\*|__|\*|_)(.*)\1$/, '$2');
  return t.trim();
}

/**
 * Parses one cell of an inspected table (rules in the module comment).
 *
 * @example parseCell('48.8%') = { value: 0.488, kind: 'number', percent: true }
 */
export function parseCell(raw: string): ParsedCell {
  let t = stripMarkup(raw).replace(/\u2212/g, '-');
  if (MISSING.has(t.toLowerCase())) return { value: null, kind: 'missing' };
  const spread = /^(.*?)\s*(±|\+\/-|\+-|\(\s*[0-9.]+\s*\))\s*[0-9.eE+-]*%?\s*$/.exec(t);
  if (spread && spread[1] !== '') t = spread[1].trim();
  let percent = false;
  if (t.endsWith('%')) {
    percent = true;
    t = t.slice(0, -1).trim();
  }
  if (THOUSANDS.test(t)) t = t.replace(/,/g, '');
  if (!NUMBER.test(t)) return { value: null, kind: 'text' };
  if (!percent) return { value: Number(t), kind: 'number' };
  // "7.2%" → Number("7.2e-2") = 0.072 exactly as written (7.2 / 100 would be 0.07200000000000001).
  return { value: /[eE]/.test(t) ? Number(t) / 100 : Number(`${t}e-2`), kind: 'number', percent: true };
}

/** Lower-case, arrows and surrounding space removed, inner spaces and hyphens as `_`. */
export function normaliseColumnName(name: string): string {
  return name
    .replace(/[↑↓]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

// Words that name a metric (either direction); a column whose name contains none of them has no
// inferred direction. The lower-is-better words are those `directionOf` knows.
const METRIC_WORDS = new Set([
  'accuracy',
  'acc',
  'auc',
  'aupr',
  'auroc',
  'roc',
  'ap',
  'map',
  'f1',
  'precision',
  'prec',
  'recall',
  'ndcg',
  'dcg',
  'mrr',
  'hit',
  'hits',
  'hr',
  'hit_rate',
  'coverage',
  'btd',
  'avg',
  'mean',
  'max',
  'min',
  'iou',
  'bleu',
  'rouge',
  'novelty',
  'diversity',
  'alignment',
  'tpr',
  'kappa',
  'mcc',
  'r2',
  'uniform',
  'forward',
  'backward',
  'auca',
  'top1',
  'top5',
  'error',
  'err',
  'risk',
  'aurc',
  'eaurc',
  'e_aurc',
  'ece',
  'mce',
  'nll',
  'brier',
  'std',
  'dr',
  'loss',
  'fpr',
  'mse',
  'rmse',
  'mae',
  'f1_score',
  'macro_f1',
  'balanced_accuracy',
  'shift_auc',
]);

/** True when the normalised name contains a metric word (tokens split on non-alphanumerics; `@K` ignored). */
export function isMetricName(name: string): boolean {
  const n = normaliseColumnName(name);
  if (METRIC_WORDS.has(n.replace(/@\d+$/, ''))) return true;
  return n
    .split(/[^a-z0-9]+/)
    .filter((x) => x !== '')
    .some((tok) => METRIC_WORDS.has(tok) || /^top\d+$/.test(tok));
}

/** Direction of a column from an override, an arrow in its header, or its name; null when unknown. */
export function columnDirection(header: string, overrides: Record<string, Direction> = {}): Direction | null {
  const norm = normaliseColumnName(header);
  const o = overrides[header] ?? overrides[header.trim()] ?? overrides[norm];
  if (o) return o;
  if (header.includes('↑')) return 'higher';
  if (header.includes('↓')) return 'lower';
  return isMetricName(header) ? directionOf(norm) : null;
}

function uniquify(names: string[], what: string, file: string, warnings: EvalWarning[]): string[] {
  const seen = new Map<string, number>();
  const dups: string[] = [];
  const out = names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    if (k === 1) return n;
    dups.push(n);
    return `${n} (${k})`;
  });
  if (dups.length > 0) {
    warnings.push({
      code: 'inspect-duplicate-name',
      message: `${file}: repeated ${what} ${[...new Set(dups)].map((d) => `"${d}"`).join(', ')} shown with (2), (3)… appended.`,
      file,
      count: dups.length,
    });
  }
  return out;
}

/** Inspects the text of a table (see {@link readRunsTable}); `file` names it in messages. */
export function readRunsTableText(text: string, file: string, opts: InspectOptions = {}): MarkedRunsTable {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false, delimiter: '' });
  // Row r of `parsed.data` is physical line r + 1 (no quoted field in these tables spans lines).
  const rows = parsed.data
    .map((cells, r) => ({ cells, line: r + 1 }))
    .filter((x) => x.cells.some((c) => c.trim() !== ''));
  if (rows.length < 2)
    fail(
      'inspect-empty-table',
      { file },
      `expected a header and at least one row of runs, but got ${rows.length === 0 ? 'no lines' : 'only a header'}.`,
    );
  const warnings: EvalWarning[] = [];
  const header = rows[0].cells.map((h) => h.trim());
  const body = rows.slice(1);
  for (const r of body) {
    if (r.cells.length !== header.length) {
      fail(
        'inspect-ragged-row',
        { file, line: r.line },
        `expected ${header.length} cells as in the header, but got ${r.cells.length}.`,
      );
    }
  }
  const columns = uniquify(header, 'column name', file, warnings);
  let runCol: number;
  if (opts.runColumn !== undefined) {
    runCol = header.findIndex(
      (h) => h === opts.runColumn || normaliseColumnName(h) === normaliseColumnName(opts.runColumn!),
    );
    if (runCol < 0)
      fail(
        'inspect-no-run-column',
        { file, line: 1, column: opts.runColumn },
        `expected a run column "${opts.runColumn}", but the header has: ${header.join(', ')}.`,
      );
  } else {
    runCol = header.findIndex((h) => /^(model|method|run|name|system|experiment|approach)s?$/i.test(h.trim()));
    if (runCol < 0) runCol = 0;
  }
  const runs = uniquify(
    body.map((r) => stripMarkup(r.cells[runCol])),
    'run name',
    file,
    warnings,
  );

  const numeric: number[] = [];
  const textColumns: string[] = [];
  const cells = body.map((r) => r.cells.map(parseCell));
  columns.forEach((c, j) => {
    if (j === runCol) return;
    if (cells.every((row) => row[j].kind !== 'text') && cells.some((row) => row[j].kind === 'number')) numeric.push(j);
    else textColumns.push(c);
  });

  const wanted = opts.metrics?.map((m) => m.trim());
  const directions: Record<string, Direction> = {};
  const metrics: string[] = [];
  const unmarked: string[] = [];
  for (const j of numeric) {
    const name = columns[j];
    if (wanted && !wanted.some((w) => w === name || normaliseColumnName(w) === normaliseColumnName(name))) continue;
    metrics.push(name);
    const dir = columnDirection(header[j], opts.directions) ?? (wanted ? directionOf(normaliseColumnName(name)) : null);
    if (dir) directions[name] = dir;
    else unmarked.push(name);
  }
  if (wanted) {
    for (const w of wanted) {
      if (!metrics.some((m) => m === w || normaliseColumnName(m) === normaliseColumnName(w))) {
        fail(
          'inspect-unknown-column',
          { file, line: 1, column: w },
          `expected a numeric column "${w}", but the numeric columns are: ${numeric.map((j) => columns[j]).join(', ')}.`,
        );
      }
    }
  }
  if (unmarked.length > 0) {
    warnings.push({
      code: 'inspect-unknown-direction',
      message: `${file}: no direction known for ${unmarked.map((u) => `"${u}"`).join(', ')} (not a metric name, no ↑/↓ in the header): shown but not marked. Set compare.directions in eval-lens.json to mark them.`,
      file,
      line: 1,
    });
  }

  const table: RunTable['table'] = {};
  const display: NonNullable<RunTable['display']> = {};
  runs.forEach((run, i) => {
    table[run] = {};
    display[run] = {};
    for (const j of numeric) {
      const name = columns[j];
      if (!metrics.includes(name)) continue;
      table[run][name] = cells[i][j].value;
      display[run][name] = body[i].cells[j].trim();
    }
  });
  const names = [...runs];
  return {
    schema: COMPARE_SCHEMA_ID,
    kind: 'inspection',
    source: file,
    runColumn: header[runCol],
    runs,
    names,
    metrics,
    directions,
    table,
    marks: markTable({ runs, metrics, directions, table }),
    display,
    unmarked,
    textColumns,
    warnings,
  };
}

/**
 * Reads a CSV/TSV table of runs × metrics and marks best / second / third per column.
 *
 * @example readRunsTable('reports/cf_eval_summary.csv') marks bpr best on recall@10 (0.242 > 0.234 > 0.145).
 */
export async function readRunsTable(path: string, opts: InspectOptions = {}): Promise<MarkedRunsTable> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    fail(
      'inspect-unreadable',
      { file: path },
      `expected a readable table file, but reading failed: ${(e as Error).message}`,
    );
  }
  return readRunsTableText(text, path, opts);
}
