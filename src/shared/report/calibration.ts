/** Calibration charts: the reliability diagram and the rows per confidence bin. */
import type { ReliabilityBin } from '../../core/metrics/calibration';
import type { Curve } from '../../core/results/types';
import { formatCount, formatNumber } from '../format';
import type { ChartModel } from '../model';
import { binLabels, curveTable, pts, table, unitDiagonal } from './common';

export function reliabilityCharts(bins: ReliabilityBin[] | undefined, c: Curve | undefined): ChartModel[] {
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
      unitDiagonal('perfect calibration'),
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
