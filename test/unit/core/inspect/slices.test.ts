/**
 * `tables.slices` against a hand-computed group-by: n, accuracy and macro-F1 by the textbook
 * formulas per slice value; ECE and AURC equal to evaluating a file holding only the slice's rows;
 * differences to the whole file; quantile bins by their documented edges; values beyond the 50
 * most frequent grouped as "other"; small slices left out with a warning; worst slices first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { sliceCandidates, sliceValues, type SliceMetricValue, type SliceRow } from '../../../../src/core/inspect/index';
import { validateResults } from '../../../../src/core/results/validate';
import { CLASSES, derive, HEADER, TRAIN, GROUPS, writeRandomFile, type RefRow } from '../../helpers/randomFile';
import { closeAbs } from '../../helpers/numericClose';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { bootstrapDistribution } from '../../helpers/bootstrapReference';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-slices-'));

function accuracy(rows: RefRow[]): number {
  return rows.filter((r) => derive(r).correct).length / rows.length;
}

/** Macro-F1 over the union of true and predicted labels (scikit-learn's `f1_score(average="macro")`). */
function macroF1(rows: RefRow[]): number {
  const labels = CLASSES.filter((c) => rows.some((r) => r.label === c || derive(r).pred === c));
  const f1 = labels.map((c) => {
    const tp = rows.filter((r) => r.label === c && derive(r).pred === c).length;
    const fp = rows.filter((r) => r.label !== c && derive(r).pred === c).length;
    const fn = rows.filter((r) => r.label === c && derive(r).pred !== c).length;
    return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  });
  return f1.reduce((s, x) => s + x, 0) / f1.length;
}

const metric = (r: SliceRow, k: string) => r[k] as SliceMetricValue;
const close = (a: number | null, b: number | null, what: string): void => {
  assert.ok(b !== null, `${what}: the reference is null`);
  closeAbs(a, b, 1e-12, what);
};

test('slices by a categorical and a numeric column equal the hand-computed group-by', async () => {
  const { path, rows: all } = writeRandomFile(dir, 21, 800);
  // The file has a split column: every metric and every slice covers its test rows, so a slice's
  // diff is slice − headline on the same rows.
  const rows = all.filter((r) => r.split === 'test');
  const config = join(dir, 'slices.json');
  writeFileSync(
    config,
    JSON.stringify({
      trainCounts: TRAIN,
      groups: GROUPS,
      acceptThreshold: 0.5,
      slices: ['city', 'age'],
      minSliceSize: 20,
      bootstrap: { n: 0 },
    }),
  );
  const res = await evaluateFile(path, { configPath: config });
  assert.deepEqual(validateResults(res), []);
  const table = res.tables.slices!;
  const whole = {
    accuracy: res.metrics.accuracy.value,
    macro_f1: res.metrics.macro_f1.value,
    ece: res.metrics.ece.value,
    aurc: res.metrics.aurc.value,
  };

  // city: by value
  const cities = [...new Set(rows.map((r) => r.city))];
  for (const city of cities) {
    const sub = rows.filter((r) => r.city === city);
    const row = table.find((t) => t.slice === 'city' && t.value === city);
    assert.ok(row, city);
    assert.equal(row.n, sub.length);
    assert.deepEqual(row.where, [{ key: 'city', op: '=', value: city }]);
    close(metric(row, 'accuracy').value, accuracy(sub), `accuracy of ${city}`);
    close(metric(row, 'macro_f1').value, macroF1(sub), `macro_f1 of ${city}`);
    close(row.diff.accuracy.value, accuracy(sub) - whole.accuracy!, `diff accuracy of ${city}`);
    // ECE and AURC: as the evaluation computes them for a file holding only the slice's rows
    const only = join(dir, `city-${cities.indexOf(city)}.csv`);
    writeFileSync(only, [HEADER, ...sub.map((r) => r.text)].join('\n') + '\n');
    const o = await evaluateFile(only, { configPath: config, overrides: { slices: ['city'] } });
    for (const k of ['ece', 'aurc'] as const) {
      close(metric(row, k).value, o.metrics[k].value, `${k} of ${city}`);
      close(row.diff[k].value, o.metrics[k].value! - whole[k]!, `diff ${k} of ${city}`);
    }
  }

  // age: 4 quantile bins with edges x_(floor(k·N/4)) of the sorted ages
  const ages = rows.map((r) => Number(r.age)).sort((a, b) => a - b);
  const edges = [...new Set([0, 1, 2, 3].map((k) => ages[Math.floor((k * ages.length) / 4)]))];
  const max = ages[ages.length - 1];
  edges.forEach((lo, j) => {
    const hi = edges[j + 1];
    const label = hi === undefined ? `[${lo}, ${max}]` : `[${lo}, ${hi})`;
    const sub = rows.filter((r) => Number(r.age) >= lo && (hi === undefined || Number(r.age) < hi));
    const row = table.find((t) => t.slice === 'age' && t.value === label);
    assert.ok(row, label);
    assert.equal(row.n, sub.length, label);
    assert.deepEqual(row.where, [
      { key: 'age', op: '>=', value: String(lo) },
      ...(hi === undefined ? [] : [{ key: 'age', op: '<', value: String(hi) }]),
    ]);
    close(metric(row, 'accuracy').value, accuracy(sub), `accuracy of age ${label}`);
    close(metric(row, 'macro_f1').value, macroF1(sub), `macro_f1 of age ${label}`);
  });
  assert.equal(table.length, cities.length + edges.length);
  // worst first by accuracy
  for (let i = 1; i < table.length; i++)
    assert.ok(metric(table[i - 1], 'accuracy').value! <= metric(table[i], 'accuracy').value!);
});

test('intervals: every slice metric and difference has a bootstrap interval around its value', async () => {
  const { path } = writeRandomFile(dir, 22, 400);
  const res = await evaluateFile(path, {
    configPath: join(dir, 'random-22.json'),
    overrides: { slices: ['city'], minSliceSize: 10, bootstrap: { n: 200, seed: 1 } },
  });
  const table = res.tables.slices!;
  assert.ok(table.length >= 4);
  for (const row of table) {
    for (const k of ['accuracy', 'macro_f1', 'ece', 'aurc']) {
      const m = metric(row, k);
      const d = row.diff[k];
      assert.ok(m.ci && m.ci[0] <= m.ci[1], `${row.value} ${k}`);
      assert.ok(d.ci && d.ci[0] <= d.ci[1], `${row.value} diff ${k}`);
      assert.ok(
        m.ci[0] <= m.value! + 0.15 && m.ci[1] >= m.value! - 0.15,
        `${row.value} ${k}: ${m.value} in about ${m.ci}`,
      );
    }
  }
  // Same seed, same intervals.
  const again = await evaluateFile(path, {
    configPath: join(dir, 'random-22.json'),
    overrides: { slices: ['city'], minSliceSize: 10, bootstrap: { n: 200, seed: 1 } },
  });
  assert.deepEqual(again.tables.slices, res.tables.slices);
});

test('small slices are left out with one warning; values beyond the 50 most frequent are "other"', async () => {
  const lines = ['id,label,pred,tag'];
  // tag t0…t59: t0 has 100 rows, t1…t59 two rows each → 50 kept (t0, then t1…t49 by value:
  // t1, t10…t19, t2, …), the other ten grouped as "other" (20 rows)
  let k = 0;
  const add = (tag: string, correct: boolean) => lines.push(`r${k++},a,${correct ? 'a' : 'b'},${tag}`);
  for (let i = 0; i < 100; i++) add('t0', i % 4 !== 0);
  for (let t = 1; t < 60; t++) {
    add(`t${t}`, true);
    add(`t${t}`, t % 2 === 0);
  }
  const path = join(dir, 'tags.csv');
  writeFileSync(path, lines.join('\n') + '\n');
  const res = await evaluateFile(path, { overrides: { slices: ['tag'], minSliceSize: 5, bootstrap: { n: 0 } } });
  const table = res.tables.slices!;
  assert.deepEqual(
    table.map((r) => [r.value, r.n]),
    [
      ['t0', 100],
      ['other', 20],
    ],
  );
  const other = table.find((r) => r.value === 'other')!;
  // t50…t59: odd t has one mistake of two
  close(metric(other, 'accuracy').value, 15 / 20, 'accuracy of other');
  assert.equal(other.where.length, 50);
  assert.ok(other.where.every((w) => w.op === '!='));
  const warn = res.warnings.find((w) => w.code === 'small-slices');
  assert.ok(warn, 'warning');
  assert.equal(warn.count, 49);
  // sliceValues directly: the 50 kept values are the most frequent, ties by value
  assert.deepEqual(
    sliceValues({ name: 'x', values: ['b', 'a', 'c'], codes: Int32Array.from([0, 1, 1, 2]) }, 4).labels,
    ['a', 'b', 'c'],
  );
  assert.deepEqual(sliceValues({ name: 'x', values: ['b', 'a'], codes: Int32Array.from([0, 0, 0, 1]) }, 4).labels, [
    'b',
    'a',
  ]);
});

test('sliceCandidates: columns without a role with at most 50 distinct values', async () => {
  const { path } = writeRandomFile(dir, 23, 200);
  const { openInspection } = await import('../../../../src/core/inspect/index');
  const ins = await openInspection(path, { configPath: join(dir, 'random-23.json') });
  // city (5 values) and note (empty, n0…n2, a two-line text); age has 60 values; split has a role
  assert.deepEqual(
    ins.sliceCandidates.map((c) => c.column),
    ['city', 'note'],
  );
  assert.equal(ins.sliceCandidates.find((c) => c.column === 'city')?.distinct, 5);
  assert.deepEqual(
    sliceCandidates([
      { name: 'a', values: ['x'], codes: new Int32Array(1) },
      { name: 'b', values: Array.from({ length: 51 }, (_, i) => String(i)), codes: new Int32Array(51) },
    ]),
    [{ column: 'a', distinct: 1 }],
  );
});

test('slice intervals are the percentile intervals of the sequential-stream resamples, value and difference alike', async () => {
  // A file of its own (no split column): every row is a unit of the bootstrap, in file order.
  const cities = ['Oslo', 'Lima', 'Pune'];
  const lines = ['id,label,pred,prob_a,prob_b,city'];
  const correct: number[] = [];
  const city: number[] = [];
  for (let i = 0; i < 240; i++) {
    const label = (i * 7) % 3 === 0 ? 'a' : 'b';
    const right = (i * 13) % 5 !== 0 && (i % 3 !== 1 || i % 4 === 0);
    const pred = right ? label : label === 'a' ? 'b' : 'a';
    const pa = pred === 'a' ? 0.8 : 0.2;
    lines.push(`r${i},${label},${pred},${pa},${1 - pa},${cities[i % 3]}`);
    correct.push(right ? 1 : 0);
    city.push(i % 3);
  }
  const path = join(dir, 'stream-slices.csv');
  writeFileSync(path, lines.join('\n') + '\n');
  writeFileSync(join(dir, 'stream-slices.json'), JSON.stringify({ task: 'classification', classes: ['a', 'b'] }));
  const B = 150;
  const res = await evaluateFile(path, {
    configPath: join(dir, 'stream-slices.json'),
    overrides: { slices: ['city'], minSliceSize: 10, bootstrap: { n: B, seed: 5, confidence: 0.9 } },
  });
  // Reference: the resamples of the sequential stream (seed 5) over the 240 rows; per resample each
  // city's accuracy Σ c·correct / Σ c over its rows, and its difference to the whole file's.
  const dist = bootstrapDistribution(
    correct.length,
    (c) => {
      const hit = [0, 0, 0, 0];
      const all = [0, 0, 0, 0];
      for (let i = 0; i < c.length; i++) {
        hit[city[i]] += c[i] * correct[i];
        all[city[i]] += c[i];
        hit[3] += c[i] * correct[i];
        all[3] += c[i];
      }
      const acc = hit.map((h, k) => h / all[k]);
      return [...acc.slice(0, 3), ...acc.slice(0, 3).map((a) => a - acc[3])];
    },
    { n: B, confidence: 0.9, seed: 5 },
  );
  for (const row of res.tables.slices!) {
    const k = cities.indexOf(row.value);
    const ci = percentileInterval(dist[k], 0.9)!;
    const dci = percentileInterval(dist[3 + k], 0.9)!;
    closeAbs(metric(row, 'accuracy').ci![0], ci[0], 1e-12, `${row.value} accuracy lower`);
    closeAbs(metric(row, 'accuracy').ci![1], ci[1], 1e-12, `${row.value} accuracy upper`);
    closeAbs(row.diff.accuracy.ci![0], dci[0], 1e-12, `${row.value} difference lower`);
    closeAbs(row.diff.accuracy.ci![1], dci[1], 1e-12, `${row.value} difference upper`);
  }
  assert.equal(res.tables.slices!.length, 3);
});
