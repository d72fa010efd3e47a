import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReportModel } from '../../../../src/shared/report';
import {
  importanceWeightsTable,
  rankingSummaryTable,
  thresholdCountsTable,
} from '../../../../src/shared/report/summaryTables';
import { rankingResults } from '../../helpers/reportFixtures';
import { rankingSummary } from '../../helpers/sampleResults';
import { tableToMarkdown } from '../../../../src/shared/tableText';

test('importance weights per stratum: rows, population counts, weight of a row, share of the weighted total', () => {
  // |U| = 342, |B| = 87 drawn whole (b = 87), m = 100 rows of Bc standing for 255 items:
  // w_B = (87/87)/342, w_Bc = (255/100)/342; shares 87·w_B and 100·w_Bc (sum 1).
  const wB = 87 / 87 / 342;
  const wBc = 255 / 100 / 342;
  const t = importanceWeightsTable([
    { stratum: 'B', rows: 87, populationCount: 87, weight: wB, totalWeight: 87 * wB },
    { stratum: 'Bc', rows: 100, populationCount: 255, weight: wBc, totalWeight: 100 * wBc },
  ])!;
  assert.equal(t.title, 'Importance weights per stratum');
  assert.deepEqual(t.columns, [
    'stratum',
    'rows in the file',
    'population count',
    'weight of a row',
    'share of the weighted total',
  ]);
  const total = 87 * wB + 100 * wBc;
  assert.deepEqual(t.rows, [
    ['B', 87, 87, wB, (87 * wB) / total],
    ['Bc', 100, 255, wBc, (100 * wBc) / total],
  ]);
  assert.ok(Math.abs((t.rows[0]![4] as number) - 87 / 342) < 1e-15);
});

test('importance weights from a column: its sum and range; a malformed value is left to the generic table', () => {
  const t = importanceWeightsTable({ source: 'column', column: 'w', rows: 4, sum: 2.5, min: 0.25, max: 1 })!;
  assert.equal(t.title, 'Importance weights from the column "w"');
  assert.deepEqual(t.rows, [[4, 2.5, 0.25, 1]]);
  assert.equal(importanceWeightsTable([{ stratum: 'B', rows: '87' }]), undefined);
  assert.equal(importanceWeightsTable({ source: 'column', column: 'w' }), undefined);
  assert.equal(importanceWeightsTable(null), undefined);
});

test('counts at the threshold: one row per confusion cell, weighted beside unweighted', () => {
  const weighted = { tp: 0.375, fp: 0.125, fn: 0.25, tn: 0.25 };
  const unweighted = { tp: 96, fp: 1, fn: 4, tn: 86 };
  const t = thresholdCountsTable({ threshold: 0.5, weighted, unweighted })!;
  assert.equal(t.title, 'Counts at the threshold: score ≥ 0.5');
  assert.deepEqual(t.rows, [
    ['true positives (TP)', 0.375, 96],
    ['false positives (FP)', 0.125, 1],
    ['false negatives (FN)', 0.25, 4],
    ['true negatives (TN)', 0.25, 86],
  ]);
  assert.match(t.note!, /sum to 1/);
  // Weights from a column need not sum to 1: the note does not claim it.
  const col = thresholdCountsTable({ threshold: 0.5, weighted: { tp: 3, fp: 1, fn: 0, tn: 2 }, unweighted })!;
  assert.doesNotMatch(col.note!, /sum to 1/);
  assert.equal(thresholdCountsTable({ threshold: 0.5, weighted, unweighted: { tp: 1 } }), undefined);
  // Integers of the unweighted column print as counts, not as 96.0000.
  assert.match(tableToMarkdown(t), /\| true positives \(TP\) \| 0\.3750 \| 96 \|/);
});

test('ranking summary: named rows in reading order; an unknown key stays under its own name; nested values are refused', () => {
  const t = rankingSummaryTable({
    users: 10,
    listsInRun: 9,
    longestList: 20,
    usersEvaluated: 8,
    usersSkipped: 1,
    items: 50,
    catalog: 'train ∪ relevant items (50 items)',
    relevance: 'binary',
    gain: 'linear',
    mapNormaliser: 'min',
    trainInteractions: null,
    somethingNew: 3,
  })!;
  assert.equal(t.title, 'Run summary');
  assert.deepEqual(
    t.rows.map((r) => r[0]),
    [
      'users evaluated',
      'users of the run skipped (no relevant item)',
      'lists in the run',
      'longest list',
      'distinct users in the inputs',
      'distinct items in the inputs',
      'catalogue',
      'train interactions',
      'relevance',
      'gain of a graded relevance',
      'MAP normaliser',
      'somethingNew',
    ],
  );
  assert.deepEqual(t.rows[0], ['users evaluated', 8]);
  assert.deepEqual(t.rows[7], ['train interactions', null]);
  // With itemPopularity: the source, named, after the train interactions.
  const pop = rankingSummaryTable({
    trainInteractions: 8,
    popularitySource: 'column "units" of the item table items.csv',
  })!;
  assert.deepEqual(pop.rows, [
    ['train interactions', 8],
    [
      'item popularity of novelty and the popularity baseline (itemPopularity)',
      'column "units" of the item table items.csv',
    ],
  ]);
  assert.equal(rankingSummaryTable({ users: { n: 1 } }), undefined);
  assert.equal(rankingSummaryTable([]), undefined);
});

test('the report shows the named tables; a malformed one still appears, generically', () => {
  const r = rankingResults();
  r.tables.rankingSummary = rankingSummary({ usersEvaluated: 3, longestList: 12 });
  const titles = (res: typeof r) =>
    buildReportModel(res)
      .tabs.flatMap((t) => t.tables)
      .map((t) => t.title);
  assert.ok(titles(r).includes('Run summary'));
  // A malformed table, as a file that was not checked against the schema could hold.
  Object.assign(r.tables, { rankingSummary: { usersEvaluated: { nested: true } } });
  assert.ok(titles(r).includes('rankingSummary'));
});

test('the run summary as the evaluation writes it (with its sample of users) is the Run summary table', () => {
  const t = rankingSummaryTable(rankingSummary({ sampleUsers: ['u1', 'u2'] }))!;
  assert.equal(t.title, 'Run summary');
  assert.ok(!t.rows.some((r) => r[0] === 'sampleUsers'));
  assert.deepEqual(t.rows[0], ['users evaluated', 900]);
});
