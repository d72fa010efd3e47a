import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { readResultsFile, validateResults } from '../../../../src/core/results/validate';
import type { Results } from '../../../../src/core/results/types';
import { ALL_SAMPLES, classificationResults, rankingResults } from '../../helpers/sampleResults';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-results-'));

test('results of all four shapes are valid', () => {
  for (const [name, make] of Object.entries(ALL_SAMPLES)) assert.deepEqual(validateResults(make()), [], name);
});

test('a metric entry is {value, ci?, direction, note?} and nothing else', () => {
  const cases: [(r: Results) => void, string][] = [
    [
      (r) => ((r.metrics.accuracy as unknown as Record<string, unknown>).value = '0.8'),
      'results.metrics.accuracy.value: expected a number or null, got "0.8"',
    ],
    [
      (r) => delete (r.metrics.accuracy as unknown as Record<string, unknown>).direction,
      'results.metrics.accuracy: missing `direction`',
    ],
    [
      (r) => ((r.metrics.accuracy as unknown as Record<string, unknown>).direction = 'up'),
      'results.metrics.accuracy.direction: expected one of "higher", "lower", got "up"',
    ],
    [
      (r) => ((r.metrics.accuracy as unknown as Record<string, unknown>).ci = [0.7]),
      'results.metrics.accuracy.ci: expected at least 2 items, got 1',
    ],
    [
      (r) => ((r.metrics.accuracy as unknown as Record<string, unknown>).stderr = 0.1),
      'results.metrics.accuracy: unknown key `stderr`',
    ],
    [
      (r) => (r.metrics.accuracy!.ci = [0.9, 0.7]),
      'results.metrics.accuracy.ci: expected lower ≤ upper, got [0.9, 0.7]',
    ],
  ];
  for (const [mutate, message] of cases) {
    const r = classificationResults();
    mutate(r);
    assert.deepEqual(validateResults(r), [message]);
  }
});

test('the schema id, source and families are checked', () => {
  let r = classificationResults();
  (r as unknown as Record<string, unknown>).schema = 'eval-lens/results@2';
  assert.deepEqual(validateResults(r), ['results.schema: expected "eval-lens/results@1", got "eval-lens/results@2"']);
  r = classificationResults();
  r.source.sha256 = 'xyz';
  assert.deepEqual(validateResults(r), [
    'results.source.sha256: expected a lower-case hex SHA-256 (64 characters), got "xyz"',
  ]);
  r = classificationResults();
  (r.families as Record<string, string[]>).foo = ['accuracy'];
  assert.deepEqual(validateResults(r), ['results.families: unknown key `foo`']);
  r = classificationResults();
  r.families.classification!.push('macro_f1');
  assert.deepEqual(validateResults(r), [
    'results.families.classification: lists `macro_f1`, which is not in results.metrics',
  ]);
  r = classificationResults();
  r.createdAt = 'yesterday';
  assert.deepEqual(validateResults(r), ['results.createdAt: expected an ISO date-time, got "yesterday"']);
  r = classificationResults();
  delete (r as Partial<Results>).warnings;
  assert.deepEqual(validateResults(r), ['results: missing `warnings`']);
});

test('curves must be aligned; tables and curves may carry more than the known fields', () => {
  let r = classificationResults();
  r.curves.riskCoverage!.ys.push(0.3);
  assert.deepEqual(validateResults(r), ['results.curves.riskCoverage: xs has 2 points but ys has 3']);
  r = classificationResults();
  r.curves.riskCoverage!.extra!.threshold!.pop();
  assert.deepEqual(validateResults(r), [
    'results.curves.riskCoverage.extra.threshold: has 1 values, expected 2 (one per point)',
  ]);
  r = rankingResults();
  Object.assign(r.tables, { somethingNew: { any: ['shape'] } });
  (r.curves as unknown as Record<string, Record<string, unknown>>).metricVsK!.label = 'NDCG vs K';
  assert.deepEqual(validateResults(r), []);
  r = rankingResults();
  r.baselines!.random!['ndcg@10']!.value = 'n/a' as unknown as number;
  assert.deepEqual(validateResults(r), [
    'results.baselines.random.ndcg@10.value: expected a number or null, got "n/a"',
  ]);
});

test('readResultsFile: valid file, syntax error with line/column, foreign JSON, invalid results', async () => {
  const good = join(dir, 'good.eval.json');
  writeFileSync(good, JSON.stringify(classificationResults(), null, 2));
  assert.equal((await readResultsFile(good)).metrics.accuracy!.value, 0.8);

  const bad = join(dir, 'bad.eval.json');
  writeFileSync(bad, '{\n  "schema": "eval-lens/results@1",\n  "x": }\n');
  await assert.rejects(
    readResultsFile(bad),
    (e: unknown) =>
      e instanceof EvalLensError &&
      e.code === 'results-syntax' &&
      e.location?.line === 3 &&
      /:3:8: invalid JSON at line 3, column 8/.test(e.message),
  );

  const foreign = join(dir, 'metrics.json');
  writeFileSync(foreign, '{"accuracy": 0.9}');
  await assert.rejects(
    readResultsFile(foreign),
    (e: unknown) =>
      e instanceof EvalLensError &&
      e.code === 'results-not-eval-lens' &&
      /expected "schema": "eval-lens\/results@1", got no "schema" key/.test(e.message),
  );

  const invalid = join(dir, 'invalid.eval.json');
  const r = classificationResults();
  r.metrics.accuracy!.value = 'high' as unknown as number;
  writeFileSync(invalid, JSON.stringify(r));
  await assert.rejects(
    readResultsFile(invalid),
    (e: unknown) =>
      e instanceof EvalLensError &&
      e.code === 'results-invalid' &&
      e.message.includes('(1 problem):\n  results.metrics.accuracy.value: expected a number or null, got "high"'),
  );

  await assert.rejects(
    readResultsFile(join(dir, 'missing.eval.json')),
    (e: unknown) => e instanceof EvalLensError && e.code === 'results-read',
  );
});

test('the schema lists exactly the fields of Results, SourceInfo, MetricValue, Curve and EvalWarning', async () => {
  const ts = (await import('typescript')).default;
  const { readFileSync } = await import('node:fs');
  const schema = (await import('../../../../schemas/eval-lens.results.schema.json')).default as unknown as {
    properties: Record<string, { properties?: Record<string, unknown> }>;
    definitions: Record<string, { properties?: Record<string, unknown> }>;
  };
  const members = (file: string, name: string): string[] => {
    const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    let out: string[] = [];
    const visit = (n: import('typescript').Node): void => {
      if (ts.isInterfaceDeclaration(n) && n.name.text === name)
        out = n.members.filter((m) => m.name).map((m) => (m.name as import('typescript').Identifier).text);
      ts.forEachChild(n, visit);
    };
    visit(src);
    return out.sort();
  };
  const keys = (o: { properties?: Record<string, unknown> } | undefined): string[] =>
    Object.keys(o?.properties ?? {}).sort();
  const types = 'src/core/results/types.ts';
  assert.deepEqual(keys(schema as unknown as { properties: Record<string, unknown> }), members(types, 'Results'));
  assert.deepEqual(keys(schema.properties.source), members(types, 'SourceInfo'));
  assert.deepEqual(keys(schema.definitions.metricValue), members(types, 'MetricValue'));
  assert.deepEqual(keys(schema.definitions.curve), members(types, 'Curve'));
  assert.deepEqual(keys(schema.definitions.perClassRow), members(types, 'PerClassRow'));
  assert.deepEqual(
    keys(schema.definitions.groupAnalysisRow),
    members('src/core/metrics/selective.ts', 'GroupAnalysisRow'),
  );
  assert.deepEqual(
    keys(schema.definitions.reliabilityBin),
    members('src/core/metrics/calibration.ts', 'ReliabilityBin'),
  );
  // PerItemValues = PerRowValues | PerUserValues, both PerItemCommon with their kind and ids
  assert.deepEqual(
    keys(schema.properties.perItem),
    [...members(types, 'PerItemCommon'), ...members(types, 'PerRowValues')].sort(),
  );
  assert.deepEqual(members(types, 'PerUserValues'), members(types, 'PerRowValues'));
  // the tables whose shape this module declares (the others are checked where they are declared)
  const table = schema.properties.tables!.properties as Record<
    string,
    { properties?: Record<string, unknown>; items?: { properties?: Record<string, unknown> } }
  >;
  assert.deepEqual(keys(table.scoresUsed), members(types, 'ScoresUsed'));
  assert.deepEqual(keys(table.importanceWeights!.items), members(types, 'StratumWeightRow'));
  assert.deepEqual(keys(table.importanceWeights), members(types, 'WeightColumnSummary'));
  assert.deepEqual(keys(table.thresholdCounts), members(types, 'ThresholdCountsTable'));
  assert.deepEqual(
    keys(schema.definitions.confusionCounts),
    members('src/core/metrics/binaryCurve.ts', 'ThresholdCounts'),
  );
  assert.deepEqual(keys(table.rankingSummary), members(types, 'RankingSummary'));
  assert.deepEqual(keys(table.activityBins!.items), members('src/core/metrics/ranking/perUser.ts', 'ActivityBinRow'));
  assert.deepEqual(
    keys(
      (table.perUserHistograms as { additionalProperties?: { properties?: Record<string, unknown> } })
        .additionalProperties,
    ),
    members('src/core/metrics/ranking/perUser.ts', 'Histogram'),
  );
  assert.deepEqual(keys(schema.definitions.sliceRow), members(types, 'SliceRow'));
  assert.deepEqual(keys(schema.definitions.warning), members('src/core/diagnostics.ts', 'EvalWarning'));
});

test('tables.itemMap: a valid map, misaligned columns, too many items, unknown keys', () => {
  const map = () => ({
    source: 'itemFactors' as const,
    file: 'V.npy',
    dim: 2,
    itemsWithVectors: 3,
    explainedVariance: [2, 1] as [number, number],
    explainedVarianceRatio: [0.6, 0.3] as [number, number],
    k: 10,
    limit: 5000,
    ids: ['a', 'b', 'c'],
    x: [0, 1, -1],
    y: [1, 0, -1],
    recommended: [3, 0, 1],
    popularity: [10, 2, 0],
    categoryColumn: 'section',
    categories: ['x', null, 'y|z'],
  });
  let r = rankingResults();
  r.tables.itemMap = map();
  assert.deepEqual(validateResults(r), []);
  r.tables.itemMap.y.pop();
  assert.deepEqual(validateResults(r), ['results.tables.itemMap.y: has 2 values, expected 3 (one per item)']);
  r = rankingResults();
  r.tables.itemMap = { ...map(), itemsWithVectors: 3, limit: 2 };
  assert.deepEqual(validateResults(r), ['results.tables.itemMap.ids: has 3 items, expected at most the limit 2']);
  r = rankingResults();
  r.tables.itemMap = { ...map(), limit: 6000 };
  assert.deepEqual(validateResults(r), ['results.tables.itemMap.limit: expected an integer ≤ 5000, got 6000']);
  r = rankingResults();
  (r.tables as Record<string, unknown>).itemMap = { ...map(), extra: 1 };
  assert.deepEqual(validateResults(r), ['results.tables.itemMap: unknown key `extra`']);
  r = rankingResults();
  (r.tables as Record<string, unknown>).itemMap = { ...map(), explainedVarianceRatio: [1.5, 0] };
  assert.deepEqual(validateResults(r), [
    'results.tables.itemMap.explainedVarianceRatio[0]: expected a number ≤ 1, got 1.5',
  ]);
});
