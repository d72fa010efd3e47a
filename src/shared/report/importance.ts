/** Importance-weighted charts: precision–recall and ROC curves, weighted beside unweighted. */
import type { Curve } from '../../core/results/types';
import type { CellValue, ChartModel, Series } from '../model';
import { pts, table, unitDiagonal } from './common';

export function pairedCurveChart(
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
  if (diagonal) series.push(unitDiagonal('chance'));
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
