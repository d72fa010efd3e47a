/**
 * Slices are a service over the one family contract (tasks/slices.ts `familySliceMetrics`): the
 * slice table reports the keys the task's families declare (`sliceKeys`), and each slice's value
 * is those families' own statistic on the task's statistic restricted to the slice's units (that
 * this is the point estimate on a file of the slice's rows, for every task: sliceSubsets.test.ts).
 * So a family with a new scalar gets slice values (and intervals) by naming the key in its
 * `sliceKeys`, with no slice code of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { SliceMetricValue } from '../../../../src/core/results/types';
import { Warnings } from '../../../../src/core/diagnostics';
import { resolveConfig } from '../../../../src/core/config/load';
import { loadIwBinary } from '../../../../src/core/io/loadIwBinary';
import { blocksAtOrAbove, scoreOrder } from '../../../../src/core/metrics/binaryCurve';
import { IW_KEYS, metricVector } from '../../../../src/core/metrics/importance';
import { resolveIwWeights } from '../../../../src/core/tasks/iwBinary';
import { IW_FAMILIES, type IwFamily, type IwRun } from '../../../../src/core/tasks/iwFamilies';
import { computeSlices, familySliceMetrics } from '../../../../src/core/tasks/slices';
import { iwStatistic } from '../../../../src/core/tasks/sliceStatistics';
import {
  familyKeyValues,
  familySliceKeys,
  familyValues,
  type SliceColumn,
  type TaskFamily,
} from '../../../../src/core/tasks/taskFamily';
import { CLASSIFICATION_FAMILIES } from '../../../../src/core/tasks/classificationFamilies';
import type { ClassificationRun } from '../../../../src/core/tasks/classificationRun';
import { closeAbs } from '../../helpers/numericClose';

test('a family with a new scalar gets slice values and intervals with no slice code of its own', async () => {
  const path = join(__dirname, '../../../fixtures/iw/golden_strata_0.csv');
  const config = resolveConfig([{ task: 'iw-binary', populationSize: 100000, biasedSize: 1000, threshold: 0.5 }]);
  const warnings = new Warnings();
  const { data } = await loadIwBinary(path, { invalidRows: 'error', warnings });
  const w = resolveIwWeights(data, config, warnings);
  // The whole file's score order and vectors are the point steps'; a slice's statistic reads the
  // rows, their weights and the threshold.
  const whole = scoreOrder(data.scores);
  const run: IwRun = { data, weights: w.weights, describe: w.describe, threshold: 0.5, so: whole, nAbove: 0 } as IwRun;
  const P = IW_KEYS.indexOf('precision');
  const R = IW_KEYS.indexOf('recall');
  // A test-only family: the mean of weighted precision and recall, read from the task's sums.
  const meanPr: IwFamily = {
    name: 'mean_pr',
    point: () => {},
    resample: (_run, { values }, out) => (out.mean_pr = (values[P]! + values[R]!) / 2),
    sliceKeys: () => [{ key: 'mean_pr', rank: 3 }],
  };
  const metrics = familySliceMetrics([...IW_FAMILIES, meanPr], run, iwStatistic(run));
  assert.deepEqual(metrics.keys, ['precision', 'recall', 'average_precision', 'mean_pr']);
  // Two slices by row parity.
  const codes = Int32Array.from({ length: data.n }, (_, i) => i % 2);
  const column = { name: 'parity', values: ['even', 'odd'], codes };
  const sliced = (m: typeof metrics) =>
    computeSlices(
      [column],
      m,
      data.n,
      { bins: 10, minSize: 1, bootstrap: { n: 60, confidence: 0.9, seed: 4, stratified: false } },
      new Warnings(),
      'golden',
    );
  const table = await sliced(metrics);
  assert.equal(table.length, 2);
  // Sliced alone, the new key is no key of the task's sums: they are all computed for it.
  const alone = await sliced(familySliceMetrics([meanPr], run, iwStatistic(run)));
  assert.deepEqual(
    alone.map((r) => r.mean_pr),
    table.map((r) => r.mean_pr),
  );
  for (const row of table) {
    const rows = Int32Array.from({ length: data.n }, (_, i) => i).filter(
      (i) => (i % 2 === 0) === (row.value === 'even'),
    );
    const pick = <T extends Float64Array | Uint8Array>(a: T): T => a.filter((_, i) => rows.includes(i)) as T;
    const sso = scoreOrder(pick(data.scores));
    const v = metricVector(sso, pick(data.labels), pick(w.weights), blocksAtOrAbove(sso, 0.5));
    const cell = row.mean_pr as SliceMetricValue;
    closeAbs(cell.value, (v[P]! + v[R]!) / 2, 1e-12, `${row.value}: mean_pr`);
    assert.ok(cell.ci && cell.ci[0] <= cell.value! && cell.value! <= cell.ci[1], `${row.value}: an interval around it`);
    assert.ok(row.diff.mean_pr?.ci, `${row.value}: the difference's interval`);
  }
});

test('the slice columns follow the ranks the families declare, not the order the families run in', () => {
  const family = (name: string, columns: SliceColumn[]): IwFamily => ({
    name,
    point: () => {},
    resample: () => {},
    sliceKeys: () => columns,
  });
  const a = family('a', [
    { key: 'a2', rank: 2 },
    { key: 'a0', rank: 0 },
  ]);
  const b = family('b', [
    { key: 'b1', rank: 1 },
    { key: 'b2', rank: 2 },
  ]);
  const run = {} as IwRun;
  // equal ranks in the families' order
  assert.deepEqual(familySliceKeys([a, b], run), ['a0', 'b1', 'a2', 'b2']);
  assert.deepEqual(familySliceKeys([b, a], run), ['a0', 'b1', 'b2', 'a2']);
  // A family without a statistic has no slice values.
  assert.deepEqual(familySliceKeys([{ ...a, resample: undefined }, b], run), ['b1', 'b2']);
  // The classification families run selective before calibration (calibration reads the score
  // order selective sets up), and the columns are accuracy, macro F1, ECE, AURC in any order.
  const ranked = { selective: { ranked: true, calib: {} } } as unknown as ClassificationRun;
  const columns = ['accuracy', 'macro_f1', 'ece', 'aurc'];
  assert.deepEqual(familySliceKeys(CLASSIFICATION_FAMILIES, ranked), columns);
  assert.deepEqual(familySliceKeys([...CLASSIFICATION_FAMILIES].reverse(), ranked), columns);
  assert.deepEqual(familySliceKeys([...IW_FAMILIES].reverse(), run), ['precision', 'recall', 'average_precision']);
});

test('the slices read their keys through one reused record, with the values of a new record per resample', () => {
  // A family that writes its second key on every other resample only, and null for an undefined
  // value: each call must read as if the record were new (a key left out or null is NaN).
  type Sums = { b: number };
  const every: TaskFamily<never, Sums, null> = {
    name: 'every',
    point: () => {},
    resample: (_r, { b }, out) => (out.x = b),
  };
  const some: TaskFamily<never, Sums, null> = {
    name: 'some',
    point: () => {},
    resample: (_r, { b }, out) => {
      if (b % 2 === 0) out.y = b / 2;
      out.z = b % 3 === 0 ? null : b;
    },
  };
  const families = [every, some];
  const keys = ['z', 'x', 'y', 'none'];
  const read = familyKeyValues(families, keys);
  const out = new Float64Array(keys.length);
  for (let b = 0; b < 7; b++) {
    read(null, { b }, out);
    const v = familyValues(families, null, { b });
    assert.deepEqual(
      [...out],
      keys.map((k) => v[k] ?? NaN),
      `resample ${b}`,
    );
  }
  assert.deepEqual([...out], [NaN, 6, 3, NaN]);
});
