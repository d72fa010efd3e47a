/**
 * The contract between a task's metric families and every service that resamples them: a
 * {@link ResamplingPlan} says over which units a run is resampled (rows or users, with their ids),
 * which keys one resample yields, and how to compute them from the units' multiplicities. The
 * paired comparison (compare/pairedBootstrap.ts) takes one plan per run, draws each resample's
 * multiplicities once over the matched units and evaluates both runs on them, so that every key a
 * family resamples gets its paired interval without code of its own.
 *
 * A plan is built after the point estimates by the task's bootstrap step, and it is the only way
 * a task resamples: the run's own intervals are the plan run by the one bootstrap service
 * (tasks/bootstrapService.ts, over `planIntervals` in stats/planIntervals.ts), and a caller
 * that asks for the plan (`EvaluateOptions.onResampling`, the paired comparison) gets it instead.
 */
import type { RowIds } from '../data/rowIds';
import type { ResampleDraws } from './parallelBootstrap';
import type { ResampleStat } from './resampleDraws';

/** A worker-thread form of a plan's statistic: the script that builds it from `job`, and the job. */
export interface PlanWorker<J = unknown> {
  /** Absolute path of the worker script (it serves single jobs and paired ones: see pairedStat). */
  file: string | null;
  /** Structured-cloneable data the worker builds the statistic from. */
  job: J;
}

export interface ResamplingPlan {
  /** What one unit is: a prediction row or a user (a ranked list). */
  unit: 'row' | 'user';
  /** Number of units, in the run's own order (file order of rows, order of the evaluated users). */
  n: number;
  /** Unit ids in that order (null: the file has no id column; units pair by position). */
  ids: RowIds | null;
  /**
   * Per unit the value every run must agree on for the pairing to be meaningful (the true label), or
   * null. Like `position`, a plan may make it when first read (a getter): read it only when needed.
   */
  truth: readonly string[] | null;
  /** Per unit its stratum (stratified bootstrap), or null. */
  strata: Int32Array | null;
  /** Keys the statistic writes, in its output order. */
  keys: readonly string[];
  /**
   * Where the statistic expects unit i's multiplicity: `position[i]` (the statistic may walk the
   * units in an order of its own, e.g. the score order); null = the units' own order.
   */
  position: Int32Array | null;
  /** The statistic over positions (writes `keys.length` values; NaN where undefined). */
  build: () => ResampleStat;
  /** The same statistic on a worker thread, when the task has a worker script for it. */
  worker: PlanWorker | null;
  /**
   * How the run's own intervals draw their resamples (stats/parallelBootstrap.ts): 'per-resample'
   * (resample b from (seed, b) alone) or 'stream' (one sequential generator,
   * stats/resampleStream.ts). Kept per family so that a run's intervals stay those earlier
   * versions wrote for the same seed. A paired comparison always draws per resample.
   */
  draws: ResampleDraws;
  /** With 'stream' draws: the cost of stepping through a resample's draws relative to computing it (stats/parallelBootstrap.ts `seekCost`). */
  seekCost?: number;
}

/** Called by a task's bootstrap step with its plan (instead of computing intervals). */
export type ResamplingHook = (plan: ResamplingPlan) => void;
