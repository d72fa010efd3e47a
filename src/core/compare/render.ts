/**
 * Text renderings of a run × metric table and of the paired tests: plain table (terminal),
 * Markdown, LaTeX, CSV. Best / second / third are bold / underline / italic in Markdown
 * (`**x**`, `<u>x</u>`, `*x*`) and LaTeX (`\textbf`, `\underline`, `\textit`), and the markers
 * `[1]`, `[2]`, `[3]` in the plain table; CSV has a `<metric>_place` column beside each metric.
 * The LaTeX tables, written for a paper, name the metrics by their short column headings ("Bal.
 * acc. ↑", "AURC ↓"; the key itself when the glossary does not know it); the plain, Markdown and
 * CSV tables keep the keys, which `--metrics` and scripts use.
 * Pure string functions: the CLI prints them, the extension's export uses them.
 */
import { UNRANKED_KEYS } from './marks';
import type { CompareTest, Place, RunTable } from './types';
import { csvCell } from '../text/csvCell';
import { escapeMarkdown } from '../text/markdownText';
import { formatP } from '../text/pValue';
import { metricColumn } from '../glossary';
import { intervalMethodOf } from '../stats/bootstrap';

const ARROW = { higher: '↑', lower: '↓' } as const;

/** A metric value for display: integers as they are, others with 4 decimals (2 past 1000). */
export function formatValue(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '–';
  if (Number.isInteger(v) && Math.abs(v) > 1) return String(v);
  return Math.abs(v) >= 1000 ? v.toFixed(2) : v.toFixed(4);
}

export { formatP };

function cellText(t: RunTable, run: string, m: string): string {
  const v = t.table[run]?.[m] ?? null;
  // Counts (users evaluated / skipped) print as integers, 0 and 1 included.
  if (v !== null && UNRANKED_KEYS.has(m) && Number.isInteger(v)) return t.display?.[run]?.[m] ?? String(v);
  return t.display?.[run]?.[m] ?? formatValue(v);
}

/** A metric column's heading: its key (or with `named` its short heading) and its direction's arrow. */
function header(t: RunTable, m: string, named = false): string {
  const d = t.directions[m];
  const label = named ? metricColumn(m) : m;
  return d && !label.includes(ARROW[d]) ? `${label} ${ARROW[d]}` : label;
}

function placeOf(t: RunTable, run: string, m: string): Place | undefined {
  return t.marks[m]?.[run];
}

/** Rows as aligned text columns: the first left-aligned, the others right-aligned. */
export function pad(rows: string[][]): string {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => [...r[j]].length)));
  return rows
    .map((r) =>
      r
        .map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const LEGEND = 'best / second / third per column by direction (↑ higher is better, ↓ lower is better)';

/** Widest terminal table (characters) before the text table puts metrics in rows. */
export const TEXT_TABLE_WIDTH = 160;

/**
 * Plain text table with `[1]`/`[2]`/`[3]` markers, for a terminal: one row per run, or, when that
 * would be wider than `maxWidth` (default {@link TEXT_TABLE_WIDTH}), one row per metric.
 */
export function renderTextTable(t: RunTable, opts: { baseline?: string; maxWidth?: number } = {}): string {
  const names = t.runs.map((run, i) => t.names[i] + (opts.baseline === run ? ' (baseline)' : ''));
  const cell = (run: string, m: string): string => {
    const p = placeOf(t, run, m);
    return cellText(t, run, m) + (p ? ` [${p}]` : '    ');
  };
  const rows: string[][] = [['run', ...t.metrics.map((m) => header(t, m))]];
  t.runs.forEach((run, i) => rows.push([names[i], ...t.metrics.map((m) => cell(run, m))]));
  let text = pad(rows);
  if (Math.max(...text.split('\n').map((l) => [...l].length)) > (opts.maxWidth ?? TEXT_TABLE_WIDTH)) {
    const cols: string[][] = [['metric', ...names]];
    for (const m of t.metrics) cols.push([header(t, m), ...t.runs.map((run) => cell(run, m))]);
    text = pad(cols);
  }
  return `${text}\n[1] [2] [3]: ${LEGEND}.`;
}

/** Markdown table: best **bold**, second <u>underlined</u>, third *italic*. */
export function renderMarkdownTable(t: RunTable, opts: { baseline?: string } = {}): string {
  const wrap = (s: string, p: Place | undefined): string =>
    p === 1 ? `**${s}**` : p === 2 ? `<u>${s}</u>` : p === 3 ? `*${s}*` : s;
  const lines = [
    `| run | ${t.metrics.map((m) => escapeMarkdown(header(t, m))).join(' | ')} |`,
    `|---|${t.metrics.map(() => '---:').join('|')}|`,
  ];
  t.runs.forEach((run, i) => {
    const name = escapeMarkdown(t.names[i]) + (opts.baseline === run ? ' (baseline)' : '');
    lines.push(
      `| ${name} | ${t.metrics.map((m) => wrap(escapeMarkdown(cellText(t, run, m)), placeOf(t, run, m))).join(' | ')} |`,
    );
  });
  lines.push('', `**Bold**, <u>underlined</u>, *italic*: ${LEGEND}.`);
  return lines.join('\n');
}

/**
 * Text for a LaTeX comment line: TeX ignores everything after `%` up to the end of the line, so only
 * a line break (or another control character) could end the comment early; each becomes a space.
 */
function latexCommentText(s: string): string {
  let out = '';
  for (const c of s) {
    const u = c.charCodeAt(0);
    out += u < 0x20 || u === 0x7f || u === 0x2028 || u === 0x2029 ? ' ' : c;
  }
  return out;
}

/**
 * Escapes LaTeX's special characters in text (`\ { } $ & # ^ _ % ~`), and writes ↑ ↓ ± – as
 * math or text commands, so any run or metric name compiles.
 */
export function escapeLatex(s: string): string {
  return s
    .replace(/[\\{}$&#^_%~]/g, (c) => {
      switch (c) {
        case '\\':
          return '\\textbackslash{}';
        case '~':
          return '\\textasciitilde{}';
        case '^':
          return '\\textasciicircum{}';
        default:
          return `\\${c}`;
      }
    })
    .replace(/↑/g, '$\\uparrow$')
    .replace(/↓/g, '$\\downarrow$')
    .replace(/±/g, '$\\pm$')
    .replace(/Δ/g, '$\\Delta$')
    .replace(/–/g, '--')
    .replace(/−/g, '-');
}

export interface LatexTableOptions {
  baseline?: string;
  caption?: string;
  /** The columns, in this order (default: every metric of the table). */
  metrics?: readonly string[];
  /** run → metric → interval: printed as ± half its width after the value. */
  intervals?: Record<string, Record<string, readonly [number, number]>>;
  /** Confidence of `intervals`, for the caption (e.g. 0.95). */
  confidence?: number;
}

/**
 * LaTeX table as the long-tail papers print them: `booktabs` rules (`\toprule`, `\midrule`,
 * `\bottomrule`; add `\usepackage{booktabs}`), best in `\textbf`, second `\underline`, and with
 * `intervals` each value followed by `± h`, h = half the width of its interval (the caption says
 * which interval). Every name is escaped.
 */
export function renderLatexTable(t: RunTable, opts: LatexTableOptions = {}): string {
  const metrics = opts.metrics ? opts.metrics.filter((m) => t.metrics.includes(m)) : t.metrics;
  const wrap = (s: string, p: Place | undefined): string =>
    p === 1 ? `\\textbf{${s}}` : p === 2 ? `\\underline{${s}}` : s;
  const cell = (run: string, m: string): string => {
    const text = cellText(t, run, m);
    if (text === '–') return '--';
    let out = wrap(escapeLatex(text), placeOf(t, run, m));
    const ci = opts.intervals?.[run]?.[m];
    if (ci && Number.isFinite(ci[0]) && Number.isFinite(ci[1]))
      out += `\\,{\\scriptsize$\\pm$${escapeLatex(formatValue((ci[1] - ci[0]) / 2))}}`;
    return out;
  };
  const withCi = metrics.some((m) => t.runs.some((r) => opts.intervals?.[r]?.[m]));
  const level = opts.confidence !== undefined ? `${Number((opts.confidence * 100).toPrecision(4))}\\% ` : '';
  // The binned calibration errors' intervals are basic bootstrap intervals (stats/bootstrap.ts `IntervalMethod`).
  const basic = metrics.some((m) => intervalMethodOf(m) === 'basic' && t.runs.some((r) => opts.intervals?.[r]?.[m]));
  const ciText = withCi
    ? ` $\\pm$: half the width of each run's ${level}bootstrap percentile interval${basic ? ' (for the calibration errors the basic bootstrap interval, Davison \\& Hinkley 1997)' : ''}.`
    : '';
  const lines = [
    // which key each heading stands for, for whoever edits the table later (a comment: prints nothing)
    `% Columns: ${metrics.map((m) => `${latexCommentText(metricColumn(m))} = ${latexCommentText(m)}`).join('; ')}`,
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${escapeLatex(opts.caption ?? 'Comparison of runs.')} Best in \\textbf{bold}, second \\underline{underlined} ($\\uparrow$ higher is better, $\\downarrow$ lower is better).${ciText}}`,
    `\\begin{tabular}{l${'r'.repeat(metrics.length)}}`,
    '\\toprule',
    `Run & ${metrics.map((m) => escapeLatex(header(t, m, true))).join(' & ')} \\\\`,
    '\\midrule',
  ];
  t.runs.forEach((run, i) => {
    const name = escapeLatex(t.names[i]) + (opts.baseline === run ? ' (baseline)' : '');
    lines.push(`${name} & ${metrics.map((m) => cell(run, m)).join(' & ')} \\\\`);
  });
  lines.push('\\bottomrule', '\\end{tabular}', '\\end{table}');
  return lines.join('\n');
}

/** CSV: `run`, then per metric its value and `<metric>_place` (1, 2, 3 or empty). */
export function renderCsvTable(t: RunTable): string {
  const head = ['run', ...t.metrics.flatMap((m) => [m, `${m}_place`])];
  const lines = [head.map(csvCell).join(',')];
  t.runs.forEach((run, i) => {
    const cells = [t.names[i]];
    for (const m of t.metrics) {
      const v = t.table[run]?.[m] ?? null;
      cells.push(v === null ? '' : String(v), String(placeOf(t, run, m) ?? ''));
    }
    lines.push(cells.map(csvCell).join(','));
  });
  return lines.join('\n') + '\n';
}

/** mean − mean_baseline over the matched pairs, or null. */
export function delta(x: CompareTest): number | null {
  return x.mean !== null && x.mean_baseline !== null ? x.mean - x.mean_baseline : null;
}

/** A difference with its sign: `+0.0200`, `−0.0150` (4 decimals), `–` when undefined. */
export function formatDelta(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '–';
  const s = Math.abs(v) >= 1000 ? Math.abs(v).toFixed(2) : Math.abs(v).toFixed(4);
  return Number(s) === 0 ? s : `${v > 0 ? '+' : '−'}${s}`;
}

/** The note on metrics without per-item values or paired resamples, or '' when every compared metric was tested. */
export function untestedNote(untested: readonly string[] | undefined): string {
  if (!untested || untested.length === 0) return '';
  return `Not tested (neither per-item values nor paired resamples): ${untested.join(', ')}.`;
}
