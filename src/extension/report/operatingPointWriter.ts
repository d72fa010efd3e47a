/**
 * "Use this operating point" of the threshold explorer: the chosen key (`acceptThreshold`,
 * `targetCoverage`, or `threshold` for the importance-weighted task) is written into the config the
 * evaluation uses — through the same config writer as "Create Evaluation Config" — and the
 * prediction file is evaluated again, which refreshes the report.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { OperatingPointKey } from '../../shared/protocol';
import { configTargetFor, setConfigKeys } from '../configWriter';
import type { EvalLensContext } from '../context';
import { evaluateInput } from '../evaluation';
import { inputOfResults } from '../evaluationFiles';

/** Acceptance keys that would override the written one (the rule order: acceptThreshold first). */
const CONFLICTS: Record<OperatingPointKey, string[]> = {
  acceptThreshold: ['targetCoverage'],
  targetCoverage: ['acceptThreshold'],
  threshold: [],
};

export async function useOperatingPoint(
  ctx: EvalLensContext,
  resultsUri: vscode.Uri,
  key: OperatingPointKey,
  value: number,
): Promise<{ ok: boolean; message: string }> {
  const input = await inputOfResults(ctx, resultsUri);
  if (!input)
    return {
      ok: false,
      message: `The prediction file of ${path.basename(resultsUri.fsPath)} was not found; nothing was written.`,
    };
  if ('refused' in input)
    return {
      ok: false,
      message: `The recorded prediction file of ${path.basename(resultsUri.fsPath)} is refused (${input.refused}); nothing was written.`,
    };
  const target = await configTargetFor(input);
  const name = vscode.workspace.asRelativePath(target, false);
  try {
    await setConfigKeys(target, { [key]: value }, CONFLICTS[key]);
  } catch (err) {
    ctx.log.error(`Use operating point: ${(err as Error).message}`);
    return { ok: false, message: `Cannot write ${name}: ${(err as Error).message}` };
  }
  const removed =
    CONFLICTS[key].length > 0 ? ` (${CONFLICTS[key].join(', ')} removed: one acceptance rule at a time)` : '';
  ctx.log.info(`Use operating point: ${key} = ${value} written to ${target.fsPath}${removed}`);
  const done = await evaluateInput(ctx, input, { open: false });
  return done
    ? { ok: true, message: `Wrote ${key} ${value} to ${name}${removed} and evaluated again.` }
    : { ok: false, message: `Wrote ${key} ${value} to ${name}; the evaluation did not finish (see the log).` };
}
