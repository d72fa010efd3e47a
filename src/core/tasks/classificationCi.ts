/**
 * Bootstrap confidence intervals for every scalar of the classification task (classification, long
 * tail, evolving distributions, selective, calibration; percentile bootstrap as in docs/comparisons.md). One set of resamples serves every key: each resample
 * is a multiplicity vector over the rows (src/core/stats/bootstrap.ts), and every family computes
 * its statistics as weighted statistics (sample weight × multiplicity) from data prepared once,
 * each through its own statistic of the resample's shared sums (classificationFamilies.ts
 * `familyScalars`; the score order is never recomputed).
 *
 * Conventions: `bootstrap.n` resamples (0 = no intervals), percentile interval at
 * `bootstrap.confidence` — the basic bootstrap interval for the binned calibration errors, which
 * resampling biases upward (stats/bootstrap.ts `IntervalMethod`; the metric records it in
 * `ci_method`) — generator seeded by `bootstrap.seed`. With `stratified: true` each stratum
 * is resampled to its own size; strata = the `group` column when the file has one, else the true
 * label. With `targetCoverage` the threshold is re-chosen on every resample (the interval covers the
 * whole procedure, so `coverage` varies little); `acceptThreshold` and an `accept` column stay fixed.
 */
import { strataOf } from '../stats/bootstrap';
import { collectGarbage } from '../collectGarbage';
import { bootstrapStep, type PlaceInterval } from './bootstrapService';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stratumPositions, type ResampleStat } from '../stats/resampleDraws';
import { StartedResampleWorkers, threadsFor } from '../stats/parallelBootstrap';
import { sharedZeros, toShared } from '../stats/sharedArrays';
import type { EvalConfig } from '../config/types';
import {
  AGGREGATE_LANES,
  aggregateClassification,
  aggregateOfUnitSums,
  aggregateUnitBatch,
  type ClassificationAggregate,
  type PreparedClassification,
} from '../metrics/classification';
import { rowsByClass } from '../metrics/evolving';
import type { SortedRows } from '../metrics/sortedRows';
import {
  classAccuracyKey,
  type ClassificationRun,
  type ClassificationStep,
  type ResampleRun,
} from './classificationRun';
import { familyScalars, resampledKeys } from './classificationFamilies';
import type { OperatingPointRow } from '../results/types';
import { tableOf } from '../results/tables';
import {
  OPERATING_POINT_PREFIX,
  selectiveResamplerFor,
  selectiveScalars,
  selectiveScalarsSorted,
  selectiveScalarsSortedBytes,
  releaseRows,
  selectiveScratch,
  sortedResamplingApplies,
  walkAcceptance,
  type SelectiveSetup,
} from './classificationSelective';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import { classTablesInOrder, walkTablesOf } from '../metrics/selectiveResample';

/**
 * From this many rows the bootstrap job takes over the run's NLL and Brier arrays (reordered in
 * place) instead of copying them: 16 bytes a row, 16 MB and more, where the peak memory of a large
 * file is decided. Below it the copy stays: reordering in place follows the permutation's cycles
 * with random reads and writes, which cost more than a gather — on the 200,000-row bench file the
 * selective step with 200 resamples went from 0.130 to 0.175 s (best of 20, one process) for 3 MB.
 */
const REORDER_TERMS_ROWS = 1_000_000;

export const classificationCiStep: ClassificationStep = async (run, ctx) => {
  const { config, results } = ctx;
  const bs = config.bootstrap;
  if (!bs || !(bs.n > 0)) return;
  const { data } = run;
  // the keys of the families with a statistic of the resample (subgroups have none: no interval)
  const keys = resampledKeys(run, results.metrics);
  if (keys.length === 0 || data.n === 0) {
    void run.resampleWorkers?.stop(); // nothing to resample: not kept waiting until the task ends
    return;
  }
  // Per-class accuracy gets an interval too (for the per-class chart's bars), from the same resamples.
  const perClass = tableOf(results, 'perClass');
  const classKeys = perClass ? perClass.flatMap((r, c) => (r.accuracy === null ? [] : [classAccuracyKey(c)])) : [];
  keys.push(...classKeys);
  const strata = bs.stratified ? (data.groupColumn ? strataOf(data.groupColumn) : data.labels) : null;
  const sel = run.selective ?? null;
  const fast = !sel || sortedResamplingApplies(sel, data.n);
  // The operating points of a `targetCoverage` list: internal values, their intervals go to the table.
  const opRows = sel?.operatingPoints ? tableOf(results, 'operatingPoints') : undefined;
  const opKeys = opRows ? operatingPointKeys(opRows, sel!) : [];
  keys.push(...opKeys.map((o) => o.key));
  const opOf = new Map(opKeys.map((o) => [o.key, o]));
  const classOf = new Map(classKeys.map((k, c) => [k, c]));
  // Per-class accuracy into its table row, the operating points into theirs; the rest onto the metric.
  const place: PlaceInterval = (target, key, ci) => {
    const c = classOf.get(key);
    if (c !== undefined) {
      const row = tableOf(target, 'perClass')?.[c];
      if (row && ci) row.ci = ci;
      return true;
    }
    const o = opOf.get(key);
    if (o === undefined) return false;
    setRowCi(tableOf(target, 'operatingPoints')?.[o.row], o.field, ci);
    return true;
  };
  // Each key's point: the basic intervals (calibration errors) are reflected about it.
  const points: Record<string, number | null> = {};
  for (const k of keys) points[k] = results.metrics[k]?.value ?? null;
  await bootstrapStep(
    {
      // without per-row values nothing reads the NLL and Brier terms in row order after the job is made
      plan: classificationPlan(run, keys, strata, fast, {
        reorderTerms: ctx.perItem === false && run.data.n >= REORDER_TERMS_ROWS,
        // the plan is run here (not handed to a paired comparison, which reads the true labels)
        // and no per-row values follow: nothing reads the run's rows once the job is made
        rowsDone: ctx.perItem === false && ctx.onResampling === undefined,
        collectGarbage: ctx.collectGarbage === true,
      }),
      points,
      place,
      source: run.source ?? null,
      started: run.resampleWorkers,
    },
    ctx,
  );
};

/**
 * The internal bootstrap keys of the operating points (classificationSelective.ts
 * `operatingPointValues`) whose value is defined: `key`, its row and field in the table. The
 * threshold gets an interval only when it is re-chosen per resample (not with a split).
 */
function operatingPointKeys(
  rows: readonly OperatingPointRow[],
  sel: SelectiveSetup,
): { key: string; row: number; field: string }[] {
  const out: { key: string; row: number; field: string }[] = [];
  rows.forEach((r, i) => {
    const fields: [string, number | null | undefined][] = [
      ['threshold', sel.operatingPoints![i]!.kind === 'target' ? r.threshold : null],
      ['coverage', r.coverage],
      ['selective_risk', r.selective_risk],
      ['balanced_error', r.balanced_error],
      ['worst_error', r.worst_error],
      ...Object.entries(r.error_group ?? {}).map(([g, v]): [string, number | null] => [`error_group.${g}`, v]),
    ];
    for (const [field, v] of fields)
      if (v !== null && v !== undefined) out.push({ key: `${OPERATING_POINT_PREFIX}${i}.${field}`, row: i, field });
  });
  return out;
}

function setRowCi(row: OperatingPointRow | undefined, field: string, ci: [number, number] | null | undefined): void {
  if (row && ci && Number.isFinite(ci[0]) && Number.isFinite(ci[1])) row.ci[field] = ci;
}

/**
 * The classification task's {@link ResamplingPlan}: its rows (ids, true labels, strata), the keys
 * that get intervals, and the statistic over the rows.
 *
 * The fast path (stats/resampleDraws.ts), whenever the selective setup allows it: every per-row
 * vector is permuted ONCE into the selective score order (rows are exchangeable for the draw),
 * multiplicities are drawn directly per sorted position, and every statistic walks that order with
 * integer multiplicities — the selective and calibration keys of a resample in one pass
 * (metrics/selectiveResample.ts) that also gathers its classification sums (without a weight
 * column, and then over byte multiplicities, see {@link ciResampleStat}; otherwise their own walk):
 * no sort, gather or copy per resample. Resample b depends only on (seed, b), so the resamples are
 * split across the bootstrap threads (classificationCiWorker.ts) and the intervals stay the same.
 * Otherwise (a validation/test split re-choosing the threshold) the statistic runs over the rows in
 * file order on the calling thread, with the draws of one sequential stream
 * (stats/resampleStream.ts): another stream over the same distribution; the seed fixes either.
 */
function classificationPlan(
  run: ClassificationRun,
  keys: string[],
  strata: ArrayLike<number> | null,
  fast: boolean,
  opts: { reorderTerms: boolean; rowsDone: boolean; collectGarbage: boolean },
): ResamplingPlan {
  const { data } = run;
  // The true labels as text (a string a row) and the score-order position of each row (an integer
  // a row) are read by a paired comparison, the positions also by a stratified bootstrap: made when
  // first read, they take no memory while the run's own resamples are computed.
  let truth: string[] | undefined;
  const truthOf = (): readonly string[] => (truth ??= Array.from(data.labels, (y) => data.classes[y]));
  const planStrata = strata ? Int32Array.from(strata) : null;
  const perClass = keys.some((k) => k.startsWith(classAccuracyKey(0).replace(/0$/, '')));
  if (fast) {
    // Once the job has read the run's rows in file order (into the walk's class tables, or the
    // permuted vectors), they are let go (about 11 bytes a row with up to 256 classes): before
    // the walk's other tables are made, so that those can take the memory given back. The plan's
    // true labels and strata are not read then (no paired comparison; the strata were copied above).
    const rowsRead = opts.rowsDone ? () => collectGarbage(opts.collectGarbage, releaseResampledRows(run)) : undefined;
    const { job, order } = sortedCiJob(run, keys, null, opts.reorderTerms, rowsRead);
    let position: Int32Array | null = null;
    return {
      unit: 'row',
      n: data.n,
      ids: data.ids,
      get truth() {
        return truthOf();
      },
      strata: planStrata,
      keys,
      get position() {
        if (order && position === null) {
          position = new Int32Array(data.n);
          for (let p = 0; p < data.n; p++) position[order[p]] = p;
        }
        return position;
      },
      build: () => ciResampleStat(job),
      worker: { file: ciWorkerFile(), job },
      draws: 'per-resample',
    };
  }
  const sel = run.selective!;
  const scratch = selectiveScratch(sel);
  const K = keys.length;
  return {
    unit: 'row',
    n: data.n,
    ids: data.ids,
    truth: truthOf(),
    strata: planStrata,
    keys,
    position: null,
    worker: null,
    // the sequential stream (stats/resampleStream.ts), over the rows in file order
    draws: 'stream',
    build: () => {
      const f64 = new Float64Array(data.n);
      return (counts, out) => {
        for (let i = 0; i < data.n; i++) f64[i] = counts[i];
        const v = familyScalars(run, {
          agg: aggregateClassification(run.prepared, f64),
          counts: f64,
          perClass,
          selective: selectiveScalars(sel, f64, scratch),
        });
        for (let k = 0; k < K; k++) {
          const x = v[keys[k]];
          out[k] = x === undefined || x === null ? NaN : x;
        }
      };
    },
  };
}

/**
 * What a resample's statistic needs, in score order, without the n×C probability matrix: the
 * classification per-row vectors and setups, and the selective setup (whose multiplicities are per
 * sorted position: its rows' `rowIndex`, the file row of each position, is not read).
 * When the selective walk gathers the classification sums, the walk's class tables (carried by the
 * selective rows) hold what it reads of the classification rows and `run.prepared`'s per-row vectors
 * are empty (see {@link sortedCiJob}). Plain data, so it can be sent to a worker
 * (classificationCiWorker.ts).
 */
export interface CiJob {
  n: number;
  keys: string[];
  run: ResampleRun;
  selective: SelectiveSetup | null;
}

/**
 * The statistic of one resample (multiplicities in the job's row order) → the job's keys' values.
 * Without a weight column, when the selective pass walks the same rows (the job in score order),
 * that walk also gathers the classification sums (metrics/selectiveResample.ts `selectiveResampler` with its `classSums`):
 * one walk per resample. Otherwise, without a weight column, it takes batches of 4 resamples: the
 * classification sums of the batch in one walk over the rows (metrics/classification.ts
 * `aggregateUnitBatch`), then each resample's selective pass and the values derived from its sums.
 */
export function ciResampleStat(job: CiJob): ResampleStat {
  const { keys, n } = job;
  const K = keys.length;
  const run = job.run;
  const sel = job.selective;
  // Without a weight column the selective walk (same positions) also gathers the classification sums.
  const resampler = sel ? selectiveResamplerFor(sel, run.prepared.weights === null ? run.prepared : null) : null;
  const perClass = keys.some((k) => k.startsWith(classAccuracyKey(0).replace(/0$/, '')));
  /** Every family's values of the resample, from its sums, in the job's key order. */
  const write = (
    agg: ClassificationAggregate,
    counts: ArrayLike<number>,
    selective: Record<string, number> | null,
    out: Float64Array,
    at: number,
  ): void => {
    const v = familyScalars(run, { agg, counts, perClass, selective });
    for (let k = 0; k < K; k++) {
      const x = v[keys[k]];
      out[at + k] = x === undefined || x === null ? NaN : x;
    }
  };
  const selectivePass = (counts: Int32Array): Record<string, number> | null =>
    sel ? selectiveScalarsSorted(sel, counts, resampler, n) : null;
  const cls = resampler?.cls ?? null;
  if (cls === null && run.prepared.labels.length !== n)
    throw new Error(`Expected the job's ${n} classification rows, or the walk's class tables.`);
  if (cls !== null) {
    // the pass first: it leaves the resample's classification sums in `cls`
    const fused = (selective: Record<string, number>, counts: ArrayLike<number>, out: Float64Array): void =>
      write(
        aggregateOfUnitSums(run.prepared, cls.sums, 1, 0, cls.total, cls.nll, cls.brier),
        counts,
        selective,
        out,
        0,
      );
    const stat: ResampleStat = (counts, out) => fused(selectivePass(counts)!, counts, out);
    // Byte multiplicities (stats/resampleDraws.ts `addUniformDraws` into bytes): the same values. A
    // resample whose counts do not add up to n (a count above 255 wrapped around) is refused before
    // its classification values: it is drawn again as Int32 and goes to `stat`.
    // (Not with a `targetCoverage` list: its other operating points take Int32 multiplicities.)
    if (resampler!.byteWalk && !sel!.operatingPoints)
      stat.bytes = {
        run: (counts, out) => {
          const selective = selectiveScalarsSortedBytes(sel!, counts, resampler!, n);
          if (selective === null) return false;
          fused(selective, counts, out);
          return true;
        },
      };
    return stat;
  }
  const stat: ResampleStat = (counts, out) =>
    write(aggregateClassification(run.prepared, counts), counts, selectivePass(counts), out, 0);
  if (run.prepared.weights === null) {
    stat.batch = {
      lanes: AGGREGATE_LANES,
      run: (counts, L, out) => {
        const aggs = aggregateUnitBatch(run.prepared, counts, L);
        for (let l = 0; l < L; l++) write(aggs[l], counts[l], selectivePass(counts[l]), out, l * K);
      },
    };
  }
  return stat;
}

/**
 * The bootstrap's worker threads, started as soon as the number of rows is known (reading ended)
 * when the configuration asks for resamples and the work is large enough for more than one
 * thread: they start and load their script on a core that is otherwise idle while this thread
 * computes the point estimates, and wait for the resample job. Null when none is started. The
 * caller stops them when the evaluation ends (`stop`), whether or not the bootstrap took them.
 */
export function startBootstrapWorkers(config: EvalConfig, nRows: number): StartedResampleWorkers | null {
  const n = config.bootstrap?.n ?? 0;
  if (!(n > 0) || nRows === 0) return null;
  return StartedResampleWorkers.start(ciWorkerFile(), threadsFor(nRows, n) - 1);
}

/** The worker script next to this module: the bundle's `ciWorker.js`, or the .ts source under tsx. */
export function ciWorkerFile(): string | null {
  for (const f of [join(__dirname, 'ciWorker.js'), join(__dirname, 'classificationCiWorker.ts')])
    if (existsSync(f)) return f;
  return null;
}

/**
 * The {@link CiJob} of a run in its selective score order (file order without a selective setup),
 * with the stratum positions in that order. `order[p]` = the file row at position p.
 *
 * Its per-row arrays are in shared memory (stats/sharedArrays.ts), so that the
 * bootstrap threads read them where they are instead of each receiving a copy: the permuted
 * vectors are made there, and the selective setup's own arrays (row numbers, scores, flags, groups,
 * tied blocks, bins) are moved there — the run's setup then holds the shared copies, the same values,
 * and the arrays it held before are let go (the bootstrap is the run's last step). The selective
 * walk's own per-position tables are made here once, in shared memory too, and carried by the
 * job's rows (metrics/walkTables.ts): each thread's walk reads them instead of making its own.
 * When that walk gathers the classification sums, its class tables are made from the run's rows
 * through the order, and the job's classification vectors are not permuted (they are empty): the
 * walk reads nothing else of them. With `reorderTerms` (nothing reads the run's NLL and Brier terms
 * in row order afterwards) those tables take the run's two arrays, reordered in place when they are
 * over shared memory (the parallel reader's), instead of copies: the run keeps empty ones, as the
 * job's vectors are (16 bytes a row fewer while the resamples run). `rowsRead`, with a selective
 * setup, is called once the job has read what it takes of the run's rows in file order and before
 * the walk's tables are made: a caller that lets the rows go there has their memory taken by the
 * tables instead of new memory.
 */
export function sortedCiJob(
  run: ClassificationRun,
  keys: string[],
  strata: ArrayLike<number> | null,
  reorderTerms = false,
  rowsRead?: () => void,
): { job: CiJob; strata: Int32Array[] | null; order: Int32Array | null } {
  const n = run.data.n;
  const sel = run.selective ?? null;
  if (sel) shareSetup(sel);
  const order = sel ? sel.rows.rowIndex : null;
  let sSel: SelectiveSetup | null = null;
  if (sel && order) {
    // the same arrays in a rows object of the job's own (which carries the walk's tables)
    const rows: SortedRows = { ...sel.rows };
    sSel = { ...sel, rows, calib: sel.calib ? { ...sel.calib, rows } : null };
  }
  // When the walk gathers the classification sums (no weight column, no per-class row lists), its
  // class tables hold all it reads of the classification rows: they are made from the run's rows
  // through `order`, and the job carries no permuted per-row vector (29 bytes a row fewer).
  const cls =
    sSel && order && run.classRows === null && sSel.rows.weight === null && walkAcceptance(sSel) !== null
      ? classTablesInOrder(run.prepared, order, reorderTerms)
      : null;
  if (cls !== null && reorderTerms) moveTermsOut(run);
  const sRun = order ? permuteRun(run, order, cls === null) : run;
  let st: Int32Array | null = null;
  if (strata) {
    st = new Int32Array(n);
    for (let p = 0; p < n; p++) st[p] = strata[order ? order[p] : p];
  }
  // the run's rows are read: let go before the walk's tables are made (not without a selective
  // setup, where the job's vectors are the run's own)
  if (sSel) rowsRead?.();
  if (sSel) {
    // The walk's tables, made once here for every thread's statistic (the classification rows
    // join the walk as `ciResampleStat` has them join it: without a weight column).
    const r = selectiveResamplerFor(sSel, sRun.prepared.weights === null ? sRun.prepared : null, cls);
    if (cls !== null && r?.cls?.word !== cls.word)
      throw new Error('Expected the bootstrap walk to take the class tables made for it.');
    // A unit-mass walk that holds its ECE bins by runs (`binRuns`) reads no bin per position, and
    // with it nothing in the job does: the job's per-position bins are let go, and the run's with
    // its rows (4 bytes a row). Not collected here: the harmonic numbers made next take the memory
    // of the rows collected above (a collection between gave the peak no lower, and some runs 6 MB
    // higher: docs/benchmarks.md).
    if (r !== null && r.binRuns !== null && sSel.calib) {
      sSel.calib = { ...sSel.calib, bins: new Int32Array(0) };
      if (rowsRead && sel?.calib) sel.calib.bins = new Int32Array(0);
    }
    if (r) sSel.rows.walk = walkTablesOf(r);
  }
  const job: CiJob = {
    n,
    keys,
    run: {
      prepared: sRun.prepared,
      point: sRun.point,
      longTail: sRun.longTail,
      evolving: sRun.evolving,
      classRows: sRun.classRows,
    },
    selective: sSel,
  };
  return { job, strata: stratumPositions(n, st), order };
}

/**
 * Empties what the bootstrap job read of the run's rows in file order and its resamples never read
 * (see {@link classificationPlan}): the labels, predictions, line numbers and correctness
 * (classificationSelective.ts `releaseRows`) and the true-class ranks. Returns the bytes let go.
 */
function releaseResampledRows(run: ClassificationRun): number {
  let bytes = releaseRows(run);
  const pr = run.prepared;
  if (pr.trueRank !== null) {
    bytes += pr.trueRank.byteLength;
    run.prepared = { ...pr, trueRank: new Int32Array(0) };
  }
  const t = run.data.probTerms;
  if (t && t.trueRank !== pr.trueRank) bytes += t.trueRank.byteLength;
  if (t) run.data.probTerms = { ...t, trueRank: new Int32Array(0) };
  return bytes;
}

/**
 * Empties the run's NLL and Brier terms (its prepared vectors and the data's), which the bootstrap
 * job's class tables took over in score order (see {@link sortedCiJob}): what is left reads as
 * no rows rather than as rows in the wrong order, and the arrays are the job's alone.
 */
function moveTermsOut(run: ClassificationRun): void {
  const pr = run.prepared;
  if (pr.nllTerm === null || pr.brierTerm === null) return;
  run.prepared = { ...pr, nllTerm: new Float64Array(0), brierTerm: new Float64Array(0) };
  const t = run.data.probTerms;
  if (t) run.data.probTerms = { ...t, nllTerm: new Float64Array(0), brierTerm: new Float64Array(0) };
}

/**
 * The run with every classification per-row vector permuted into `order` (row p = old row order[p]);
 * with `vectors` false, without them: its per-row vectors are empty (the walk's class tables hold
 * what the statistic reads of the rows, see {@link sortedCiJob}), the rest as in the run.
 * One loop gathers all the vectors: it runs once per bootstrap, on the calling thread before the
 * worker threads start, and a loop per vector (one generic gather over three array types) ran
 * unoptimised most of the time and was deoptimised at each new array type (200,000 rows: the job
 * built in 18–27 ms before, 14–19 ms after).
 */
function permuteRun(run: ClassificationRun, order: Int32Array, vectors: boolean): ClassificationRun {
  const pr = run.prepared;
  if (!vectors) {
    const none = { labels: new Int32Array(0), preds: new Int32Array(0), correct: new Uint8Array(0) };
    const prepared: PreparedClassification = {
      ...pr,
      ...none,
      nllTerm: pr.nllTerm && new Float64Array(0),
      brierTerm: pr.brierTerm && new Float64Array(0),
      trueRank: pr.trueRank && new Int32Array(0),
    };
    return { ...run, prepared, classRows: null };
  }
  const n = order.length;
  const { labels: l0, preds: q0, correct: k0, weights: w0, nllTerm: nl0, brierTerm: br0, trueRank: r0 } = pr;
  const labels = sharedZeros(Int32Array, n);
  const preds = sharedZeros(Int32Array, n);
  const correct = sharedZeros(Uint8Array, n);
  const weights = w0 && sharedZeros(Float64Array, n);
  const nllTerm = nl0 && sharedZeros(Float64Array, n);
  const brierTerm = br0 && sharedZeros(Float64Array, n);
  const trueRank = r0 && sharedZeros(Int32Array, n);
  for (let p = 0; p < n; p++) {
    const i = order[p];
    labels[p] = l0[i];
    preds[p] = q0[i];
    correct[p] = k0[i];
    if (weights !== null) weights[p] = w0![i];
    if (nllTerm !== null) nllTerm[p] = nl0![i];
    if (brierTerm !== null) brierTerm[p] = br0![i];
    if (trueRank !== null) trueRank[p] = r0![i];
  }
  const prepared: PreparedClassification = { ...pr, labels, preds, weights, correct, nllTerm, brierTerm, trueRank };
  return { ...run, prepared, classRows: run.classRows ? rowsByClass(prepared).map(toShared) : null };
}

/**
 * Moves the per-row arrays of a selective setup into shared memory, in place (see
 * {@link sortedCiJob}): one array at a time, so that at most one is held twice. The selective step
 * sorts its rows into shared memory when the run asks for resamples (metrics/sortedRows.ts
 * `shared`), and so are its ECE bins: those are not copied, and what is copied (an `accept`
 * column) is left to the garbage collector.
 */
function shareSetup(sel: SelectiveSetup): void {
  const move = (rows: SortedRows): void => {
    rows.rowIndex = toShared(rows.rowIndex);
    rows.score = toShared(rows.score);
    rows.wrong = toShared(rows.wrong);
    rows.group = toShared(rows.group);
    rows.blockStart = toShared(rows.blockStart);
    if (rows.weight) rows.weight = toShared(rows.weight);
    if (rows.groupWeight) rows.groupWeight = toShared(rows.groupWeight);
  };
  move(sel.rows);
  if (sel.mask) sel.mask = toShared(sel.mask);
  if (sel.calib) {
    if (sel.calib.rows !== sel.rows) move(sel.calib.rows);
    sel.calib.bins = toShared(sel.calib.bins);
  }
}
