import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FileSliceFinderResult } from '../../../src/core/inspect/sliceFinderFiles';
import { foundSlicesView } from '../../../src/shared/foundSlicesView';

const ONE_RUN: FileSliceFinderResult = {
  runs: ['digits/logreg.csv'],
  mode: 'one-run',
  n: 300,
  whole: { accuracy: 0.5 },
  minSupport: 30,
  bins: 4,
  alpha: 0.05,
  confidence: 0.95,
  columns: ['label', 'confidence'],
  test: 'fisher-exact',
  interval: 'wilson+newcombe',
  tried: 14,
  flagged: 3,
  subsumed: 1,
  slices: [
    {
      slice: 'label = 8',
      where: [{ key: 'label', op: '=', value: '8' }],
      whereText: 'label = 8',
      n: 30,
      accuracy: 0.1,
      ci: [0.0346, 0.2562],
      delta: -0.4,
      deltaCi: [-0.47, -0.26],
      p: 0.00001,
      q: 0.00014,
    },
    {
      slice: 'label = 1 and confidence in [0.2, 0.5)',
      where: [
        { key: 'label', op: '=', value: '1' },
        { key: 'confidence', op: '>=', value: '0.2' },
        { key: 'confidence', op: '<', value: '0.5' },
      ],
      whereText: 'label = 1 and confidence >= 0.2 and confidence < 0.5',
      n: 1234,
      accuracy: 0.45,
      ci: [0.42, 0.48],
      delta: -0.05,
      deltaCi: [-0.08, -0.02],
      p: 0.0123,
      q: 0.04,
    },
  ],
};

test('found slices view, one run: cells, significance, the note names the method and the slices tried', () => {
  const v = foundSlicesView(ONE_RUN);
  assert.deepEqual(v.columns, ['slice', 'rows', 'accuracy [95%]', 'whole file', 'Δ vs whole [95%]', 'p', 'q (BH)', '']);
  assert.equal(v.lines.length, 2);
  assert.equal(v.lines[0]!.name, 'label = 8');
  assert.deepEqual(v.lines[0]!.where, [{ key: 'label', op: '=', value: '8' }]);
  assert.deepEqual(v.lines[0]!.cells, [
    '30',
    '0.1000 [0.0346, 0.2562]',
    '0.5000',
    '−0.4000 [−0.4700, −0.2600]',
    '1.0e-5',
    '0.0001',
    'significant at q ≤ 0.05',
  ]);
  assert.equal(v.lines[0]!.significant, true);
  assert.deepEqual(v.lines[1]!.cells.slice(0, 1), ['1,234']);
  assert.equal(v.lines[1]!.cells[5], '0.0400');
  assert.equal(v.empty, undefined);
  assert.equal(
    v.note,
    'Slice Finder (Chung et al., ICDE 2019): 14 slices tried — single values, quantile bins and pairs of label, confidence ' +
      'with at least 30 rows; 3 flagged at q ≤ 0.05 (Benjamini–Hochberg over the slices tried); 1 of them refine a ' +
      "flagged slice and are not listed. Whole: accuracy 0.5000 over 300 rows. p: Fisher's exact test of the slice against the " +
      'rest; 95% Wilson interval of the accuracy, Newcombe interval of Δ.',
  );
});

test('found slices view, two runs: A and B on the slice, lost and gained, McNemar and Agresti–Min', () => {
  const v = foundSlicesView({
    ...ONE_RUN,
    runs: ['a.csv', 'b.csv'],
    mode: 'two-runs',
    whole: { accuracyA: 0.8, accuracyB: 0.75, delta: -0.05 },
    test: 'mcnemar-exact',
    interval: 'agresti-min',
    slices: [
      {
        slice: 'split = test',
        where: [{ key: 'split', op: '=', value: 'test' }],
        whereText: 'split = test',
        n: 100,
        accuracyA: 0.9,
        accuracyB: 0.7,
        lost: 25,
        gained: 5,
        delta: -0.2,
        deltaCi: [-0.3, -0.1],
        p: 0.0003,
        q: 0.004,
      },
    ],
  });
  assert.equal(v.columns[6], 'Δ B − A [95%]');
  assert.deepEqual(v.lines[0]!.cells, [
    '100',
    '0.9000',
    '0.7000',
    '25',
    '5',
    '−0.2000 [−0.3000, −0.1000]',
    '0.0003',
    '0.0040',
    'significant at q ≤ 0.05',
  ]);
  assert.match(v.note, /Whole: accuracy 0\.7500 \(B\) vs 0\.8000 \(A\), Δ = −0\.0500 over 300 paired rows\./);
  assert.match(v.note, /McNemar's exact test of the rows lost and gained; 95% Agresti–Min interval of Δ\.$/);
});

test('found slices view: nothing flagged says so instead of an empty table', () => {
  const v = foundSlicesView({ ...ONE_RUN, flagged: 0, subsumed: 0, slices: [] });
  assert.equal(v.lines.length, 0);
  assert.equal(v.empty, 'No slice is significantly below the whole file.');
  assert.match(v.note, /^Slice Finder \(Chung et al\., ICDE 2019\): 14 slices tried/);
});
