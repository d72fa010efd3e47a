/** Selective-classification charts and tables: risk–coverage, the rejection-cost sweep, group analysis. */
import type { GroupAnalysisRow } from '../../core/metrics/selective';
import type { Curve, OperatingPointRow, Results } from '../../core/results/types';
import {
  operatingPointFields,
  operatingPointsTitle,
  operatingPointValue,
} from '../../core/results/operatingPointsText';
import { formatCi, formatNumber } from '../format';
import type { ChartModel, Series, TableModel } from '../model';
import { curveTable, pts, table } from './common';

export function riskCoverageChart(c: Curve, m: Results['metrics']): ChartModel {
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
      label: `worst class group (AURC ${formatNumber(m.aurc_worst?.value)})`,
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

export function costSweepChart(c: Curve): ChartModel {
  const series: Series[] = [{ label: 'coverage', colour: 'blue', style: 'line', points: pts(c.xs, c.ys) }];
  const more: [string, string, 'orange' | 'red' | 'green' | 'purple'][] = [
    ['risk', 'selective risk', 'orange'],
    ['loss', 'loss (errors + c·rejected)/n', 'red'],
    ['risk_balanced', 'balanced risk', 'green'],
    ['risk_worst', 'worst class-group risk', 'purple'],
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

export function groupAnalysisTable(rows: GroupAnalysisRow[]): TableModel {
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

/**
 * The operating points of a `targetCoverage` list (`tables.operatingPoints`), one row per target
 * coverage: each value, then its bootstrap interval when some row has one.
 */
export function operatingPointsTable(rows: OperatingPointRow[], results: Pick<Results, 'config'>): TableModel {
  const fields = operatingPointFields(rows);
  const columns: [string, 'num' | 'text'][] = [['target coverage', 'num']];
  const cells: ((r: OperatingPointRow) => string | number | null)[] = [(r) => r.targetCoverage];
  for (const f of fields) {
    columns.push([f, 'num']);
    cells.push((r) => operatingPointValue(r, f));
    if (rows.some((r) => r.ci?.[f])) {
      columns.push([`${f} interval`, 'text']);
      cells.push((r) => (r.ci?.[f] ? formatCi(r.ci[f]) : ''));
    }
  }
  return table(
    'operatingPoints',
    'Operating points',
    columns,
    rows.map((r) => cells.map((c) => c(r))),
    operatingPointsTitle(rows, results),
  );
}

/** Lowest coverage of the practical-range risk–coverage chart (the range of the `_0.2_1` keys). */
export const PRACTICAL_COVERAGE = 0.2;

/**
 * Risk–coverage over the practical range, coverage 0.2–1, where a deployed selective classifier
 * operates: the 101 grid points of the `*_grid101` keys (`curves.riskCoverageGrid101`) with
 * coverage ≥ 0.2 — their trapezoid divided by 0.8 is each `*_grid101_0.2_1` key — else the exact
 * curve's points in that range. Undefined when no point falls in it.
 */
export function riskCoveragePracticalChart(
  grid: Curve | undefined,
  exact: Curve | undefined,
  m: Results['metrics'],
): ChartModel | undefined {
  const c = grid ?? exact;
  if (!c) return undefined;
  const keep = c.xs.map((_, i) => i).filter((i) => c.xs[i]! >= PRACTICAL_COVERAGE);
  if (keep.length === 0) return undefined;
  const xs = keep.map((i) => c.xs[i]!);
  const pick = (v: readonly (number | null)[]): (number | null)[] => keep.map((i) => v[i] ?? null);
  const key = (base: string): string => (grid ? `${base}_grid101_0.2_1` : base);
  const area = (base: string, label: string): string =>
    grid ? `${label} (AURC 0.2–1 ${formatNumber(m[key(base)]?.value)})` : label;
  const series: Series[] = [
    { label: area('aurc', 'standard'), colour: 'blue', style: 'line', points: pts(xs, pick(c.ys)) },
  ];
  if (c.extra?.risk_balanced)
    series.push({
      label: area('aurc_balanced', 'balanced'),
      colour: 'orange',
      style: 'line',
      points: pts(xs, pick(c.extra.risk_balanced)),
    });
  if (c.extra?.risk_worst)
    series.push({
      label: area('aurc_worst', 'worst class group'),
      colour: 'red',
      style: 'line',
      dashed: true,
      points: pts(xs, pick(c.extra.risk_worst)),
    });
  const shown: Curve = {
    x: c.x,
    y: c.y,
    xs,
    ys: pick(c.ys) as number[],
    extra: Object.fromEntries(Object.entries(c.extra ?? {}).map(([k, v]) => [k, pick(v)])),
  };
  return {
    id: 'riskCoveragePractical',
    title: 'Risk–coverage, practical range (coverage 0.2–1)',
    description: `Risk (y) against coverage (x) from 0.2 to 1 for ${series.length} risk definitions, ${xs.length} ${grid ? 'points of the 101-point grid' : 'points of the exact curve'}.`,
    x: { label: 'coverage', type: 'linear', min: PRACTICAL_COVERAGE, max: 1 },
    y: { label: 'selective risk', type: 'linear', min: 0 },
    series,
    table: curveTable('riskCoveragePractical.table', 'Risk–coverage points, coverage 0.2–1', shown),
    note: grid
      ? 'The points of the 101-point grid with coverage ≥ 0.2 (point i accepts the first ⌊n·i/101⌋ rows by score); the area under each line divided by 0.8 is its *_grid101_0.2_1 key. Below 0.2 few rows are accepted and the risk is noisy.'
      : 'The exact curve’s points with coverage ≥ 0.2 (the results hold no 101-point grid: fewer than 101 rows, or written by an earlier version).',
  };
}

/** Interval bars of metric keys (null when a key has no interval). */
function intervalsOf(m: Results['metrics'], keys: readonly string[]): ({ lo: number; hi: number } | null)[] {
  return keys.map((k) => {
    const ci = m[k]?.ci;
    return ci ? { lo: ci[0], hi: ci[1] } : null;
  });
}

/**
 * AURC as bars: standard, balanced and worst-group, each as the exact AURC over coverage 0–1 and
 * as the 101-point grid over coverage 0.2–1, with their bootstrap intervals. Undefined without `aurc`.
 */
export function aurcBarsChart(m: Results['metrics'], level: string): ChartModel | undefined {
  if (!m.aurc) return undefined;
  const kinds: [string, string][] = [
    ['standard', ''],
    ['balanced', '_balanced'],
    ['worst group', '_worst'],
  ];
  const present = kinds.filter(([, s]) => m[`aurc${s}`] !== undefined || m[`aurc${s}_grid101_0.2_1`] !== undefined);
  const families: [string, (s: string) => string, 'blue' | 'orange'][] = [
    ['exact, coverage 0–1', (s) => `aurc${s}`, 'blue'],
    ['101-point grid, coverage 0.2–1', (s) => `aurc${s}_grid101_0.2_1`, 'orange'],
  ];
  const series: Series[] = [];
  const rows: (string | number | null)[][] = [];
  for (const [label, keyOf, colour] of families) {
    const keys = present.map(([, s]) => keyOf(s));
    if (!keys.some((k) => m[k] !== undefined)) continue;
    const withCi = keys.some((k) => m[k]?.ci);
    series.push({
      label,
      colour,
      style: 'bar',
      points: keys.map((k, i) => ({ x: i, y: m[k]?.value ?? null })),
      pointLabels: keys,
      ...(withCi ? { errorBars: intervalsOf(m, keys) } : {}),
    });
    keys.forEach((k, i) => {
      if (m[k]) rows.push([present[i]![0], label, k, m[k]!.value, m[k]!.ci ? formatCi(m[k]!.ci) : '']);
    });
  }
  const withCi = series.some((s) => s.errorBars);
  return {
    id: 'aurcBars',
    title: 'AURC: standard, balanced, worst group',
    description: `Bar chart of the area under the risk–coverage curve for ${present.length} risk definitions, ${series.map((s) => s.label).join(' and ')}${withCi ? `, with ${level} bootstrap intervals` : ''}.`,
    x: { label: 'risk', type: 'category', categories: present.map(([name]) => name) },
    y: { label: 'AURC', type: 'linear', min: 0 },
    series,
    table: table(
      'aurcBars.table',
      'AURC values',
      [
        ['risk', 'text'],
        ['range', 'text'],
        ['key', 'text'],
        ['value', 'num'],
        ['interval', 'text'],
      ],
      rows,
    ),
    note: `Lower is better. The exact AURC averages the risk of every top-k by score; the grid keys integrate 101 evenly spaced coverages from 0.2 to 1 and divide by 0.8, so the two bars of a risk are different numbers.${withCi ? ` Whiskers: ${level} bootstrap intervals.` : ''}`,
  };
}

/**
 * The error of each class group at the operating point (`error_group.<g>`) as bars with their
 * intervals, and `balanced_error` (their mean) and `worst_error` (their max) as reference lines.
 * Undefined without group errors.
 */
export function groupErrorBarsChart(
  m: Results['metrics'],
  keys: readonly string[],
  level: string,
): ChartModel | undefined {
  const groupKeys = keys.filter((k) => k.startsWith('error_group.') && m[k] !== undefined);
  if (groupKeys.length === 0) return undefined;
  const names = groupKeys.map((k) => k.slice('error_group.'.length));
  const withCi = groupKeys.some((k) => m[k]!.ci);
  const lines: ChartModel['lines'] = [];
  for (const [key, name, colour] of [
    ['balanced_error', 'balanced', 'orange'],
    ['worst_error', 'worst', 'red'],
  ] as const) {
    const value = m[key]?.value;
    if (typeof value === 'number') lines.push({ axis: 'y', value, label: `${name} ${formatNumber(value)}`, colour });
  }
  return {
    id: 'groupErrorBars',
    title: 'Error per class group at the operating point',
    description: `Bar chart of the selective error of ${names.length} class groups at the operating point${withCi ? `, with ${level} bootstrap intervals` : ''}; lines mark the balanced (mean) and worst (max) group error.`,
    x: { label: 'class group', type: 'category', categories: names },
    y: { label: 'error on accepted rows', type: 'linear', min: 0, max: 1 },
    series: [
      {
        label: 'error_group',
        colour: 'purple',
        style: 'bar',
        points: groupKeys.map((k, i) => ({ x: i, y: m[k]!.value })),
        pointLabels: groupKeys,
        ...(withCi ? { errorBars: intervalsOf(m, groupKeys) } : {}),
      },
    ],
    lines,
    table: table(
      'groupErrorBars.table',
      'Error per class group',
      [
        ['group', 'text'],
        ['key', 'text'],
        ['error', 'num'],
        ['interval', 'text'],
      ],
      groupKeys.map((k, i) => [names[i]!, k, m[k]!.value, m[k]!.ci ? formatCi(m[k]!.ci) : '']),
    ),
    note: `Each bar is the error on the accepted rows whose true class is in the group (1.0 when the group has no accepted row)${m[groupKeys[0]!]?.note?.includes('e_g(w^trn)') ? ', reweighted to the train class frequencies' : ''}.${withCi ? ` Whiskers: ${level} bootstrap intervals; the interval of the worst group is that of a max, and may miss its point.` : ''}`,
  };
}
