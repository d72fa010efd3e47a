/**
 * The files around one evaluation: where its results go, which config it reads, which evaluations
 * the session has run, and the prediction file a results file came from. Needs no other part of the
 * extension, so the report panels and the evaluation both read it without depending on each other.
 */
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveRecordedSource } from '../core';
import { factorResultsFileName, resultsFileName } from '../shared/outputName';
import { factorModelInput } from './factorConfig';
import type { ResultsIndex } from './resultsIndex';
import { readSettings, resolveSettingPath } from './settings';

/** What the session knows about an input it evaluated (for Re-evaluate and auto re-evaluation). */
export interface EvaluatedInput {
  input: vscode.Uri;
  output: vscode.Uri;
  configPath?: string;
}

/** The session's evaluations and the results index: what finds the input of a results file. */
export interface EvaluatedInputs {
  /** Input fsPath → its last evaluation in this session. */
  readonly evaluated: ReadonlyMap<string, EvaluatedInput>;
  readonly index: ResultsIndex;
}

/** Where the results of `input` go (setting `evalLens.outputFolder`, else beside the input). */
export async function outputUriFor(input: vscode.Uri): Promise<vscode.Uri> {
  const settings = readSettings(input);
  const dir = resolveSettingPath(settings.outputFolder, input) ?? path.dirname(input.fsPath);
  let siblings: string[] = [];
  try {
    siblings = await readdir(path.dirname(input.fsPath));
  } catch {
    // An unreadable folder only loses the clash check.
  }
  // A factor model's user matrix (the `userFactors` of the config beside it) gives its results the
  // model's name: `ranking-factors/U.npy` → `ranking-factors.eval.json`.
  const config = path.join(path.dirname(input.fsPath), 'eval-lens.json');
  if ((await factorModelInput(config)) === input.fsPath)
    return vscode.Uri.file(path.join(dir, factorResultsFileName(input.fsPath)));
  return vscode.Uri.file(path.join(dir, resultsFileName(path.basename(input.fsPath), siblings)));
}

/** The explicit config (setting `evalLens.configFile`), used only when none is beside the input. */
export async function configFor(input: vscode.Uri): Promise<string | undefined> {
  const beside = vscode.Uri.file(path.join(path.dirname(input.fsPath), 'eval-lens.json'));
  try {
    await vscode.workspace.fs.stat(beside);
    return undefined; // the core finds it itself
  } catch {
    return resolveSettingPath(readSettings(input).configFile, input);
  }
}

/**
 * The prediction file a results file came from: its recorded path, else a same-named file beside
 * it. The recorded path comes from the file (maybe from a cloned repository), so one that leads
 * outside the workspace (absolute, `..`, a symbolic link) is refused with a message: never
 * evaluated, never written beside.
 */
export async function inputOfResults(
  known: EvaluatedInputs,
  resultsUri: vscode.Uri,
): Promise<vscode.Uri | { refused: string } | undefined> {
  for (const e of known.evaluated.values()) if (e.output.fsPath === resultsUri.fsPath) return e.input;
  const entry = known.index.get(resultsUri) ?? (await known.index.load(resultsUri));
  if (entry.kind !== 'results') return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(resultsUri);
  if (!folder) return { refused: 'the results file is not inside a workspace folder' };
  const found = await resolveRecordedSource(entry.results.source.path, resultsUri.fsPath, folder.uri.fsPath);
  if ('refused' in found) return { refused: found.refused };
  return 'path' in found ? vscode.Uri.file(found.path) : undefined;
}

/** `{ root }`: the workspace folder holding `input`, which config paths must stay inside; `{}` outside any folder. */
export function workspaceRoot(input: vscode.Uri): { root?: string } {
  const folder = vscode.workspace.getWorkspaceFolder(input);
  return folder ? { root: folder.uri.fsPath } : {};
}
