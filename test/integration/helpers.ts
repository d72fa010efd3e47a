/**
 * Shared steps of the integration tests: activating the extension under test, paths in the
 * workspace (a temp copy of `examples/` opened by the runner), waiting for files and conditions,
 * and answering the extension's quick picks the way a person pressing Enter would.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensContext } from '../../src/extension/context';
import type { Results } from '../../src/core/results/types';

export const EXTENSION_ID = 'eval-lens.eval-lens';

let api: EvalLensContext | undefined;

/** Activates the extension (idempotent) and returns what `activate()` returned. */
export async function activate(): Promise<EvalLensContext> {
  if (api) return api;
  const ext = vscode.extensions.getExtension<EvalLensContext>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  api = await ext.activate();
  assert.ok(ext.isActive, 'extension did not become active');
  return api;
}

/** The workspace folder (the runner's temp copy of examples/). */
export function root(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'no workspace folder open');
  return f.uri.fsPath;
}

export function ws(...rel: string[]): string {
  return path.join(root(), ...rel);
}

export function uri(...rel: string[]): vscode.Uri {
  return vscode.Uri.file(ws(...rel));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `check` until it returns a truthy value (returned) or `timeoutMs` passes (throws). */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(everyMs);
  }
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function readResults(file: string): Results {
  return readJson<Results>(file);
}

export function mtime(file: string): number {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

/** Copies workspace files into a new workspace subfolder (for tests that need their own folder). */
export function makeFolder(
  name: string,
  files: Record<string, string> = {},
  copies: Record<string, string> = {},
): string {
  const dir = ws(name);
  mkdirSync(dir, { recursive: true });
  for (const [n, text] of Object.entries(files)) writeFileSync(path.join(dir, n), text);
  for (const [n, from] of Object.entries(copies)) copyFileSync(ws(from), path.join(dir, n));
  return dir;
}

/**
 * Runs a command that shows quick picks / input boxes and answers each with its default (the
 * first, detected, item) by accepting, as a person pressing Enter would, until `done()` is true.
 * The command's promise is not awaited: some commands end with an information message that stays
 * open until a person closes it. An accept that lands before the picker has its items ends the
 * command without a result (as Escape would); the command is then run again (3 attempts).
 */
export async function runAccepting(
  command: string,
  args: unknown[],
  done: () => boolean | Promise<boolean>,
  timeoutMs = 120_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (let attempt = 1; attempt <= 3; attempt++) {
    let settled = false;
    let failure: unknown;
    void Promise.resolve(vscode.commands.executeCommand(command, ...args)).then(
      () => {
        settled = true;
      },
      (err) => {
        settled = true;
        failure = err;
      },
    );
    await sleep(1000 * attempt);
    while (!settled && !(await done())) {
      if (Date.now() > end) throw new Error(`${command} did not finish within ${timeoutMs} ms`);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await sleep(500);
    }
    if (failure) throw failure;
    // Settled: give a write that follows the last answer a moment, then check.
    if (
      await waitFor(`${command} result`, done, 5_000).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error(`${command} ended three times without its result`);
}

/** All open tabs whose input is an Eval Lens report webview. */
export function reportTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('evalLens.report'));
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * Evaluates a workspace file through the extension's command and returns the results written.
 * The command resolves once the evaluation is done and written, so the wait after it is short.
 */
export async function evaluate(rel: string, resultsRel: string, timeoutMs = 10_000): Promise<Results> {
  const out = ws(resultsRel);
  const before = mtime(out);
  await vscode.commands.executeCommand('evalLens.evaluate', uri(rel));
  await waitFor(`${resultsRel} to be written`, () => mtime(out) > before, timeoutMs);
  return readResults(out);
}
