// Shared helpers of the importance tests: a temporary folder for input files and a direct call of
// the iw-binary runner with a resolved config.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Warnings } from '../../../src/core/diagnostics';
import type { EvalConfig, ResolvedConfig } from '../../../src/core/config/types';
import { ResultsBuilder } from '../../../src/core/results/builder';
import { runIwBinary } from '../../../src/core/tasks/iwBinary';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-iw-'));
let k = 0;

/** Writes `text` to a fresh temporary file named `*.<ext>` and returns its path. */
export function tempFile(text: string, ext = 'csv'): string {
  const p = join(dir, `in${k++}.${ext}`);
  writeFileSync(p, text);
  return p;
}

export function resolved(cfg: EvalConfig & { bootstrapN?: number; seed?: number } = {}): ResolvedConfig {
  const { bootstrapN, seed, ...rest } = cfg;
  return {
    threshold: 0.5,
    ...rest,
    invalidRows: rest.invalidRows ?? 'error',
    bootstrap: { n: bootstrapN ?? 0, confidence: 0.95, seed: seed ?? 0, stratified: false },
  };
}

/** Runs the iw-binary task on `path`; returns the built results and the runner's source info. */
export async function runIw(path: string, cfg: EvalConfig & { bootstrapN?: number; seed?: number } = {}) {
  const config = resolved(cfg);
  const warnings = new Warnings();
  const results = new ResultsBuilder();
  const source = await runIwBinary({ path, baseDir: dir, config, warnings, results });
  const built = results.build({
    source: { ...source, size: 0, sha256: '' },
    task: 'iw-binary',
    config,
    warnings: warnings.list,
  });
  return { source, results: built, warnings: warnings.list };
}
