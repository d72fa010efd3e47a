/**
 * A comparison in long form, the table a paper's results section prints: one row per metric,
 * each run's value, and for each run against the baseline Δ = run − baseline with its interval,
 * the direction-aware relative change ("better by"), the reported p-value with the test that
 * produced it, and that p adjusted over every test of the comparison. Terminal, Markdown, LaTeX,
 * and CSV (one row per metric and run, every number at full precision).
 */
import { csvCell } from '../text/csvCell';
import { escapeMarkdown } from '../text/markdownText';
import { metricColumn } from '../glossary';
import { escapeLatex, formatDelta, formatP, formatValue, pad, untestedNote } from './render';
import type { CompareResults, CompareTest, Place, PTest } from './types';

const ARROW = { higher: '↑', lower: '↓' } as const;

/** One letter per test in the p column, with the legend below the table. */
export const TEST_MARK: Record<PTest, string> = { 'mcnemar-exact': 'M', t: 't', bootstrap: 'b' };

const TEST_LEGEND = 'M: McNemar exact; t: paired t-test; b: paired bootstrap';

function adjustName(c: CompareResults): string {
  return c.settings.adjust === 'bh' ? 'BH' : 'Holm';
}

/** The metrics shown: those asked for (in the comparison), else every compared metric. */
function shown(c: CompareResults, metrics?: readonly string[]): string[] {
  return metrics && metrics.length > 0 ? c.metrics.filter((m) => metrics.includes(m)) : c.metrics;
}

function testOf(c: CompareResults, run: string, metric: string): CompareTest | undefined {
  return c.tests.find((t) => t.run === run && t.metric === metric);
}

/** Δ of a test (the paired point, else the difference of the per-item means), or of the table values. */
export function deltaOf(c: CompareResults, run: string, metric: string): number | null {
  const t = testOf(c, run, metric);
  if (t?.delta !== undefined && t.delta !== null) return t.delta;
  if (t && t.mean !== null && t.mean_baseline !== null) return t.mean - t.mean_baseline;
  const a = c.table[c.baseline]?.[metric] ?? null;
  const b = c.table[run]?.[metric] ?? null;
  return a !== null && b !== null ? b - a : null;
}

function pct(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const s = (Math.abs(x) * 100).toFixed(1);
  return Number(s) === 0 ? `${s}%` : `${x > 0 ? '+' : '−'}${s}%`;
}

function interval(ci: readonly [number, number] | null | undefined, f: (x: number) => string): string {
  return ci ? `[${f(ci[0])}, ${f(ci[1])}]` : '';
}

interface Cells {
  head: string[];
  rows: string[][];
  notes: string[];
}

/** How a format writes a cell: its escaping, and the marks of best / second / third. */
interface CellStyle {
  esc: (s: string) => string;
  mark: (s: string, place: Place | undefined) => string;
  named?: boolean;
}

const TEXT: CellStyle = { esc: (s) => s, mark: (s, p) => (p ? `${s} [${p}]` : s) };
const MARKDOWN: CellStyle = {
  esc: escapeMarkdown,
  mark: (s, p) => (p === 1 ? `**${s}**` : p === 2 ? `<u>${s}</u>` : p === 3 ? `*${s}*` : s),
};
const LATEX: CellStyle = {
  esc: (s) => (s === '–' || s === '' ? (s === '' ? '' : '--') : escapeLatex(s)),
  mark: (s, p) => (p === 1 ? `\\textbf{${s}}` : p === 2 ? `\\underline{${s}}` : s),
  named: true,
};

function cells(c: CompareResults, metrics: readonly string[] | undefined, style: CellStyle): Cells {
  const named = style.named === true;
  const value = (r: string, m: string): string =>
    style.mark(style.esc(formatValue(c.table[r]?.[m] ?? null)), c.marks[m]?.[r]);
  const others = c.runs.filter((r) => r !== c.baseline);
  const name = (r: string): string => c.names[c.runs.indexOf(r)] ?? r;
  const level = c.settings.bootstrap ? `${Number((c.settings.bootstrap.confidence * 100).toPrecision(4))}%` : '';
  const comparison = (r: string, m: string): string[] => {
    const t = testOf(c, r, m);
    const ci = interval(t?.ci_diff, formatDelta);
    const bci = interval(t?.better_by_ci, pct);
    return [
      `${formatDelta(deltaOf(c, r, m))}${ci ? ` ${ci}${t?.ci_excludes_delta ? ' ‡' : ''}` : ''}`,
      t?.better_by !== undefined ? `${pct(t.better_by)}${bci ? ` ${bci}` : ''}` : '–',
      t?.p !== undefined && t.p !== null ? `${formatP(t.p)}${t.p_test ? ` ${TEST_MARK[t.p_test]}` : ''}` : '–',
      formatP(t?.p_adjusted),
    ].map(style.esc);
  };
  const label = (m: string): string => {
    const d = c.directions[m];
    const text = named ? metricColumn(m) : m;
    return style.esc(d && !text.includes(ARROW[d]) ? `${text} ${ARROW[d]}` : text);
  };
  const tail = [`Δ${level ? ` [${level} CI]` : ''}`, 'better by', 'p', `p ${adjustName(c)}`];
  let head: string[];
  let rows: string[][];
  if (others.length === 1) {
    // One row per metric: both values, then the comparison.
    const r = others[0]!;
    head = ['metric', `${name(c.baseline)} (baseline)`, name(r), ...tail].map(style.esc);
    rows = shown(c, metrics).map((m) => [label(m), value(c.baseline, m), value(r, m), ...comparison(r, m)]);
  } else {
    // One row per metric and run: the baseline's value, the run's, the comparison.
    head = ['metric', 'run', `${name(c.baseline)} (baseline)`, 'value', ...tail].map(style.esc);
    rows = shown(c, metrics).flatMap((m) =>
      others.map((r, i) => [
        i === 0 ? label(m) : '',
        style.esc(name(r)),
        i === 0 ? value(c.baseline, m) : '',
        value(r, m),
        ...comparison(r, m),
      ]),
    );
  }
  const notes = [
    `Values: best / second / third per metric marked ${style === TEXT ? '[1] [2] [3]' : style === MARKDOWN ? 'bold, underlined, italic' : 'bold, underlined'}. Δ = run − baseline${level ? `, ${level} paired-bootstrap percentile interval` : ''}; better by = relative change in the metric's good direction (↑ higher is better, ↓ lower is better).`,
    `p: ${TEST_LEGEND}; p ${adjustName(c)}: adjusted over all ${c.tests.filter((t) => t.p_adjusted !== null && t.p_adjusted !== undefined).length} tests of this comparison.`,
  ];
  if (c.tests.some((t) => t.ci_excludes_delta))
    notes.push(
      '‡ the interval does not contain Δ: the bootstrap of this metric is biased (a resample holds about 63% of the distinct rows or users, which shifts binned calibration errors and catalogue coverage), so read its interval and p with care.',
    );
  if (c.untested && c.untested.length > 0) notes.push(untestedNote(c.untested));
  return { head, rows, notes };
}

/** The long-form comparison for a terminal. */
export function renderLongText(c: CompareResults, opts: { metrics?: readonly string[] } = {}): string {
  const { head, rows, notes } = cells(c, opts.metrics, TEXT);
  return `${pad([head, ...rows])}\n${notes.join('\n')}`;
}

/** The long-form comparison as a Markdown table (fit for a pull request or a CI job summary). */
export function renderLongMarkdown(c: CompareResults, opts: { metrics?: readonly string[] } = {}): string {
  const { head, rows, notes } = cells(c, opts.metrics, MARKDOWN);
  return [
    `| ${head.join(' | ')} |`,
    `|---|${head
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    ...notes.map(escapeMarkdown),
  ].join('\n');
}

/** The long-form comparison as a LaTeX table (`booktabs`), metrics by their short headings. */
export function renderLongLatex(
  c: CompareResults,
  opts: { metrics?: readonly string[]; caption?: string } = {},
): string {
  const { head, rows, notes } = cells(c, opts.metrics, LATEX);
  return [
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${escapeLatex(opts.caption ?? 'Comparison of runs.')} ${escapeLatex(notes.join(' '))}}`,
    `\\begin{tabular}{l${'r'.repeat(head.length - 1)}}`,
    '\\toprule',
    `${head.join(' & ')} \\\\`,
    '\\midrule',
    ...rows.map((r) => `${r.join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
  ].join('\n');
}

/**
 * The comparison as long CSV: one row per metric and run, every number at full precision; the
 * baseline's rows have its value only.
 */
export function renderLongCsv(c: CompareResults, opts: { metrics?: readonly string[] } = {}): string {
  const head = [
    'metric',
    'direction',
    'run',
    'baseline',
    'value',
    'baseline_value',
    'delta',
    'delta_lo',
    'delta_hi',
    'better_by',
    'better_by_lo',
    'better_by_hi',
    'p',
    'p_test',
    'p_adjusted',
    'effect',
  ];
  const num = (x: number | null | undefined): string =>
    x === null || x === undefined || !Number.isFinite(x) ? '' : String(x);
  const lines = [head.map(csvCell).join(',')];
  for (const m of shown(c, opts.metrics)) {
    for (const r of c.runs) {
      const name = c.names[c.runs.indexOf(r)] ?? r;
      const base = c.names[c.runs.indexOf(c.baseline)] ?? c.baseline;
      const v = c.table[r]?.[m] ?? null;
      if (r === c.baseline) {
        lines.push(
          [m, c.directions[m] ?? '', name, base, num(v), num(v), '', '', '', '', '', '', '', '', '', '']
            .map(csvCell)
            .join(','),
        );
        continue;
      }
      const t = testOf(c, r, m);
      lines.push(
        [
          m,
          c.directions[m] ?? '',
          name,
          base,
          num(v),
          num(c.table[c.baseline]?.[m]),
          num(deltaOf(c, r, m)),
          num(t?.ci_diff?.[0]),
          num(t?.ci_diff?.[1]),
          num(t?.better_by),
          num(t?.better_by_ci?.[0]),
          num(t?.better_by_ci?.[1]),
          num(t?.p),
          t?.p_test ?? '',
          num(t?.p_adjusted),
          t?.effect ?? '',
        ]
          .map(csvCell)
          .join(','),
      );
    }
  }
  return lines.join('\n') + '\n';
}
