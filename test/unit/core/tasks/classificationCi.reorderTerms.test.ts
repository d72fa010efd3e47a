// The bootstrap job of a run whose NLL and Brier terms nothing reads in row order afterwards
// (`reorderTerms`, per-row values off): the walk's class tables take the run's two arrays, reordered
// in place into the score order when they are over shared memory (as the parallel reader leaves
// them), copied otherwise; the run is left with empty ones. Its resamples' values are those of the
// job made with copies, bit for bit. Also the in-place reordering itself against a gather.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ciResampleStat, sortedCiJob } from '../../../../src/core/tasks/classificationCi';
import { permuteInPlace } from '../../../../src/core/metrics/selectiveResample';
import { evaluateResamples } from '../../../../src/core/stats/resampleDraws';
import { toShared } from '../../../../src/core/stats/sharedArrays';
import { config, randomData, runClassificationSteps } from '../../helpers/classification';
import { createRng } from '../../helpers/selective';

const bits = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('permuteInPlace: position p holds what row order[p] held (random permutations, one cycle, identity, 0 and 1 rows)', () => {
  const rng = createRng(7);
  const orders: Int32Array[] = [new Int32Array(0), Int32Array.from([0]), Int32Array.from({ length: 9 }, (_, i) => i)];
  // one cycle through every row
  orders.push(Int32Array.from({ length: 11 }, (_, i) => (i + 1) % 11));
  for (const n of [2, 3, 17, 64, 1000]) {
    const o = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [o[i], o[j]] = [o[j], o[i]];
    }
    orders.push(o);
  }
  for (const order of orders) {
    const n = order.length;
    const a = Float64Array.from({ length: n }, () => rng.next());
    const b = Float64Array.from({ length: n }, () => -rng.next());
    const wantA = Float64Array.from(order, (i) => a[i]);
    const wantB = Float64Array.from(order, (i) => b[i]);
    permuteInPlace(a, b, order);
    assert.ok(bits(a).equals(bits(wantA)) && bits(b).equals(bits(wantB)), `n ${n}`);
  }
  assert.throws(
    () => permuteInPlace(new Float64Array(3), new Float64Array(3), Int32Array.from([0, 0, 1])),
    /permutation/,
  );
  assert.throws(() => permuteInPlace(new Float64Array(2), new Float64Array(3), Int32Array.from([1, 0])), /rows/);
});

for (const [name, shared, extra] of [
  ['terms over shared memory: reordered in place', true, { targetCoverage: 0.7 }],
  ['ordinary terms: copied', false, {}],
  ['no groups, terms over shared memory', true, { groups: undefined }],
] as const)
  test(`sortedCiJob with reorderTerms: the same resample values bit for bit, the run's terms emptied (${name})`, async () => {
    const n = 5000;
    const cfg = config({
      trainCounts: [300, 100, 40, 15, 5],
      groups: [2],
      ...extra,
      bootstrap: { n: 20, confidence: 0.9, seed: 5, stratified: false },
    });
    const { run, ctx } = await runClassificationSteps(randomData(createRng(21), n, 5, { ties: true }), cfg);
    const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
    assert.ok(keys.includes('nll') && keys.includes('brier') && keys.includes('aurc'));
    if (shared) {
      // as the parallel reader leaves them: the data's and the prepared vectors' arrays over shared memory
      const nll = toShared(run.prepared.nllTerm!);
      const brier = toShared(run.prepared.brierTerm!);
      run.prepared = { ...run.prepared, nllTerm: nll, brierTerm: brier };
      run.data.probTerms = { ...run.data.probTerms!, nllTerm: nll, brierTerm: brier };
    }
    const before = { nll: run.prepared.nllTerm!, brier: run.prepared.brierTerm! };
    const rowOrder = { nll: before.nll.slice(), brier: before.brier.slice() };
    // the reference first: it copies the terms and leaves the run as it was
    const reference = sortedCiJob(run, keys, null).job;
    assert.equal(run.prepared.nllTerm, before.nll);
    const { job, order } = sortedCiJob(run, keys, null, true);
    const cls = job.selective!.rows.walk!.cls!;
    assert.equal(cls.nllTerm === before.nll && cls.brierTerm === before.brier, shared, 'in place exactly when shared');
    assert.ok(cls.nllTerm.buffer instanceof SharedArrayBuffer && cls.brierTerm.buffer instanceof SharedArrayBuffer);
    for (let p = 0; p < n; p++) {
      assert.ok(Object.is(cls.nllTerm[p], rowOrder.nll[order![p]]), `nll at ${p}`);
      assert.ok(Object.is(cls.brierTerm[p], rowOrder.brier[order![p]]), `brier at ${p}`);
    }
    // the run keeps empty terms (no rows in the wrong order), the data too
    assert.equal(run.prepared.nllTerm!.length, 0);
    assert.equal(run.prepared.brierTerm!.length, 0);
    assert.equal(run.data.probTerms!.nllTerm.length, 0);
    assert.equal(run.data.probTerms!.brierTerm.length, 0);
    const refTables = reference.selective!.rows.walk!.cls!;
    assert.ok(
      bits(refTables.nllTerm).equals(bits(cls.nllTerm)) && bits(refTables.brierTerm).equals(bits(cls.brierTerm)),
    );
    const opts = { seed: 5, strata: null, range: { from: 0, to: 20 } };
    const want = evaluateResamples(n, keys.length, ciResampleStat(reference), opts);
    assert.ok(want.some((x) => Number.isFinite(x)));
    assert.ok(bits(evaluateResamples(n, keys.length, ciResampleStat(job), opts)).equals(bits(want)));
    // a worker's copy (structured clone) too
    assert.ok(bits(evaluateResamples(n, keys.length, ciResampleStat(structuredClone(job)), opts)).equals(bits(want)));
  });
