/** Compare Runs… (explorer multi-select or quick pick) and Compare With… (from a tree item). */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CompareResults } from '../../core';
import { parseBaselineRunName, renameOverlayRuns } from '../../core';
import type { BaselineKind } from '../../core';
import { compareFileName } from '../../shared/outputName';
import type { EvalLensContext } from '../context';
import { readSettings, resolveSettingPath } from '../settings';
import { JobCancelled, JobFailed, runJob } from '../workerClient';
import { isPredictionUri, isResultsUri, pickRuns, taskOfRun, uriArgs } from './pick';

async function chooseBaseline(runs: vscode.Uri[]): Promise<vscode.Uri | undefined> {
  const items = runs.map((u, i) => ({
    label: path.basename(u.fsPath),
    description: i === 0 ? 'first selected' : vscode.workspace.asRelativePath(path.dirname(u.fsPath)),
    uri: u,
  }));
  const choice = await vscode.window.showQuickPick(items, {
    title: 'Eval Lens: Compare Runs — baseline',
    placeHolder: 'Which run is the baseline the others are tested against?',
  });
  return choice?.uri;
}

/**
 * Compares `runs`; with `against`, also the baseline runs made from the first run's input, the
 * first of them the baseline (no question asked then).
 */
export async function compareUris(
  ctx: EvalLensContext,
  runs: vscode.Uri[],
  against: readonly BaselineKind[] = [],
): Promise<void> {
  const baseline = against.length > 0 ? runs[0] : await chooseBaseline(runs);
  if (!baseline) return;
  const ordered = [baseline, ...runs.filter((u) => u.fsPath !== baseline.fsPath)];
  const settings = readSettings(ordered[0]);
  const dir = resolveSettingPath(settings.outputFolder, ordered[0]!) ?? path.dirname(ordered[0]!.fsPath);
  // Named after the set of runs, so the same runs in another order (or with another baseline) reuse the file.
  const out = vscode.Uri.file(
    path.join(
      dir,
      compareFileName([
        ...ordered.map((u) => vscode.workspace.asRelativePath(u, false)),
        ...against.map((k) => `${k}-baseline`),
      ]),
    ),
  );
  const paths = ordered.map((u) => u.fsPath);
  const againstLabel = vscode.workspace.asRelativePath(ordered[0]!, false);
  ctx.log.info(
    `Comparing ${paths.join(', ')} (baseline ${against.length > 0 ? `${against[0]} of ${againstLabel}` : baseline.fsPath})`,
  );
  let compare: CompareResults;
  try {
    compare = await runJob(
      ctx.extension.extensionPath,
      against.length > 0
        ? { type: 'compare', paths, defaults: settings.defaults, against: [...against], againstLabel }
        : { type: 'compare', paths, defaults: settings.defaults, baseline: baseline.fsPath },
      `Eval Lens: comparing ${ordered.length + against.length} runs`,
      ctx.log,
    );
  } catch (err) {
    if (err instanceof JobCancelled) {
      void vscode.window.showInformationMessage('Comparison cancelled; nothing was written.');
      return;
    }
    const msg = err instanceof JobFailed ? err.error.message : String(err);
    ctx.log.error(`Comparison failed: ${msg}`);
    if (err instanceof JobFailed && err.error.location?.file)
      ctx.diagnostics.reportError(vscode.Uri.file(err.error.location.file), err.error);
    const choice = await vscode.window.showErrorMessage(`Cannot compare the runs: ${msg}`, 'Show Log');
    if (choice) ctx.log.show();
    return;
  }
  // Show runs by their workspace-relative path rather than the absolute one.
  const rel = (p: string): string => (parseBaselineRunName(p) ? p : vscode.workspace.asRelativePath(p, false));
  const renamed = new Map(compare.runs.map((r) => [r, rel(r)]));
  const mapRun = <T>(rec: Record<string, T>): Record<string, T> =>
    Object.fromEntries(Object.entries(rec).map(([k, v]) => [renamed.get(k) ?? k, v]));
  compare.table = mapRun(compare.table);
  for (const m of Object.keys(compare.marks)) compare.marks[m] = mapRun(compare.marks[m]!);
  if (compare.display) compare.display = mapRun(compare.display);
  if (compare.intervals) compare.intervals = mapRun(compare.intervals);
  if (compare.curves) compare.curves = renameOverlayRuns(compare.curves, mapRun);
  compare.tests = compare.tests.map((t) => ({
    ...t,
    run: renamed.get(t.run) ?? t.run,
    baseline: renamed.get(t.baseline) ?? t.baseline,
  }));
  compare.baseline = renamed.get(compare.baseline) ?? compare.baseline;
  compare.runs = compare.runs.map((r) => renamed.get(r) ?? r);
  await vscode.workspace.fs.writeFile(out, new TextEncoder().encode(JSON.stringify(compare, null, 2) + '\n'));
  ctx.log.info(`Comparison written to ${out.fsPath}`);
  await ctx.index.load(out);
  await ctx.panels.open(out);
}

export async function compareCommand(ctx: EvalLensContext, arg0?: unknown, arg1?: unknown): Promise<void> {
  let runs = uriArgs(arg0, arg1).filter((u) => isPredictionUri(u) || isResultsUri(u));
  let against: BaselineKind[] = [];
  if (runs.length < 2) {
    await ctx.index.ready();
    const task = runs[0] ? await taskOfRun(ctx, runs[0]) : undefined;
    const picked = await pickRuns(ctx, 'Eval Lens: Compare Runs', runs, task);
    if (!picked) return;
    runs = [...runs, ...picked.uris];
    against = picked.against;
  }
  await compareUris(ctx, runs, against);
}

export async function compareWithCommand(ctx: EvalLensContext, arg0?: unknown): Promise<void> {
  const first = arg0 instanceof vscode.Uri ? arg0 : (arg0 as { entry?: { uri?: vscode.Uri } } | undefined)?.entry?.uri;
  if (!first) return compareCommand(ctx);
  await ctx.index.ready();
  const others = await pickRuns(
    ctx,
    `Eval Lens: Compare ${path.basename(first.fsPath)} With…`,
    [first],
    await taskOfRun(ctx, first),
  );
  if (others) await compareUris(ctx, [first, ...others.uris], others.against);
}
