/**
 * What the families of the ranking task share: the {@link RankingRun} (the cutoffs and the run's
 * evaluation, computed once by metrics/ranking/evaluateLists.ts), the sums one resample gives every
 * family ({@link RankingSums}: the user means of every per-user key, from the one kernel of
 * rankingCi.ts), and the task's form of the one family contract ({@link RankingFamily}). In a
 * module of their own so that the families, the runner (ranking.ts) and the bootstrap
 * (rankingCi.ts, also on its threads) import them without importing one another.
 */
import type { RankedLists } from '../data/rankingData';
import type { CatalogOptions } from '../metrics/ranking/catalog';
import type { EvaluateListsOptions, ListEvaluation } from '../metrics/ranking/evaluateLists';
import type { LoadedRanking } from '../io/ranking/load';
import type { FamilyRecord, TaskFamily } from './taskFamily';
import type { TaskContext } from './types';

/**
 * The lists and catalogue options a paired comparison keeps so that the catalogue keys (coverage
 * over the users a resample draws) are resampled too; the run's own report gives them no interval
 * (a resample draws about 63% of the users, so its coverage sits below the point).
 */
export interface CatalogResample {
  lists: RankedLists;
  options: CatalogOptions;
}

/** The part of a {@link RankingRun} a family's statistic reads: plain data, also on a bootstrap thread. */
export interface RankingResampleRun {
  ks: readonly number[];
  /** The evaluated lists (indices into the run's lists), in the order of the per-user values. */
  evaluated: Int32Array;
  /** Set only for a paired comparison that resamples the catalogue keys (never on a thread). */
  catalog: CatalogResample | null;
}

/** Everything computed for one ranking run that the families read. */
export interface RankingRun extends RankingResampleRun, FamilyRecord {
  /** The run's evaluation: values and notes of every key, per-user values, curves. */
  evaluation: ListEvaluation;
}

/**
 * The run as the runner's pipeline holds it (ranking.ts): the families' run and what the families
 * that write no key read for their tables, curves and baselines — the data read, the evaluation's
 * options and depth.
 */
export interface RankingTaskRun extends RankingRun {
  data: LoadedRanking;
  /** The options the run's lists were evaluated with (its baselines are evaluated with the same). */
  options: EvaluateListsOptions;
  /** How deep the lists are evaluated beyond the cutoffs (ranking.ts `evaluationDepth`). */
  depth: number;
  /** Slots of the longest list of the run. */
  longestList: number;
  /** The item table's category column, if it has one (metrics/ranking/categories.ts `categoryColumn`). */
  categoryColumn: string | null;
  /** The popularity and random baselines' metric-vs-K curves, once the baselines family has run (null: no train). */
  baselineCurves: Record<string, Record<string, Float64Array>> | null;
}

/**
 * What one resample gives every ranking family, computed once and shared: the families never walk
 * the users themselves.
 */
export interface RankingSums {
  /**
   * Per key with per-user values (the run's `evaluation.perUser`), the mean over the users a
   * resample draws, each counted by its multiplicity, of those with a defined value (NaN: none).
   */
  means: Readonly<Record<string, number>>;
  /** The multiplicities of the evaluated users; null = the full data (each user once). */
  counts: ArrayLike<number> | null;
}

/**
 * A metric family of the ranking task: the one contract ({@link TaskFamily}) over the
 * {@link RankingRun} and the resample's {@link RankingSums}. Its point step writes its keys from
 * the run's evaluation (in the evaluation's order, which is the order the results list them in).
 */
export type RankingFamily = TaskFamily<RankingRun, RankingSums, RankingResampleRun>;

/**
 * A family of the ranking pipeline that writes no key (its tables, curves or baselines): it reads
 * the whole {@link RankingTaskRun} and has no statistic.
 */
export type RankingTaskFamily = TaskFamily<RankingTaskRun, never, never>;

/** Writes those of `keys` that the run's evaluation has as `ranking` metrics, with their notes, in that order. */
export function writeRankingKeys(run: RankingRun, ctx: TaskContext, keys: readonly string[]): void {
  const { values, notes } = run.evaluation;
  for (const key of keys)
    if (values.has(key)) ctx.results.metric('ranking', key, values.get(key) ?? null, { note: notes[key] });
}

/** Writes each key's resampled mean (absent keys are left out: the run has no per-user values of them). */
export function writeMeans(sums: RankingSums, keys: readonly string[], out: Record<string, number | null>): void {
  for (const key of keys) {
    const m = sums.means[key];
    if (m !== undefined) out[key] = Number.isNaN(m) ? null : m;
  }
}

/** Per cutoff list, the key lists made by {@link keysAtK}. */
const KEYS_AT_K = new WeakMap<readonly number[], Map<string, string[]>>();

/**
 * `metric@K` of each of `metrics` at every K of `ks` (metric by metric), made once per cutoff list:
 * a family's statistic writes the same strings on every resample instead of making new ones.
 */
export function keysAtK(ks: readonly number[], metrics: readonly string[]): string[] {
  let byMetrics = KEYS_AT_K.get(ks);
  if (!byMetrics) KEYS_AT_K.set(ks, (byMetrics = new Map()));
  const id = metrics.join(',');
  let keys = byMetrics.get(id);
  if (!keys) byMetrics.set(id, (keys = metrics.flatMap((m) => ks.map((k) => `${m}@${k}`))));
  return keys;
}
