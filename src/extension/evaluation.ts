/**
 * Evaluating one input from the extension: run the core in the worker, write `<name>.eval.json`,
 * update diagnostics, the index, the status bar, and open the report. Shared by the Evaluate,
 * Re-evaluate and auto re-evaluation paths.
 */
import { open, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeChunks } from '../core';
import { resultsJsonChunks } from '../core';
import type { Results } from '../core';
import { Command } from './commandIds';
import type { EvalLensContext } from './context';
import { configFor, outputUriFor, workspaceRoot, type EvaluatedInput } from './evaluationFiles';
import { readSettings } from './settings';
import { JobCancelled, JobFailed, runJob } from './workerClient';

/** The workspace-relative path shown in results (`examples/digits-lt/logreg.csv`). */
function displayPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export interface EvaluateOptions {
  /** Open the report when done (default true). */
  open?: boolean;
  /** No progress notification and no error pop-up (a check after a fix); diagnostics only. */
  quiet?: boolean;
  /** Write the results file (default true). */
  write?: boolean;
  /** The config file to use (default: `eval-lens.json` beside the input, else the `evalLens.configFile` setting). */
  configPath?: string;
}

/** Evaluates `input`; returns undefined when it failed or was cancelled (already reported). */
export async function evaluateInput(
  ctx: EvalLensContext,
  input: vscode.Uri,
  opts: EvaluateOptions = {},
): Promise<{ evaluated: EvaluatedInput; results: Results } | undefined> {
  const name = path.basename(input.fsPath);
  const settings = readSettings(input);
  const configPath = opts.configPath ?? (await configFor(input));
  const folder = vscode.workspace.getWorkspaceFolder(input)?.uri.fsPath;
  const output = await outputUriFor(input);
  if (output.fsPath === input.fsPath) {
    void vscode.window.showErrorMessage(
      `Cannot evaluate ${name}: its results file would overwrite it. Rename the file or set "evalLens.outputFolder".`,
    );
    return undefined;
  }
  ctx.log.info(
    `Evaluating ${input.fsPath}${configPath ? ` with ${configPath}` : ''}; settings defaults ${JSON.stringify(settings.defaults)}`,
  );
  let results: Results;
  // The report opens on the point estimates and refines in place (provisional, then final intervals).
  const staged = opts.write !== false && opts.open !== false;
  try {
    results = await runJob(
      ctx.extension.extensionPath,
      {
        type: 'evaluate',
        path: input.fsPath,
        ...(configPath ? { configPath } : {}),
        // Config paths may lead to other folders of the same workspace folder (a model's factors
        // beside the shared train split), never out of it.
        ...(folder ? { root: folder } : {}),
        defaults: settings.defaults,
        stages: staged,
        // Config paths may lead anywhere inside the workspace folder (a sibling example's train file).
        ...workspaceRoot(input),
      },
      `Eval Lens: evaluating ${name}`,
      ctx.log,
      {
        silent: opts.quiet,
        onStage: staged
          ? (m) => {
              m.results.source.path = displayPath(input);
              ctx.panels.showStage(
                output,
                m.results,
                m.stage === 'point' ? 'point estimates, intervals pending' : 'provisional intervals',
              );
            }
          : undefined,
      },
    );
  } catch (err) {
    if (staged) ctx.panels.endStages(output, false);
    if (err instanceof JobCancelled) {
      ctx.log.info(`Evaluation of ${name} cancelled`);
      if (!opts.quiet)
        void vscode.window.showInformationMessage(`Evaluation of ${name} cancelled; nothing was written.`);
      return undefined;
    }
    const e = err instanceof JobFailed ? err.error : { name: 'Error', message: String(err) };
    ctx.log.error(`Evaluation of ${input.fsPath} failed: ${e.message}${e.stack && !e.code ? `\n${e.stack}` : ''}`);
    const where = ctx.diagnostics.reportError(input, e);
    // An EvalLensError (with a code) is about the input; anything else is a bug of ours.
    const shown = !e.code
      ? `Eval Lens hit an internal error (${e.message}). The details are in the log (Eval Lens: Show Log); please report it.`
      : e.location?.file
        ? e.message.split(e.location.file).join(vscode.workspace.asRelativePath(e.location.file, false))
        : e.message;
    if (!opts.quiet)
      void reportFailure(
        ctx,
        name,
        shown,
        e.location?.file ? vscode.Uri.file(e.location.file) : input,
        e.location?.line,
        where,
      );
    return undefined;
  }
  results.source.path = displayPath(input);
  ctx.diagnostics.reportWarnings(input, results.warnings);
  const evaluated: EvaluatedInput = { input, output, ...(configPath ? { configPath } : {}) };
  if (opts.write !== false) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(output.fsPath)));
    await writeResults(output, results);
    ctx.log.info(`Results written to ${output.fsPath} (${results.warnings.length} warnings)`);
    ctx.evaluated.set(input.fsPath, evaluated);
    if (staged) ctx.panels.endStages(output, true);
    await ctx.index.load(output);
    ctx.status.show(results, output);
    ctx.fireEvaluated(evaluated);
    if (opts.open !== false) await ctx.panels.open(output);
  }
  return { evaluated, results };
}

/**
 * Writes the results file as the CLI does (core/results/resultsFile.ts: per-item values bounded, the
 * text in chunks, never one string), to a temporary file renamed into place; a folder that is not
 * on disk (a remote file system) gets the text at once.
 */
async function writeResults(output: vscode.Uri, results: Results): Promise<void> {
  if (output.scheme !== 'file') {
    await vscode.workspace.fs.writeFile(output, new TextEncoder().encode([...resultsJsonChunks(results)].join('')));
    return;
  }
  const tmp = `${output.fsPath}.${process.pid}.tmp`;
  try {
    const file = await open(tmp, 'w');
    try {
      await writeChunks(file, resultsJsonChunks(results));
    } finally {
      await file.close();
    }
    await rename(tmp, output.fsPath);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

async function reportFailure(
  ctx: EvalLensContext,
  name: string,
  message: string,
  file: vscode.Uri,
  line?: number,
  where?: { file: vscode.Uri; range: vscode.Range },
): Promise<void> {
  const openFile = `Open ${path.basename(file.fsPath)}${line ? `:${line}` : ''}`;
  const choice = await vscode.window.showErrorMessage(
    `Cannot evaluate ${name}: ${message}`,
    openFile,
    'Create Evaluation Config',
    'Show Log',
  );
  if (choice === openFile) {
    // The bad cell itself when the error names a column (the range its problem entry marks), else
    // the start of the bad line.
    const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    const selection = where && where.file.fsPath === file.fsPath ? where.range : new vscode.Range(pos, pos);
    await vscode.window.showTextDocument(file, { selection });
  } else if (choice === 'Create Evaluation Config') {
    await vscode.commands.executeCommand(Command.createConfig);
  } else if (choice === 'Show Log') {
    ctx.log.show();
  }
}
