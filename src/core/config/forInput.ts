/**
 * The config of one input, as an evaluation resolves it: the defaults (the editor's settings), the
 * eval-lens.json beside the input (or the one given), the overriding options. It opens config files
 * only: the task, when the config does not name it, is detected from the input by the caller
 * (io/evaluationInput.ts).
 */
import { resolve } from 'node:path';
import type { EvalConfig, ResolvedConfig } from './types';
import { findConfigBeside, loadConfigFile, resolveConfig } from './load';
import { checkConfig } from './check';

export interface InputConfig {
  /** Absolute path of the input. */
  input: string;
  configPath: string | undefined;
  /** `config.task` is the configured task, if any. */
  config: ResolvedConfig;
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
  return { input, configPath, config };
}
