/**
 * An `eval-lens.json` that names `userFactors` describes a factor model: evaluating the config means
 * evaluating its user factor file with that config (the lists are generated from the matrices).
 * The `evalLens.factorConfigs` context key lists such configs by path, so the explorer offers
 * Evaluate on them (a when clause cannot read a file; rowsContext.ts keeps the key current).
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';

export const FACTOR_CONFIGS_KEY = 'evalLens.factorConfigs';

/** The absolute path of the `userFactors` file of the config at `fsPath`, or undefined if it names none. */
export async function factorModelInput(fsPath: string): Promise<string | undefined> {
  if (!/^eval-lens\.json$/i.test(path.basename(fsPath))) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readFile(fsPath, 'utf8')).replace(/^\uFEFF/, ''));
  } catch {
    return undefined; // unreadable or not JSON: the config's own diagnostics say so
  }
  const uf = (parsed as { userFactors?: unknown } | null)?.userFactors;
  // The core checks that the path stays inside the workspace when it evaluates.
  return typeof uf === 'string' && uf !== '' ? path.resolve(path.dirname(fsPath), uf) : undefined;
}
