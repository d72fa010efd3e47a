/**
 * Problems-panel entries for failed evaluations (an EvalLensError's file and line; config errors
 * point at the config file) and for results warnings that name a line. Entries belong to the
 * input whose evaluation produced them, and are replaced on its next evaluation, so they clear
 * when the file is fixed.
 */
import * as vscode from 'vscode';
import type { EvalWarning } from '../core/diagnostics';
import type { SerializedError } from './workerProtocol';

/** The message without its leading `file:line[:col][, column "x"]: ` (the Problems panel shows where). */
export function withoutLocation(message: string, file?: string): string {
  if (!file) return message;
  const esc = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message.replace(new RegExp(`^${esc}(:\\d+)?(:\\d+)?(, column "[^"]*")?: `), '');
}

export class EvalDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('eval-lens');
  /** Input fsPath → files that carry diagnostics from its evaluation. */
  private readonly byInput = new Map<string, Map<string, vscode.Diagnostic[]>>();

  /** Inputs whose last evaluation left an entry in `file`. */
  inputsWithProblemsIn(file: vscode.Uri): string[] {
    return [...this.byInput.entries()].filter(([, files]) => files.has(file.fsPath)).map(([input]) => input);
  }

  /** Replaces the entries of `input` with one error. */
  reportError(input: vscode.Uri, err: SerializedError): void {
    const file = err.location?.file ? vscode.Uri.file(err.location.file) : input;
    const line = Math.max(0, (err.location?.line ?? 1) - 1);
    const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), withoutLocation(err.message, err.location?.file), vscode.DiagnosticSeverity.Error);
    d.source = 'Eval Lens';
    if (err.code) d.code = err.code;
    this.set(input, new Map([[file.fsPath, [d]]]));
  }

  /** Replaces the entries of `input` with its results' warnings that name a line. */
  reportWarnings(input: vscode.Uri, warnings: readonly EvalWarning[]): void {
    const files = new Map<string, vscode.Diagnostic[]>();
    for (const w of warnings) {
      if (w.line === undefined) continue;
      const file = w.file ? vscode.Uri.file(w.file).fsPath : input.fsPath;
      const line = Math.max(0, w.line - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), `${w.message}${w.count !== undefined && w.count > 1 ? ` (${w.count} rows)` : ''}`, vscode.DiagnosticSeverity.Warning);
      d.source = 'Eval Lens';
      d.code = w.code;
      const list = files.get(file) ?? [];
      list.push(d);
      files.set(file, list);
    }
    this.set(input, files);
  }

  clear(input: vscode.Uri): void {
    this.set(input, new Map());
  }

  private set(input: vscode.Uri, files: Map<string, vscode.Diagnostic[]>): void {
    const old = this.byInput.get(input.fsPath);
    if (files.size === 0) this.byInput.delete(input.fsPath);
    else this.byInput.set(input.fsPath, files);
    const touched = new Set([...(old?.keys() ?? []), ...files.keys()]);
    for (const f of touched) {
      // A file may carry entries of several inputs (a shared config): merge them.
      const all = [...this.byInput.values()].flatMap((m) => m.get(f) ?? []);
      this.collection.set(vscode.Uri.file(f), all);
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}
