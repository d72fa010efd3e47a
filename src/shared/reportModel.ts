/**
 * Results object → {@link ReportModel}: header, headline cards, one tab per metric family with its
 * charts and tables. Curves or tables this module does not know are still shown, generically, in
 * an "Other" tab; a curve absent from the results simply has no chart.
 */
import type {
  ConfusionMatrix,
  Curve,
  GroupAnalysisRow,
  MetricValue,
  PerClassRow,
  ReliabilityBin,
  Results,
} from '../core/results/types';
import { formatBytes, formatCi, formatCount, formatLevel, formatNumber } from './format';
import { cutoffsOf, headlineKeys, reportHeadlineKeys } from './headline';
import { inRankingTable, rankingTable } from './rankingTable';
import { categoryChart, categoryTable } from './categoryTable';
import { itemMapChart } from './itemMapChart';
import { explorerMissingNote, operatingPointModel } from './operatingPoint';
import { userInspectorModel } from './userInspector';
import { metricHover, metricName } from '../core/glossary';
import { splitNotes } from '../core/results/notes';
import {
  SERIES_COLOURS,
  type Band,
  type CardModel,
  type CellValue,
  type ChartModel,
  type ColumnKind,
  type HeaderModel,
  type ReportModel,
  type Series,
  type TabModel,
  type TableModel,
} from './model';

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

/** Statistics of extremes, whose percentile bootstrap interval deserves a caveat. */
const EXTREME_KEYS = /^(worst_error|aurc_worst.*|mce|shift_max|shift_min|shift_dr)$/;
export const EXTREME_CAVEAT = 'CI of a max/min: may miss the point (see note)';
const EXTREME_NOTE =
  'This metric is a maximum or minimum over groups, bins or distributions. A percentile bootstrap interval of an extreme is biased and can miss the true value; read it as rough.';

/** Upper limit of classes drawn as a full confusion heatmap; above it, the top confusions. */
export const FULL_HEATMAP_MAX = 20;

export function card(key: string, m: MetricValue, family: string, extra?: string[]): CardModel {
  const c: CardModel = {
    key,
    name: metricName(key),
    family,
    value: m.value,
    text: formatNumber(m.value, key),
    ci: formatCi(m.ci, key),
    direction: m.direction,
  };
  const explain = metricHover(key);
  if (explain) c.explain = explain;
  if (m.note) c.note = m.note;
  if (m.ci && EXTREME_KEYS.test(key)) {
    c.caveat = EXTREME_CAVEAT;
    c.note = c.note ? `${c.note}. ${EXTREME_NOTE}` : EXTREME_NOTE;
  }
  if (extra && extra.length > 0) c.extra = extra;
  return c;
}

function baselineExtras(results: Results, key: string): string[] {
  return Object.entries(results.baselines ?? {})
    .filter(([, m]) => m[key] !== undefined)
    .map(([name, m]) => `${name} ${formatNumber(m[key]!.value, key)}`);
}

function familyOf(results: Results, key: string): string {
  for (const [f, keys] of Object.entries(results.families)) if (keys?.includes(key)) return f;
  return 'other';
}

function header(results: Results): HeaderModel {
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
    { label: 'Task', value: results.task },
    { label: 'Columns', value: columns || '—' },
    { label: 'Config', value: results.config?.configFile ?? 'no config file (defaults and settings)' },
    {
      label: 'Intervals',
      value:
        b && b.n > 0
          ? `percentile bootstrap, ${formatCount(b.n)} resamples, ${formatLevel(b.confidence)}, seed = ${b.seed}${b.stratified ? ', stratified' : ''}`
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
  return { title: s.path.split(/[\\/]/).pop() ?? s.path, lines, warnings, ...(notes.length > 0 ? { notes } : {}) };
}

function table(
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
function curveTable(id: string, title: string, c: Curve): TableModel {
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

const pts = (xs: readonly number[], ys: readonly (number | null)[]): { x: number; y: number | null }[] =>
  xs.map((x, i) => ({ x, y: ys[i] ?? null }));

// ---------------------------------------------------------------------------------------------
// Classification and long tail

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

function perClassVsTrain(rows: PerClassRow[], results: Results): ChartModel | undefined {
  const withCounts = rows.filter((r) => typeof r.trainCount === 'number' && r.trainCount > 0);
  if (withCounts.length === 0) return undefined;
  const shots = ['many', 'medium', 'few'] as const;
  const colours = { many: 'blue', medium: 'green', few: 'orange' } as const;
  const series: Series[] = [];
  for (const shot of shots) {
    const rs = withCounts.filter((r) => r.shot === shot);
    if (rs.length > 0)
      series.push({
        label: `${shot}-shot`,
        colour: colours[shot],
        style: 'points',
        points: rs.map((r) => ({ x: r.trainCount!, y: r.accuracy })),
        pointLabels: rs.map((r) => `class ${r.class}`),
      });
  }
  const rest = withCounts.filter((r) => !shots.includes(r.shot as (typeof shots)[number]));
  if (rest.length > 0)
    series.push({
      label: 'classes',
      colour: 'blue',
      style: 'points',
      points: rest.map((r) => ({ x: r.trainCount!, y: r.accuracy })),
      pointLabels: rest.map((r) => `class ${r.class}`),
    });
  const counts = withCounts.map((r) => r.trainCount!);
  const lo = niceLogFloor(Math.min(...counts));
  const hi = niceLogCeil(Math.max(...counts) * 1.05);
  const th = results.config?.shotThresholds ?? {};
  const few = th.few ?? 20;
  const many = th.many ?? 100;
  const bands: Band[] = [];
  // Shots: few n_c < few, medium few ≤ n_c ≤ many, many n_c > many (Liu et al. 2019; docs/metrics/classification.md).
  if (lo < few) bands.push({ from: lo, to: Math.min(few, hi), label: `few (< ${few})`, colour: 'orange' });
  if (hi > few && lo < many)
    bands.push({ from: Math.max(few, lo), to: Math.min(many, hi), label: `medium (${few}–${many})`, colour: 'green' });
  if (hi > many) bands.push({ from: Math.max(many, lo), to: hi, label: `many (> ${many})`, colour: 'blue' });
  return {
    id: 'perClassVsTrain',
    title: 'Per-class accuracy vs train count',
    description: `Scatter of per-class accuracy (y) against the class's train count on a log axis (x) for ${withCounts.length} classes, shaded by shot group.`,
    x: { label: 'train count (log)', type: 'log', min: lo, max: hi },
    y: { label: 'accuracy', type: 'linear', min: 0, max: 1 },
    series,
    bands,
    table: perClassTable(rows, 'perClassVsTrain.table'),
  };
}

function perClassBar(rows: PerClassRow[], results: Results): ChartModel {
  const withCi = rows.some((r) => r.ci);
  const level = formatLevel(results.config.bootstrap?.confidence);
  return {
    id: 'perClassAccuracy',
    title: 'Per-class accuracy',
    description: `Bar chart of accuracy for each of ${rows.length} classes${withCi ? `, with ${level} bootstrap intervals` : ''}.`,
    x: { label: 'class', type: 'category', categories: rows.map((r) => r.class) },
    y: { label: 'accuracy', type: 'linear', min: 0, max: 1 },
    series: [
      {
        label: 'accuracy',
        colour: 'blue',
        style: 'bar',
        points: rows.map((r, i) => ({ x: i, y: r.accuracy })),
        pointLabels: rows.map(
          (r) => `${formatCount(r.support)} test rows${r.ci ? `, interval ${formatCi(r.ci)}` : ''}`,
        ),
        ...(withCi ? { errorBars: rows.map((r) => (r.ci ? { lo: r.ci[0], hi: r.ci[1] } : null)) } : {}),
      },
    ],
    table: perClassTable(rows, 'perClassAccuracy.table'),
    note: withCi
      ? `Each bar is the share of the class\u2019s test rows predicted correctly; the whiskers are its ${level} percentile bootstrap interval (the same resamples as the overall metrics' intervals).`
      : 'No interval bars: these results were evaluated without bootstrap intervals. Each bar is the share of the class\u2019s test rows predicted correctly.',
  };
}

export function perClassTable(rows: PerClassRow[], id = 'perClass'): TableModel {
  const optional: [keyof PerClassRow, ColumnKind][] = [
    ['trainCount', 'int'],
    ['rank', 'int'],
    ['shot', 'text'],
    ['group', 'text'],
    ['precision', 'num'],
    ['recall', 'num'],
    ['f1', 'num'],
  ];
  const present = optional.filter(([k]) => rows.some((r) => r[k] !== undefined));
  const ci = rows.some((r) => r.ci);
  const cols: [string, ColumnKind][] = [
    ['class', 'text'],
    ['support', 'int'],
    ['accuracy', 'num'],
    ...(ci ? [['accuracy interval', 'text'] as [string, ColumnKind]] : []),
    ...present.map(([k, kind]) => [String(k), kind] as [string, ColumnKind]),
  ];
  return table(
    id,
    'Per-class results',
    cols,
    rows.map((r) => [
      r.class,
      r.support,
      r.accuracy,
      ...(ci ? [r.ci ? formatCi(r.ci) : ''] : []),
      ...present.map(([k]) => (r[k] ?? null) as CellValue),
    ]),
  );
}

export interface Confusion {
  true: string;
  pred: string;
  count: number;
}

/** Off-diagonal cells with a positive count, largest first (ties: true class, then predicted class, in label order). */
export function topConfusions(c: ConfusionMatrix, n: number): Confusion[] {
  const cells: { i: number; j: number; count: number }[] = [];
  c.matrix.forEach((row, i) =>
    row.forEach((count, j) => {
      if (i !== j && count > 0) cells.push({ i, j, count });
    }),
  );
  cells.sort((a, b) => b.count - a.count || a.i - b.i || a.j - b.j);
  return cells.slice(0, n).map((x) => ({ true: c.labels[x.i]!, pred: c.labels[x.j]!, count: x.count }));
}

/**
 * The confusion heatmap: the full matrix up to {@link FULL_HEATMAP_MAX} classes; above it, the
 * sub-matrix of the classes involved in the largest confusions (at most that many classes, in
 * label order), so the cells that matter stay readable.
 */
export function confusionChart(c: ConfusionMatrix): ChartModel {
  const k = c.labels.length;
  let idx: number[];
  let note: string | undefined;
  const top = topConfusions(c, 30);
  const pos = new Map(c.labels.map((l, i) => [l, i]));
  const rowTotals = c.matrix.map((r) => r.reduce((a, b) => a + b, 0));
  const colTotals = c.labels.map((_, j) => c.matrix.reduce((a, r) => a + (r[j] ?? 0), 0));
  if (k <= FULL_HEATMAP_MAX) {
    idx = c.labels.map((_, i) => i);
  } else {
    const chosen = new Set<number>();
    for (const t of top) {
      for (const i of [pos.get(t.true)!, pos.get(t.pred)!])
        if (chosen.size < FULL_HEATMAP_MAX || chosen.has(i)) chosen.add(i);
    }
    idx = [...chosen].sort((a, b) => a - b);
    note = `${k} classes: the grid shows the ${idx.length} classes involved in the largest confusions (shares still divide by the totals of the whole matrix); the list and the table name the top ${top.length} confusions.`;
  }
  const chart: ChartModel = {
    id: 'confusion',
    title: k <= FULL_HEATMAP_MAX ? 'Confusion matrix' : 'Confusion matrix (top confusions)',
    description: `Confusion matrix of ${idx.length} classes: rows are the true class, columns the predicted class; each cell is a button.`,
    x: { label: 'predicted', type: 'category', categories: idx.map((i) => c.labels[i]!) },
    y: { label: 'true', type: 'category', categories: idx.map((i) => c.labels[i]!) },
    series: [],
    heatmap: {
      rowTitle: 'true class',
      colTitle: 'predicted class',
      rows: idx.map((i) => c.labels[i]!),
      cols: idx.map((i) => c.labels[i]!),
      values: idx.map((i) => idx.map((j) => c.matrix[i]![j]!)),
      rowTotals: idx.map((i) => rowTotals[i]!),
      colTotals: idx.map((j) => colTotals[j]!),
      classes: k,
      top: top.slice(0, k <= FULL_HEATMAP_MAX ? 10 : 30).map((t) => ({
        ...t,
        share: rowTotals[pos.get(t.true)!]! > 0 ? t.count / rowTotals[pos.get(t.true)!]! : null,
      })),
    },
    table:
      k <= FULL_HEATMAP_MAX
        ? table(
            'confusion.table',
            'Confusion matrix (rows: true, columns: predicted)',
            [['true \\ predicted', 'text'], ...c.labels.map((l) => [l, 'int'] as [string, ColumnKind])],
            c.matrix.map((r, i) => [c.labels[i]!, ...r]),
          )
        : table(
            'confusion.table',
            'Top confusions',
            [
              ['true', 'text'],
              ['predicted', 'text'],
              ['count', 'int'],
            ],
            top.map((t) => [t.true, t.pred, t.count]),
          ),
  };
  if (note) chart.note = note;
  return chart;
}

// ---------------------------------------------------------------------------------------------
// Evolving, selective, calibration, importance

function shiftChart(c: Curve, m: Results['metrics']): ChartModel {
  const lines = (
    [
      ['shift_avg', 'AVG', 'green'],
      ['shift_min', 'MIN', 'red'],
      ['shift_max', 'MAX', 'blue'],
    ] as const
  )
    .filter(([k]) => typeof m[k]?.value === 'number')
    .map(([k, label, colour]) => ({
      axis: 'y' as const,
      value: m[k]!.value!,
      label: `${label} ${formatNumber(m[k]!.value)}`,
      colour,
    }));
  const t = c.extra?.t;
  return {
    id: 'shift',
    title: 'Accuracy vs shift δ',
    description: `Line of accuracy V_t (y) against the distribution shift δ_t (x) over ${c.xs.length} test distributions, with AVG, MIN and MAX marked.`,
    x: { label: 'δ (symmetric KL between train and test class distributions)', type: 'linear' },
    y: { label: 'accuracy', type: 'linear' },
    series: [
      {
        label: 'V_t',
        colour: 'blue',
        style: 'line',
        points: pts(c.xs, c.ys),
        pointLabels: t ? t.map((v) => `t = ${v}`) : undefined,
      },
    ],
    lines,
    table: curveTable('shift.table', 'Accuracy per test distribution', c),
    note: c.note,
  };
}

function riskCoverageChart(c: Curve, m: Results['metrics']): ChartModel {
  // The tooltip names the score threshold of each point (accept rows with score ≥ threshold).
  const th = c.extra?.threshold;
  const pointLabels = th
    ? c.xs.map((_, i) => (typeof th[i] === 'number' ? `threshold ${formatNumber(th[i])}` : ''))
    : undefined;
  const withLabels = pointLabels ? { pointLabels } : {};
  const series: Series[] = [
    {
      label: `standard (AURC ${formatNumber(m.aurc?.value)})`,
      colour: 'blue',
      style: 'line',
      fill: true,
      points: pts(c.xs, c.ys),
      ...withLabels,
    },
  ];
  if (c.extra?.risk_balanced)
    series.push({
      label: `balanced (AURC ${formatNumber(m.aurc_balanced?.value)})`,
      colour: 'orange',
      style: 'line',
      points: pts(c.xs, c.extra.risk_balanced),
      ...withLabels,
    });
  if (c.extra?.risk_worst)
    series.push({
      label: `worst group (AURC ${formatNumber(m.aurc_worst?.value)})`,
      colour: 'red',
      style: 'line',
      dashed: true,
      points: pts(c.xs, c.extra.risk_worst),
      ...withLabels,
    });
  return {
    id: 'riskCoverage',
    title: 'Risk–coverage',
    description: `Risk (y) against coverage (x) for ${series.length} risk definitions; the shaded area under the standard curve is the AURC.`,
    x: { label: 'coverage', type: 'linear', min: 0, max: 1 },
    y: { label: 'selective risk', type: 'linear', min: 0 },
    series,
    table: curveTable('riskCoverage.table', 'Risk–coverage points', c),
    note: c.note,
  };
}

function costSweepChart(c: Curve): ChartModel {
  const series: Series[] = [{ label: 'coverage', colour: 'blue', style: 'line', points: pts(c.xs, c.ys) }];
  const more: [string, string, 'orange' | 'red' | 'green' | 'purple'][] = [
    ['risk', 'selective risk', 'orange'],
    ['loss', 'loss (errors + c·rejected)/n', 'red'],
    ['risk_balanced', 'balanced risk', 'green'],
    ['risk_worst', 'worst-group risk', 'purple'],
  ];
  for (const [k, label, colour] of more)
    if (c.extra?.[k])
      series.push({
        label,
        colour,
        style: 'line',
        points: pts(c.xs, c.extra[k]!),
        dashed: k !== 'loss' && k !== 'risk',
      });
  return {
    id: 'costSweep',
    title: 'Rejection-cost sweep',
    description: `Coverage, risk and loss (y) as the rejection cost c (x) varies over ${c.xs.length} values.`,
    x: { label: 'rejection cost c', type: 'linear' },
    y: { label: 'rate', type: 'linear', min: 0 },
    series,
    table: curveTable('costSweep.table', 'Rejection-cost sweep', c),
    note: c.note,
  };
}

function reliabilityCharts(bins: ReliabilityBin[] | undefined, c: Curve | undefined): ChartModel[] {
  const out: ChartModel[] = [];
  const ne = bins ? bins.filter((b) => b.count > 0 && b.accuracy !== null && b.confidence !== null) : [];
  const xs = bins ? ne.map((b) => b.confidence!) : (c?.xs ?? []);
  const ys = bins ? ne.map((b) => b.accuracy!) : (c?.ys ?? []);
  if (xs.length === 0 && !bins) return out;
  const binTable = bins
    ? table(
        'reliability.table',
        'Reliability bins',
        [
          ['bin', 'text'],
          ['count', 'int'],
          ['confidence', 'num'],
          ['accuracy', 'num'],
          ['gap', 'num'],
        ],
        bins.map((b) => [
          `(${formatNumber(b.lo, '', 3)}, ${formatNumber(b.hi, '', 3)}]`,
          b.count,
          b.confidence,
          b.accuracy,
          b.accuracy !== null && b.confidence !== null ? b.accuracy - b.confidence : null,
        ]),
      )
    : curveTable('reliability.table', 'Reliability bins', c!);
  out.push({
    id: 'reliability',
    title: 'Reliability diagram',
    description: `Accuracy (y) against mean confidence (x) in ${xs.length} non-empty bins, with the diagonal of perfect calibration.`,
    x: { label: 'confidence', type: 'linear', min: 0, max: 1 },
    y: { label: 'accuracy', type: 'linear', min: 0, max: 1 },
    series: [
      {
        label: 'perfect calibration',
        colour: 'foreground',
        style: 'line',
        dashed: true,
        points: [
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ],
      },
      {
        label: 'accuracy per bin',
        colour: 'blue',
        style: 'line',
        points: pts(xs, ys),
        pointLabels: bins ? ne.map((b) => `${formatCount(b.count)} rows`) : undefined,
      },
    ],
    table: binTable,
    note: c?.note,
  });
  if (bins) {
    out.push({
      id: 'reliabilityCounts',
      title: 'Rows per confidence bin',
      description: `Bar chart of the number of rows in each of ${bins.length} confidence bins.`,
      x: {
        label: 'confidence bin',
        type: 'category',
        categories: binLabels(
          bins.map((b) => b.lo),
          bins.map((b) => b.hi),
        ),
      },
      y: { label: 'rows', type: 'linear', min: 0 },
      series: [{ label: 'rows', colour: 'purple', style: 'bar', points: bins.map((b, i) => ({ x: i, y: b.count })) }],
      table: binTable,
    });
  }
  return out;
}

function groupAnalysisTable(rows: GroupAnalysisRow[]): TableModel {
  return table(
    'groupAnalysis',
    'Group analysis at the operating point',
    [
      ['group', 'text'],
      ['size', 'int'],
      ['coverage', 'num'],
      ['error', 'num'],
      ['tpr', 'num'],
      ['fpr', 'num'],
      ['score mean', 'num'],
      ['score sd', 'num'],
      ['score min', 'num'],
      ['score max', 'num'],
    ],
    rows.map((r) => [
      r.group,
      r.size,
      r.coverage,
      r.error,
      r.tpr,
      r.fpr,
      r.scoreMean,
      r.scoreStd,
      r.scoreMin,
      r.scoreMax,
    ]),
  );
}

function pairedCurveChart(
  id: string,
  title: string,
  weighted: Curve | undefined,
  unweighted: Curve | undefined,
  diagonal: boolean,
  what: string,
): ChartModel | undefined {
  const any = weighted ?? unweighted;
  if (!any) return undefined;
  const series: Series[] = [];
  if (diagonal)
    series.push({
      label: 'chance',
      colour: 'foreground',
      style: 'line',
      dashed: true,
      points: [
        { x: 0, y: 0 },
        { x: 1, y: 1 },
      ],
    });
  if (weighted)
    series.push({ label: 'importance-weighted', colour: 'blue', style: 'step', points: pts(weighted.xs, weighted.ys) });
  if (unweighted)
    series.push({
      label: 'unweighted',
      colour: 'orange',
      style: 'step',
      dashed: true,
      points: pts(unweighted.xs, unweighted.ys),
    });
  const rows: CellValue[][] = [];
  if (weighted) weighted.xs.forEach((x, i) => rows.push(['weighted', x, weighted.ys[i] ?? null]));
  if (unweighted) unweighted.xs.forEach((x, i) => rows.push(['unweighted', x, unweighted.ys[i] ?? null]));
  return {
    id,
    title,
    description: `${what}: ${series.length - (diagonal ? 1 : 0)} curves, weighted and unweighted.`,
    x: { label: any.x, type: 'linear', min: 0, max: 1 },
    y: { label: any.y, type: 'linear', min: 0, max: 1 },
    series,
    table: table(
      `${id}.table`,
      `${title} points`,
      [
        ['curve', 'text'],
        [any.x, 'num'],
        [any.y, 'num'],
      ],
      rows,
    ),
    note: [weighted?.note, unweighted?.note].filter(Boolean).join(' · ') || undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Ranking

/** The name of a ranking metric without its cutoff: `ndcg` → "NDCG" (from the glossary's `ndcg@<K>`). */
function cutoffMetricName(base: string): string {
  return metricName(`${base}@1`)
    .replace(/ at 1$/, '')
    .replace(/@1$/, '');
}

/**
 * Metric-vs-K curves, baselines dashed in the same colour: from the ranking family's dense curves
 * `metricVsK.<metric>` (one point per K, baselines in `extra`) when present, else from the
 * `name@K` metric keys.
 */
export function metricVsKChart(results: Results): ChartModel | undefined {
  const dense = Object.entries(results.curves).filter(
    ([name, c]) => name.startsWith('metricVsK.') && c && Array.isArray(c.xs) && c.xs.length > 0,
  );
  if (dense.length > 0) {
    const series: Series[] = [];
    const rows: CellValue[][] = [];
    dense.forEach(([name, c], i) => {
      const metric = name.slice('metricVsK.'.length);
      const colour = SERIES_COLOURS[i % SERIES_COLOURS.length]!;
      series.push({ label: cutoffMetricName(metric), colour, style: 'line', points: pts(c.xs, c.ys) });
      c.xs.forEach((k, j) => rows.push([metric, 'run', k, c.ys[j] ?? null]));
      for (const [bi, [b, ys]] of Object.entries(c.extra ?? {}).entries()) {
        series.push({
          label: `${cutoffMetricName(metric)} (${b})`,
          colour,
          style: 'line',
          dashed: true,
          ...(bi > 0 ? { dotted: true } : {}),
          points: pts(c.xs, ys),
        });
        c.xs.forEach((k, j) => rows.push([metric, b, k, ys[j] ?? null]));
      }
    });
    const ks = dense.flatMap(([, c]) => c.xs);
    // The axis ends at the last K with data (the longest list, when the run records it), not at a rounded-up tick.
    const longest = longestList(results);
    const maxK = Math.min(Math.max(...ks), longest ?? Infinity);
    if (longest !== undefined && longest < Math.max(...ks))
      for (const s of series) s.points = s.points.filter((p) => p.x <= maxK);
    return {
      id: 'metricVsK',
      title: 'Metrics vs K',
      description: `${dense.length} ranking metrics (y) at each cutoff K from ${Math.min(...ks)} to ${maxK} (x), baselines dashed.`,
      x: { label: 'K', type: 'linear', min: Math.min(...ks), max: maxK },
      y: { label: 'mean over users', type: 'linear', min: 0 },
      series,
      table: table(
        'metricVsK.table',
        'Metrics vs K',
        [
          ['metric', 'text'],
          ['ranking', 'text'],
          ['K', 'int'],
          ['value', 'num'],
        ],
        rows,
      ),
      note: dense[0]![1].note,
    };
  }
  const ks = cutoffsOf(results.metrics);
  if (ks.length < 2) return undefined;
  const names = [
    ...new Set(
      Object.keys(results.metrics)
        .filter((k) => /@\d+$/.test(k))
        .map((k) => k.replace(/@\d+$/, '')),
    ),
  ];
  const series: Series[] = [];
  const rows: CellValue[][] = ks.map((k) => [k]);
  const cols: [string, ColumnKind][] = [['K', 'int']];
  names.forEach((name, i) => {
    const colour = SERIES_COLOURS[i % SERIES_COLOURS.length]!;
    const valueAt = (src: Record<string, MetricValue>, k: number): number | null => src[`${name}@${k}`]?.value ?? null;
    series.push({
      label: cutoffMetricName(name),
      colour,
      style: 'line',
      points: ks.map((k) => ({ x: k, y: valueAt(results.metrics, k) })),
    });
    cols.push([name, 'num']);
    ks.forEach((k, r) => rows[r]!.push(valueAt(results.metrics, k)));
    for (const [b, src] of Object.entries(results.baselines ?? {})) {
      if (!ks.some((k) => src[`${name}@${k}`] !== undefined)) continue;
      series.push({
        label: `${cutoffMetricName(name)} (${b})`,
        colour,
        style: 'line',
        dashed: true,
        points: ks.map((k) => ({ x: k, y: valueAt(src, k) })),
      });
      cols.push([`${name} (${b})`, 'num']);
      ks.forEach((k, r) => rows[r]!.push(valueAt(src, k)));
    }
  });
  return {
    id: 'metricVsK',
    title: 'Metrics vs K',
    description: `${names.length} ranking metrics (y) at cutoffs K = ${ks.join(', ')} (x), baselines dashed.`,
    x: { label: 'K', type: ks[ks.length - 1]! / ks[0]! >= 20 ? 'log' : 'linear', min: ks[0]!, max: ks[ks.length - 1]! },
    y: { label: 'value', type: 'linear', min: 0 },
    series,
    table: table('metricVsK.table', 'Metrics vs K', cols, rows),
  };
}

/** The longest recommendation list of the run (`tables.rankingSummary.longestList`), when recorded. */
function longestList(results: Results): number | undefined {
  const s = results.tables.rankingSummary as { longestList?: unknown } | undefined;
  return s && typeof s.longestList === 'number' && s.longestList > 0 ? s.longestList : undefined;
}

interface StoredHistogram {
  edges: number[];
  counts: number[];
  undefinedUsers?: number;
  mean?: number;
}

function isStoredHistogram(v: unknown): v is StoredHistogram {
  const h = v as StoredHistogram;
  return !!h && Array.isArray(h.edges) && Array.isArray(h.counts) && h.edges.length === h.counts.length + 1;
}

/** The ranking family's own per-user histograms (`tables.perUserHistograms`: metric → edges, counts). */
function storedHistograms(value: unknown): ChartModel[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, h]) => isStoredHistogram(h))
    .map(([key, raw]) => {
      const h = raw as StoredHistogram;
      const cats = binLabels(h.edges.slice(0, -1), h.edges.slice(1));
      const users = h.counts.reduce((a, b) => a + b, 0);
      const extra = [
        h.mean !== undefined ? `mean ${formatNumber(h.mean, key)}` : '',
        h.undefinedUsers ? `${formatCount(h.undefinedUsers)} users undefined` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return {
        id: `perUser.${key}`,
        title: `Per-user ${metricName(key)}`,
        description: `Histogram of ${metricName(key)} (${key}) over ${formatCount(users)} users in ${h.counts.length} bins.`,
        x: { label: metricName(key), type: 'category' as const, categories: cats },
        y: { label: 'users', type: 'linear' as const, min: 0 },
        series: [
          {
            label: 'users',
            colour: 'blue' as const,
            style: 'bar' as const,
            points: h.counts.map((c, i) => ({ x: i, y: c })),
          },
        ],
        table: table(
          `perUser.${key}.table`,
          `Per-user ${key}`,
          [
            ['bin', 'text'],
            ['users', 'int'],
          ],
          h.counts.map((c, i) => [cats[i]!, c]),
        ),
        ...(extra ? { note: extra } : {}),
        group: { id: 'perUser', title: 'Per-user distribution', option: metricName(key) },
      };
    });
}

/** Headline ranking metrics per user-activity bin (`tables.activityBins`: bin, users, metric columns). */
function activityChart(value: unknown, results: Results): ChartModel | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const rows = value as Record<string, unknown>[];
  if (!rows.every((r) => typeof r.bin === 'string')) return undefined;
  const keys = headlineKeys(results, 3).filter((k) => rows.some((r) => typeof r[k] === 'number'));
  if (keys.length === 0) return undefined;
  const generic = genericTable('activityBins.table', 'Metrics by user activity', value)!;
  return {
    id: 'activityBins',
    title: 'Metrics by user activity (train interactions)',
    description: `Bars of ${keys.map(metricName).join(', ')} for ${rows.length} bins of users by their number of train interactions.`,
    x: {
      label: 'train interactions per user',
      type: 'category',
      categories: rows.map(
        (r) => `${r.bin as string}${typeof r.users === 'number' ? ` (${formatCount(r.users)} users)` : ''}`,
      ),
    },
    y: { label: 'value', type: 'linear', min: 0 },
    series: keys.map((k, i) => ({
      label: metricName(k),
      colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!,
      style: 'bar' as const,
      points: rows.map((r, j) => ({ x: j, y: typeof r[k] === 'number' ? (r[k] as number) : null })),
    })),
    table: generic,
  };
}

/**
 * Histogram counts of `values` in `bins` equal-width bins over [lo, hi]; a value equal to `hi`
 * goes in the last bin; non-finite values are left out.
 */
export function histogram(values: readonly number[], bins: number, lo: number, hi: number): number[] {
  const counts = new Array<number>(bins).fill(0);
  const width = (hi - lo) / bins;
  for (const v of values) {
    if (!Number.isFinite(v) || v < lo || v > hi) continue;
    const b = width > 0 ? Math.min(bins - 1, Math.floor((v - lo) / width)) : 0;
    counts[b]!++;
  }
  return counts;
}

function perUserHistograms(results: Results): ChartModel[] {
  const p = results.perItem;
  if (!p || p.kind !== 'user') return [];
  return Object.entries(p.values).map(([key, values]) => {
    const finite = values.filter(Number.isFinite);
    const inUnit = finite.every((v) => v >= 0 && v <= 1);
    const lo = inUnit ? 0 : Math.min(...finite, 0);
    const hi = inUnit ? 1 : Math.max(...finite, 1);
    const bins = 10;
    const counts = histogram(finite, bins, lo, hi);
    const edges = counts.map((_, i) => [lo + ((hi - lo) * i) / bins, lo + ((hi - lo) * (i + 1)) / bins] as const);
    const cats = binLabels(
      edges.map((e) => e[0]),
      edges.map((e) => e[1]),
    );
    return {
      id: `perUser.${key}`,
      title: `Per-user ${metricName(key)}`,
      description: `Histogram of ${metricName(key)} (${key}) over ${formatCount(finite.length)} users in ${bins} bins.`,
      x: { label: metricName(key), type: 'category' as const, categories: cats },
      y: { label: 'users', type: 'linear' as const, min: 0 },
      series: [
        {
          label: 'users',
          colour: 'blue' as const,
          style: 'bar' as const,
          points: counts.map((c, i) => ({ x: i, y: c })),
        },
      ],
      table: table(
        `perUser.${key}.table`,
        `Per-user ${key}`,
        [
          ['bin', 'text'],
          ['users', 'int'],
        ],
        counts.map((c, i) => [cats[i]!, c]),
      ),
      group: { id: 'perUser', title: 'Per-user distribution', option: metricName(key) },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Generic

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

function genericCurveChart(name: string, c: Curve): ChartModel {
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

// ---------------------------------------------------------------------------------------------

const KNOWN_CURVES = new Set([
  'shift',
  'riskCoverage',
  'costSweep',
  'reliability',
  'pr',
  'pr_unweighted',
  'roc',
  'roc_unweighted',
]);
const KNOWN_TABLES = new Set([
  'perClass',
  'confusion',
  'groupAnalysis',
  'reliability',
  'perUserHistograms',
  'activityBins',
  'categoryBreakdown',
  'itemMap',
]);
/** Where unknown curves/tables of a family go, by name prefix. */
const RANKING_NAMES = /^(metricVsK|perUser|activity|users|cold|popularity|ranking)/i;

/** Builds the whole report model of one results object. */
export function buildReportModel(results: Results): ReportModel {
  const tabs = new Map<string, TabModel>();
  const targets: ReportModel['targets'] = {};
  const tab = (id: string): TabModel => {
    let t = tabs.get(id);
    if (!t) tabs.set(id, (t = { id, title: FAMILY_TITLES[id] ?? id, cards: [], charts: [], tables: [], notes: [] }));
    return t;
  };
  // Cards, in the order of results.families; keys that no family lists go to "other".
  const seen = new Set<string>();
  // Ranking: the metric@K keys go into one metric × K table instead of a card each.
  const byK = results.task === 'ranking' ? rankingTable(results) : undefined;
  if (byK) tab('ranking').leadTables = [byK];
  for (const [family, keys] of Object.entries(results.families)) {
    for (const key of keys ?? []) {
      const m = results.metrics[key];
      if (!m || seen.has(key)) continue;
      seen.add(key);
      targets[key] = { tab: family };
      if (byK && inRankingTable(key)) continue;
      tab(family).cards.push(card(key, m, family, baselineExtras(results, key)));
    }
  }
  for (const [key, m] of Object.entries(results.metrics)) {
    if (seen.has(key)) continue;
    tab('other').cards.push(card(key, m, 'other', baselineExtras(results, key)));
    targets[key] = { tab: 'other' };
  }
  const place = (tabId: string, chart: ChartModel | undefined, keys: (k: string) => boolean = () => false): void => {
    if (!chart) return;
    tab(tabId).charts.push(chart);
    targets[chart.id] = { tab: tabId, element: chart.id };
    for (const k of Object.keys(results.metrics))
      if (keys(k) && targets[k] && !targets[k]!.element) targets[k] = { tab: targets[k]!.tab, element: chart.id };
  };
  const { curves, tables: t } = results;
  const perClass = t.perClass;
  const ltTab = results.families.longtail ? 'longtail' : 'classification';
  if (perClass && perClass.length > 0) {
    place(ltTab, perClassVsTrain(perClass, results), (k) =>
      /^(acc_many|acc_medium|acc_few|acc_group\.|weighted_)/.test(k),
    );
    place('classification', perClassBar(perClass, results), (k) => /^(accuracy|balanced_accuracy|macro_f1)$/.test(k));
    tab('classification').tables.push(perClassTable(perClass));
  }
  if (t.confusion && t.confusion.labels.length > 0) place('classification', confusionChart(t.confusion));
  if (curves.shift)
    place('evolving', shiftChart(curves.shift, results.metrics), (k) => familyOf(results, k) === 'evolving');
  if (curves.riskCoverage)
    place('selective', riskCoverageChart(curves.riskCoverage, results.metrics), (k) => /aurc/.test(k));
  if (curves.costSweep) place('selective', costSweepChart(curves.costSweep));
  if (t.groupAnalysis && t.groupAnalysis.length > 0) tab('selective').tables.push(groupAnalysisTable(t.groupAnalysis));
  if (t.reliability || curves.reliability)
    for (const c of reliabilityCharts(t.reliability, curves.reliability))
      place('calibration', c, (k) => familyOf(results, k) === 'calibration');
  place(
    'importance',
    pairedCurveChart(
      'pr',
      'Precision–recall',
      curves.pr,
      curves.pr_unweighted,
      false,
      'Precision (y) against recall (x)',
    ),
    (k) => /^(aupr_trapz|average_precision|precision|recall|f1)$/.test(k),
  );
  place(
    'importance',
    pairedCurveChart(
      'roc',
      'ROC',
      curves.roc,
      curves.roc_unweighted,
      true,
      'True positive rate (y) against false positive rate (x)',
    ),
    (k) => k === 'roc_auc',
  );
  if (results.task === 'ranking' || cutoffsOf(results.metrics).length >= 2)
    place('ranking', metricVsKChart(results), (k) => /@\d+$/.test(k));
  const stored = storedHistograms(t.perUserHistograms);
  for (const h of stored.length > 0 ? stored : perUserHistograms(results)) place('ranking', h);
  place('ranking', activityChart(t.activityBins, results));
  place('ranking', categoryChart(t.categoryBreakdown));
  place('ranking', itemMapChart(t.itemMap));
  const categories = categoryTable(t.categoryBreakdown);
  if (categories) tab('ranking').tables.push(categories);
  // Whatever else the results hold.
  for (const [name, c] of Object.entries(curves)) {
    if (KNOWN_CURVES.has(name) || name === 'metricVsK' || name.startsWith('metricVsK.') || !c || !Array.isArray(c.xs))
      continue;
    place(RANKING_NAMES.test(name) ? 'ranking' : 'other', genericCurveChart(name, c));
  }
  for (const [name, v] of Object.entries(t)) {
    if (KNOWN_TABLES.has(name)) continue;
    const g = genericTable(`table.${name}`, name, v);
    if (g)
      tab(RANKING_NAMES.test(name) ? 'ranking' : results.task === 'iw-binary' ? 'importance' : 'other').tables.push(g);
  }
  const explorer = operatingPointModel(results);
  if (explorer && tabs.has(explorer.tab)) tab(explorer.tab).explorer = explorer;
  const noExplorer = explorerMissingNote(results);
  if (noExplorer) tab(results.task === 'iw-binary' ? 'importance' : 'selective').notes.push(noExplorer);
  const users = userInspectorModel(results);
  if (users && tabs.has('ranking')) tab('ranking').userInspector = users;
  const order = [
    'classification',
    'longtail',
    'evolving',
    'selective',
    'calibration',
    'importance',
    'ranking',
    'other',
  ];
  const sorted = [...tabs.values()].sort(
    (a, b) => ((order.indexOf(a.id) + 99) % 99) - ((order.indexOf(b.id) + 99) % 99),
  );
  const head = header(results);
  return {
    kind: 'results',
    title: head.title,
    header: head,
    headline: reportHeadlineKeys(results).map((k) =>
      card(k, results.metrics[k]!, familyOf(results, k), baselineExtras(results, k)),
    ),
    tabs: sorted,
    targets,
  };
}
