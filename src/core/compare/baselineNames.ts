/**
 * Names of the baseline runs a comparison adds (`eval-lens compare A --against majority`): the
 * run's identifier is `baseline:KIND (of SOURCE)`, SOURCE the run its input was taken from as
 * given; its display name puts SOURCE's short name there. Nothing is written for such a run: it is
 * evaluated from SOURCE's input (tasks/baselineRun.ts).
 */
import { BASELINE_KINDS, type BaselineKind } from '../tasks/baselineRun';

export { BASELINE_KINDS, type BaselineKind };

const PATTERN = /^baseline:(majority|prior|popularity|random) \(of ([\s\S]+)\)$/;

/** The identifier of the `kind` baseline of the run `source` (a path as given). */
export function baselineRunName(kind: BaselineKind, source: string): string {
  return `baseline:${kind} (of ${source})`;
}

/** The kind and source of a baseline run's identifier, or null for any other run. */
export function parseBaselineRunName(run: string): { kind: BaselineKind; source: string } | null {
  const m = PATTERN.exec(run);
  return m ? { kind: m[1] as BaselineKind, source: m[2]! } : null;
}

/**
 * The baselines named in `values` (each one name or a comma-separated list), in order, each once;
 * `unknown` lists the names that are not baselines.
 */
export function parseBaselineKinds(values: readonly string[]): { kinds: BaselineKind[]; unknown: string[] } {
  const kinds: BaselineKind[] = [];
  const unknown: string[] = [];
  for (const v of values)
    for (const part of v.split(',')) {
      const name = part.trim().toLowerCase();
      if (name === '') continue;
      if (!(BASELINE_KINDS as readonly string[]).includes(name)) unknown.push(part.trim());
      else if (!kinds.includes(name as BaselineKind)) kinds.push(name as BaselineKind);
    }
  return { kinds, unknown };
}
