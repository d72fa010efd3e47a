/**
 * Comparing files: each run is a prediction file (evaluated with `evaluateFile`) or an existing
 * `*.eval.json` (read with `readResultsFile`); then {@link compareRuns}. The extension's Compare
 * command and `eval-lens compare` both come through here.
 *
 * Settings, strongest first: `opts`, the config's `compare` section (`opts.configPath`, else
 * `eval-lens.json` beside the first run), and for the paired bootstrap the baseline's own
 * `config.bootstrap` (the evaluated defaults: 1,000 resamples, 95%, generator seed = 0).
 */
import { resolve } from 'node:path';
import { EvalLensError, type Progress } from '../diagnostics';
import type { EvalConfig } from '../config/types';
import { findConfigBeside, loadConfigFile } from '../config/load';
import type { Results } from '../results/types';
import { compareRuns, resolveBaseline, runNames } from './compareRuns';
import { addPairedTests, isResultsPath, loadPairingRun, type PairingRun } from './pairedRuns';
import { baselineRunName } from './baselineNames';
import { BASELINES_OF_TASK, checkBaselineFits, type BaselineKind } from '../tasks/baselineRun';

export { isResultsPath };
import type { CompareOptions, CompareResults } from './types';

export interface CompareFilesOptions extends CompareOptions {
  /** Config file for the compare settings and for evaluating prediction files. */
  configPath?: string;
  /** Config overrides (CLI flags) passed to `evaluateFile`. */
  overrides?: EvalConfig;
  /** Defaults from the host (VS Code settings) passed to `evaluateFile`. */
  defaults?: EvalConfig;
  /** Workspace root passed to `evaluateFile` (config paths must stay inside it). */
  root?: string;
  progress?: Progress;
  /** Passed to `evaluateFile` (full collections after large arrays are let go). */
  collectGarbage?: boolean;
  /**
   * Baseline runs made from the first run's input (tasks/baselineRun.ts), compared like any run:
   * they come first, and the first of them is the baseline unless `baseline` says otherwise.
   */
  against?: readonly BaselineKind[];
  /** How the first run is named in the baseline runs' names (default: as given in `paths`). */
  againstLabel?: string;
}

/**
 * Evaluates or reads every run, then compares them.
 *
 * @example compareFiles(['a.csv', 'b.csv'], { baseline: 'a.csv' })
 */
export async function compareFiles(paths: readonly string[], opts: CompareFilesOptions = {}): Promise<CompareResults> {
  const configPath = opts.configPath
    ? resolve(opts.configPath)
    : paths[0]
      ? await findConfigBeside(resolve(paths[0]))
      : undefined;
  const cfg = configPath ? ((await loadConfigFile(configPath)).compare ?? {}) : {};
  const against = opts.against ?? [];
  const derived = against.map((k) => baselineRunName(k, opts.againstLabel ?? paths[0] ?? ''));
  const runs = [...derived, ...paths];
  // Baselines asked for are what the runs are compared against, unless the caller names another.
  const baseline = opts.baseline ?? (derived.length > 0 ? derived[0] : cfg.baseline);
  // The paired bootstrap's settings: the caller's, else the baseline's config (evaluated defaults).
  const loadOpts = { ...opts, configPath: opts.configPath, bootstrap: opts.bootstrap };
  const loaded: PairingRun[] = [];
  const total = paths.length + against.length;
  for (let i = 0; i < paths.length; i++) {
    opts.progress?.report?.('evaluating runs', i, total);
    loaded.push(await loadPairingRun(paths[i], loadOpts));
  }
  if (against.length > 0 && loaded[0]) {
    const task = loaded[0].results.task;
    for (const k of against) checkBaselineFits(k, task, paths[0]!, BASELINES_OF_TASK[task] ?? []);
    const made: PairingRun[] = [];
    for (const k of against) {
      opts.progress?.report?.('evaluating runs', paths.length + made.length, total);
      made.push(await loadPairingRun(paths[0]!, { ...loadOpts, baselineRun: k }));
    }
    loaded.unshift(...made);
  }
  const results: Results[] = loaded.map((r) => r.results);
  let bootstrap = opts.bootstrap;
  if (!bootstrap && results.length > 0) {
    const b = results[resolveBaseline(runs, runNames(runs), baseline)].config?.bootstrap;
    if (b) bootstrap = { n: b.n, confidence: b.confidence, seed: b.seed };
  }
  const adjust = opts.adjust ?? cfg.adjust ?? 'holm';
  const directions = { ...(cfg.directions ?? {}), ...(opts.directions ?? {}) };
  const cmp = await compareRuns(results, {
    runs,
    baseline,
    metrics: opts.metrics ?? cfg.metrics,
    matchBy: opts.matchBy ?? cfg.matchBy,
    directions,
    bootstrap,
    adjust,
    onMismatch: opts.onMismatch,
    progress: opts.progress,
  });
  for (const r of loaded) cmp.warnings.push(...r.warnings);
  if (bootstrap && bootstrap.n > 0) {
    try {
      await addPairedTests(cmp, loaded, { bootstrap, adjust, directions, progress: opts.progress });
    } catch (e) {
      // Runs whose units do not pair one to one (intersected ids) keep their per-item tests.
      if (!(e instanceof EvalLensError) || e.code !== 'compare-paired-mismatch') throw e;
      cmp.warnings.push({
        code: 'compare-paired-mismatch',
        message: `No paired bootstrap of every metric: ${e.message}`,
        file: cmp.baseline,
      });
    }
  }
  return cmp;
}
