/**
 * The one family contract (src/core/tasks/taskFamily.ts) for every registered family of the
 * ranking and importance-weighted tasks (the classification task's families have the same check in
 * classificationFamilies.test.ts): each family's statistic at the full data (no multiplicities) is
 * its point estimate, it gives exactly the keys it says it resamples, and the task's resampling plan
 * — the one kernel under the families' statistics — gives the point estimates at all-ones
 * multiplicities; the families together write every key of the evaluation, in its order. And a
 * family's typed tables: declared, written by its step after its point estimates, an undeclared
 * one an error, what its point step returned handed to its tables step; every table of a ranking
 * run but the runner's summary comes from a family.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Warnings } from '../../../../src/core/diagnostics';
import { resolveConfig } from '../../../../src/core/config/load';
import { loadRanking } from '../../../../src/core/io/ranking/load';
import { loadIwBinary } from '../../../../src/core/io/loadIwBinary';
import { defineCatalog, evaluateLists, meanDefined } from '../../../../src/core/metrics/ranking/evaluateLists';
import { blocksAtOrAbove, scoreOrder } from '../../../../src/core/metrics/binaryCurve';
import { metricVector } from '../../../../src/core/metrics/importance';
import { ResultsBuilder } from '../../../../src/core/results/builder';
import type { TaskContext } from '../../../../src/core/tasks/types';
import {
  familyResampledKeys,
  familyStep,
  familyValues,
  type FamilyRecord,
  type TaskFamily,
} from '../../../../src/core/tasks/taskFamily';
import { rankingSummaryFamily } from '../../../../src/core/tasks/rankingSummaryFamily';
import { RANKING_PIPELINE } from '../../../../src/core/tasks/rankingTables';
import { evaluateFile } from '../../../../src/core/evaluate';
import { tableOf } from '../../../../src/core/results/tables';
import { RANKING_FAMILIES } from '../../../../src/core/tasks/rankingFamilies';
import { catalogResampleOf } from '../../../../src/core/tasks/rankingCatalogFamily';
import type { RankingRun, RankingSums } from '../../../../src/core/tasks/rankingRun';
import { rankingPlan } from '../../../../src/core/tasks/rankingCi';
import { fullIwSums, IW_FAMILIES, iwPlan, type IwRun } from '../../../../src/core/tasks/iwFamilies';
import { resolveIwWeights } from '../../../../src/core/tasks/iwBinary';
import { closeRel as close } from '../../helpers/numericClose';

const SAME = join(__dirname, '../../../fixtures/ranking/same');
const asNumber = (v: number | null | undefined): number | null =>
  v === null || v === undefined || Number.isNaN(v) ? null : v;

function context(config: TaskContext['config'], dir: string): TaskContext {
  return { path: 'test', baseDir: dir, config, warnings: new Warnings(), results: new ResultsBuilder() };
}

/**
 * Each family's statistic at `full` gives exactly its resampled keys, each equal to its point
 * estimate (`point(key)`); returns how many keys were checked.
 */
function checkFamilies<Run extends { familyKeys?: Record<string, string[]> }, Sums, Shared>(
  families: readonly TaskFamily<Run, Sums, Shared>[],
  run: Run & Shared,
  full: Sums,
  point: (key: string) => number | null,
): number {
  let checked = 0;
  for (const f of families) {
    const wrote = run.familyKeys?.[f.name];
    assert.ok(wrote, `${f.name}: its point step's keys are recorded`);
    if (!f.resample) continue;
    const keys = f.resampledKeys ? f.resampledKeys(run, wrote) : wrote;
    assert.ok(keys.length > 0, `${f.name} resamples some key`);
    const out: Record<string, number | null> = {};
    f.resample(run, full, out);
    for (const k of keys) {
      assert.ok(k in out, `${f.name}: its statistic gives ${k}`);
      close(asNumber(out[k]), point(k), 1e-12, `${f.name} ${k}`);
      checked++;
    }
  }
  return checked;
}

/** The ranking sums of the full data: each per-user key's mean over the users with a defined value. */
function fullRankingSums(run: RankingRun): RankingSums {
  const means: Record<string, number> = {};
  for (const [key, v] of Object.entries(run.evaluation.perUser)) means[key] = meanDefined(v) ?? NaN;
  return { means, counts: null };
}

async function rankingRun(withCatalog: boolean): Promise<{ run: RankingRun; ctx: TaskContext }> {
  const config = resolveConfig(
    [{ task: 'ranking', k: [1, 3], train: 'train.csv', itemEmbeddings: 'items.npy', userEmbeddings: 'users.csv' }],
    join(SAME, 'eval-lens.json'),
  );
  const ctx = context(config, SAME);
  const data = await loadRanking({ path: join(SAME, 'run.jsonl'), baseDir: SAME, config, warnings: ctx.warnings });
  const ks = [1, 3];
  const catalog = defineCatalog(data, undefined);
  const evaluation = evaluateLists(data.lists, data, {
    ks,
    gain: 'linear',
    mapNormaliser: 'min',
    coldThreshold: config.coldThreshold!,
    catalog,
  });
  const run: RankingRun = {
    ks,
    evaluated: evaluation.evaluated,
    evaluation,
    catalog: withCatalog ? catalogResampleOf(data.lists, data, catalog, ks, config.coldThreshold!) : null,
  };
  for (const f of RANKING_FAMILIES) await familyStep(f)(run, ctx);
  return { run, ctx };
}

for (const withCatalog of [false, true]) {
  test(`ranking families${withCatalog ? ' (a comparison: catalogue keys resampled)' : ''}: each statistic at the full data is its point estimate`, async () => {
    const { run, ctx } = await rankingRun(withCatalog);
    const metrics = ctx.results.metrics;
    // Together the families write every key of the evaluation, in its order (the results' order).
    assert.deepEqual(
      RANKING_FAMILIES.flatMap((f) => run.familyKeys![f.name]!),
      [...run.evaluation.values.keys()],
    );
    const checked = checkFamilies(RANKING_FAMILIES, run, fullRankingSums(run), (k) => metrics[k]!.value);
    const keys = familyResampledKeys(RANKING_FAMILIES, run);
    assert.equal(checked, keys.length);
    for (const p of ['recall@3', 'mrr', 'r_precision', 'novelty@1', 'diversity@3', 'alignment@1'])
      assert.ok(keys.includes(p), p);
    for (const k of ['ndcg_std@1', 'ndcg_std@3', 'diversity_std@3', 'users_evaluated']) {
      assert.ok(k in metrics, `${k} written`);
      assert.ok(!keys.includes(k), `${k}: no interval`);
    }
    assert.equal(keys.includes('coverage@3'), withCatalog);
    assert.equal(
      keys.includes('cold_start_coverage@1'),
      withCatalog && metrics['cold_start_coverage@1']!.value !== null,
    );

    // The plan: the kernel's means under the families' statistics, each user drawn once.
    const plan = rankingPlan(run, { ids: null, shared: false });
    assert.deepEqual([...plan.keys].sort(), [...keys].sort());
    assert.equal(plan.worker === null, withCatalog, 'the catalogue keys keep the plan on the calling thread');
    const out = new Float64Array(plan.keys.length);
    plan.build()(new Int32Array(plan.n).fill(1), out);
    plan.keys.forEach((k, q) => close(asNumber(out[q]), metrics[k]!.value, 1e-12, `plan ${k}`));
  });
}

test('importance-weighted families: each statistic at the full data is its point estimate, the plan too', async () => {
  const path = join(__dirname, '../../../fixtures/iw/golden_strata_0.csv');
  const config = resolveConfig([{ task: 'iw-binary', populationSize: 100000, biasedSize: 1000, threshold: 0.5 }]);
  const ctx = context(config, '/tmp');
  const { data } = await loadIwBinary(path, { invalidRows: 'error', warnings: ctx.warnings });
  const w = resolveIwWeights(data, config, ctx.warnings);
  const so = scoreOrder(data.scores);
  const nAbove = blocksAtOrAbove(so, 0.5);
  const run: IwRun = {
    data,
    weights: w.weights,
    describe: w.describe,
    weightsTable: w.table,
    threshold: 0.5,
    so,
    nAbove,
    weighted: metricVector(so, data.labels, w.weights, nAbove),
    unweighted: metricVector(so, data.labels, null, nAbove),
  };
  for (const f of IW_FAMILIES) await familyStep(f)(run, ctx);
  const unweighted = ctx.results.baselines!.unweighted!;
  const point = (k: string): number | null =>
    k.startsWith('unweighted:') ? unweighted[k.slice('unweighted:'.length)]!.value : ctx.results.metrics[k]!.value;
  const checked = checkFamilies(IW_FAMILIES, run, fullIwSums(run), point);
  assert.equal(checked, 14, 'seven weighted keys and seven of the baseline');
  // The plan resamples through the sorted rows (all-ones multiplicities: the full data again).
  const plan = iwPlan(run);
  assert.deepEqual(plan.keys, familyResampledKeys(IW_FAMILIES, run));
  const out = new Float64Array(plan.keys.length);
  plan.build()(new Int32Array(plan.n).fill(1), out);
  plan.keys.forEach((k, q) => close(asNumber(out[q]), point(k), 1e-12, `plan ${k}`));
  // The baseline's intervals go beside its values, the weighted ones onto their metrics.
  const target = { metrics: {}, tables: {}, baselines: ctx.results.baselines };
  assert.equal(IW_FAMILIES[1]!.place!(target, 'unweighted:recall', [0.1, 0.2]), true);
  assert.deepEqual(unweighted.recall!.ci, [0.1, 0.2]);
  assert.equal(IW_FAMILIES[1]!.place!(target, 'recall', [0.1, 0.2]), false);
  // familyValues gathers every family's statistic of one resample.
  assert.equal(Object.keys(familyValues(IW_FAMILIES, run, fullIwSums(run))).length, 14);
});

test('a family declares its typed tables and its step writes them after its point estimates', async () => {
  const config = resolveConfig([{ task: 'classification' }]);
  const ctx = context(config, '/tmp');
  // A family of this test only: one key, then a table that reads it (the tables step runs after the point step).
  const family: TaskFamily<FamilyRecord, never, never> = {
    name: 'example',
    point: (_run, c) => c.results.metric('classification', 'accuracy', 0.75),
    tableNames: ['confusion'],
    tables: (_run, c) => {
      const a = c.results.metrics.accuracy!.value!;
      c.results.table('confusion', {
        labels: ['yes', 'no'],
        matrix: [
          [a, 1 - a],
          [0, 1],
        ],
      });
    },
  };
  const run: FamilyRecord = {};
  await familyStep(family)(run, ctx);
  assert.deepEqual(run.familyKeys, { example: ['accuracy'] }, 'the table is no key of the family');
  // Read back by name with its type (ResultTables['confusion']), no cast.
  const confusion = tableOf(ctx.results, 'confusion');
  assert.deepEqual(confusion?.labels, ['yes', 'no']);
  assert.deepEqual(confusion?.matrix, [
    [0.75, 0.25],
    [0, 1],
  ]);

  // A table the family does not declare is an error, named.
  const undeclared: TaskFamily<FamilyRecord, never, never> = {
    name: 'undeclared',
    point: () => undefined,
    tableNames: ['confusion'],
    tables: (_run, c) => c.results.table('scoresUsed', { selective: 'score', calibration: null }),
  };
  await assert.rejects(familyStep(undeclared)({}, ctx), /the undeclared family wrote the table scoresUsed/);
});

test('a family’s tables step gets what its point step returned, typed, once per run', async () => {
  const config = resolveConfig([{ task: 'classification' }]);
  // A family of this test only: its point step counts its calls and hands the count to its tables step.
  let points = 0;
  const drawnSeen: { calls: number; half: number }[] = [];
  const family: TaskFamily<FamilyRecord, never, never, { calls: number; half: number }> = {
    name: 'handing',
    point: (_run, c) => {
      c.results.metric('classification', 'accuracy', 0.5);
      return { calls: ++points, half: 0.5 };
    },
    tableNames: ['confusion'],
    tables: (_run, c, drawn) => {
      drawnSeen.push(drawn);
      c.results.table('confusion', { labels: ['a'], matrix: [[drawn.half * drawn.calls]] });
    },
  };
  for (const expected of [1, 2]) {
    const ctx = context(config, '/tmp');
    await familyStep(family)({}, ctx);
    assert.deepEqual(tableOf(ctx.results, 'confusion')?.matrix, [[0.5 * expected]]);
  }
  assert.deepEqual(drawnSeen, [
    { calls: 1, half: 0.5 },
    { calls: 2, half: 0.5 },
  ]);
});

test('ranking: every table of a run is declared by a family of the pipeline or the summary family, which writes it', async () => {
  const results = await evaluateFile(join(SAME, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [1, 3], train: 'train.csv', itemEmbeddings: 'items.npy', bootstrap: { n: 0 } },
  });
  const declared = new Map<string, string>(
    [...RANKING_PIPELINE, rankingSummaryFamily].flatMap((f) => (f.tableNames ?? []).map((t) => [t, f.name] as const)),
  );
  const written = Object.keys(results.tables);
  // the summary last, after the slice table when there is one, where files have always had it
  assert.deepEqual(written, ['itemMap', 'perUserHistograms', 'activityBins', 'rankingSummary']);
  for (const t of written) assert.ok(declared.has(t), `${t} is declared`);
  assert.equal(declared.get('itemMap'), 'itemMap');
  assert.equal(declared.get('categoryBreakdown'), 'categories');
  assert.equal(declared.get('rankingSummary'), 'summary');
  // u1's list has five slots (its repeated i1 included), the longest of the file
  assert.equal(tableOf(results, 'rankingSummary')?.longestList, 5);
  assert.deepEqual(tableOf(results, 'rankingSummary')?.sampleUsers, results.perItem?.ids);
  // The curves family draws the baselines family's curves beside the run's.
  const recall = results.curves['metricVsK.recall']!;
  assert.deepEqual(recall.xs, [1, 2, 3]);
  assert.deepEqual(Object.keys(recall.extra ?? {}), ['popularity', 'random']);
  assert.equal(recall.ys[2], results.metrics['recall@3']!.value);
  assert.deepEqual(Object.keys(results.baselines ?? {}), ['popularity', 'random']);
});
