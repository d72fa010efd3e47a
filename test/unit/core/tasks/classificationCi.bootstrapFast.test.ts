// The classification bootstrap's fast path (score-ordered draws, one-pass selective statistics,
// threads) against a slow reference: the same resamples mapped back to file order and evaluated
// by the separate metric functions (scalarMetricsFor + selectiveScalars).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  selectiveResamplerFor,
  selectiveScalars,
  selectiveScalarsSorted,
} from '../../../../src/core/tasks/classificationSelective';
import { permutedPrepared, scalarMetricsFor, scalarMetricsOf } from '../../helpers/classification';
import { aggregateClassification } from '../../../../src/core/metrics/classification';
import type { ClassificationRun } from '../../../../src/core/tasks/classificationRun';
import { ciResampleStat, ciWorkerFile, sortedCiJob } from '../../../../src/core/tasks/classificationCi';
import { intervalsOfValues } from '../../../../src/core/stats/planIntervals';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { drawResample, evaluateResamples } from '../../../../src/core/stats/resampleDraws';
import { parallelResamples } from '../../helpers/bootstrapReference';
import { bundledWorker } from '../../helpers/bundledWorker';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import { config, randomData, runClassificationSteps } from '../../helpers/classification';
import { createRng } from '../../helpers/selective';

function ciRun(cfg: ResolvedConfig, n = 300, weighted = false) {
  return runClassificationSteps(randomData(createRng(8), n, 5, { weighted, ties: true }), cfg);
}

const base = { trainCounts: [300, 100, 40, 15, 5], groups: [2] };

for (const [name, extra] of [
  ['targetCoverage', { targetCoverage: 0.7 }],
  ['acceptThreshold', { acceptThreshold: 0.5 }],
  ['every row accepted, stratified', { stratifiedCi: true }],
  ['weight column, targetCoverage', { targetCoverage: 0.6, weightedData: true }],
] as const) {
  test(`fast bootstrap = the same resamples through the separate metric functions (${name})`, async () => {
    const stratified = 'stratifiedCi' in extra;
    const { weightedData: _w, ...cfgExtra } = { weightedData: false, ...extra };
    const cfg = config({
      ...base,
      ...('stratifiedCi' in extra ? {} : cfgExtra),
      bootstrap: { n: 60, confidence: 0.9, seed: 3, stratified },
    });
    const { run, ctx } = await ciRun(cfg, 300, 'weightedData' in extra);
    const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
    assert.ok(
      keys.length > 30 && keys.includes('aurc_worst') && keys.includes('ece_adaptive') && keys.includes('accuracy'),
    );
    const strata = stratified ? run.data.labels : null;
    const { job, strata: pos, order } = sortedCiJob(run, keys, strata);
    // reference: resample b's sorted-order multiplicities, mapped back to file order
    const sel = run.selective!;
    const counts = new Int32Array(run.data.n);
    const fileCounts = new Float64Array(run.data.n);
    const ref = new Float64Array(60 * keys.length);
    for (let b = 0; b < 60; b++) {
      drawResample(3, b, counts, pos);
      for (let p = 0; p < counts.length; p++) fileCounts[order![p]] = counts[p];
      const v: Record<string, number | null> = {
        ...scalarMetricsFor(run, fileCounts),
        ...selectiveScalars(sel, fileCounts),
      };
      keys.forEach((k, i) => (ref[b * keys.length + i] = v[k] ?? NaN));
    }
    const fast = evaluateResamples(run.data.n, keys.length, ciResampleStat(job), {
      seed: 3,
      strata: pos,
      range: { from: 0, to: 60 },
    });
    for (let i = 0; i < ref.length; i++) {
      const key = keys[i % keys.length];
      if (Number.isNaN(ref[i])) assert.ok(Number.isNaN(fast[i]), key);
      else
        assert.ok(
          Math.abs(fast[i] - ref[i]) <= 1e-9 * Math.max(1, Math.abs(ref[i])),
          `${key}: ${fast[i]} vs ${ref[i]}`,
        );
    }
    // and the step's intervals are the intervals of these values (percentile; basic about the
    // point for the calibration errors)
    const points = Object.fromEntries(keys.map((k) => [k, ctx.results.metrics[k]?.value ?? null]));
    const cis = intervalsOfValues(fast, keys, 60, { confidence: 0.9, points });
    for (const k of keys) assert.deepEqual(ctx.results.metrics[k].ci, cis[k] ?? undefined, k);
    const col = Float64Array.from({ length: 60 }, (_, b) => ref[b * keys.length + keys.indexOf('aurc')]);
    const aurcRef = percentileInterval(col, 0.9)!;
    assert.ok(Math.abs(cis.aurc![0] - aurcRef[0]) < 1e-9 && Math.abs(cis.aurc![1] - aurcRef[1]) < 1e-9);
  });
}

for (const [name, weighted, C] of [
  ['one walk per resample', false, 5],
  ['weight column', true, 5],
  ['more classes than the packed word: 4 resamples per walk, 23 resamples', false, 1100],
] as const)
  test(`threads: two threads (a worker) give exactly the values of one thread (${name})`, async () => {
    const cfg = config({
      trainCounts: Array.from({ length: C }, (_, c) => 300 - ((c * 7) % 290)),
      groups: [2],
      targetCoverage: 0.7,
      bootstrap: { n: 10, confidence: 0.9, seed: 4, stratified: false },
    });
    const { run, ctx } = await runClassificationSteps(randomData(createRng(8), 200, C, { weighted, ties: true }), cfg);
    const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
    const { job, strata } = sortedCiJob(run, keys, null);
    const common = {
      nRows: 200,
      K: keys.length,
      nResamples: C > 1023 ? 23 : 24,
      seed: 4,
      strata,
      stat: ciResampleStat(job),
      job,
      // the entry bundled: a .ts worker cannot load under the test runner, and a range computed on
      // this thread instead would prove nothing
      workerFile: bundledWorker('src/core/tasks/classificationCiWorker.ts'),
    };
    assert.ok(ciWorkerFile(), 'the worker script next to the module');
    // beyond the packed word's classes the threads claim 4 resamples at a time (the last claim 3)
    assert.equal(common.stat.batch?.lanes, C > 1023 ? 4 : undefined);
    const one = await parallelResamples({ ...common, threads: 1 });
    const two = await parallelResamples({
      ...common,
      threads: 2,
      onWorkerFallback: (range, why) =>
        assert.fail(`resamples ${range.from}–${range.to} not computed by a worker: ${why}`),
    });
    const three = await parallelResamples({ ...common, threads: 3, workerFile: '/nonexistent/worker.js' }); // falls back to one thread
    assert.deepEqual(two, one);
    assert.deepEqual(three, one);
  });

/** The bytes of a Float64Array (NaN payloads included): "bit for bit" means these are equal. */
const bytes = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

for (const [name, extra, weighted, stratified] of [
  ['targetCoverage', { targetCoverage: 0.7 }, false, false],
  ['acceptThreshold, stratified', { acceptThreshold: 0.5 }, false, true],
  ['every row accepted', {}, false, false],
  ['weight column with zero weights', { targetCoverage: 0.6 }, true, false],
] as const) {
  test(`a resample's values do not depend on the range or batch it is computed in, bit for bit, every key (${name})`, async () => {
    const cfg = config({ ...base, ...extra, bootstrap: { n: 20, confidence: 0.9, seed: 5, stratified } });
    const { run, ctx } = await ciRun(cfg, 240, weighted);
    const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
    assert.ok(['aurc_worst', 'ece', 'accuracy', 'nll', 'balanced_accuracy'].every((k) => keys.includes(k)));
    keys.push('#class_accuracy.0', '#class_accuracy.4');
    const { job, strata } = sortedCiJob(run, keys, stratified ? run.data.labels : null);
    const stat = ciResampleStat(job);
    // a weight column has no batch form (its sums are not integers); without one the selective
    // walk gathers the classification sums, one resample per walk
    assert.equal(stat.batch, undefined);
    const opts = { seed: 5, strata, range: { from: 0, to: 11 } };
    const whole = evaluateResamples(run.data.n, keys.length, stat, opts);
    // resample b is the same whichever range it falls in
    const split = new Float64Array(whole.length);
    split.set(evaluateResamples(run.data.n, keys.length, stat, { ...opts, range: { from: 0, to: 3 } }));
    split.set(
      evaluateResamples(run.data.n, keys.length, stat, { ...opts, range: { from: 3, to: 11 } }),
      3 * keys.length,
    );
    assert.ok(bytes(split).equals(bytes(whole)));
  });
}

/**
 * The values of one resample as two separate walks give them: the classification sums over the
 * rows permuted into the score order by hand (aggregateClassification), then the selective pass
 * without classification sums.
 */
function separateWalks(run: ClassificationRun, job: ReturnType<typeof sortedCiJob>['job'], keys: string[]) {
  const sel = job.selective!;
  const resampler = selectiveResamplerFor(sel);
  assert.ok(resampler && resampler.cls === null);
  const jobRun = { ...(job.run as ClassificationRun), prepared: permutedPrepared(run) };
  return (counts: Int32Array, out: Float64Array) => {
    const v: Record<string, number | null> = {
      ...scalarMetricsOf(jobRun, aggregateClassification(jobRun.prepared, counts), counts, { perClass: true }),
      ...selectiveScalarsSorted(sel, counts, resampler, run.data.n),
    };
    keys.forEach((k, i) => (out[i] = v[k] ?? NaN));
  };
}

for (const [name, extra, C, ties, stratified, n] of [
  ['targetCoverage, tied scores', { targetCoverage: 0.7 }, 5, true, false, 400],
  ['acceptThreshold, stratified', { acceptThreshold: 0.5 }, 5, false, true, 400],
  ['every row accepted, tied scores', {}, 5, true, false, 400],
  ['as many classes as the packed word holds, ranks up to 1023', { targetCoverage: 0.7 }, 1023, true, false, 3000],
  ['more classes than the packed word holds', { targetCoverage: 0.7 }, 1100, true, false, 400],
  ['more rows than the walk warms up on', { acceptThreshold: 0.5 }, 5, true, false, 6000],
] as const) {
  test(`the classification sums gathered by the selective walk = a walk of their own, bit for bit (${name})`, async () => {
    const trainCounts = Array.from({ length: C }, (_, c) => 300 - ((c * 7) % 290));
    const cfg = config({
      trainCounts,
      groups: [2],
      topK: [2],
      ...extra,
      bootstrap: { n: 20, confidence: 0.9, seed: 6, stratified },
    });
    const { run, ctx } = await runClassificationSteps(randomData(createRng(9), n, C, { ties }), cfg);
    const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
    assert.ok(['aurc', 'ece', 'accuracy', 'nll', 'brier', 'top2_accuracy', 'macro_f1'].every((k) => keys.includes(k)));
    keys.push('#class_accuracy.0', '#class_accuracy.3');
    const { job, strata } = sortedCiJob(run, keys, stratified ? run.data.labels : null);
    const opts = { seed: 6, strata, range: { from: 0, to: 20 } };
    const stat = ciResampleStat(job);
    // beyond the packed word's classes the classification sums take their own walk, 4 resamples at once
    assert.equal(stat.batch?.lanes, C > 1023 ? 4 : undefined);
    const fused = evaluateResamples(run.data.n, keys.length, stat, opts);
    const apart = evaluateResamples(run.data.n, keys.length, separateWalks(run, job, keys), opts);
    assert.ok(bytes(fused).equals(bytes(apart)));
    // one resample through the batch = it alone
    if (stat.batch) {
      const counts = new Int32Array(run.data.n);
      drawResample(6, 7, counts, strata);
      const one = new Float64Array(keys.length).fill(NaN);
      const lane = new Float64Array(4 * keys.length).fill(NaN);
      stat(counts, one);
      stat.batch.run([counts], 1, lane);
      assert.ok(bytes(lane.subarray(0, keys.length)).equals(bytes(one)));
      assert.ok(bytes(one).equals(bytes(fused.subarray(7 * keys.length, 8 * keys.length))));
    }
  });
}
