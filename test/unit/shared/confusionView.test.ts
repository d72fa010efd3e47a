import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  confusionCellText,
  legendTicks,
  normaliseConfusion,
  scaleMax,
  shade,
  widestCellText,
} from '../../../src/shared/confusionView';
import { chartFileName } from '../../../src/shared/outputName';
import { confusionChart } from '../../../src/shared/report/classification';

const M = [
  [50, 3, 0],
  [10, 30, 10],
  [0, 0, 0],
];

test('row normalisation (normalize="true"): each row divided by its sum; rows sum to 1; an empty row is undefined', () => {
  const r = normaliseConfusion(M, 'true');
  assert.deepEqual(r[0], [50 / 53, 3 / 53, 0]);
  assert.deepEqual(r[1], [10 / 50, 30 / 50, 10 / 50]);
  assert.deepEqual(r[2], [null, null, null]);
  for (const row of r.slice(0, 2)) assert.ok(Math.abs(row.reduce<number>((a, b) => a + (b ?? 0), 0) - 1) < 1e-12);
});

test('column normalisation (normalize="pred"): each column divided by its sum; columns sum to 1', () => {
  const c = normaliseConfusion(M, 'pred');
  assert.deepEqual(
    c.map((r) => r[0]),
    [50 / 60, 10 / 60, 0],
  );
  assert.deepEqual(
    c.map((r) => r[1]),
    [3 / 33, 30 / 33, 0],
  );
  assert.deepEqual(
    c.map((r) => r[2]),
    [0, 1, 0],
  );
  for (let j = 0; j < 3; j++) assert.ok(Math.abs(c.reduce((a, r) => a + (r[j] ?? 0), 0) - 1) < 1e-12);
  assert.deepEqual(normaliseConfusion(M, 'counts'), M);
});

test('normalisation on random matrices: the slow definition, row and column sums', () => {
  let seed = 7;
  const rnd = (n: number): number => (seed = (seed * 16807) % 2147483647) % n;
  for (let t = 0; t < 50; t++) {
    const k = 1 + rnd(12);
    const m = Array.from({ length: k }, () => Array.from({ length: k }, () => (rnd(4) === 0 ? 0 : rnd(100000))));
    const r = normaliseConfusion(m, 'true');
    const c = normaliseConfusion(m, 'pred');
    for (let i = 0; i < k; i++) {
      let rowSum = 0;
      for (let j = 0; j < k; j++) rowSum += m[i]![j]!;
      for (let j = 0; j < k; j++) {
        let colSum = 0;
        for (let q = 0; q < k; q++) colSum += m[q]![j]!;
        assert.equal(r[i]![j], rowSum > 0 ? m[i]![j]! / rowSum : null);
        assert.equal(c[i]![j], colSum > 0 ? m[i]![j]! / colSum : null);
      }
      if (rowSum > 0) assert.ok(Math.abs(r[i]!.reduce<number>((a, b) => a + b!, 0) - 1) < 1e-12);
    }
  }
});

test('a sub-matrix divides by the totals of the whole matrix', () => {
  const sub = [
    [5, 1],
    [2, 8],
  ];
  const r = normaliseConfusion(sub, 'true', [10, 20], [7, 40]);
  assert.deepEqual(r, [
    [0.5, 0.1],
    [0.1, 0.4],
  ]);
  const c = normaliseConfusion(sub, 'pred', [10, 20], [7, 40]);
  assert.deepEqual(c, [
    [5 / 7, 1 / 40],
    [2 / 7, 8 / 40],
  ]);
});

test('cell texts, scale and legend', () => {
  assert.equal(confusionCellText(12345, 'counts'), '12,345');
  assert.equal(confusionCellText(0.9512, 'true'), '0.95');
  assert.equal(confusionCellText(null, 'pred'), '—');
  assert.equal(scaleMax(M, 'counts'), 50);
  assert.equal(scaleMax([[0]], 'counts'), 1);
  assert.equal(scaleMax(normaliseConfusion(M, 'true'), 'true'), 1);
  assert.equal(shade(25, 50), 0.5);
  assert.equal(shade(null, 50), 0);
  assert.deepEqual(
    legendTicks(50, 'counts').map((t) => [t.at, t.text]),
    [
      [0, '0'],
      [0.5, '25'],
      [1, '50'],
    ],
  );
  assert.deepEqual(
    legendTicks(1, 'true').map((t) => t.text),
    ['0.00', '0.50', '1.00'],
  );
  assert.equal(widestCellText([[12345, 3]], 'counts'), '12,345'.length);
});

test('confusionChart carries the class totals of the whole matrix and the top confusions with shares', () => {
  const labels = Array.from({ length: 30 }, (_, i) => `c${i}`);
  const matrix: number[][] = labels.map((_, i) => labels.map((__, j) => (i === j ? 100 : 0)));
  matrix[3]![7] = 25; // c3 → c7: 25 of 125
  matrix[9]![1] = 5;
  const ch = confusionChart({ labels, matrix });
  const h = ch.heatmap!;
  assert.equal(h.classes, 30);
  assert.deepEqual(h.rows, ['c1', 'c3', 'c7', 'c9']);
  assert.deepEqual(h.rowTotals, [100, 125, 100, 105]);
  assert.deepEqual(h.colTotals, [105, 100, 125, 100]);
  assert.deepEqual(h.top, [
    { true: 'c3', pred: 'c7', count: 25, share: 25 / 125 },
    { true: 'c9', pred: 'c1', count: 5, share: 5 / 105 },
  ]);
  // Row shares of the shown sub-matrix use the whole row: c3's diagonal is 100/125.
  assert.equal(normaliseConfusion(h.values, 'true', h.rowTotals, h.colTotals)[1]![1], 100 / 125);
});

test('chartFileName: after the report and the chart title', () => {
  assert.equal(chartFileName('logreg.csv', 'Risk–coverage'), 'logreg-risk-coverage.png');
  assert.equal(chartFileName('logreg.eval.json', 'Confusion matrix'), 'logreg-confusion-matrix.png');
  assert.equal(
    chartFileName('Comparison of 2 runs', 'Accuracy vs shift δ'),
    'comparison-of-2-runs-accuracy-vs-shift.png',
  );
  assert.equal(chartFileName('', ''), 'report-chart.png');
});
