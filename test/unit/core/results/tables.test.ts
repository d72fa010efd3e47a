/**
 * The map from a table's name to its type (ResultTables) is the one the schema knows, a typed
 * accessor hands the tables out, a table that breaks its shape is stopped by the schema before
 * any reader sees it, and the lint keeps readers from casting a table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import resultsSchema from '../../../../schemas/eval-lens.results.schema.json';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { isTableName, otherTables, TABLE_NAMES, tableOf } from '../../../../src/core/results/tables';
import { parseEvalLensJson } from '../../../../src/core/compare/evalLensFile';
import { checkResults, validateResults } from '../../../../src/core/results/validate';
import { iwBinaryResults, rankingResults, rankingSummary, selectiveResults } from '../../helpers/sampleResults';
import { restrictedLines } from '../../helpers/restrictedSyntax';

test('every table of the typed map is a table the schema knows, and the reverse', () => {
  const schemaTables = Object.keys(
    (resultsSchema as unknown as { properties: { tables: { properties: Record<string, unknown> } } }).properties.tables
      .properties,
  );
  assert.deepEqual([...TABLE_NAMES].sort(), [...schemaTables].sort());
  assert.equal(TABLE_NAMES.length, 15);
  assert.ok(isTableName('perClass') && isTableName('rankingSummary') && isTableName('slices'));
  assert.ok(!isTableName('somethingNew') && !isTableName('toString') && !isTableName('__proto__'));
});

test('tableOf hands out the table by name; tables of a later version are only read as unknown', () => {
  const r = rankingResults();
  r.tables.rankingSummary = rankingSummary({ longestList: 12 });
  // Typed: `longestList` is a number | undefined without a cast.
  const longest: number | undefined = tableOf(r, 'rankingSummary')?.longestList;
  assert.equal(longest, 12);
  assert.deepEqual(tableOf(r, 'activityBins'), [{ bin: '1-5', lo: 1, hi: 6, users: 10, 'ndcg@10': 0.1 }]);
  assert.equal(tableOf(r, 'perClass'), undefined);
  // rankingResults carries a `histograms` table no version of the map knows
  assert.deepEqual(otherTables(r), [['histograms', { 'ndcg@10': { edges: [0, 0.5, 1], counts: [600, 300] } }]]);
  assert.deepEqual(otherTables(selectiveResults()), []);
});

test('a known table that breaks its shape is rejected before any reader gets it', () => {
  const cases: [(t: Record<string, unknown>) => void, string][] = [
    [
      (t) => (t.rankingSummary = { ...rankingSummary(), usersEvaluated: '900' }),
      'results.tables.rankingSummary.usersEvaluated: expected an integer, got "900"',
    ],
    [(t) => (t.rankingSummary = { users: 3 }), 'results.tables.rankingSummary: missing `listsInRun`'],
    [
      (t) => (t.activityBins = [{ bin: '1-5', users: 10, 'ndcg@10': 0.1 }]),
      'results.tables.activityBins[0]: missing `lo`',
    ],
    [
      (t) => (t.activityBins = [{ bin: '1-5', lo: 1, hi: 6, users: 10, 'ndcg@10': 'high' }]),
      'results.tables.activityBins[0].ndcg@10: expected a number or null, got "high"',
    ],
    [
      (t) => (t.perUserHistograms = { mrr: { edges: [0, 1], counts: [3] } }),
      'results.tables.perUserHistograms.mrr: missing `undefinedUsers`',
    ],
    [(t) => (t.scoresUsed = { selective: 'max probability' }), 'results.tables.scoresUsed: missing `calibration`'],
  ];
  for (const [mutate, want] of cases) {
    const r = rankingResults();
    mutate(r.tables as Record<string, unknown>);
    assert.ok(validateResults(r).includes(want), `${want}\n got ${JSON.stringify(validateResults(r))}`);
  }
  // iw-binary: the strata rows, or the weight column's summary; nothing else
  const iw = iwBinaryResults();
  (iw.tables as Record<string, unknown>).importanceWeights = [
    { stratum: 'B', rows: 2, populationCount: 10, weight: 5, totalWeight: 10 },
  ];
  (iw.tables as Record<string, unknown>).thresholdCounts = {
    threshold: 0.5,
    weighted: { tp: 1.5, fp: 0.25, fn: 0, tn: 3 },
    unweighted: { tp: 1, fp: 1, fn: 0, tn: 2 },
  };
  assert.deepEqual(validateResults(iw), []);
  (iw.tables as Record<string, unknown>).importanceWeights = [{ stratum: 'C', rows: 2 }];
  assert.ok(
    validateResults(iw).some((p) => p.startsWith('results.tables.importanceWeights[0].stratum:')),
    JSON.stringify(validateResults(iw)),
  );
  (iw.tables as Record<string, unknown>).importanceWeights = { source: 'column', column: 'w' };
  assert.ok(validateResults(iw).includes('results.tables.importanceWeights: missing `rows`'));

  const bad = rankingResults();
  (bad.tables as Record<string, unknown>).rankingSummary = { ...rankingSummary(), sampleUsers: [1, 2] };
  // checkResults is the one way an object becomes Results
  const checked = checkResults(JSON.parse(JSON.stringify(bad)));
  assert.equal(checked.ok, false);
  assert.ok(
    !checked.ok && checked.problems.includes('results.tables.rankingSummary.sampleUsers[0]: expected a string, got 1'),
  );
  const good = checkResults(JSON.parse(JSON.stringify(rankingResults())));
  assert.ok(good.ok && tableOf(good.results, 'activityBins')?.[0]?.users === 10);

  // Read from a file: the typed results are never handed out.
  assert.throws(
    () => parseEvalLensJson('run.eval.json', JSON.stringify(bad)),
    (e: unknown) =>
      e instanceof EvalLensError &&
      e.code === 'results-invalid' &&
      e.message.includes('results.tables.rankingSummary.sampleUsers[0]: expected a string, got 1'),
  );
});

test('the lint stops a reader that casts a table or makes Results without the validator', async () => {
  const problems = (code: string): Promise<string[]> => restrictedLines(code, 'src/shared/plantedReader.ts');
  const head = [
    "import type { Results } from '../core/results/types';",
    "import { tableOf } from '../core/results/tables';",
    'declare const r: Results;',
  ];
  const casts = [
    'export const a = r.tables as Record<string, unknown>;',
    'export const b = r.tables.rankingSummary as { longestList?: unknown };',
    'export const c = r.tables?.slices as unknown[];',
    'export const d = r.tables.perClass! as unknown[];',
    "export const e = tableOf(r, 'slices') as unknown[];",
    "export const f = <unknown[]>r.tables['perClass'];",
    // untrusted objects become Results only through the validator
    "export const i = JSON.parse('{}') as Results;",
    "export const j = JSON.parse('{}') as unknown as Results;",
    "export const k = JSON.parse('{}') as Results['tables'];",
  ];
  assert.deepEqual(await problems([...head, ...casts].join('\n')), casts);
  const reads = [
    "export const g = tableOf(r, 'rankingSummary')?.longestList;",
    'export const h = r.tables.perClass?.length;',
  ];
  assert.deepEqual(await problems([...head, ...reads].join('\n')), []);
});
