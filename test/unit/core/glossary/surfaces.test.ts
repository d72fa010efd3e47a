// The glossary reaches the report model: cards carry the metric's name and hover text, comparison
// tables show names with the keys kept for hover and copies, paired-test rows name the metric.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReportModel } from '../../../../src/shared/report';
import { card } from '../../../../src/shared/report/common';
import { buildCompareModel, compareTable, testsTable, TRANSPOSE_ABOVE } from '../../../../src/shared/compareModel';
import { tableToCsv } from '../../../../src/shared/tableText';
import { explainKey } from '../../../../src/core/glossary';
import { classificationResults, compareResults } from '../../helpers/reportFixtures';

test('card(): the glossary name and hover text beside the key; unknown keys keep the key', () => {
  const c = card('aurc_grid101_0.2_1', { value: 0.08, direction: 'lower' }, 'selective');
  assert.equal(c.key, 'aurc_grid101_0.2_1');
  assert.equal(c.name, 'AURC, 101-point grid, coverage 0.2–1');
  assert.match(c.explain!, /^Mean overall error over coverages from 0\.2 to 1 on the 101-point grid/);
  assert.match(c.explain!, /Geifman & El-Yaniv 2017; Geifman et al\. 2019$/);
  const u = card('my_metric', { value: 1, direction: 'higher' }, 'other');
  assert.equal(u.name, 'my_metric');
  assert.equal(u.explain, undefined);
});

test('report model: every headline and tab card of a results file has a name other than its key', () => {
  const m = buildReportModel(classificationResults());
  const cards = [...m.headline, ...m.tabs.flatMap((t) => t.cards)];
  assert.ok(cards.length > 3);
  for (const c of cards) {
    if (!explainKey(c.key)) assert.equal(c.name, c.key, 'a key the glossary does not know is its own name');
    else assert.ok(c.name && c.name !== c.key && c.explain, `${c.key}: ${c.name}`);
  }
});

test('comparison table: names shown (columns or rows), keys kept in the data and in the CSV copy', () => {
  const c = compareResults();
  const t = compareTable(c);
  assert.deepEqual(t.columns, ['run', 'accuracy', 'nll']);
  assert.deepEqual(t.columnNames, [null, 'Accuracy', 'Negative log-likelihood']);
  assert.ok(tableToCsv(t).startsWith('run,accuracy,nll'), 'copies carry the keys');
  const extra = Array.from({ length: TRANSPOSE_ABOVE }, (_, i) => `m${i}`);
  c.metrics = [...c.metrics, ...extra];
  for (const m of extra) c.directions[m] = 'higher';
  const turned = compareTable(c);
  assert.deepEqual(turned.rowNames!.slice(0, 3), ['Accuracy ↑', 'Negative log-likelihood ↓', 'm0 ↑']);
  assert.equal(turned.rows[0]![0], 'accuracy ↑');
  assert.equal(testsTable(compareResults()).rows[0]![1], 'Accuracy');
  const model = buildCompareModel(compareResults());
  assert.ok(model.headline.every((h) => h.name && h.name !== h.key));
});
