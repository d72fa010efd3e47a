import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCompareModel, compareTable, decidingP, testsTable, TRANSPOSE_ABOVE } from '../../../src/shared/compareModel';
import { compareResults } from './fixtures';

test('comparison table: runs × metrics with best/second/third and stars from the Holm-adjusted p', () => {
  const t = compareTable(compareResults());
  assert.deepEqual(t.columns, ['run', 'accuracy', 'nll']);
  assert.deepEqual(t.rows, [['a (baseline)', 0.7, 0.9], ['b', 0.8, 0.7], ['c', 0.75, null]]);
  assert.deepEqual(t.marks, [[null, 3, 2], [null, 1, 1], [null, 2, null]]);
  // b: p_holm 0.028 → *; c: p_t 0.0004 but p_holm 0.2 → no star.
  assert.deepEqual(t.suffixes, [['', '', ''], ['', '*', ''], ['', '', '']]);
});

test('decidingP prefers p_holm, else p_t', () => {
  const [b] = compareResults().tests;
  assert.equal(decidingP(b!), 0.028);
  const { p_holm: _drop, ...noHolm } = b!;
  assert.equal(decidingP(noHolm), 0.014);
});

test('tests table and paired-difference charts', () => {
  const c = compareResults();
  const t = testsTable(c);
  assert.equal(t.rows.length, 2);
  assert.equal(t.rows[0]![0], 'b');
  assert.ok(Math.abs((t.rows[0]![5] as number) - 0.1) < 1e-12);
  assert.equal(t.rows[0]![6], '[0.0200, 0.1800]');
  const m = buildCompareModel(c);
  assert.deepEqual(m.tabs.map((x) => x.id), ['table', 'tests']);
  const diff = m.tabs[1]!.charts[0]!;
  assert.equal(diff.id, 'diff.accuracy');
  assert.deepEqual(diff.x.categories, ['b', 'c']);
  assert.deepEqual(diff.series[0]!.errorBars, [{ lo: 0.02, hi: 0.18 }, { lo: -0.03, hi: 0.13 }]);
  assert.deepEqual(diff.lines, [{ axis: 'y', value: 0, label: 'no difference', colour: 'foreground' }]);
  assert.deepEqual(m.headline.map((h) => [h.key, h.text, h.note]), [['accuracy', '0.8000', 'best: b'], ['nll', '0.7000', 'best: b']]);
});

test('with many metrics the table turns: metrics as rows, runs as columns, marks and stars follow', () => {
  const c = compareResults();
  const extra = Array.from({ length: TRANSPOSE_ABOVE }, (_, i) => `m${i}`);
  c.metrics = [...c.metrics, ...extra];
  for (const m of extra) c.directions[m] = 'higher';
  const t = compareTable(c);
  assert.equal(t.title, 'Metrics × runs');
  assert.deepEqual(t.columns, ['metric', 'a (baseline)', 'b', 'c']);
  assert.deepEqual(t.rows[0], ['accuracy ↑', 0.7, 0.8, 0.75]);
  assert.deepEqual(t.rows[1], ['nll ↓', 0.9, 0.7, null]);
  assert.deepEqual(t.marks![0], [null, 3, 1, 2]);
  assert.deepEqual(t.suffixes![0], ['', '', '*', '']);
  assert.deepEqual(t.rows[2], ['m0 ↑', null, null, null]);
});
