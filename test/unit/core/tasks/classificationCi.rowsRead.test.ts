// An evaluation that writes no per-row values and runs its own resamples (the command line's
// `evaluate`) lets go of the run's rows in file order once the bootstrap job has read them: the
// labels, predictions, line numbers, correctness and true-class ranks, before the walk's tables are
// made. The results — every interval included — are those of the run that keeps them, and the
// rows are kept whenever something could still read them (per-row values, a paired comparison's
// hook, no selective setup).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLASSIFICATION_STEPS, prepareRun } from '../../../../src/core/tasks/classification';
import { ciResampleStat, sortedCiJob } from '../../../../src/core/tasks/classificationCi';
import { evaluateResamples } from '../../../../src/core/stats/resampleDraws';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import type { ClassificationRun } from '../../../../src/core/tasks/classificationRun';
import type { TaskContext } from '../../../../src/core/tasks/types';
import { config, createRng, randomData, runClassificationSteps, taskContext } from '../../helpers/classification';

const N = 600;
const bits = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** The lengths of the run's per-row arrays the resamples never read. */
function rowsLeft(run: ClassificationRun): number[] {
  const { data, prepared } = run;
  return [
    data.labels.length,
    data.preds.length,
    data.lines.length,
    prepared.labels.length,
    prepared.preds.length,
    prepared.correct.length,
    prepared.trueRank?.length ?? -1,
    data.probTerms?.trueRank.length ?? -1,
  ];
}

async function evaluate(
  seed: number,
  cfg: ResolvedConfig,
  ctxExtra: Partial<TaskContext>,
  opts: { weighted?: boolean } = {},
): Promise<{ run: ClassificationRun; data: ClassificationRun['data']; json: string; withCi: number }> {
  const data = randomData(createRng(seed), N, 5, { ties: true, weighted: opts.weighted });
  const ctx = { ...taskContext(cfg), ...ctxExtra };
  const run = await prepareRun(data, ctx);
  // as the runner sets it: without per-row values nothing reads the derived scores in row order
  run.scoresSpent = ctx.perItem === false;
  for (const { step } of CLASSIFICATION_STEPS) await step(run, ctx);
  const results = ctx.results.build({
    source: { path: 'test.csv', format: 'csv', rows: N, rowsUsed: N, columns: {}, size: 0, sha256: '' },
    task: 'classification',
    config: cfg,
    warnings: ctx.warnings.list,
  });
  const withCi = Object.values(results.metrics).filter((m) => m.ci).length;
  return { run, data, json: JSON.stringify({ ...results, createdAt: null, timings: null }), withCi };
}

const bootstrap = { n: 30, confidence: 0.9, seed: 11, stratified: false };
const CASES: [string, number, ResolvedConfig, { weighted?: boolean }][] = [
  ['defaults', 1, config({ bootstrap }), {}],
  [
    'groups, a targetCoverage list',
    2,
    config({
      bootstrap,
      groups: { '0': 'head', '1': 'head', '2': 'tail', '3': 'tail', '4': 'tail' },
      targetCoverage: [0.6, 0.8],
    }),
    {},
  ],
  ['stratified', 3, config({ bootstrap: { ...bootstrap, stratified: true } }), {}],
  // sample weights: the job permutes its own copies of the classification vectors
  ['sample weights', 4, config({ bootstrap }), { weighted: true }],
];

for (const [name, seed, cfg, opts] of CASES)
  test(`without per-row values the rows are let go once the bootstrap job has read them; the results the same (${name})`, async () => {
    const kept = await evaluate(seed, cfg, { perItem: true }, opts);
    const spent = await evaluate(seed, cfg, { perItem: false }, opts);
    assert.ok(kept.withCi > 10, `${kept.withCi} intervals`);
    assert.deepEqual(rowsLeft(kept.run), [N, N, N, N, N, N, N, N]);
    assert.deepEqual(rowsLeft(spent.run), [0, 0, 0, 0, 0, 0, 0, 0]);
    // the caller's data object is the run's (not a copy that would still hold what it lets go)
    assert.equal(spent.run.data, spent.data);
    assert.equal(kept.run.data, kept.data);
    // the ECE bins per position: let go with the rows when the unit-mass walk holds them by runs
    // (no weight column), else read by the walk
    assert.equal(kept.run.selective!.calib!.bins.length, N);
    assert.equal(spent.run.selective!.calib!.bins.length, opts.weighted ? N : 0);
    assert.ok(spent.json === kept.json, 'the results differ when the rows are let go');
  });

test('the rows are kept when a paired comparison takes the plan (it reads the true labels)', async () => {
  const seen: { truth: readonly string[] | null } = { truth: null };
  const { run } = await evaluate(5, config({ bootstrap }), {
    perItem: false,
    onResampling: (plan) => {
      seen.truth = plan.truth;
    },
  });
  assert.deepEqual(rowsLeft(run), [N, N, N, N, N, N, N, N]);
  assert.equal(seen.truth?.length, N);
  assert.deepEqual(
    seen.truth,
    Array.from(run.data.labels, (y) => run.data.classes[y]),
  );
});

test('sortedCiJob calls rowsRead once, with a selective setup only; the resamples read nothing it lets go', async () => {
  const cfg = config({ bootstrap });
  const { run, ctx } = await runClassificationSteps(randomData(createRng(6), N, 5, { ties: true }), cfg);
  const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
  assert.ok(keys.includes('aurc') && keys.includes('nll') && keys.includes('accuracy'));
  const reference = sortedCiJob(run, keys, null).job;
  let calls = 0;
  const { job } = sortedCiJob(run, keys, null, false, () => {
    calls++;
    // what a caller lets go there: emptied in place, as the runner's release does
    run.data.labels.fill(255);
    run.data.preds.fill(255);
    run.prepared.trueRank!.fill(-1);
    run.prepared.correct.fill(7);
  });
  assert.equal(calls, 1);
  const opts = { seed: 3, strata: null, range: { from: 0, to: 30 } };
  const want = evaluateResamples(N, keys.length, ciResampleStat(reference), opts);
  assert.ok(want.some((x) => Number.isFinite(x)));
  assert.ok(bits(evaluateResamples(N, keys.length, ciResampleStat(job), opts)).equals(bits(want)));
  // without a selective setup the job's vectors are the run's own: not called
  calls = 0;
  sortedCiJob({ ...run, selective: null }, keys, null, false, () => calls++);
  assert.equal(calls, 0);
});
