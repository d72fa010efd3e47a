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
import type { Progress } from '../diagnostics';
import type { EvalConfig } from '../config/types';
import { findConfigBeside, loadConfigFile } from '../config/load';
import { evaluateFile } from '../evaluate';
import { readResultsFile } from '../results/validate';
import type { Results } from '../results/types';
import { compareRuns, resolveBaseline, runNames } from './compareRuns';
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
}

/** True for a path that names an Eval Lens results file rather than predictions. */
export function isResultsPath(path: string): boolean {
  return /\.eval\.json$/i.test(path);
}

/** Reads or evaluates one run. */
export async function loadRun(
  path: string,
  opts: Pick<
    CompareFilesOptions,
    'configPath' | 'overrides' | 'defaults' | 'root' | 'progress' | 'collectGarbage'
  > = {},
): Promise<Results> {
  if (isResultsPath(path)) return readResultsFile(path);
  return evaluateFile(path, {
    configPath: opts.configPath,
    overrides: opts.overrides,
    defaults: opts.defaults,
    root: opts.root,
    progress: opts.progress,
    collectGarbage: opts.collectGarbage,
  });
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
  const results: Results[] = [];
  for (let i = 0; i < paths.length; i++) {
    opts.progress?.report?.('evaluating runs', i, paths.length);
    results.push(await loadRun(paths[i], { ...opts, configPath: opts.configPath }));
  }
  const runs = [...paths];
  const baseline = opts.baseline ?? cfg.baseline;
  let bootstrap = opts.bootstrap;
  if (!bootstrap && results.length > 0) {
    const b = results[resolveBaseline(runs, runNames(runs), baseline)].config?.bootstrap;
    if (b) bootstrap = { n: b.n, confidence: b.confidence, seed: b.seed };
  }
  return compareRuns(results, {
    runs,
    baseline,
    metrics: opts.metrics ?? cfg.metrics,
    matchBy: opts.matchBy ?? cfg.matchBy,
    directions: { ...(cfg.directions ?? {}), ...(opts.directions ?? {}) },
    bootstrap,
    onMismatch: opts.onMismatch,
    progress: opts.progress,
  });
}
