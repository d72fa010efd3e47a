/**
 * Problems-panel entries for failed evaluations (an EvalLensError's file and line; config errors
 * point at the config file) and for results warnings that name a line. Entries belong to the
 * input whose evaluation produced them, and are replaced on its next evaluation, so they clear
 * when the file is fixed.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { EvalWarning } from '../core';
import { cellSpan } from '../shared/cellSpan';
import type { SerializedError } from './workerProtocol';

/** The message without its leading `file:line[:col][, column "x"]: ` (the Problems panel shows where). */
export function withoutLocation(message: string, file?: string): string {
  if (!file) return message;
  const esc = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message.replace(new RegExp(`^${esc}(:\\d+)?(:\\d+)?(, column "[^"]*")?: `), '');
}

/** Diagnostics without repeats (same range, severity, code and message). */
export function uniqueDiagnostics(list: readonly vscode.Diagnostic[]): vscode.Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const r = d.range;
    const key = `${r.start.line}:${r.start.character}:${r.end.line}:${r.end.character}|${d.severity}|${String(d.code)}|${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Lines of files read once per report (only on a failed evaluation, to place entries at the cell). */
class LineReader {
  private readonly files = new Map<string, string[] | null>();

  get(fsPath: string, index: number): string | undefined {
    let lines = this.files.get(fsPath);
    if (lines === undefined) {
      try {
        lines = readFileSync(fsPath, 'utf8').split(/\r?\n/);
      } catch {
        lines = null;
      }
      this.files.set(fsPath, lines);
    }
    return lines?.[index];
  }
}

export class EvalDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('eval-lens');
  /** Input fsPath → files that carry diagnostics from its evaluation. */
  private readonly byInput = new Map<string, Map<string, vscode.Diagnostic[]>>();

  /** Inputs whose last evaluation left an entry in `file`. */
  inputsWithProblemsIn(file: vscode.Uri): string[] {
    return [...this.byInput.entries()].filter(([, files]) => files.has(file.fsPath)).map(([input]) => input);
  }

  /**
   * Replaces the entries of `input` with its error: one entry per bad cell or row when the error
   * lists several, each starting at the cell and naming its column. Returns where the first
   * problem is (its file and its cell's range, else its whole line), for the pop-up's Open.
   */
  reportError(input: vscode.Uri, err: SerializedError): { file: vscode.Uri; range: vscode.Range } | undefined {
    const problems =
      err.problems && err.problems.length > 0
        ? err.problems
        : [
            {
              code: err.code ?? '',
              location: err.location ?? { file: input.fsPath },
              what: withoutLocation(err.message, err.location?.file),
            },
          ];
    const lines = new LineReader();
    const files = new Map<string, vscode.Diagnostic[]>();
    let first: { file: vscode.Uri; range: vscode.Range } | undefined;
    for (const p of problems) {
      const file = p.location.file ? vscode.Uri.file(p.location.file) : input;
      const line = Math.max(0, (p.location.line ?? 1) - 1);
      // A single error's text still ends with its "and N more" summary; each listed problem says only its own.
      const text = err.problems ? p.what : withoutLocation(err.message, err.location?.file);
      let range = new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER);
      const column = p.location.column;
      if (column !== undefined && p.location.line !== undefined) {
        const span = cellSpan(file.fsPath, lines.get(file.fsPath, 0), lines.get(file.fsPath, line) ?? '', column);
        if (span) range = new vscode.Range(line, span[0], line, span[1]);
      }
      const d = new vscode.Diagnostic(
        range,
        column !== undefined ? `Column "${column}": ${text}` : text,
        vscode.DiagnosticSeverity.Error,
      );
      d.source = 'Eval Lens';
      if (p.code) d.code = p.code;
      files.set(file.fsPath, [...(files.get(file.fsPath) ?? []), d]);
      if (!first && p.location.line !== undefined) first = { file, range };
    }
    this.set(input, files);
    return first;
  }

  /** Replaces the entries of `input` with its results' warnings that name a line. */
  reportWarnings(input: vscode.Uri, warnings: readonly EvalWarning[]): void {
    const files = new Map<string, vscode.Diagnostic[]>();
    for (const w of warnings) {
      if (w.line === undefined) continue;
      const file = w.file ? vscode.Uri.file(w.file).fsPath : input.fsPath;
      const line = Math.max(0, w.line - 1);
      const d = new vscode.Diagnostic(
        new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
        `${w.message}${w.count !== undefined && w.count > 1 ? ` (${w.count} rows)` : ''}`,
        vscode.DiagnosticSeverity.Warning,
      );
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
      // A file may carry entries of several inputs (a shared config): merge them, and the same
      // problem found by several inputs' evaluations (a config typo) is listed once.
      this.collection.set(
        vscode.Uri.file(f),
        uniqueDiagnostics([...this.byInput.values()].flatMap((m) => m.get(f) ?? [])),
      );
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}
