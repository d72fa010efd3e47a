/**
 * Comparison (`eval-lens/compare@1`) → {@link ReportModel}: the runs × metrics table with best /
 * second / third marked and significance stars against the baseline, the differences against the
 * baseline (Δ with its paired-bootstrap interval), the paired tests, one paired-difference chart
 * per metric, and the runs' curves overlaid on one chart each.
 */
import { UNRANKED_KEYS } from '../core/compare/marks';
import { delta, formatDelta, untestedNote } from '../core/compare/render';
import { OVERLAY_CURVES, otherOverlays } from '../core/compare/curves';
import type { CompareResults, CompareTest, FixedOverlayCurveName } from '../core/compare/types';
import { METRIC_VS_K_METRICS, metricVsKCurve } from '../core/results/curves';
import type { Curve } from '../core/results/types';
import { formatLevel, formatNumber, pStatement, significanceMark } from './format';
import {
  SERIES_COLOURS,
  type CardModel,
  type CellValue,
  type ChartModel,
  type ColumnKind,
  type Place,
  type ReportModel,
  type Series,
  type TabModel,
  type TableModel,
} from './model';
import { metricHover, metricName } from '../core/glossary';
import { unitDiagonal } from './report/common';

/**
 * The p-value that decides the stars: the reported p adjusted over the comparison when present,
 * else (a comparison written by an older version) the Holm-adjusted or plain paired t-test's.
 */
export function decidingP(t: CompareTest): number | null {
  if (t.p_adjusted !== undefined) return t.p_adjusted;
  return t.p_holm !== undefined ? t.p_holm : t.p_t;
}

/** Δ of a test: the paired bootstrap's point, else the difference of the per-item means. */
function testDelta(t: CompareTest): number | null {
  return t.delta !== undefined ? t.delta : delta(t);
}

/** A relative change as a signed percentage, `+7.5%`. */
function signedPercent(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const s = (Math.abs(x) * 100).toFixed(1);
  return Number(s) === 0 ? `${s}%` : `${x > 0 ? '+' : '−'}${s}%`;
}

/** Which test produced a reported p, in words. */
const TEST_NAME = { 'mcnemar-exact': 'McNemar (exact)', t: 'paired t', bootstrap: 'paired bootstrap' } as const;

/** The adjustment of a comparison's p-values, in words. */
function adjustName(c: CompareResults): string {
  return c.settings?.adjust === 'bh' ? 'Benjamini–Hochberg' : 'Holm';
}

/** Above this many metrics the table is turned: metrics as rows, runs as columns (it stays readable). */
export const TRANSPOSE_ABOVE = 12;

/**
 * The runs × metrics table (the papers' layout); with more than {@link TRANSPOSE_ABOVE} metrics,
 * metrics × runs. Marks and stars follow the cells either way.
 */
export function compareTable(c: CompareResults): TableModel {
  const byRunMetric = new Map(c.tests.map((t) => [`${t.run}\u0000${t.metric}`, t]));
  const runLabel = (run: string, i: number): string =>
    run === c.baseline ? `${c.names[i] ?? run} (baseline)` : (c.names[i] ?? run);
  const star = (run: string, m: string): string => {
    const t = byRunMetric.get(`${run}\u0000${m}`);
    return t ? significanceMark(decidingP(t)) : '';
  };
  const rows: CellValue[][] = [];
  const marks: (Place | null)[][] = [];
  const suffixes: string[][] = [];
  const transpose = c.metrics.length > TRANSPOSE_ABOVE;
  if (!transpose) {
    c.runs.forEach((run, i) => {
      rows.push([runLabel(run, i), ...c.metrics.map((m) => c.table[run]?.[m] ?? null)]);
      marks.push([null, ...c.metrics.map((m) => c.marks[m]?.[run] ?? null)]);
      suffixes.push(['', ...c.metrics.map((m) => star(run, m))]);
    });
  } else {
    for (const m of c.metrics) {
      rows.push([
        `${m} ${c.directions[m] === 'lower' ? '↓' : c.directions[m] === 'higher' ? '↑' : ''}`.trim(),
        ...c.runs.map((run) => c.table[run]?.[m] ?? null),
      ]);
      marks.push([null, ...c.runs.map((run) => c.marks[m]?.[run] ?? null)]);
      suffixes.push(['', ...c.runs.map((run) => star(run, m))]);
    }
  }
  const where = transpose ? 'row' : 'column';
  // Counts (users evaluated / skipped) print as integers; a transposed table's rows mix kinds, so
  // its numbers stay 'num' and the count rows are formatted here.
  const kind = (m: string): ColumnKind => (UNRANKED_KEYS.has(m) ? 'int' : 'num');
  if (transpose) {
    c.metrics.forEach((m, i) => {
      if (UNRANKED_KEYS.has(m))
        rows[i] = rows[i]!.map((v, j) => (j > 0 && typeof v === 'number' ? formatNumber(v, m) : v));
    });
  }
  const untested = untestedNote(c.untested);
  return {
    id: 'compare.table',
    title: transpose ? 'Metrics × runs' : 'Runs × metrics',
    columns: transpose ? ['metric', ...c.runs.map(runLabel)] : ['run', ...c.metrics],
    kinds: ['text', ...(transpose ? c.runs.map(() => 'num' as const) : c.metrics.map(kind))],
    rows,
    marks,
    suffixes,
    // Names shown, keys on hover and in copies.
    ...(transpose
      ? {
          rowNames: c.metrics.map((m) =>
            `${metricName(m)} ${c.directions[m] === 'lower' ? '↓' : c.directions[m] === 'higher' ? '↑' : ''}`.trim(),
          ),
        }
      : { columnNames: [null, ...c.metrics.map(metricName)] }),
    note: `Bold = best, underlined = second, italic = third in the ${where} (by each metric's direction; equal values share a place, and a run is marked only when it beats another). Stars: paired test against the baseline, *** p < 0.001, ** p < 0.01, * p < 0.05 (${c.tests.some((t) => t.p_adjusted !== undefined) ? `${adjustName(c)}-adjusted over every test of the comparison` : 'Holm-adjusted within the metric when several runs are tested'}).${untested ? ` ${untested}` : ''}`,
  };
}

/**
 * Δ against the baseline: one row per tested metric, the baseline's value, then per other run the
 * mean paired difference (run − baseline) with its paired-bootstrap interval and stars.
 */
export function deltaTable(c: CompareResults): TableModel | undefined {
  const metrics = c.metrics.filter((m) => c.tests.some((t) => t.metric === m));
  if (metrics.length === 0) return undefined;
  const others = c.runs.filter((r) => r !== c.baseline);
  const name = (run: string): string => c.names[c.runs.indexOf(run)] ?? run;
  const byRunMetric = new Map(c.tests.map((t) => [`${t.run}\u0000${t.metric}`, t]));
  const boot = c.settings?.bootstrap;
  const rows: CellValue[][] = metrics.map((m) => [
    `${m} ${c.directions[m] === 'lower' ? '↓' : c.directions[m] === 'higher' ? '↑' : ''}`.trim(),
    c.table[c.baseline]?.[m] ?? null,
    ...others.flatMap((run) => {
      const t = byRunMetric.get(`${run}\u0000${m}`);
      if (!t) return ['', ''];
      const ci = t.ci_diff
        ? ` [${formatDelta(t.ci_diff[0])}, ${formatDelta(t.ci_diff[1])}]${t.ci_excludes_delta ? ' ‡' : ''}`
        : '';
      const bci = t.better_by_ci ? ` [${signedPercent(t.better_by_ci[0])}, ${signedPercent(t.better_by_ci[1])}]` : '';
      return [
        `${formatDelta(testDelta(t))}${ci}${significanceMark(decidingP(t))}`,
        `${signedPercent(t.better_by)}${bci}`,
      ];
    }),
  ]);
  const paired = c.settings?.paired;
  return {
    id: 'compare.delta',
    title: `Δ against ${name(c.baseline)}`,
    columns: [
      'metric',
      `${name(c.baseline)} (baseline)`,
      ...others.flatMap((r) => [`Δ ${name(r)}`, `better by (${name(r)})`]),
    ],
    kinds: ['text', 'num', ...others.flatMap(() => ['text' as const, 'text' as const])],
    rows,
    note: `Δ = run − baseline${boot && boot.n > 0 ? `, with its paired-bootstrap ${formatLevel(boot.confidence)} percentile interval (${boot.n} resamples of the matched ${paired?.units === 'user' ? 'users' : 'rows'}, both runs evaluated on each)` : ''}; better by = the relative change in the metric's good direction (positive = better), with its interval; stars as in the table.${c.tests.some((t) => t.ci_excludes_delta) ? ' ‡ the interval does not contain Δ: the bootstrap of this metric is biased (binned calibration errors, catalogue coverage), read it with care.' : ''}${paired ? '' : ' Without the prediction files, only metrics that are a mean over rows or users get a Δ.'}`,
  };
}

interface OverlaySpec {
  title: string;
  x: string;
  y: string;
  unit?: boolean;
  diagonal?: boolean;
}

/** Axes of the overlay charts; `metricVsK.<m>` charts take K and the metric ({@link againstK}). */
const OVERLAYS: Record<FixedOverlayCurveName, OverlaySpec> = {
  riskCoverage: { title: 'Risk–coverage', x: 'coverage', y: 'selective risk' },
  reliability: { title: 'Reliability diagram', x: 'confidence', y: 'accuracy', unit: true, diagonal: true },
  pr: { title: 'Precision–recall', x: 'recall', y: 'precision', unit: true },
  shift: { title: 'Accuracy against distribution shift', x: 'shift (symmetric KL)', y: 'accuracy' },
};

const againstK = (what: string): OverlaySpec => ({ title: `${what} against K`, x: 'K', y: what });

/**
 * The comparison's overlays in display order, each with its axes and, for a metric-vs-K curve, its
 * metric: the known curves by their typed names, then those of a later version (drawn against K,
 * as a comparison has only ever overlaid the fixed curves and metric-vs-K ones).
 */
function overlaysOf(c: CompareResults): [string, Record<string, Curve>, OverlaySpec, string | undefined][] {
  const out: [string, Record<string, Curve>, OverlaySpec, string | undefined][] = [];
  for (const n of OVERLAY_CURVES) {
    const byRun = c.curves?.[n];
    if (byRun) out.push([n, byRun, OVERLAYS[n], undefined]);
  }
  for (const m of METRIC_VS_K_METRICS) {
    const byRun = c.curves?.[metricVsKCurve(m)];
    if (byRun) out.push([metricVsKCurve(m), byRun, againstK(m), m]);
  }
  for (const [n, byRun] of otherOverlays(c.curves)) {
    const metric = n.startsWith('metricVsK.') ? n.slice('metricVsK.'.length) : undefined;
    out.push([n, byRun, againstK(metric ?? n), metric]);
  }
  return out;
}

/** One chart per curve the runs share, every run a series (colour and dash tell runs apart). */
export function overlayCharts(c: CompareResults): ChartModel[] {
  const name = (run: string): string => c.names[c.runs.indexOf(run)] ?? run;
  const out: ChartModel[] = [];
  for (const [curveName, byRun, spec, metric] of overlaysOf(c)) {
    const runs = c.runs.filter((r) => byRun[r]);
    if (runs.length < 2) continue;
    const series: Series[] = runs.map((run, i) => {
      const cv: Curve = byRun[run]!;
      return {
        label: run === c.baseline ? `${name(run)} (baseline)` : name(run),
        colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!,
        style: 'line',
        dashed: i % 2 === 1,
        points: cv.xs.map((x, k) => ({ x, y: cv.ys[k] ?? null })),
      };
    });
    if (spec.diagonal) series.unshift(unitDiagonal('perfect calibration', 'dotted'));
    const id = `overlay.${curveName}`;
    out.push({
      id,
      title: `${spec.title}: ${runs.length} runs`,
      description: `${spec.y} (y) against ${spec.x} (x) for ${runs.length} runs on one chart.`,
      x: { label: spec.x, type: 'linear', ...(curveName === 'riskCoverage' || spec.unit ? { min: 0, max: 1 } : {}) },
      y: { label: spec.y, type: 'linear', min: 0, ...(spec.unit ? { max: 1 } : {}) },
      series,
      table: {
        id: `${id}.table`,
        title: `${spec.title}: points per run`,
        columns: ['run', spec.x, spec.y],
        kinds: ['text', metric ? 'int' : 'num', 'num'],
        rows: runs.flatMap((run) =>
          byRun[run]!.xs.map((x, k): CellValue[] => [name(run), x, byRun[run]!.ys[k] ?? null]),
        ),
      },
      note:
        byRun[runs[0]!]!.xs.length >= 400
          ? "Curves thinned to 400 points per run for the chart; the exact curves are in each run's results."
          : undefined,
      group: metric ? { id: 'overlay.metricVsK', title: 'Metric', option: metric } : undefined,
    });
  }
  return out;
}

export function testsTable(c: CompareResults): TableModel {
  const name = (run: string): string => c.names[c.runs.indexOf(run)] ?? run;
  return {
    id: 'compare.tests',
    title: `Paired tests against ${name(c.baseline)}`,
    columns: [
      'run',
      'metric',
      'n',
      'run value',
      'baseline value',
      'Δ',
      'Δ CI',
      'better by',
      'p',
      'test',
      `p (${adjustName(c)})`,
      'p (t)',
      'p (Wilcoxon)',
      'McNemar b / c',
      'd_z',
      'effect',
      'sig.',
    ],
    kinds: [
      'text',
      'text',
      'int',
      'num',
      'num',
      'num',
      'text',
      'text',
      'p',
      'text',
      'p',
      'p',
      'p',
      'text',
      'num',
      'text',
      'text',
    ],
    rows: c.tests.map((t) => [
      name(t.run),
      metricName(t.metric),
      t.n,
      t.mean,
      t.mean_baseline,
      testDelta(t),
      t.ci_diff ? `[${formatNumber(t.ci_diff[0])}, ${formatNumber(t.ci_diff[1])}]` : '',
      t.better_by_ci
        ? `${signedPercent(t.better_by)} [${signedPercent(t.better_by_ci[0])}, ${signedPercent(t.better_by_ci[1])}]`
        : signedPercent(t.better_by),
      t.p ?? t.p_t,
      t.p_test ? TEST_NAME[t.p_test] : 'paired t',
      decidingP(t),
      t.p_t,
      t.p_wilcoxon,
      t.mcnemar_b !== undefined ? `${t.mcnemar_b} / ${t.mcnemar_c}` : '',
      t.d_z,
      t.effect ?? '',
      significanceMark(decidingP(t)),
    ]),
    note: 'p: McNemar’s exact test for per-row 0/1 metrics, the paired t-test for other per-item means, the paired bootstrap for every other metric; better by is positive when the run is better. Effect: Cohen’s reading of |d_z| (0.2 small, 0.5 medium, 0.8 large).',
  };
}

function diffCharts(c: CompareResults): ChartModel[] {
  const name = (run: string): string => c.names[c.runs.indexOf(run)] ?? run;
  const metrics = [...new Set(c.tests.map((t) => t.metric))];
  return metrics.map((metric) => {
    const tests = c.tests.filter((t) => t.metric === metric);
    const diffs = tests.map(testDelta);
    // The axis spans zero (the "no difference" line) and every interval.
    const ends = [
      0,
      ...diffs.filter((d): d is number => d !== null),
      ...tests.flatMap((t) => (t.ci_diff ? [t.ci_diff[0], t.ci_diff[1]] : [])),
    ];
    const pad = (Math.max(...ends) - Math.min(...ends)) * 0.1 || 0.01;
    return {
      id: `diff.${metric}`,
      title: `Paired difference: ${metricName(metric)}`,
      description: `Paired difference in ${metricName(metric)} (${metric}) of each run minus ${name(c.baseline)}, with bootstrap intervals, for ${tests.length} runs.`,
      x: { label: 'run', type: 'category', categories: tests.map((t) => name(t.run)) },
      y: {
        label: `${metric}: run − baseline`,
        type: 'linear',
        min: Math.min(...ends) - pad,
        max: Math.max(...ends) + pad,
      },
      series: [
        {
          label: 'difference',
          colour: 'blue',
          style: 'points',
          points: diffs.map((y, i) => ({ x: i, y })),
          errorBars: tests.map((t) => (t.ci_diff ? { lo: t.ci_diff[0], hi: t.ci_diff[1] } : null)),
          pointLabels: tests.map((t) => pStatement(decidingP(t))),
        },
      ],
      lines: [{ axis: 'y', value: 0, label: 'no difference', colour: 'foreground' }],
      table: {
        id: `diff.${metric}.table`,
        title: `Paired difference: ${metricName(metric)}`,
        columns: ['run', 'difference', 'CI low', 'CI high', 'p'],
        kinds: ['text', 'num', 'num', 'num', 'p'],
        rows: tests.map((t, i) => [
          name(t.run),
          diffs[i]!,
          t.ci_diff?.[0] ?? null,
          t.ci_diff?.[1] ?? null,
          decidingP(t),
        ]),
      },
      group: { id: 'diff', title: 'Metric', option: metricName(metric) },
    };
  });
}

/**
 * One metric across the runs as bars, each with the run's own interval (from the paired
 * resamples, or its results), the baseline first; one chart per metric, chosen with a select.
 */
export function runBarCharts(c: CompareResults): ChartModel[] {
  const name = (run: string): string => c.names[c.runs.indexOf(run)] ?? run;
  const order = [c.baseline, ...c.runs.filter((r) => r !== c.baseline)];
  return c.metrics
    .filter(
      (m) =>
        !UNRANKED_KEYS.has(m) &&
        order.filter((r) => c.table[r]?.[m] !== null && c.table[r]?.[m] !== undefined).length >= 2,
    )
    .map((m) => {
      const values = order.map((r) => c.table[r]?.[m] ?? null);
      const cis = order.map((r) => c.intervals?.[r]?.[m] ?? null);
      const ends = [
        ...values.filter((v): v is number => v !== null),
        ...cis.flatMap((ci) => (ci ? [ci[0], ci[1]] : [])),
      ];
      const lo = Math.min(0, ...ends);
      const hi = Math.max(...ends);
      const label =
        `${metricName(m)} ${c.directions[m] === 'lower' ? '↓' : c.directions[m] === 'higher' ? '↑' : ''}`.trim();
      const labels = order.map((r) => (r === c.baseline ? `${name(r)} (baseline)` : name(r)));
      return {
        id: `runs.bars.${m}`,
        title: `${label} across runs`,
        description: `${metricName(m)} (${m}) of ${order.length} runs as bars with their intervals, the baseline first.`,
        x: { label: 'run', type: 'category', categories: labels },
        y: { label: m, type: 'linear', min: lo, max: hi + (hi - lo) * 0.05 || 1 },
        series: [
          {
            label: m,
            colour: 'blue',
            style: 'bar',
            points: values.map((y, i) => ({ x: i, y })),
            errorBars: cis.map((ci) => (ci ? { lo: ci[0], hi: ci[1] } : null)),
            pointLabels: labels,
          },
        ],
        table: {
          id: `runs.bars.${m}.table`,
          title: `${label} across runs`,
          columns: ['run', m, 'CI low', 'CI high'],
          kinds: ['text', 'num', 'num', 'num'],
          rows: order.map((_, i) => [labels[i]!, values[i]!, cis[i]?.[0] ?? null, cis[i]?.[1] ?? null]),
        },
        group: { id: 'runs.bars', title: 'Metric', option: metricName(m) },
      };
    });
}

/**
 * Pairs of metrics drawn as a scatter of the runs (one point per run): ranking coverage@K against
 * NDCG@K (the accuracy–diversity trade-off), classification accuracy against ECE and AURC, and,
 * for any comparison, its first two metrics.
 */
export function metricPairs(c: CompareResults): [string, string][] {
  const has = (m: string): boolean => c.metrics.includes(m);
  const pairs: [string, string][] = [];
  for (const m of c.metrics) {
    const k = /^coverage@(\d+)$/.exec(m)?.[1];
    if (k && has(`ndcg@${k}`)) pairs.push([m, `ndcg@${k}`]);
  }
  for (const x of ['ece', 'aurc']) if (has(x) && has('accuracy')) pairs.push([x, 'accuracy']);
  const first = c.metrics.filter((m) => !UNRANKED_KEYS.has(m));
  if (pairs.length === 0 && first.length >= 2) pairs.push([first[0]!, first[1]!]);
  return pairs;
}

/** The runs as points of two metrics, one chart per pair of {@link metricPairs}, chosen with a select. */
export function runScatterCharts(c: CompareResults): ChartModel[] {
  const name = (run: string): string => c.names[c.runs.indexOf(run)] ?? run;
  return metricPairs(c).flatMap(([mx, my]) => {
    const runs = c.runs.filter((r) => (c.table[r]?.[mx] ?? null) !== null && (c.table[r]?.[my] ?? null) !== null);
    if (runs.length < 2) return [];
    const xs = runs.map((r) => c.table[r]![mx]!);
    const ys = runs.map((r) => c.table[r]![my]!);
    const pad = (v: number[]): [number, number] => {
      const lo = Math.min(...v);
      const hi = Math.max(...v);
      const d = (hi - lo) * 0.1 || Math.abs(hi) * 0.1 || 0.1;
      return [lo - d, hi + d];
    };
    const [x0, x1] = pad(xs);
    const [y0, y1] = pad(ys);
    const label = (r: string): string => (r === c.baseline ? `${name(r)} (baseline)` : name(r));
    const title = `${metricName(my)} against ${metricName(mx)}`;
    return [
      {
        id: `runs.scatter.${mx}.${my}`,
        title,
        description: `${runs.length} runs as points: ${my} (y) against ${mx} (x).`,
        x: { label: mx, type: 'linear', min: x0, max: x1 },
        y: { label: my, type: 'linear', min: y0, max: y1 },
        series: runs.map((r, i) => ({
          label: label(r),
          colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!,
          style: 'points' as const,
          points: [{ x: xs[i]!, y: ys[i]! }],
          pointLabels: [label(r)],
          radius: 6,
        })),
        table: {
          id: `runs.scatter.${mx}.${my}.table`,
          title,
          columns: ['run', mx, my],
          kinds: ['text', 'num', 'num'],
          rows: runs.map((r, i) => [label(r), xs[i]!, ys[i]!]),
        },
        group: { id: 'runs.scatter', title: 'Metrics', option: `${my} against ${mx}` },
      },
    ];
  });
}

export function buildCompareModel(c: CompareResults): ReportModel {
  const baselineName = c.names[c.runs.indexOf(c.baseline)] ?? c.baseline;
  const boot = c.settings?.bootstrap;
  const tabs: TabModel[] = [
    {
      id: 'table',
      title: 'Comparison',
      cards: [],
      charts: [],
      tables: [compareTable(c), ...(deltaTable(c) ? [deltaTable(c)!] : [])],
      notes: [],
    },
    {
      id: 'tests',
      title: 'Paired tests',
      cards: [],
      charts: diffCharts(c),
      tables: [testsTable(c)],
      notes: c.untested?.length ? [untestedNote(c.untested)] : [],
    },
  ];
  const overlays = overlayCharts(c);
  if (overlays.length > 0)
    tabs.push({ id: 'curves', title: 'Curves', cards: [], charts: overlays, tables: [], notes: [] });
  const across = [...runBarCharts(c), ...runScatterCharts(c)];
  if (across.length > 0)
    tabs.push({
      id: 'runs',
      title: 'Runs',
      cards: [],
      charts: across,
      tables: [],
      notes: ['A metric across the runs with each run’s interval, and the runs as points of two metrics.'],
    });
  const targets: ReportModel['targets'] = {};
  for (const m of c.metrics) targets[m] = { tab: 'table' };
  for (const ch of tabs[1]!.charts) targets[ch.id] = { tab: 'tests', element: ch.id };
  for (const ch of overlays) targets[ch.id] = { tab: 'curves', element: ch.id };
  for (const ch of across) targets[ch.id] = { tab: 'runs', element: ch.id };
  // Headline: the first metrics, each with its best run — every run of a tie for best, named as such.
  const headline: CardModel[] = c.metrics.slice(0, 4).flatMap((m) => {
    const bests = c.runs.filter((r) => c.marks[m]?.[r] === 1);
    const best = bests[0];
    if (!best) return [];
    const v = c.table[best]?.[m] ?? null;
    const names = bests.map((r) => c.names[c.runs.indexOf(r)] ?? r);
    const name = names.length > 1 ? `${names.join(', ')} (tied)` : names[0]!;
    return [
      {
        key: m,
        name: metricName(m),
        ...(metricHover(m) ? { explain: metricHover(m) } : {}),
        family: 'compare',
        value: v,
        text: formatNumber(v, m),
        ci: '',
        direction: c.directions[m] ?? 'higher',
        note: `best: ${name}`,
        extra: [`best: ${name}`],
      },
    ];
  });
  return {
    kind: 'compare',
    title: `Comparison of ${c.runs.length} runs`,
    header: {
      title: `Comparison of ${c.runs.length} runs`,
      lines: [
        { label: 'Runs', value: c.runs.join(', ') },
        { label: 'Baseline', value: baselineName },
        { label: 'Task', value: c.task },
        { label: 'Paired by', value: c.matchBy },
        {
          label: 'Tests',
          value: `${c.settings?.paired ? 'every metric by a paired bootstrap of both runs on the same resamples; ' : ''}McNemar (exact) for per-row 0/1 metrics, paired t-test and Wilcoxon signed-rank for per-item means; p adjusted by ${adjustName(c)} over every test${boot && boot.n > 0 ? `; paired bootstrap ${boot.n} resamples, ${formatLevel(boot.confidence)}, seed = ${boot.seed}` : ''}`,
        },
        { label: 'Compared', value: `${c.createdAt} · Eval Lens ${c.tool.version}` },
      ],
      warnings: c.warnings.map((w) => `${w.code}: ${w.message}`),
    },
    headline,
    tabs,
    targets,
  };
}
