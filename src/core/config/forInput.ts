/**
 * The config and task of one input, as an evaluation resolves them: the defaults (the editor's
 * settings), the eval-lens.json beside the input (or the one given), the overriding options; then
 * the task, from the config or detected from the file's first 64 KiB. Its own module (no metric code)
 * so that the extension can tell a prediction file's task, to offer only runs it can be compared
 * with, without loading the evaluation.
 */
import { resolve } from 'node:path';
import type { EvalConfig, ResolvedConfig, Task } from './types';
import { findConfigBeside, loadConfigFile, resolveConfig } from './load';
import { checkConfig } from './check';
import { detectTask } from '../io/detectTask';

export interface InputConfig {
  /** Absolute path of the input. */
  input: string;
  configPath: string | undefined;
  config: ResolvedConfig;
  task: Task;
}

export interface InputConfigOptions {
  /** A config file to use instead of the eval-lens.json beside the input. */
  configPath?: string;
  /** Below the config file (the editor's evalLens.* settings). */
  defaults?: EvalConfig;
  /** Above the config file (command-line flags). */
  overrides?: EvalConfig;
}

export async function resolveInputConfig(path: string, opts: InputConfigOptions = {}): Promise<InputConfig> {
  const input = resolve(path);
  const configPath = opts.configPath ? resolve(opts.configPath) : await findConfigBeside(input);
  const fileConfig = configPath ? await loadConfigFile(configPath) : {};
  // Settings and flags are checked like a file (no lines to name): families get schema-valid keys.
  const defaults = checkConfig(opts.defaults ?? {}, 'the default settings (evalLens.*)');
  const overrides = checkConfig(opts.overrides ?? {}, 'the overriding options');
  const config = resolveConfig([defaults, fileConfig, overrides], configPath);
  const task = config.task ?? (await detectTask(path, config));
  config.task = task;
  return { input, configPath, config, task };
}
