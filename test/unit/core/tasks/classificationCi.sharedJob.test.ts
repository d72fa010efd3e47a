// The classification bootstrap's job in shared memory: its per-row arrays and the selective walk's
// tables (metrics/walkTables.ts) are over SharedArrayBuffers, so a worker thread receives views of
// them instead of copies, and the statistic that reads the tables the job carries gives the values
// of one that makes its own, bit for bit (Int32 and byte multiplicities, plain and stratified).
// Without a weight column the walk's class tables are made from the run's rows through the score
// order and the job holds no permuted classification vector: its values are those of the job with
// the permuted vectors (the statistic then making its own tables from them), bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ciResampleStat, sortedCiJob, type CiJob } from '../../../../src/core/tasks/classificationCi';
import { walkTablesOf } from '../../../../src/core/metrics/selectiveResample';
import { selectiveResamplerFor } from '../../../../src/core/tasks/classificationSelective';
import { evaluateResamples, type ResampleStat } from '../../../../src/core/stats/resampleDraws';
import { config, permutedPrepared, randomData, runClassificationSteps } from '../../helpers/classification';
import { createRng } from '../../helpers/selective';

/** The bytes of a Float64Array (NaN payloads included): "bit for bit" means these are equal. */
const bits = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const isShared = (a: { buffer: ArrayBufferLike } | null | undefined) => a?.buffer instanceof SharedArrayBuffer;

/** The job with its rows stripped of the tables they carry: each statistic then makes its own. */
function withoutTables(job: CiJob, bins: Int32Array): CiJob {
  const sel = job.selective!;
  const rows = { ...sel.rows, walk: null };
  return { ...job, selective: { ...sel, rows, calib: sel.calib ? { ...sel.calib, rows, bins } : null } };
}

for (const [name, extra, weighted, stratified, n] of [
  // above 4,096 rows: the walk's warm-up runs (on rows of its own, not the shared tables)
  ['targetCoverage, tied scores', { targetCoverage: 0.7 }, false, false, 5000],
  ['acceptThreshold, stratified', { acceptThreshold: 0.5 }, false, true, 300],
  ['every row accepted', {}, false, false, 300],
  ['weight column, targetCoverage', { targetCoverage: 0.6 }, true, false, 300],
] as const)
  test(`shared job: per-row arrays and walk tables in shared memory, the values bit for bit (${name})`, async () => {
    const cfg = config({
      trainCounts: [300, 100, 40, 15, 5],
      groups: [2],
      ...extra,
      bootstrap: { n: 20, confidence: 0.9, seed: 5, stratified },
    });
    const { run, ctx } = await runClassificationSteps(randomData(createRng(21), n, 5, { weighted, ties: true }), cfg);
    const keys = Object.keys(ctx.results.metrics).filter((k) => ctx.results.metrics[k].ci);
    assert.ok(keys.includes('aurc_worst') && keys.includes('ece_adaptive') && keys.includes('accuracy'));
    // with resamples to come, the selective step made its row numbers and ECE bins in shared memory
    const madeOrder = run.selective!.rows.rowIndex;
    const madeBins = run.selective!.calib!.bins;
    assert.ok(isShared(madeOrder) && isShared(madeBins));
    const { job, strata, order } = sortedCiJob(run, keys, stratified ? run.data.labels : null);
    const prep = job.run.prepared;
    const vectors = [prep.labels, prep.preds, prep.correct, prep.nllTerm, prep.brierTerm, prep.trueRank];
    // with a weight column the job's vectors are permuted (their own walk reads them); else it has none
    if (weighted) for (const a of vectors) assert.ok(isShared(a) && a!.length === n);
    else for (const a of vectors) assert.equal(a!.length, 0);
    assert.equal(prep.n, n);
    const rows = job.selective!.rows;
    for (const a of [rows.rowIndex, rows.score, rows.wrong, rows.group, rows.blockStart]) assert.ok(isShared(a));
    // the run's own setup holds the same shared arrays (moved, not copied)
    assert.equal(run.selective!.rows.score, rows.score);
    // the job's rows keep the score order's row numbers (no identity array made for them) and the
    // step's own bins
    assert.equal(rows.rowIndex, madeOrder);
    assert.equal(order, madeOrder);
    // the step's own bins: read by the walk with a weight column; else the walk holds them by runs
    // and the job lets them go
    if (weighted) assert.equal(job.selective!.calib!.bins, madeBins);
    else assert.equal(job.selective!.calib!.bins.length, 0);
    if (stratified) assert.ok(strata!.every(isShared));
    const walk = rows.walk!;
    assert.ok(walk, 'the rows carry the walk tables');
    if (weighted) {
      assert.ok(isShared(walk.bins));
      // the walk reads the setup's own ECE bins, not a copy
      assert.equal(walk.bins, madeBins);
      assert.equal(walk.binRuns, null);
    } else {
      // the bin of each position that starts a new one, in shared memory
      assert.equal(walk.bins, null);
      assert.ok(isShared(walk.binRuns));
      assert.deepEqual(
        [...walk.binRuns!],
        [...madeBins].filter((b, p) => p === 0 || b !== madeBins[p - 1]),
      );
    }
    if (weighted) assert.equal(walk.code, null);
    else {
      for (const a of [walk.code, walk.tiedEnds, walk.harmonic, walk.cls!.word, walk.cls!.nllTerm, walk.cls!.brierTerm])
        assert.ok(isShared(a));
      // one end per tied block of two rows or more, in position order
      const bs = rows.blockStart;
      const ends: number[] = [];
      for (let b = 0; b + 1 < bs.length; b++) if (bs[b + 1] - bs[b] >= 2) ends.push(bs[b + 1]);
      assert.ok(ends.length > 0, 'the scores have ties');
      assert.deepEqual([...walk.tiedEnds!], ends);
    }
    // a worker's copy of the job (structured clone) reads the same memory
    const clone = structuredClone(job);
    const cloneWalk = clone.selective!.rows.walk!;
    assert.ok(isShared(weighted ? cloneWalk.bins : cloneWalk.binRuns) && isShared(clone.selective!.rows.rowIndex));
    if (weighted) assert.ok(isShared(clone.run.prepared.nllTerm));
    else
      assert.ok(
        isShared(clone.selective!.rows.walk!.cls!.nllTerm) && isShared(clone.selective!.rows.walk!.cls!.brierTerm),
      );
    const opts = { seed: 5, strata, range: { from: 0, to: 20 } };
    const shared = ciResampleStat(job);
    // the reference: the job with the classification vectors permuted into the score order, its
    // statistic making every table of its own from them
    const reference: CiJob = { ...job, run: { ...job.run, prepared: permutedPrepared(run) } };
    if (!weighted) {
      // the class tables made through the order are those a walk makes from the permuted vectors
      const made = walkTablesOf(
        selectiveResamplerFor(withoutTables(reference, madeBins).selective!, reference.run.prepared)!,
      );
      const cls = walk.cls!;
      assert.equal(cls.C, made.cls!.C);
      assert.deepEqual([...cls.word], [...made.cls!.word]);
      assert.ok(bits(cls.nllTerm).equals(bits(made.cls!.nllTerm)));
      assert.ok(bits(cls.brierTerm).equals(bits(made.cls!.brierTerm)));
      assert.deepEqual([...cls.cellLabel], [...made.cls!.cellLabel]);
      assert.deepEqual([...cls.cellPred], [...made.cls!.cellPred]);
      assert.ok(
        cls.nllTerm.some((x) => x !== 0) && cls.brierTerm.some((x) => x !== 0),
        'rows with probabilities have nll and Brier terms',
      );
    }
    const own = ciResampleStat(withoutTables(reference, madeBins));
    assert.equal(!!shared.bytes, !weighted, 'the byte walk without a weight column');
    const want = evaluateResamples(n, keys.length, own, opts);
    assert.ok(bits(evaluateResamples(n, keys.length, shared, opts)).equals(bits(want)));
    // the Int32 path too (the byte form left out)
    const int32 =
      (s: ResampleStat): ResampleStat =>
      (counts, out) =>
        s(counts, out);
    assert.ok(bits(evaluateResamples(n, keys.length, int32(shared), opts)).equals(bits(want)));
    assert.ok(bits(evaluateResamples(n, keys.length, ciResampleStat(clone), opts)).equals(bits(want)));
  });
