/**
 * What every task runner (classification, iw-binary, ranking) receives. A runner reads its input
 * files, computes its families into `results`, adds warnings, and returns the source description.
 */
import type { Progress, Warnings } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import type { ResultsBuilder } from '../results/builder';
import type { SourceInfo } from '../results/types';

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
}

/** A task runner returns the description of its main source (hash and size are added by the caller). */
export type TaskRunner = (ctx: TaskContext) => Promise<Omit<SourceInfo, 'size' | 'sha256'> & Partial<Pick<SourceInfo, 'size' | 'sha256'>>>;
