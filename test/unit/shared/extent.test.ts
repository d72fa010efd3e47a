import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extent } from '../../../src/shared/extent';
import { chartToSvg } from '../../../src/shared/svgChart';
import type { ChartModel } from '../../../src/shared/model';

test('extent: the smallest and largest value; empty gives [Infinity, −Infinity]', () => {
  assert.deepEqual(extent([3, -1, 2, 0.5]), [-1, 3]);
  assert.deepEqual(extent([7]), [7, 7]);
  assert.deepEqual(extent([]), [Infinity, -Infinity]);
  assert.deepEqual(extent([-Infinity, 1, Infinity]), [-Infinity, Infinity]);
});

test('a chart of 300,000 points renders: its axes take the range without spreading the values into Math.min', () => {
  const n = 300_000;
  const chart: ChartModel = {
    id: 'big',
    title: 'A long curve',
    description: 'risk against coverage',
    x: { label: 'coverage', type: 'linear' },
    y: { label: 'risk', type: 'linear' },
    table: { id: 'big.table', title: 'A long curve', columns: ['coverage', 'risk'], kinds: ['num', 'num'], rows: [] },
    series: [
      {
        label: 'model',
        colour: 'blue',
        style: 'line',
        points: Array.from({ length: n }, (_, i) => ({ x: i / (n - 1), y: 2 + Math.sin(i) })),
      },
    ],
  };
  assert.throws(() => Math.min(...chart.series[0]!.points.map((p) => p.y!)), RangeError);
  const svg = chartToSvg(chart);
  assert.match(svg, /^<svg/);
  // y = 2 + sin(i) spans [1, 3]: the axis is ticked from 1 to 3
  assert.match(svg, /text-anchor="end">1<\/text>/);
  assert.match(svg, /text-anchor="end">3<\/text>/);
});
