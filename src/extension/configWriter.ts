/**
 * The one writer of `eval-lens.json` in the extension: "Create Evaluation Config" writes a whole
 * drafted config, the threshold explorer sets one key of the config in use. Both check the result
 * against the config schema before anything touches the disk, so a written config always loads.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkConfig } from '../core';
import type { EvalConfig } from '../core';
import { editConfigText } from '../shared/configEdit';
import { configFor } from './evaluationFiles';

async function readText(uri: vscode.Uri): Promise<string | null> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return null;
  }
}

/** Checks `text` (a whole config) against the schema, then writes it. */
async function checkAndWrite(target: vscode.Uri, text: string): Promise<EvalConfig> {
  const name = vscode.workspace.asRelativePath(target, false);
  const config = checkConfig(JSON.parse(text.replace(/^\uFEFF/, '')) as unknown, name);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  return config;
}

/** Writes a whole new config (replacing any file at `target`). */
export async function writeConfig(target: vscode.Uri, config: EvalConfig): Promise<EvalConfig> {
  return checkAndWrite(target, JSON.stringify(config, null, 2) + '\n');
}

/**
 * Sets top-level keys of the config at `target` (created when absent) and removes `remove`,
 * keeping every other key and the file's layout.
 */
export async function setConfigKeys(
  target: vscode.Uri,
  set: Record<string, unknown>,
  remove: readonly string[] = [],
): Promise<EvalConfig> {
  const text = await readText(target);
  return checkAndWrite(target, editConfigText(text, set, remove, vscode.workspace.asRelativePath(target, false)));
}

/**
 * The config an evaluation of `input` uses: `eval-lens.json` beside it, else the one named by the
 * `evalLens.configFile` setting, else a new `eval-lens.json` beside it.
 */
export async function configTargetFor(input: vscode.Uri): Promise<vscode.Uri> {
  const explicit = await configFor(input);
  return vscode.Uri.file(explicit ?? path.join(path.dirname(input.fsPath), 'eval-lens.json'));
}
