/** Evaluate Prediction File… and Re-evaluate. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensContext } from '../context';
import { evaluateInput } from '../evaluation';
import { inputOfResults } from '../evaluationFiles';
import { factorModelInput } from '../factorConfig';
import { jsonHoldsRows } from '../rowsContext';
import { activeUri, isPredictionUri, isResultsUri, pickPredictionFile, uriArgs } from './pick';

export async function evaluateCommand(ctx: EvalLensContext, arg0?: unknown, arg1?: unknown): Promise<void> {
  // An eval-lens.json naming a factor model stands for its user factor file, evaluated with it.
  const configOf = new Map<string, string>();
  const inputsOf = async (uris: vscode.Uri[]): Promise<vscode.Uri[]> => {
    const out: vscode.Uri[] = [];
    for (const u of uris) {
      const factors = u.scheme === 'file' ? await factorModelInput(u.fsPath) : undefined;
      if (factors) {
        configOf.set(factors, u.fsPath);
        out.push(vscode.Uri.file(factors));
      } else if (isPredictionUri(u)) out.push(u);
    }
    return out;
  };
  let targets = await inputsOf(uriArgs(arg0, arg1));
  if (targets.length === 0) {
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && active.scheme === 'file') targets = await inputsOf([active]);
  }
  if (targets.length === 0) {
    const picked = await pickPredictionFile('Eval Lens: Evaluate Prediction File');
    if (!picked) return;
    targets = [picked];
  }
  // A .json that is not rows (another tool's metrics, a config, train counts): say so, evaluate the rest.
  const rowsOnly: vscode.Uri[] = [];
  for (const t of targets) {
    if (t.fsPath.toLowerCase().endsWith('.json') && !(await jsonHoldsRows(t.fsPath))) {
      void vscode.window.showInformationMessage(
        `${path.basename(t.fsPath)} holds no prediction rows, so there is nothing to evaluate. A JSON prediction file is an array of row objects ([{"label": …, "pred": …}, …]) or an object of column arrays ({"label": […], "pred": […]}). To view a JSON of results, use Open as Table.`,
      );
      continue;
    }
    rowsOnly.push(t);
  }
  targets = rowsOnly;
  // Several files: one after another (each in its own worker), only the last report opened.
  for (let i = 0; i < targets.length; i++) {
    const configPath = configOf.get(targets[i]!.fsPath);
    await evaluateInput(ctx, targets[i]!, { open: i === targets.length - 1, ...(configPath ? { configPath } : {}) });
  }
}

export async function reevaluateCommand(ctx: EvalLensContext, arg0?: unknown): Promise<void> {
  const uri = uriArgs(arg0, undefined)[0] ?? activeUri(ctx);
  let input: vscode.Uri | undefined;
  if (uri && isResultsUri(uri)) {
    const found = await inputOfResults(ctx, uri);
    if (found && 'refused' in found) {
      ctx.log.warn(`Re-evaluate ${uri.fsPath}: refused: ${found.refused}.`);
      void vscode.window.showErrorMessage(
        `Cannot re-evaluate ${path.basename(uri.fsPath)}: ${found.refused}. Eval Lens only evaluates files inside the workspace; evaluate the prediction file itself (Eval Lens: Evaluate Prediction File…).`,
      );
      return;
    }
    input = found;
    if (!input) {
      void vscode.window.showErrorMessage(
        `Cannot re-evaluate ${path.basename(uri.fsPath)}: its prediction file was not found. Evaluate the prediction file itself (Eval Lens: Evaluate Prediction File…).`,
      );
      return;
    }
  } else if (uri && isPredictionUri(uri)) {
    input = uri;
  } else {
    const last = [...ctx.evaluated.values()].pop();
    input = last?.input ?? (await pickPredictionFile('Eval Lens: Re-evaluate'));
  }
  if (input) await evaluateInput(ctx, input);
}
