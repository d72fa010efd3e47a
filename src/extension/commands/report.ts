/** Open Report (at a chart), Open as Table, Export Report, Reveal JSON, Copy Value, Show Log. */
import { jsonSyntaxError } from '../../core';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { metricName } from '../../core';
import { reportToHtml } from '../../shared/exportHtml';
import { exportReport, reportInputFromJson, type ReportFormat, type ReportInput } from '../../shared/exportReport';
import type { EvalLensContext } from '../context';
import { loadModel } from '../report/panels';
import type { Node } from '../tree';
import { activeUri, isReportableUri, uriArgs } from './pick';

async function pickReportable(ctx: EvalLensContext, title: string): Promise<vscode.Uri | undefined> {
  const active = activeUri(ctx);
  if (active && isReportableUri(active)) return active;
  await ctx.index.ready();
  const entries = ctx.index.all().filter((e) => e.kind !== 'invalid');
  if (entries.length === 0) {
    const go = await vscode.window.showInformationMessage(
      'No Eval Lens results in this workspace yet. Evaluate a prediction file first.',
      'Evaluate Prediction File…',
    );
    if (go) await vscode.commands.executeCommand('evalLens.evaluate');
    return undefined;
  }
  const choice = await vscode.window.showQuickPick(
    entries.map((e) => ({
      label: path.basename(e.uri.fsPath),
      description: vscode.workspace.asRelativePath(path.dirname(e.uri.fsPath)),
      uri: e.uri,
    })),
    { title, placeHolder: 'Choose a results or comparison file' },
  );
  return choice?.uri;
}

export async function openReportCommand(ctx: EvalLensContext, arg0?: unknown): Promise<void> {
  const uri = uriArgs(arg0, undefined)[0] ?? (await pickReportable(ctx, 'Eval Lens: Open Report'));
  if (uri) await ctx.panels.open(uri);
}

/** From a tree metric/family node or a CodeLens `{uri, key}`. */
export async function openReportAtCommand(ctx: EvalLensContext, arg0?: unknown): Promise<void> {
  const a = arg0 as (Node & { kind: 'metric' | 'family' }) | { uri: vscode.Uri; key: string } | undefined;
  if (!a || !('uri' in a)) return openReportCommand(ctx);
  const target = 'key' in a ? a.key : 'family' in a ? a.family : undefined;
  await ctx.panels.open(a.uri, target);
}

export async function openAsTableCommand(ctx: EvalLensContext, arg0?: unknown): Promise<void> {
  const uri = uriArgs(arg0, undefined)[0] ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri) {
    void vscode.window.showInformationMessage('Open a JSON file first, then run "Open as Table".');
    return;
  }
  await ctx.panels.open(uri);
}

export async function revealJsonCommand(ctx: EvalLensContext, arg0?: unknown): Promise<void> {
  const uri =
    uriArgs(arg0, undefined)[0] ?? (arg0 as { entry?: { uri: vscode.Uri } } | undefined)?.entry?.uri ?? activeUri(ctx);
  if (!uri) return;
  await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One, preview: false });
}

export async function copyValueCommand(_ctx: EvalLensContext, arg0?: unknown): Promise<void> {
  const node = arg0 as Node | undefined;
  if (!node || node.kind !== 'metric') return;
  const text = node.value === null ? 'null' : String(node.value);
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`Copied ${metricName(node.key)} (${node.key}) = ${text}`, 3000);
}

type Format = ReportFormat;

/** The file as a report input (checked against its schema), or undefined for a foreign JSON. */
async function readReportInput(uri: vscode.Uri): Promise<ReportInput | undefined> {
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    throw jsonSyntaxError(path.basename(uri.fsPath), text, err); // names the line and column
  }
  const schema = obj !== null && typeof obj === 'object' ? (obj as { schema?: unknown }).schema : undefined;
  if (typeof schema !== 'string' || !schema.startsWith('eval-lens/')) return undefined;
  return reportInputFromJson(obj, path.basename(uri.fsPath));
}

export async function exportReportCommand(
  ctx: EvalLensContext,
  arg0?: unknown,
  format?: Format,
  target?: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  const uri = uriArgs(arg0, undefined)[0] ?? (await pickReportable(ctx, 'Eval Lens: Export Report'));
  if (!uri) return undefined;
  if (!format) {
    const choice = await vscode.window.showQuickPick(
      [
        {
          label: 'HTML',
          description: 'self-contained page: cards, charts as SVG, tables; no script',
          format: 'html' as const,
        },
        {
          label: 'Markdown',
          description: 'metric, per-class and slice tables; for a comparison the tests',
          format: 'md' as const,
        },
        { label: 'CSV', description: 'one row per metric (value, CI, direction)', format: 'csv' as const },
        {
          label: 'LaTeX',
          description: 'the headline metrics as a booktabs table (best bold, second underlined)',
          format: 'latex' as const,
        },
      ],
      { title: `Export ${path.basename(uri.fsPath)}`, placeHolder: 'Format' },
    );
    if (!choice) return undefined;
    format = choice.format;
  }
  const generator = `Eval Lens ${ctx.extension.extension.packageJSON.version as string}`;
  let text: string;
  try {
    const input = await readReportInput(uri);
    if (input) text = exportReport(input, format, { generator });
    else if (format === 'html') text = reportToHtml(await loadModel(uri), { generator });
    else
      throw new Error(
        `${path.basename(uri.fsPath)} is not an Eval Lens results or comparison file; only HTML export is available for it`,
      );
  } catch (err) {
    ctx.log.error(`Export failed: ${(err as Error).message}`);
    void vscode.window.showErrorMessage(`Cannot export ${path.basename(uri.fsPath)}: ${(err as Error).message}`);
    return undefined;
  }
  const stem = path.basename(uri.fsPath).replace(/\.(eval|compare)\.json$|\.json$/i, '');
  const ext = { html: 'html', md: 'md', csv: 'csv', latex: 'tex' }[format];
  const dest =
    target ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(path.dirname(uri.fsPath), `${stem}.report.${ext}`)),
      filters: { [format === 'latex' ? 'LaTeX' : ext.toUpperCase()]: [ext] },
      title: 'Export report',
    }));
  if (!dest) return undefined;
  await vscode.workspace.fs.writeFile(dest, new TextEncoder().encode(text));
  ctx.log.info(`Report exported to ${dest.fsPath}`);
  if (!target) {
    const open = await vscode.window.showInformationMessage(
      `Report exported to ${path.basename(dest.fsPath)}.`,
      'Open',
    );
    if (open) await vscode.commands.executeCommand('vscode.open', dest);
  }
  return dest;
}
