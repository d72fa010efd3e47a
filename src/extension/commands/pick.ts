/** Choosing files: from command arguments (explorer, editor, tree), the active editor, or a quick pick. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveInputTask } from '../../core';
import { isEvalLensJson, PREDICTION_EXTENSIONS } from '../../shared/outputName';
import type { EvalLensContext } from '../context';
import { jsonHoldsRows } from '../rowsContext';
import { readSettings } from '../settings';
import type { BaselineKind } from '../../core';
import { baselineChoices, comparablePredictions, comparableResults, mapFewAtOnce } from './runChoices';

const PRED_GLOB = `**/*.{${PREDICTION_EXTENSIONS.filter((e) => e !== 'txt').join(',')}}`;
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/dist/**,**/.cache/**}';

export function isPredictionUri(uri: vscode.Uri): boolean {
  const base = path.basename(uri.fsPath);
  const ext = path.extname(base).slice(1).toLowerCase();
  return (
    (PREDICTION_EXTENSIONS as readonly string[]).includes(ext) &&
    !isEvalLensJson(base) &&
    !/^(package(-lock)?|tsconfig.*)\.json$/i.test(base)
  );
}

export function isResultsUri(uri: vscode.Uri): boolean {
  return /\.eval\.json$/i.test(uri.fsPath);
}

export function isReportableUri(uri: vscode.Uri): boolean {
  return /\.(eval|compare)\.json$/i.test(uri.fsPath);
}

/** The explorer passes (clicked, allSelected); the editor title passes (uri); the palette nothing. */
export function uriArgs(arg0: unknown, arg1: unknown): vscode.Uri[] {
  if (Array.isArray(arg1) && arg1.length > 0 && arg1.every((u) => u instanceof vscode.Uri)) return arg1 as vscode.Uri[];
  if (arg0 instanceof vscode.Uri) return [arg0];
  if (Array.isArray(arg0) && arg0.every((u) => u instanceof vscode.Uri)) return arg0 as vscode.Uri[];
  return [];
}

/** The active editor's file, or the file behind the active report panel. */
export function activeUri(ctx: EvalLensContext): vscode.Uri | undefined {
  return ctx.panels.activeUri() ?? vscode.window.activeTextEditor?.document.uri;
}

interface FileItem extends vscode.QuickPickItem {
  uri?: vscode.Uri;
  /** A baseline run made from the first run's input. */
  baseline?: BaselineKind;
}

/** What {@link pickRuns} returns: the runs chosen and the baseline runs to add. */
export interface PickedRuns {
  uris: vscode.Uri[];
  against: BaselineKind[];
}

/**
 * The prediction files of the workspace. A `.json` counts only when its head holds rows, as the
 * explorer menu decides it: not another tool's `metrics.json` nor a `train_counts.json`.
 */
export async function findPredictionFiles(): Promise<vscode.Uri[]> {
  const uris = (await vscode.workspace.findFiles(PRED_GLOB, EXCLUDE, 2000)).filter(isPredictionUri);
  const rows = await mapFewAtOnce(uris, (u) =>
    u.fsPath.toLowerCase().endsWith('.json') ? jsonHoldsRows(u.fsPath) : Promise.resolve(true),
  );
  return uris.filter((_, i) => rows[i]).sort((a, b) => a.fsPath.localeCompare(b.fsPath));
}

function item(uri: vscode.Uri, detail?: string): FileItem {
  return {
    label: path.basename(uri.fsPath),
    description: vscode.workspace.asRelativePath(path.dirname(uri.fsPath)),
    uri,
    ...(detail ? { detail } : {}),
  };
}

/** One prediction file from a quick pick (with "Browse…" for files outside the workspace). */
export async function pickPredictionFile(title: string): Promise<vscode.Uri | undefined> {
  const items: FileItem[] = (await findPredictionFiles()).map((u) => item(u));
  items.push({ label: '$(folder-opened) Browse…', alwaysShow: true });
  const choice = await vscode.window.showQuickPick(items, {
    title,
    placeHolder:
      items.length > 1
        ? 'Choose a prediction file (CSV, TSV, JSONL, JSON, TREC run)'
        : 'No prediction files found in the workspace: browse for one',
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if (choice.uri) return choice.uri;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    title,
    filters: { 'Prediction files': PREDICTION_EXTENSIONS.slice() },
  });
  return picked?.[0];
}

/** The task of a results file known to the index, if `uri` is one. */
export function taskOfResults(ctx: EvalLensContext, uri: vscode.Uri): string | undefined {
  const e = ctx.index.all().find((x) => x.uri.fsPath === uri.fsPath);
  return e?.kind === 'results' ? e.results.task : undefined;
}

/**
 * The task a prediction file would be evaluated as: its config (eval-lens.json beside it, over the
 * evalLens.* settings), else detected from its first 64 KiB, as the evaluation decides it. Undefined
 * when that cannot be told (an unreadable file, an invalid config).
 */
async function taskOfPredictions(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return (await resolveInputTask(uri.fsPath, { defaults: readSettings(uri).defaults })).task;
  } catch {
    return undefined;
  }
}

/** The task of a run: a results file's from the index, a prediction file's as its evaluation would find it. */
export async function taskOfRun(ctx: EvalLensContext, uri: vscode.Uri): Promise<string | undefined> {
  return taskOfResults(ctx, uri) ?? (isPredictionUri(uri) ? await taskOfPredictions(uri) : undefined);
}

async function withTasks(uris: readonly vscode.Uri[]): Promise<{ uri: vscode.Uri; task: string | undefined }[]> {
  const tasks = await mapFewAtOnce(uris, taskOfPredictions);
  return uris.map((uri, i) => ({ uri, task: tasks[i] }));
}

/**
 * Several runs: results files of the index and prediction files, at least two. With `task`, only
 * runs of that task are offered (runs of different tasks cannot be compared): results of that task,
 * and prediction files whose config or columns make them that task (or whose task cannot be told
 * before their evaluation); the list says how many files of other tasks it leaves out. When a first
 * run is given (`exclude[0]`) and its task is known, the baselines that fit the task are offered
 * first (made from that run's input).
 */
export async function pickRuns(
  ctx: EvalLensContext,
  title: string,
  exclude: vscode.Uri[] = [],
  task?: string,
): Promise<PickedRuns | undefined> {
  await ctx.index.ready();
  const skip = new Set(exclude.map((u) => u.fsPath));
  const results = comparableResults(ctx.index.all(), [...skip], task);
  const items: FileItem[] = [];
  const baselines = exclude[0] ? baselineChoices(task) : [];
  if (baselines.length > 0)
    items.push({
      label: `Baselines (from ${path.basename(exclude[0]!.fsPath)})`,
      kind: vscode.QuickPickItemKind.Separator,
    });
  for (const b of baselines) items.push({ label: b.label, detail: b.detail, baseline: b.kind });
  if (results.length > 0)
    items.push({ label: task ? `Results (${task})` : 'Results', kind: vscode.QuickPickItemKind.Separator });
  for (const e of results)
    items.push(item(e.uri, e.kind === 'results' ? `${e.results.task} · ${e.results.source.path}` : undefined));
  const found = (await findPredictionFiles()).filter((u) => !skip.has(u.fsPath));
  const { offered: preds, hidden } =
    task === undefined ? { offered: found, hidden: 0 } : comparablePredictions(await withTasks(found), task);
  const others = hidden > 0 ? `; ${hidden} of other tasks not shown` : '';
  if (preds.length > 0)
    items.push({ label: `Prediction files (evaluated first${others})`, kind: vscode.QuickPickItemKind.Separator });
  for (const u of preds) items.push(item(u));
  const need = Math.max(1, 2 - exclude.length);
  const chosen = await vscode.window.showQuickPick(items, {
    title,
    canPickMany: true,
    placeHolder: `Choose ${need === 1 ? 'one or more runs' : 'two or more runs'} to compare${baselines.length > 0 ? ', or a baseline' : ''}`,
    matchOnDescription: true,
  });
  if (!chosen) return undefined;
  const uris = chosen.flatMap((c) => (c.uri ? [c.uri] : []));
  const against = chosen.flatMap((c) => (c.baseline ? [c.baseline] : []));
  if (uris.length + against.length < need) {
    void vscode.window.showWarningMessage(
      `Compare needs at least two runs; ${uris.length + against.length + exclude.length} chosen.`,
    );
    return undefined;
  }
  return { uris, against };
}
