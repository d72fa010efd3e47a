// A ResolvedConfig for io tests: defaults plus the keys given.
import { CONFIG_DEFAULTS, type EvalConfig, type ResolvedConfig } from '../../../src/core/config/types';

export function configOf(extra: EvalConfig = {}): ResolvedConfig {
  return {
    ...CONFIG_DEFAULTS,
    ...extra,
    invalidRows: extra.invalidRows ?? 'error',
    bootstrap: { ...CONFIG_DEFAULTS.bootstrap },
  } as ResolvedConfig;
}
