// A results file may hold any finite number where the schema asks for one: a train count of 1e308
// (found by the results fuzz test) made the log axis of the per-class chart end at Infinity, and
// drawing its decade ticks never ended. The report and its export must stay bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReportModel } from '../../../src/shared/report';
import { reportToHtml } from '../../../src/shared/exportHtml';
import type { Results } from '../../../src/core/results/types';
import { classificationResults } from '../helpers/reportFixtures';

test('a train count of 1e308: finite log-axis bounds, and the export draws a bounded number of ticks', () => {
  const r = classificationResults() as Results;
  r.tables.perClass![1]!.trainCount = 1e308;
  const model = buildReportModel(r);
  const chart = model.tabs.flatMap((t) => t.charts).find((c) => c.id === 'perClassVsTrain');
  assert.ok(chart, 'the per-class vs train chart is built');
  assert.equal(chart.x.type, 'log');
  assert.ok(Number.isFinite(chart.x.max!) && chart.x.max! >= 1e308, `axis max ${chart.x.max}`);
  const html = reportToHtml(model);
  assert.ok(html.length < 5_000_000, `export of ${html.length} characters`);
});
