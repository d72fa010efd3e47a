/**
 * An input as an evaluation resolves it: its config (config/forInput.ts), its task (from the
 * config, else detected from the file's first 64 KiB) and the folders its config paths are resolved
 * against. Its own module (no metric code) so that the extension can tell a prediction file's task,
 * to offer only runs it can be compared with, without loading the evaluation.
 */
import { dirname, resolve } from 'node:path';
import type { ResolvedConfig, Task } from '../config/types';
import { resolveInputConfig, type InputConfig, type InputConfigOptions } from '../config/forInput';
import { detectTask } from './detectTask';
import { checkTextEncoding } from './encoding';

export interface InputTask extends InputConfig {
  task: Task;
}

/** The config of an input and its task, which `config.task` then names too. */
export async function resolveInputTask(path: string, opts: InputConfigOptions = {}): Promise<InputTask> {
  const { input, configPath, config } = await resolveInputConfig(path, opts);
  const task = config.task ?? (await detectTask(path, config));
  config.task = task;
  return { input, configPath, config, task };
}

export interface EvaluationInputOptions extends InputConfigOptions {
  /**
   * Workspace root: paths in the config must stay inside it (`resolveConfigPath`). Default: the
   * config file's folder (else the input's).
   */
  root?: string;
}

/** Inputs read as text (UTF-8); binary inputs (.npy, .npz, .parquet) are not checked. */
const TEXT_EXTENSIONS = /\.(csv|tsv|txt|jsonl|ndjson|json|trec|qrels|run)$/i;

/** The config of an evaluation, resolved as evaluateFile resolves it (shared with the row inspection and the diff). */
export interface ResolvedEvaluation {
  /** Absolute path of the input. */
  input: string;
  configPath: string | undefined;
  config: ResolvedConfig;
  task: Task;
  /** Folder relative config paths are resolved against. */
  baseDir: string;
  root: string;
}

export async function resolveEvaluation(path: string, opts: EvaluationInputOptions = {}): Promise<ResolvedEvaluation> {
  if (TEXT_EXTENSIONS.test(resolve(path))) await checkTextEncoding(path);
  const { input, configPath, config, task } = await resolveInputTask(path, opts);
  const baseDir = configPath ? dirname(configPath) : dirname(input);
  return { input, configPath, config, task, baseDir, root: opts.root ? resolve(opts.root) : baseDir };
}
