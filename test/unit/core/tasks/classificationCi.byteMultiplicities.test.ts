// The classification bootstrap's byte multiplicities: a resample with a count above the byte limit
// is drawn again as Int32 and computed by the Int32 statistic, so the values are those of the Int32
// path bit for bit. A limit of 3 (instead of 255) forces that fallback on a small file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ciResampleStat, sortedCiJob } from '../../../../src/core/tasks/classificationCi';
import { drawResample, evaluateResamples, type ResampleStat } from '../../../../src/core/stats/resampleDraws';
import { config, randomData, runClassificationSteps } from '../../helpers/classification';
import { createRng } from '../../helpers/selective';

/** The bytes of a Float64Array (NaN payloads included): "bit for bit" means these are equal. */
const bits = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

for (const [name, extra, stratified] of [
  ['targetCoverage, tied scores', { targetCoverage: 0.7 }, false],
  ['acceptThreshold, stratified', { acceptThreshold: 0.5 }, true],
] as const)
  test(`byte multiplicities: the Int32 values bit for bit, a count above the limit drawn again as Int32 (${name})`, async () => {
    const n = 120; // with a limit of 3 about one resample in ten has no count above it
    const cfg = config({
      trainCounts: [300, 100, 40, 15, 5],
      groups: [2],
      topK: [2],
      ...extra,
      bootstrap: { n: 60, confidence: 0.9, seed: 7, stratified },
    });
    const { run, ctx } = await runClassificationSteps(randomData(createRng(12), n, 5, { ties: true }), cfg);
    const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
    assert.ok(['aurc_worst', 'ece_adaptive', 'accuracy', 'nll', 'top2_accuracy'].every((k) => keys.includes(k)));
    keys.push('#class_accuracy.0', '#class_accuracy.4');
    const { job, strata } = sortedCiJob(run, keys, stratified ? run.data.labels : null);
    const stat = ciResampleStat(job);
    assert.ok(stat.bytes, 'the walk that gathers the classification sums takes bytes');
    const B = 60;
    const opts = { seed: 7, strata, range: { from: 0, to: B } };
    // the Int32 path: the same statistic without its byte form
    const int32: ResampleStat = (counts, out) => stat(counts, out);
    const want = evaluateResamples(n, keys.length, int32, opts);
    assert.ok(bits(evaluateResamples(n, keys.length, stat, opts)).equals(bits(want)), 'limit 255');
    // limit 3: the resamples with a count of 4 or more take the fallback, the others the bytes
    const limit = 3;
    const forced: ResampleStat = Object.assign((counts: Int32Array, out: Float64Array) => stat(counts, out), {
      bytes: { ...stat.bytes, limit },
    });
    const counts = new Int32Array(n);
    const over: number[] = [];
    for (let b = 0; b < B; b++) {
      drawResample(7, b, counts, strata);
      if (Math.max(...counts) > limit) over.push(b);
    }
    assert.ok(over.length > 0 && over.length < B, `${over.length} of ${B} resamples above the limit`);
    assert.ok(bits(evaluateResamples(n, keys.length, forced, opts)).equals(bits(want)), 'limit 3');
    // those resamples' counts modulo 4 add up to less than n: the byte statistic refuses them
    // (without the fallback their values would be missing)
    const K = keys.length;
    const wrapped = new Uint8Array(n);
    const out = new Float64Array(K);
    for (const b of over) {
      drawResample(7, b, counts, strata);
      for (let i = 0; i < n; i++) wrapped[i] = counts[i] & limit;
      assert.equal(stat.bytes!.run(wrapped, out), false, `resample ${b}`);
    }
    // and the others it computes: the values of the Int32 path
    const b0 = [...Array(B).keys()].find((b) => !over.includes(b))!;
    drawResample(7, b0, counts, strata);
    out.fill(NaN);
    assert.equal(stat.bytes!.run(Uint8Array.from(counts), out), true);
    assert.ok(bits(out).equals(bits(want.subarray(b0 * K, (b0 + 1) * K))), `resample ${b0}`);
  });
