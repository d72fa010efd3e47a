/**
 * The one entry point of the metric core: a prediction file in, a {@link Results} object out.
 * Used by the CLI, the extension's worker and the tests. Never writes to the input.
 *
 * Config layers, weakest first: built-in defaults < `opts.defaults` (VS Code settings) < the
 * config file (`opts.configPath`, else `eval-lens.json` beside the input) < `opts.overrides`
 * (CLI flags).
 */
import { Warnings, type Progress } from './diagnostics';
import type { Task } from './config/types';
import { resolveEvaluation, type EvaluationInputOptions } from './io/evaluationInput';
import { fileInfo } from './io/fileInfo';
import { ResultsBuilder } from './results/builder';
import type { Results, SourceInfo } from './results/types';
import type { RunnerSource, StageEmitter } from './tasks/stages';
import type { TaskContext, TaskRunner } from './tasks/types';
import type { FilterTerm } from './rows/types';
import { formatWhere } from './rows/where';
import { rowSubset } from './inspect/subset';
import { collectsByDefault } from './collectGarbage';
import type { ResamplingHook } from './stats/resamplingPlan';
import type { BaselineKind } from './tasks/baselineRun';

/** `configPath`, `defaults` (VS Code settings), `overrides` (CLI flags) and `root`: io/evaluationInput.ts. */
export interface EvaluateOptions extends EvaluationInputOptions {
  progress?: Progress;
  /**
   * Evaluate only the rows matching these filter terms (ranking: the users' lists), as if the file
   * held only them; the results record the filter in `source.filter`.
   */
  subset?: FilterTerm[];
  /**
   * Ranking: called once with the ranked lists that are evaluated (a run's lists as read, or the
   * lists generated from factor matrices), before the metrics reuse their arrays; copy what is kept.
   */
  onRankedLists?: TaskContext['onRankedLists'];
  /**
   * Results in stages, each a separate snapshot: `point` as soon as every point estimate exists
   * (no bootstrap interval yet), `provisional` with intervals from the first 200 resamples (only
   * when more are configured; `resamples` says how many of how many), `final` with the returned
   * results. The final results are the same with or without this option.
   */
  onStage?: (stage: EvaluationStage, results: Results, info: { resamples?: { done: number; total: number } }) => void;
  /**
   * Take a full garbage collection where a stage has let go of large arrays (a ranking run's list
   * slots, the reading's buffers), which lowers the peak memory of a large evaluation by tens of
   * megabytes for a few milliseconds each. Default: on worker threads only
   * (the extension evaluates in one); the command line turns it on.
   */
  collectGarbage?: boolean;
  /**
   * The caller resamples the run itself (a paired comparison): the task's bootstrap step hands
   * over its resampling plan (stats/resamplingPlan.ts) and computes no intervals (`config.bootstrap.n` must be > 0).
   */
  onResampling?: ResamplingHook;
  /**
   * Evaluate a baseline made from the input (a classification run's `majority` or `prior`, a
   * ranking run's `popularity` or `random`: tasks/baselineRun.ts) instead of its predictions.
   */
  baselineRun?: BaselineKind;
  /**
   * Keep the per-row (per-user) values in the returned results (`perItem`, the units of a paired
   * comparison). Default true; the command line and the extension's evaluation, which write the
   * results file (where `perItem` never goes: results/resultsFile.ts), turn it off and so do not
   * build n-long arrays they would drop.
   */
  perItem?: boolean;
}

export type EvaluationStage = 'point' | 'provisional' | 'final';

/** Tasks whose runner may return the input's size and SHA-256 itself. */
const SELF_HASHING: ReadonlySet<Task> = new Set<Task>(['ranking']);

/**
 * Each task's runner, loaded when a file of that task is evaluated: a process evaluating a
 * classification file does not compile or run the ranking modules (their readers, the factor
 * models) at its start, nor the other way round (in a bundle, each module is initialised at its
 * first import: docs/benchmarks.md, "Scaling").
 */
const RUNNERS: Record<Task, () => Promise<TaskRunner>> = {
  classification: async () => (await import('./tasks/classification')).runClassification,
  'iw-binary': async () => (await import('./tasks/iwBinary')).runIwBinary,
  ranking: async () => (await import('./tasks/ranking')).runRanking,
};

export async function evaluateFile(path: string, opts: EvaluateOptions = {}): Promise<Results> {
  const { input, config, task, baseDir, root } = await resolveEvaluation(path, opts);
  const warnings = new Warnings();
  const results = new ResultsBuilder();
  const subset = opts.subset && opts.subset.length > 0 ? opts.subset : undefined;
  opts.progress?.report?.('reading', 0);
  // The ranking reader hashes its input while parsing it (one read, no hashing worker and its
  // memory); the other tasks' inputs are hashed beside the parse.
  const hashing = SELF_HASHING.has(task) ? null : fileInfo(input);
  const infoOf = async (p: RunnerSource): Promise<{ size: number; sha256: string }> =>
    p.sha256 !== undefined && p.size !== undefined
      ? { size: p.size, sha256: p.sha256 }
      : await (hashing ?? fileInfo(input));
  const sourceOf = (p: RunnerSource, info: { size: number; sha256: string }): SourceInfo => {
    const source: SourceInfo = { ...p, ...info };
    if (subset) source.filter = { where: subset, expression: formatWhere(subset) };
    return source;
  };
  const onStage = opts.onStage;
  let pointSource: SourceInfo | null = null;
  // A snapshot is a copy: the builder keeps filling its own objects afterwards.
  const snapshot = (source: SourceInfo): Results =>
    copyResults(results.build({ source, task, config, warnings: warnings.list }));
  const stages: StageEmitter | undefined = onStage && {
    point: async (p) => {
      if (pointSource) return;
      pointSource = sourceOf(p, await infoOf(p));
      onStage('point', snapshot(pointSource), {});
    },
    provisional: (done, total, apply) => {
      if (!pointSource) return;
      const r = snapshot(pointSource);
      apply(r);
      onStage('provisional', r, { resamples: { done, total } });
    },
  };
  const run = (await RUNNERS[task]())({
    path,
    baseDir,
    root,
    config,
    warnings,
    results,
    progress: opts.progress,
    subset: subset ? rowSubset(subset) : undefined,
    onRankedLists: opts.onRankedLists,
    stages,
    collectGarbage: opts.collectGarbage ?? collectsByDefault(),
    onResampling: opts.onResampling,
    baselineRun: opts.baselineRun,
    perItem: opts.perItem ?? true,
  });
  const [info, partial] = hashing
    ? await Promise.all([hashing, run])
    : await run.then(async (p) => [await infoOf(p), p] as const);
  const final = results.build({ source: sourceOf(partial, info), task, config, warnings: warnings.list });
  if (onStage) {
    // Without intervals to wait for, the point estimates are the final results.
    if (!pointSource) onStage('point', copyResults(final), {});
    onStage('final', final, {});
  }
  return final;
}

/**
 * A copy of `r` for a stage: everything cloned but the per-item values, which are shared. They are
 * set once and never changed afterwards, they are the largest part of the results (a value per
 * row), and a clone would turn their row ids (a `RowIds`) into a plain object.
 */
function copyResults(r: Results): Results {
  if (!r.perItem) return structuredClone(r);
  const { perItem, ...rest } = r;
  return { ...structuredClone(rest), perItem };
}
