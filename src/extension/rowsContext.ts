/**
 * The `evalLens.rowsJsonFiles` context key: the `.json` files of the workspace (and any opened
 * one) that hold prediction rows, by path. Menus offer Evaluate on a `.json` only when
 * `resourcePath in evalLens.rowsJsonFiles` — a when clause cannot read a file, so the extension
 * sniffs each file's head ({@link looksLikeRows}) and keeps the key current as files change. The
 * same scan keeps `evalLens.factorConfigs` (factorConfig.ts) current.
 */
import { open } from 'node:fs/promises';
import * as vscode from 'vscode';
import { looksLikeRows, ROWS_JSON_KEY, SNIFF_CHARS } from '../shared/rowsSniff';
import type { EvalLensContext } from './context';
import { FACTOR_CONFIGS_KEY, factorModelInput } from './factorConfig';

const EXCLUDE = '{**/node_modules/**,**/.git/**,**/dist/**,**/.cache/**}';

/** The first {@link SNIFF_CHARS} characters of a file ('' when unreadable). */
async function head(fsPath: string): Promise<string> {
  let fh;
  try {
    fh = await open(fsPath, 'r');
    const buf = Buffer.alloc(SNIFF_CHARS);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_CHARS, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } catch {
    return '';
  } finally {
    await fh?.close();
  }
}

/** True when the `.json` file at `fsPath` holds prediction rows. */
export async function jsonHoldsRows(fsPath: string): Promise<boolean> {
  return looksLikeRows(await head(fsPath));
}

export function registerRowsContext(ctx: EvalLensContext): vscode.Disposable[] {
  const rows = new Set<string>();
  // eval-lens.json files that name a factor model (`userFactors`): Evaluate is offered on them too.
  const factorConfigs = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const publish = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void vscode.commands.executeCommand('setContext', ROWS_JSON_KEY, [...rows]);
      void vscode.commands.executeCommand('setContext', FACTOR_CONFIGS_KEY, [...factorConfigs]);
    }, 100);
  };
  const sort = async (fsPath: string): Promise<void> => {
    if (await jsonHoldsRows(fsPath)) rows.add(fsPath);
    else rows.delete(fsPath);
    if ((await factorModelInput(fsPath)) !== undefined) factorConfigs.add(fsPath);
    else factorConfigs.delete(fsPath);
  };
  const check = async (uri: vscode.Uri): Promise<void> => {
    if (uri.scheme !== 'file' || !uri.fsPath.toLowerCase().endsWith('.json')) return;
    const had = [rows.has(uri.fsPath), factorConfigs.has(uri.fsPath)];
    await sort(uri.fsPath);
    if (had[0] !== rows.has(uri.fsPath) || had[1] !== factorConfigs.has(uri.fsPath)) publish();
  };
  const scan = async (): Promise<void> => {
    const uris = await vscode.workspace.findFiles('**/*.json', EXCLUDE, 5000);
    for (const u of uris) await sort(u.fsPath);
    ctx.log.info(
      `${rows.size} of ${uris.length} JSON files in the workspace hold prediction rows; ${factorConfigs.size} configs name a factor model`,
    );
    publish();
  };
  void scan();
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.json');
  return [
    watcher,
    watcher.onDidCreate((u) => void check(u)),
    watcher.onDidChange((u) => void check(u)),
    watcher.onDidDelete((u) => {
      if (rows.delete(u.fsPath) || factorConfigs.delete(u.fsPath)) publish();
    }),
    vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e) void check(e.document.uri);
    }),
    { dispose: () => clearTimeout(timer) },
  ];
}
