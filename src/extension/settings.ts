/**
 * `evalLens.*` settings: defaults for the core (`evaluateFile`'s `defaults` layer, below the
 * `eval-lens.json` beside the data) and the extension's own switches. Read per resource, so each
 * folder of a multi-root workspace can have its own.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalConfig } from '../core';

export const SECTION = 'evalLens';

export interface ExtensionSettings {
  defaults: EvalConfig;
  outputFolder: string;
  configFile: string;
  codeLens: boolean;
  autoReevaluate: boolean;
}

/**
 * Only settings the person set (user, workspace or folder) become defaults; unset ones leave the
 * core's own defaults, so the two never drift apart.
 */
export function readSettings(scope?: vscode.Uri): ExtensionSettings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const set = <T>(key: string): T | undefined => {
    const i = c.inspect<T>(key);
    return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
  };
  const defaults: EvalConfig = {};
  const bootstrap: NonNullable<EvalConfig['bootstrap']> = {};
  const n = set<number>('bootstrap.resamples');
  const confidence = set<number>('bootstrap.confidence');
  const seed = set<number>('bootstrap.seed');
  if (n !== undefined) bootstrap.n = n;
  if (confidence !== undefined) bootstrap.confidence = confidence;
  if (seed !== undefined) bootstrap.seed = seed;
  if (Object.keys(bootstrap).length > 0) defaults.bootstrap = bootstrap;
  const eceBins = set<number>('eceBins');
  if (eceBins !== undefined) defaults.eceBins = eceBins;
  const k = set<number[]>('k');
  if (k !== undefined) defaults.k = k;
  const score = set<EvalConfig['score']>('score');
  if (score !== undefined) defaults.score = score;
  return {
    defaults,
    outputFolder: c.get<string>('outputFolder', ''),
    configFile: c.get<string>('configFile', ''),
    codeLens: c.get<boolean>('codeLens.enabled', true),
    autoReevaluate: c.get<boolean>('autoReevaluate', false),
  };
}

/** A settings path made absolute against the workspace folder of `scope`. */
export function resolveSettingPath(p: string, scope: vscode.Uri): string | undefined {
  if (!p) return undefined;
  if (path.isAbsolute(p)) return p;
  const folder = vscode.workspace.getWorkspaceFolder(scope) ?? vscode.workspace.workspaceFolders?.[0];
  return folder ? path.join(folder.uri.fsPath, p) : undefined;
}
