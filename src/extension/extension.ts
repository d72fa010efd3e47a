/**
 * Eval Lens extension entry. `activate` builds the one context object and registers each part;
 * every part returns Disposables owned by `context.subscriptions`.
 */
import * as vscode from 'vscode';
import { registerAutoReevaluate } from './autoReevaluate';
import { registerCodeLens } from './codeLens';
import { registerCommands } from './commands';
import type { EvalLensContext, EvaluatedInput } from './context';
import { EvalDiagnostics } from './diagnostics';
import { InspectClient } from './inspect/inspectClient';
import { useOperatingPoint } from './report/operatingPointWriter';
import { ReportPanels } from './report/panels';
import { ResultsIndex } from './resultsIndex';
import { registerRowsContext } from './rowsContext';
import { StatusBar } from './statusBar';
import { registerViews } from './tree';

export function activate(extension: vscode.ExtensionContext): EvalLensContext {
  const log = vscode.window.createOutputChannel('Eval Lens', { log: true });
  const evaluatedEmitter = new vscode.EventEmitter<EvaluatedInput>();
  const index = new ResultsIndex(log);
  const status = new StatusBar();
  const inspect = new InspectClient(extension.extensionPath, log);
  const evaluated = new Map<string, EvaluatedInput>();
  // The panels get what they need here, once; they never import the context.
  const panels = new ReportPanels({
    extensionUri: extension.extensionUri,
    log,
    index,
    status,
    inspect,
    evaluated,
    useOperatingPoint: (resultsUri, key, value) => useOperatingPoint(ctx, resultsUri, key, value),
  });
  const ctx: EvalLensContext = {
    extension,
    log,
    diagnostics: new EvalDiagnostics(),
    index,
    panels,
    status,
    inspect,
    evaluated,
    onDidEvaluate: evaluatedEmitter.event,
    fireEvaluated: (e) => evaluatedEmitter.fire(e),
  };
  extension.subscriptions.push(
    log,
    evaluatedEmitter,
    ctx.diagnostics,
    ctx.index,
    ctx.status,
    ctx.inspect,
    ctx.panels,
    ...registerCommands(ctx),
    ...registerViews(ctx),
    ...registerCodeLens(ctx),
    ...registerAutoReevaluate(ctx),
    ...registerRowsContext(ctx),
  );
  void ctx.index.ready();
  log.info(`Eval Lens ${extension.extension.packageJSON.version as string} activated`);
  return ctx;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
