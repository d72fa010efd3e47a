/**
 * Re-evaluation when an input evaluated in this session, or the `eval-lens.json` beside it,
 * changes on disk (setting `evalLens.autoReevaluate`, off by default). And, always: when a file
 * that carries an Eval Lens error is saved, its input is checked again quietly so the Problems
 * entry clears once the file is fixed (nothing is written by that check).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensContext, EvaluatedInput } from './context';
import { evaluateInput } from './evaluation';
import { readSettings } from './settings';

const DEBOUNCE_MS = 600;

export function registerAutoReevaluate(ctx: EvalLensContext): vscode.Disposable[] {
  const watchers = new Map<string, vscode.Disposable>();
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<string>();
  // A change that arrives while its input is being evaluated is remembered (the strongest kind:
  // a full evaluation beats a quiet check) and run once the current evaluation ends, so the
  // results never stay behind the file.
  const pending = new Map<string, boolean>();

  const schedule = (input: vscode.Uri, quiet: boolean): void => {
    const key = input.fsPath;
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(async () => {
        timers.delete(key);
        if (running.has(key)) {
          pending.set(key, (pending.get(key) ?? true) && quiet);
          return;
        }
        running.add(key);
        try {
          if (quiet) await evaluateInput(ctx, input, { quiet: true, write: false, open: false });
          else await evaluateInput(ctx, input, { open: false });
        } finally {
          running.delete(key);
          const again = pending.get(key);
          if (again !== undefined) {
            pending.delete(key);
            schedule(input, again);
          }
        }
      }, DEBOUNCE_MS),
    );
  };

  const watch = (e: EvaluatedInput): void => {
    if (watchers.has(e.input.fsPath)) return;
    const dir = vscode.Uri.file(path.dirname(e.input.fsPath));
    const names = [path.basename(e.input.fsPath), 'eval-lens.json'];
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, `{${names.join(',')}}`));
    const onChange = (): void => {
      if (readSettings(e.input).autoReevaluate) {
        ctx.log.info(`Auto re-evaluate: ${e.input.fsPath} or its config changed`);
        schedule(e.input, false);
      }
    };
    watchers.set(e.input.fsPath, vscode.Disposable.from(w, w.onDidChange(onChange), w.onDidCreate(onChange)));
  };

  return [
    ctx.onDidEvaluate(watch),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      for (const input of ctx.diagnostics.inputsWithProblemsIn(doc.uri)) schedule(vscode.Uri.file(input), true);
    }),
    {
      dispose: () => {
        for (const w of watchers.values()) w.dispose();
        for (const t of timers.values()) clearTimeout(t);
      },
    },
  ];
}
