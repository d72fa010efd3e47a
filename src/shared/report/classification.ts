/**
 * Classification and long-tail charts of the per-class rows and the confusion matrix: per-class
 * accuracy bars and table, accuracy against train count by shot group, the confusion heatmap.
 */
import type { ConfusionMatrix, PerClassRow, Results } from '../../core/results/types';
import { formatCi, formatCount, formatLevel } from '../format';
import type { Band, CellValue, ChartModel, ColumnKind, Series, TableModel } from '../model';
import { niceLogCeil, niceLogFloor, table } from './common';
import { chooseClasses, confusionSubset, largestConfusionCells } from '../confusionView';

/** Upper limit of classes drawn as a full confusion heatmap; above it, the top confusions. */
export const FULL_HEATMAP_MAX = 20;

export function perClassVsTrain(rows: PerClassRow[], results: Results): ChartModel | undefined {
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

/**
 * Above this many classes the per-class bars run across (classes down the side, one row each), so
 * that every class keeps its label; up to it, the bars stand side by side.
 */
export const PER_CLASS_VERTICAL_MAX = 12;

export function perClassBar(rows: PerClassRow[], results: Results): ChartModel {
  const withCi = rows.some((r) => r.ci);
  const level = formatLevel(results.config.bootstrap?.confidence);
  const horizontal = rows.length > PER_CLASS_VERTICAL_MAX;
  return {
    id: 'perClassAccuracy',
    title: 'Per-class accuracy',
    description: `${horizontal ? 'Horizontal bar' : 'Bar'} chart of accuracy for each of ${rows.length} classes${withCi ? `, with ${level} bootstrap intervals` : ''}.`,
    ...(horizontal ? { horizontal: true } : {}),
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
  return largestConfusionCells(c.matrix, n).map((x) => ({
    true: c.labels[x.i]!,
    pred: c.labels[x.j]!,
    count: x.count,
  }));
}

/** Above this many classes the viewer's class chooser is not offered (the whole matrix would travel with the report). */
export const CLASS_CHOOSER_MAX = 500;

/**
 * The confusion heatmap: the full matrix up to {@link FULL_HEATMAP_MAX} classes; above it, the
 * sub-matrix of the classes involved in the largest confusions (at most that many classes, in
 * label order) with an "other" column and row summing the classes not shown, so the cells that
 * matter stay readable and every row still adds up to its class's test rows. The whole matrix
 * rides along (up to {@link CLASS_CHOOSER_MAX} classes) so that the viewer can choose the classes.
 */
export function confusionChart(c: ConfusionMatrix): ChartModel {
  const k = c.labels.length;
  let note: string | undefined;
  const top = topConfusions(c, 30);
  const pos = new Map(c.labels.map((l, i) => [l, i]));
  const rowTotals = c.matrix.map((r) => r.reduce((a, b) => a + b, 0));
  const idx =
    k <= FULL_HEATMAP_MAX ? c.labels.map((_, i) => i) : chooseClasses(c.matrix, 'confusions', FULL_HEATMAP_MAX);
  if (k > FULL_HEATMAP_MAX)
    note = `${k} classes: the grid shows ${idx.length} of them (at first the classes involved in the largest confusions; choose others above the grid), and an \u201cother\u201d column and row sum the ${k - idx.length} classes not shown, so each row adds up to its class\u2019s test rows. Shares divide by the totals of the whole matrix; the list and the table name the top ${top.length} confusions.`;
  const sub = confusionSubset(c.labels, c.matrix, idx);
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
      ...sub,
      ...(sub.other && k <= CLASS_CHOOSER_MAX
        ? { all: { labels: [...c.labels], matrix: c.matrix.map((r) => [...r]) } }
        : {}),
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
