/** The evolving-distributions chart: accuracy against the shift δ of each test distribution. */
import type { Curve, Results } from '../../core/results/types';
import { formatNumber } from '../format';
import type { ChartModel } from '../model';
import { curveTable, pts } from './common';

export function shiftChart(c: Curve, m: Results['metrics']): ChartModel {
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
