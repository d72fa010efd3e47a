/**
 * Every `*.eval.json` and `*.compare.json` in the workspace (all folders), found at start and kept
 * up to date by a FileSystemWatcher. Files are parsed lazily once and re-read when they change.
 */
import * as vscode from 'vscode';
import type { CompareResults } from '../core';
import type { Results } from '../core';
import { EvalLensError } from '../core';
import { parseEvalLensJson } from '../core';

export type IndexEntry =
  | { kind: 'results'; uri: vscode.Uri; results: Results }
  | { kind: 'compare'; uri: vscode.Uri; compare: CompareResults }
  | { kind: 'invalid'; uri: vscode.Uri; error: string };

const GLOB = '**/*.{eval,compare}.json';
const EXCLUDE = '{**/node_modules/**,**/.git/**}';

/**
 * A results or comparison file, checked against its schema before anything in it is used (the
 * file may come from a cloned repository); a file that fails is an `invalid` entry whose error
 * names the field, shown as an error in the tree and never rendered.
 */
export function parseResultsText(uri: vscode.Uri, text: string): IndexEntry {
  const name = vscode.workspace.asRelativePath(uri, false);
  try {
    const parsed = parseEvalLensJson(name, text);
    if (parsed.kind === 'results') return { kind: 'results', uri, results: parsed.results };
    if (parsed.kind === 'compare') return { kind: 'compare', uri, compare: parsed.compare };
    return {
      kind: 'invalid',
      uri,
      error: `${name}: an inspection of a table of runs × metrics; the report shows comparisons of evaluated runs (print it with \`eval-lens compare ${parsed.inspection.source}\`).`,
    };
  } catch (err) {
    return {
      kind: 'invalid',
      uri,
      error: err instanceof EvalLensError ? err.message : `${name}: ${(err as Error).message}`,
    };
  }
}

export async function readEntry(uri: vscode.Uri): Promise<IndexEntry> {
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return parseResultsText(uri, new TextDecoder().decode(bytes));
  } catch (err) {
    return { kind: 'invalid', uri, error: (err as Error).message };
  }
}

export class ResultsIndex implements vscode.Disposable {
  private readonly entries = new Map<string, IndexEntry>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri | undefined>();
  /** Fires with the changed file, or undefined after a full rescan. */
  readonly onDidChange = this.emitter.event;
  private readonly watcher = vscode.workspace.createFileSystemWatcher(GLOB);
  private readonly subs: vscode.Disposable[] = [];
  private scanning: Promise<void> | undefined;

  constructor(private readonly log: vscode.LogOutputChannel) {
    const update = (uri: vscode.Uri): void => void this.load(uri);
    this.subs.push(
      this.watcher.onDidCreate(update),
      this.watcher.onDidChange(update),
      this.watcher.onDidDelete((uri) => {
        this.entries.delete(uri.toString());
        this.emitter.fire(uri);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.rescan()),
    );
  }

  /** Resolves once the first scan is done. */
  ready(): Promise<void> {
    return (this.scanning ??= this.rescan());
  }

  async rescan(): Promise<void> {
    const uris = await vscode.workspace.findFiles(GLOB, EXCLUDE, 5000);
    const loaded = await Promise.all(uris.map(readEntry));
    this.entries.clear();
    for (const e of loaded) this.entries.set(e.uri.toString(), e);
    this.log.info(`Results index: ${loaded.filter((e) => e.kind !== 'invalid').length} results/comparison files`);
    this.emitter.fire(undefined);
  }

  async load(uri: vscode.Uri): Promise<IndexEntry> {
    const e = await readEntry(uri);
    this.entries.set(uri.toString(), e);
    this.emitter.fire(uri);
    return e;
  }

  get(uri: vscode.Uri): IndexEntry | undefined {
    return this.entries.get(uri.toString());
  }

  all(): IndexEntry[] {
    return [...this.entries.values()].sort((a, b) => a.uri.fsPath.localeCompare(b.uri.fsPath));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.watcher.dispose();
    this.emitter.dispose();
  }
}
