/**
 * From each number of a report to the rows behind it: for every chart point, heatmap cell, table
 * row and metric card that stands for a set of rows, the filter that selects them. Built from the
 * results (exact bin edges and thresholds, not the rounded text of the tables) and aligned with
 * the charts and tables of `reportModel.ts`. Pure; no vscode, no DOM.
 */
import type { FilterTerm, RowSort } from '../core/rows/types';
import { countedHistogram } from '../core/metrics/ranking/perUser';
import type { Results } from '../core/results/types';
import { formatNumber } from './format';
import type { ChartDrill, DrillSpec, DrillTargets, TableDrill } from './drillSpec';
import type { ChartModel, ReportModel } from './model';

export type { ChartDrill, DrillSpec, DrillTargets, TableDrill } from './drillSpec';

const t = (key: string, op: FilterTerm['op'], value: string | number): FilterTerm => ({
  key,
  op,
  value: String(value),
});
const BY_CONFIDENCE: RowSort = { key: 'confidence', dir: 'desc' };
/** Mistakes first, most confident first: the rows most worth reading. */
export const MISTAKES: DrillSpec = {
  title: 'Most confident mistakes',
  where: [t('correct', '=', 'false')],
  sort: BY_CONFIDENCE,
};

function labelCell(label: string): DrillSpec {
  return { title: `True class ${label}`, where: [t('label', '=', label)], sort: BY_CONFIDENCE };
}

/** The rows of one confusion-matrix cell: true class `truth`, predicted class `pred`. */
export function confusionCell(truth: string, pred: string): DrillSpec {
  return {
    title: `True ${truth}, predicted ${pred}`,
    where: [t('label', '=', truth), t('pred', '=', pred)],
    sort: BY_CONFIDENCE,
  };
}

/** Rows in a reliability bin (lo, hi] of the confidence (the bins' own convention). */
function reliabilityBin(lo: number, hi: number): DrillSpec {
  return {
    title: `Confidence in (${formatNumber(lo, '', 3)}, ${formatNumber(hi, '', 3)}]`,
    where: [t('confidence', '>', lo), t('confidence', '<=', hi)],
    sort: BY_CONFIDENCE,
  };
}

/** Users whose `key` lies in [lo, hi), the last bin closed. */
function userBin(key: string, lo: number, hi: number, last: boolean): DrillSpec {
  return {
    title: `Users with ${key} in [${formatNumber(lo, '', 3)}, ${formatNumber(hi, '', 3)}${last ? ']' : ')'}`,
    where: [t(key, '>=', lo), t(key, last ? '<=' : '<', hi)],
    sort: { key, dir: 'asc' },
  };
}

function perClassFrom(chart: ChartModel): ChartDrill {
  return {
    points: chart.series.map((s) =>
      s.points.map((_, i) => {
        // A bar chart names its classes on the category axis; a scatter names them in its point labels.
        const cls =
          chart.x.type === 'category'
            ? chart.x.categories?.[s.points[i]!.x]
            : s.pointLabels?.[i]?.replace(/^class /, '');
        return cls === undefined ? null : labelCell(cls);
      }),
    ),
  };
}

/**
 * The rows every metric covers: with a validation/test split (`source.split`, metrics on the test
 * rows), the test rows; otherwise every row. Results written before every family followed the
 * split measured only the selective family on the test rows (its curve's note says so).
 */
function measuredRows(results: Results): { all: FilterTerm[]; selective: FilterTerm[] } {
  // by role, not by the column's spelling: `splitNames` may map e.g. `holdout` to test
  const test = [t('split_role', '=', 'test')];
  const sp = results.source.split;
  if (sp) return sp.metricsOn === 'test' ? { all: test, selective: test } : { all: [], selective: [] };
  const note = results.curves.riskCoverage?.note ?? results.metrics.selective_risk?.note ?? '';
  return { all: [], selective: /\bthe \d+ test rows\b/.test(note) ? test : [] };
}

/** Every spec of `out` restricted to the rows `measured` (put first in its filter). */
function restrictTo(out: DrillTargets, measured: FilterTerm[]): DrillTargets {
  if (measured.length === 0) return out;
  const r = <S extends DrillSpec | null | undefined>(spec: S): S =>
    (spec ? { ...spec, where: [...measured, ...spec.where] } : spec) as S;
  const grid = (g: (DrillSpec | null)[][]) => g.map((row) => row.map(r));
  const drill = <D extends ChartDrill & TableDrill>(c: D): D => ({
    ...c,
    ...(c.points ? { points: grid(c.points) } : {}),
    ...(c.cells ? { cells: grid(c.cells) } : {}),
    ...(c.rows ? { rows: c.rows.map(r) } : {}),
  });
  const charts = Object.fromEntries(Object.entries(out.charts).map(([k, c]) => [k, drill(c)]));
  const tables = Object.fromEntries(Object.entries(out.tables).map(([k, c]) => [k, drill(c)]));
  const cards = Object.fromEntries(Object.entries(out.cards).map(([k, c]) => [k, r(c)]));
  return { charts, tables, cards, ...(out.mistakes ? { mistakes: r(out.mistakes) } : {}), measured };
}

/** The drill-down targets of the report of `results` (`model` is that report's model). */
export function drillTargets(results: Results, model: ReportModel): DrillTargets {
  const out: DrillTargets = { charts: {}, tables: {}, cards: {} };
  const charts = new Map(model.tabs.flatMap((tab) => tab.charts).map((c) => [c.id, c]));
  const tbl = results.tables;
  const ranking = results.task === 'ranking';
  if (!ranking) out.mistakes = MISTAKES;

  // Classification: per class, confusion cells.
  const perClass = tbl.perClass ?? [];
  const perClassRows = perClass.map((r) => labelCell(r.class));
  if (perClass.length > 0) out.tables.perClass = { rows: perClassRows };
  const bar = charts.get('perClassAccuracy');
  if (bar) {
    out.charts.perClassAccuracy = perClassFrom(bar);
    out.tables['perClassAccuracy.table'] = { rows: perClassRows };
  }
  const scatter = charts.get('perClassVsTrain');
  if (scatter) {
    out.charts.perClassVsTrain = perClassFrom(scatter);
    out.tables['perClassVsTrain.table'] = { rows: perClassRows };
  }
  const conf = charts.get('confusion');
  if (conf?.heatmap && tbl.confusion) {
    const h = conf.heatmap;
    out.charts.confusion = { cells: h.rows.map((r) => h.cols.map((c) => confusionCell(r, c))) };
    const table = conf.table;
    out.tables['confusion.table'] =
      table.columns[0] === 'true' && table.columns[1] === 'predicted'
        ? { rows: table.rows.map((r) => confusionCell(String(r[0]), String(r[1]))) }
        : {
            cells: table.rows.map((r) =>
              table.columns.map((c, j) => (j === 0 ? null : confusionCell(String(r[0]), c))),
            ),
          };
  }

  // Calibration: reliability bins with their exact edges.
  const bins = tbl.reliability;
  if (bins) {
    const specs = bins.map((b) => reliabilityBin(b.lo, b.hi));
    const nonEmpty = bins
      .map((b, i) => (b.count > 0 && b.accuracy !== null && b.confidence !== null ? specs[i]! : undefined))
      .filter((s): s is DrillSpec => s !== undefined);
    if (charts.has('reliability')) out.charts.reliability = { points: [[null, null], nonEmpty] };
    if (charts.has('reliabilityCounts')) out.charts.reliabilityCounts = { points: [specs] };
    out.tables['reliability.table'] = { rows: specs };
  }

  // Selective: the rows accepted at a risk–coverage point (score at least the point's threshold),
  // among the rows the selective family measured (the test rows under the val/test protocol).
  const rc = results.curves.riskCoverage;
  const rcChart = charts.get('riskCoverage');
  const thresholds = rc?.extra?.threshold;
  const rows = measuredRows(results);
  // added here only when the other families cover every row (results written before the split
  // applied to every family); else every target is restricted below
  const measured = rows.all.length > 0 ? [] : rows.selective;
  if (rc && rcChart && thresholds) {
    const specs = rc.xs.map((cov, i) => {
      const th = thresholds[i];
      return typeof th === 'number' && Number.isFinite(th)
        ? {
            title: `Accepted at coverage ${formatNumber(cov, '', 3)} (confidence ≥ ${formatNumber(th, '', 4)})`,
            where: [...measured, t('confidence', '>=', th)],
            sort: { key: 'confidence', dir: 'asc' } as RowSort,
          }
        : null;
    });
    out.charts.riskCoverage = { points: rcChart.series.map(() => specs) };
    out.tables['riskCoverage.table'] = { rows: specs };
  }

  // Long tail and selective cards.
  for (const key of Object.keys(results.metrics)) {
    const shot = /^acc_(many|medium|few)$/.exec(key);
    const group = /^acc_group\.(.+)$/.exec(key);
    if (shot)
      out.cards[key] = { title: `${shot[1]}-shot rows`, where: [t('shot', '=', shot[1]!)], sort: BY_CONFIDENCE };
    else if (group)
      out.cards[key] = {
        title: `Rows of class group ${group[1]}`,
        where: [t('class_group', '=', group[1]!)],
        sort: BY_CONFIDENCE,
      };
    else if (!ranking && /^(accuracy|error_rate|balanced_accuracy|macro_f1|top\d+_accuracy)$/.test(key))
      out.cards[key] = MISTAKES;
    else if (!ranking && /^(selective_risk|risk)$/.test(key))
      out.cards[key] = {
        title: 'Accepted mistakes',
        where: [...measured, t('accepted', '=', 'true'), t('correct', '=', 'false')],
        sort: BY_CONFIDENCE,
      };
  }

  // Ranking: per-user histogram bars and user-activity bins.
  for (const [id, chart] of charts) {
    const m = /^perUser\.(.+)$/.exec(id);
    if (!m) continue;
    const key = m[1]!;
    const stored = (tbl.perUserHistograms as Record<string, { edges?: number[] }> | undefined)?.[key]?.edges;
    const n = chart.series[0]?.points.length ?? 0;
    let edges = stored && stored.length === n + 1 ? stored : undefined;
    if (!edges && results.perItem?.kind === 'user') {
      // Results without stored histograms: the report counted the same bins from the values.
      const counted = countedHistogram(results.perItem.values[key] ?? []).edges;
      if (counted.length === n + 1) edges = counted;
    }
    if (!edges) continue;
    const specs = Array.from({ length: n }, (_, i) => userBin(key, edges![i]!, edges![i + 1]!, i === n - 1));
    out.charts[id] = { points: [specs] };
    out.tables[`${id}.table`] = { rows: specs };
  }
  const activity = tbl.activityBins as { lo?: unknown; hi?: unknown; bin?: unknown }[] | undefined;
  const actChart = charts.get('activityBins');
  if (Array.isArray(activity) && actChart) {
    const specs = activity.map((r) => {
      if (typeof r.lo !== 'number') return null;
      const where = [t('trainCount', '>=', r.lo)];
      if (typeof r.hi === 'number') where.push(t('trainCount', '<', r.hi));
      return {
        title: `Users with ${typeof r.bin === 'string' ? r.bin : r.lo} train interactions`,
        where,
        sort: { key: 'line', dir: 'asc' } as RowSort,
      };
    });
    out.charts.activityBins = { points: actChart.series.map(() => specs) };
    out.tables['activityBins.table'] = { rows: specs };
  }
  return ranking ? out : restrictTo(out, rows.all);
}
