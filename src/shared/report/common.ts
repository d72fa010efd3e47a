/**
 * What every family's charts share: the header, metric cards (with the caveat of extremes' intervals
 * and of any interval that excludes its point),
 * tables and curve tables, bin labels, chart points, log-axis bounds and the tab titles.
 */
import type { Curve, MetricValue, Results } from '../../core/results/types';
import { formatBytes, formatCi, formatCount, formatLevel, formatNumber } from '../format';
import { factorModelName } from '../outputName';
import { metricHover, metricName } from '../../core/glossary';
import { splitNotes } from '../../core/results/notes';
import { shownDirection } from '../../core/results/directions';
import { ciExcludesPoint, splitRowsText } from '../../core/results/format';
import type { CardModel, CellValue, ColumnKind, HeaderModel, Series, TableModel } from '../model';

export const FAMILY_TITLES: Record<string, string> = {
  classification: 'Classification',
  longtail: 'Long tail',
  evolving: 'Evolving distributions',
  selective: 'Selective',
  calibration: 'Calibration',
  importance: 'Importance-weighted',
  ranking: 'Ranking',
  other: 'Other',
};

/**
 * Statistics of extremes, whose percentile bootstrap interval deserves a caveat. (`mce`, a max over
 * bins, has a basic bootstrap interval instead, with its own note.)
 */
const EXTREME_KEYS = /^(worst_error|aurc_worst.*|shift_max|shift_min|shift_dr)$/;
export const EXTREME_CAVEAT = 'CI of a max/min: may miss the point (see note)';
const EXTREME_NOTE =
  'This metric is a maximum or minimum over groups, bins or distributions. A percentile bootstrap interval of an extreme is biased and can miss the true value; read it as rough.';

/** The caveat of any interval that does not contain its metric's value. */
export const EXCLUDES_CAVEAT = 'Interval excludes the point (see note)';
const EXCLUDES_NOTE =
  'The interval does not contain the point estimate: the bootstrap distribution of this metric is skewed or biased away from its value on the data; read the interval as rough.';
/** Beside an interval formed by the basic bootstrap (`ci_method: basic`): the card names its kind. */
export const BASIC_CI_LABEL = 'basic bootstrap';
const BASIC_NOTE =
  'Interval: basic bootstrap, [2·value − upper quantile, 2·value − lower quantile] of the resamples, clipped to [0, 1] (Davison & Hinkley 1997, Bootstrap Methods and their Application, §5.2). Resampling inflates a binned calibration error, so its percentile interval (the rule for the other metrics) sits above the value; the basic interval corrects for that bias.';

/** `note` then `more`, joined into sentences. */
function addNote(note: string | undefined, more: string): string {
  if (!note) return more;
  return /[.!?]$/.test(note) ? `${note} ${more}` : `${note}. ${more}`;
}

export function card(key: string, m: MetricValue, family: string, extra?: string[]): CardModel {
  const c: CardModel = {
    key,
    name: metricName(key),
    family,
    value: m.value,
    text: formatNumber(m.value, key),
    ci: m.ci && m.ci_method === 'basic' ? `${formatCi(m.ci, key)} ${BASIC_CI_LABEL}` : formatCi(m.ci, key),
    direction: shownDirection(key, m.direction),
  };
  const explain = metricHover(key);
  if (explain) c.explain = explain;
  if (m.note) c.note = m.note;
  if (m.ci && m.ci_method === 'basic') c.note = addNote(c.note, BASIC_NOTE);
  if (m.ci && EXTREME_KEYS.test(key)) {
    c.caveat = EXTREME_CAVEAT;
    c.note = addNote(c.note, EXTREME_NOTE);
  }
  // Every key: an interval that misses its point says so, whatever the metric and the interval's kind.
  if (ciExcludesPoint(m)) {
    c.caveat = EXCLUDES_CAVEAT;
    c.note = addNote(c.note, EXCLUDES_NOTE);
  }
  if (extra && extra.length > 0) c.extra = extra;
  return c;
}

export function baselineExtras(results: Results, key: string): string[] {
  return Object.entries(results.baselines ?? {})
    .filter(([, m]) => m[key] !== undefined)
    .map(([name, m]) => `${name} ${formatNumber(m[key]!.value, key)}`);
}

export function familyOf(results: Results, key: string): string {
  for (const [f, keys] of Object.entries(results.families)) if (keys?.includes(key)) return f;
  return 'other';
}

export function header(results: Results): HeaderModel {
  const s = results.source;
  const b = results.config?.bootstrap;
  const rows = s.rowsUsed !== s.rows ? `${formatCount(s.rows)} (${formatCount(s.rowsUsed)} used)` : formatCount(s.rows);
  const columns = Object.entries(s.columns ?? {})
    .map(
      ([role, c]) =>
        `${role}: ${Array.isArray(c) ? (c.length > 4 ? `${c.slice(0, 3).join(', ')} … ${c[c.length - 1]} (${c.length})` : c.join(', ')) : c}`,
    )
    .join(' · ');
  const lines = [
    { label: 'Source', value: `${s.path} (${s.format}, ${formatBytes(s.size)}, sha256 ${s.sha256.slice(0, 12)})` },
    { label: 'Rows', value: rows },
    ...(splitRowsText(results) ? [{ label: 'Metrics on', value: splitRowsText(results)! }] : []),
    { label: 'Task', value: results.task },
    { label: 'Columns', value: columns || '—' },
    { label: 'Config', value: results.config?.configFile ?? 'no config file (defaults and settings)' },
    {
      label: 'Intervals',
      value:
        b && b.n > 0
          ? `percentile bootstrap${Object.values(results.metrics).some((m) => m.ci && m.ci_method === 'basic') ? ' (basic bootstrap for the calibration errors)' : ''}, ${formatCount(b.n)} resamples, ${formatLevel(b.confidence)}, seed = ${b.seed}${b.stratified ? ', stratified' : ''}`
          : 'none (bootstrap off)',
    },
    { label: 'Evaluated', value: `${results.createdAt} · Eval Lens ${results.tool.version}` },
  ];
  for (const e of s.extra ?? []) lines.push({ label: e.role, value: `${e.path} (sha256 ${e.sha256.slice(0, 12)})` });
  const split = splitNotes(results.warnings);
  const text = (w: Results['warnings'][number]): string => {
    const where = w.file
      ? ` (${w.file}${w.line !== undefined ? `:${w.line}` : ''})`
      : w.line !== undefined
        ? ` (line ${w.line})`
        : '';
    return `${w.code}: ${w.message}${where}${w.count !== undefined ? ` [${formatCount(w.count)}]` : ''}`;
  };
  const warnings = split.warnings.map(text);
  const notes = split.notes.map(text);
  // A factor model is named after its folder: every such model's input is a `U.npy`.
  const title = s.columns?.userFactors
    ? `${factorModelName(s.path)} (factor model)`
    : (s.path.split(/[\\/]/).pop() ?? s.path);
  return { title, lines, warnings, ...(notes.length > 0 ? { notes } : {}) };
}

export function table(
  id: string,
  title: string,
  columns: [string, ColumnKind][],
  rows: CellValue[][],
  note?: string,
): TableModel {
  const t: TableModel = { id, title, columns: columns.map((c) => c[0]), kinds: columns.map((c) => c[1]), rows };
  if (note) t.note = note;
  return t;
}

/** Table of a curve's columns (x, y, extra), the chart's accessible alternative. */
export function curveTable(id: string, title: string, c: Curve): TableModel {
  const extra = Object.entries(c.extra ?? {});
  const cols: [string, ColumnKind][] = [
    [c.x, 'num'],
    [c.y, 'num'],
    ...extra.map(([k]) => [k, 'num'] as [string, ColumnKind]),
  ];
  const rows = c.xs.map((x, i) => [x, c.ys[i] ?? null, ...extra.map(([, v]) => v[i] ?? null)]);
  return table(id, title, cols, rows, c.note);
}

/**
 * Labels `lo–hi` for bins, with the same number of decimals for every edge: enough to tell
 * neighbouring edges apart (0.05 steps → 2 decimals, 0.5 steps → 1, integer steps → 0).
 */
export function binLabels(los: readonly number[], his: readonly number[]): string[] {
  const widths = los.map((lo, i) => Math.abs(his[i]! - lo)).filter((w) => w > 0);
  const step = widths.length > 0 ? Math.min(...widths) : 1;
  const d = Math.min(6, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
  const f = (v: number): string => (Number.isFinite(v) ? v.toFixed(d) : String(v));
  return los.map((lo, i) => `${f(lo)}–${f(his[i]!)}`);
}

export const pts = (xs: readonly number[], ys: readonly (number | null)[]): { x: number; y: number | null }[] =>
  xs.map((x, i) => ({ x, y: ys[i] ?? null }));

/**
 * The line y = x across the unit square in the foreground colour: perfect calibration on a
 * reliability diagram, a classifier at chance on a ROC curve. Dotted where other series are dashed.
 */
export function unitDiagonal(label: string, dash: 'dashed' | 'dotted' = 'dashed'): Series {
  return {
    label,
    colour: 'foreground',
    style: 'line',
    ...(dash === 'dotted' ? { dotted: true } : { dashed: true }),
    points: [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
    ],
  };
}

/** The largest 1, 2 or 5 × 10^k not above `v` (log-axis bounds that get tick labels). */
export function niceLogFloor(v: number): number {
  const e = 10 ** Math.floor(Math.log10(v));
  return [5, 2, 1].map((f) => f * e).find((x) => x <= v * (1 + 1e-12)) ?? e;
}

/** The smallest 1, 2 or 5 × 10^k not below `v`. */
export function niceLogCeil(v: number): number {
  const e = 10 ** Math.floor(Math.log10(v));
  // Near the largest double, 2·10^308 overflows to Infinity: the value itself is then the bound.
  return [1, 2, 5, 10].map((f) => f * e).find((x) => Number.isFinite(x) && x >= v * (1 - 1e-12)) ?? v;
}
