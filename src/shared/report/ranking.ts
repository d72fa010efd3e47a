/**
 * Ranking charts: metrics against the cutoff K, per-user histograms (stored by the evaluation or
 * binned from the per-user values) and metrics by user activity.
 */
import { metricVsKCurves } from '../../core/results/curves';
import type { MetricValue, Results } from '../../core/results/types';
import { tableOf } from '../../core/results/tables';
import { formatCount, formatNumber } from '../format';
import { cutoffsOf, headlineKeys } from '../headline';
import { metricName } from '../../core/glossary';
import { countedHistogram, type ActivityBinRow, type Histogram } from '../../core/metrics/ranking/perUser';
import { DASH_PATTERNS, SERIES_COLOURS, type CellValue, type ChartModel, type ColumnKind, type Series } from '../model';
import { binLabels, pts, table } from './common';
import { genericTable } from './generic';

/** The name of a ranking metric without its cutoff: `ndcg` → "NDCG" (from the glossary's `ndcg@<K>`). */
function cutoffMetricName(base: string): string {
  return metricName(`${base}@1`)
    .replace(/ at 1$/, '')
    .replace(/@1$/, '');
}

/**
 * The dash pattern of each baseline, by name in order of first appearance: a baseline keeps its
 * pattern on every metric's curves (popularity dashed, random dotted, …), so one legend key reads
 * for all metrics; the run's own curve is solid.
 */
function baselineDashes(names: string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const n of names) if (!out.has(n)) out.set(n, [...DASH_PATTERNS[out.size % DASH_PATTERNS.length]!]);
  return out;
}

/**
 * One curve of the metric-vs-K chart: the run's solid, a baseline's (`baseline` named) in the
 * metric's colour with the baseline's dash pattern.
 */
function cutoffSeries(
  metric: string,
  colour: Series['colour'],
  points: Series['points'],
  baseline?: { name: string; dashes: Map<string, number[]> },
): Series {
  if (!baseline) return { label: cutoffMetricName(metric), colour, style: 'line', points };
  const lineDash = baseline.dashes.get(baseline.name)!;
  return {
    label: `${cutoffMetricName(metric)} (${baseline.name})`,
    colour,
    style: 'line',
    dashed: true,
    lineDash,
    points,
  };
}

/**
 * Metric-vs-K curves: each metric its own colour (its run curve solid), each of its baselines in
 * the same colour with the baseline's own dash pattern (the legend draws the dashes). From the
 * ranking family's dense curves `metricVsK.<metric>` (one point per K, baselines in `extra`) when
 * present, else from the `name@K` metric keys.
 */
export function metricVsKChart(results: Results): ChartModel | undefined {
  const dense = metricVsKCurves(results).filter(([, c]) => Array.isArray(c.xs) && c.xs.length > 0);
  if (dense.length > 0) {
    const series: Series[] = [];
    const rows: CellValue[][] = [];
    const dashes = baselineDashes(dense.flatMap(([, c]) => Object.keys(c.extra ?? {})));
    dense.forEach(([metric, c], i) => {
      const colour = SERIES_COLOURS[i % SERIES_COLOURS.length]!;
      series.push(cutoffSeries(metric, colour, pts(c.xs, c.ys)));
      c.xs.forEach((k, j) => rows.push([metric, 'run', k, c.ys[j] ?? null]));
      for (const [b, ys] of Object.entries(c.extra ?? {})) {
        series.push(cutoffSeries(metric, colour, pts(c.xs, ys), { name: b, dashes }));
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
      description: `${dense.length} ranking metrics (y) at each cutoff K from ${Math.min(...ks)} to ${maxK} (x), each in its own colour; baselines in their metric's colour, each baseline with its own dash pattern.`,
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
  const dashes = baselineDashes(Object.keys(results.baselines ?? {}));
  names.forEach((name, i) => {
    const colour = SERIES_COLOURS[i % SERIES_COLOURS.length]!;
    const valueAt = (src: Record<string, MetricValue>, k: number): number | null => src[`${name}@${k}`]?.value ?? null;
    series.push(
      cutoffSeries(
        name,
        colour,
        ks.map((k) => ({ x: k, y: valueAt(results.metrics, k) })),
      ),
    );
    cols.push([name, 'num']);
    ks.forEach((k, r) => rows[r]!.push(valueAt(results.metrics, k)));
    for (const [b, src] of Object.entries(results.baselines ?? {})) {
      if (!ks.some((k) => src[`${name}@${k}`] !== undefined)) continue;
      series.push(
        cutoffSeries(
          name,
          colour,
          ks.map((k) => ({ x: k, y: valueAt(src, k) })),
          { name: b, dashes },
        ),
      );
      cols.push([`${name} (${b})`, 'num']);
      ks.forEach((k, r) => rows[r]!.push(valueAt(src, k)));
    }
  });
  return {
    id: 'metricVsK',
    title: 'Metrics vs K',
    description: `${names.length} ranking metrics (y) at cutoffs K = ${ks.join(', ')} (x), each in its own colour; baselines in their metric's colour, each baseline with its own dash pattern.`,
    x: { label: 'K', type: ks[ks.length - 1]! / ks[0]! >= 20 ? 'log' : 'linear', min: ks[0]!, max: ks[ks.length - 1]! },
    y: { label: 'value', type: 'linear', min: 0 },
    series,
    table: table('metricVsK.table', 'Metrics vs K', cols, rows),
  };
}

/** The longest recommendation list of the run (`tables.rankingSummary.longestList`), when recorded. */
function longestList(results: Results): number | undefined {
  const n = tableOf(results, 'rankingSummary')?.longestList;
  return n !== undefined && n > 0 ? n : undefined;
}

/**
 * The ranking family's own per-user histograms (`tables.perUserHistograms`: metric → edges, counts);
 * a histogram whose edges do not bound its bins (one more edge than counts) is left out.
 */
export function storedHistograms(value: Record<string, Histogram> | undefined): ChartModel[] {
  return Object.entries(value ?? {})
    .filter(([, h]) => h.edges.length === h.counts.length + 1)
    .map(([key, h]) => {
      const cats = binLabels(h.edges.slice(0, -1), h.edges.slice(1));
      const users = h.counts.reduce((a, b) => a + b, 0);
      const extra = [
        typeof h.mean === 'number' ? `mean ${formatNumber(h.mean, key)}` : '',
        h.undefinedUsers ? `${formatCount(h.undefinedUsers)} users undefined` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return perUserHistogramChart(key, cats, h.counts, users, extra);
    });
}

/**
 * The chart of one per-user histogram: bars of `counts` (users per bin, bins labelled `cats`) of
 * the metric `key` over `users` users, with its table; `note` under it when not empty.
 */
function perUserHistogramChart(key: string, cats: string[], counts: number[], users: number, note = ''): ChartModel {
  return {
    id: `perUser.${key}`,
    title: `Per-user ${metricName(key)}`,
    description: `Histogram of ${metricName(key)} (${key}) over ${formatCount(users)} users in ${counts.length} bins.`,
    x: { label: metricName(key), type: 'category', categories: cats },
    y: { label: 'users', type: 'linear', min: 0 },
    series: [{ label: 'users', colour: 'blue', style: 'bar', points: counts.map((c, i) => ({ x: i, y: c })) }],
    table: table(
      `perUser.${key}.table`,
      `Per-user ${key}`,
      [
        ['bin', 'text'],
        ['users', 'int'],
      ],
      counts.map((c, i) => [cats[i]!, c]),
    ),
    ...(note ? { note } : {}),
    group: { id: 'perUser', title: 'Per-user distribution', option: metricName(key) },
  };
}

/** Headline ranking metrics per user-activity bin (`tables.activityBins`: bin, users, metric columns). */
export function activityChart(rows: ActivityBinRow[] | undefined, results: Results): ChartModel | undefined {
  if (!rows || rows.length === 0) return undefined;
  const keys = headlineKeys(results, 3).filter((k) => rows.some((r) => typeof r[k] === 'number'));
  if (keys.length === 0) return undefined;
  const generic = genericTable('activityBins.table', 'Metrics by user activity', rows)!;
  return {
    id: 'activityBins',
    title: 'Metrics by user activity (train interactions)',
    description: `Bars of ${keys.map(metricName).join(', ')} for ${rows.length} bins of users by their number of train interactions.`,
    x: {
      label: 'train interactions per user',
      type: 'category',
      categories: rows.map((r) => `${r.bin} (${formatCount(r.users)} users)`),
    },
    y: { label: 'value', type: 'linear', min: 0 },
    series: keys.map((k, i) => ({
      label: metricName(k),
      colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!,
      style: 'bar' as const,
      points: rows.map((r, j) => {
        const v = r[k];
        return { x: j, y: typeof v === 'number' ? v : null };
      }),
    })),
    table: generic,
  };
}

/** The charts of {@link countedHistogram} for every per-user metric of `results`. */
export function perUserHistograms(results: Results): ChartModel[] {
  const p = results.perItem;
  if (!p || p.kind !== 'user') return [];
  return storedHistograms(Object.fromEntries(Object.entries(p.values).map(([key, v]) => [key, countedHistogram(v)])));
}
