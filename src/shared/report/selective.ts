/** Selective-classification charts and tables: risk–coverage, the rejection-cost sweep, group analysis. */
import type { Curve, GroupAnalysisRow, Results } from '../../core/results/types';
import { formatNumber } from '../format';
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
