/**
 * What every task runner (classification, iw-binary, ranking) receives. A runner reads its input
 * files, computes its families into `results`, adds warnings, and returns the source description.
 */
import type { Progress, Warnings } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import type { ResultsBuilder } from '../results/builder';
import type { LoadedClassification } from '../io/loadClassification';
import type { LoadedIwBinary } from '../io/loadIwBinary';
import type { RankedLists, RankingData } from '../data/rankingData';
import type { FilterTerm } from '../rows/types';
import type { RunnerSource, StageEmitter } from './stages';
import type { ResamplingHook } from '../stats/resamplingPlan';
import type { BaselineKind } from './baselineRun';

/**
 * Evaluate only the rows matching a filter (the row query's filter language). The runner loads
 * the file, asks for the matching rows (row indices, file order) and evaluates them as if they
 * were the whole file.
 */
export interface RowSubset {
  where: FilterTerm[];
  classificationRows(loaded: LoadedClassification, ctx: TaskContext): Promise<Int32Array>;
  iwRows(loaded: LoadedIwBinary, ctx: TaskContext): Int32Array;
  /** Ranking: the lists (users) to keep, indices into `data.lists`. */
  rankingLists(data: RankingData, ctx: TaskContext): Int32Array;
}

export interface TaskContext {
  /** Path of the main input file (as given; resolve relative paths against `baseDir`). */
  path: string;
  /** Folder relative config paths are resolved against (the config file's folder, else the input's). */
  baseDir: string;
  /**
   * Workspace root that config paths must stay inside: pass it as `root` to `resolveConfigPath`
   * (config/load.ts). Set by `evaluateFile` (the CLI's `--root`, the extension's workspace folder);
   * optional so that older callers keep `baseDir` as the root.
   */
  root?: string;
  config: ResolvedConfig;
  warnings: Warnings;
  results: ResultsBuilder;
  progress?: Progress;
  /** Evaluate only these rows (or, for ranking, these users' lists). */
  subset?: RowSubset;
  /** Ranking: called once with the lists to be evaluated (read or generated from factors), before any metric. */
  onRankedLists?: (lists: RankedLists, userIds: readonly string[], itemIds: readonly string[]) => void;
  /** Present when the caller wants the results in stages (point estimates, provisional intervals). */
  stages?: StageEmitter;
  /**
   * Present when the caller resamples the run itself (a paired comparison): the task's bootstrap
   * step hands over its plan instead of computing intervals.
   */
  onResampling?: ResamplingHook;
  /** Whether full garbage collections may be taken after large arrays are let go (../collectGarbage.ts). */
  collectGarbage?: boolean;
  /** Build `results.perItem` (the per-row or per-user values of a paired comparison); false: leave it out. */
  perItem?: boolean;
  /**
   * Evaluate a baseline derived from the input instead of its predictions (baselineRun.ts): after
   * the reading (and the subset), the predictions or lists are replaced by the baseline's.
   */
  baselineRun?: BaselineKind;
}

/** A task runner returns the description of its main source (hash and size are added by the caller). */
export type TaskRunner = (ctx: TaskContext) => Promise<RunnerSource>;
