/**
 * The comparison panel's Changed rows tab, on the host: the rows that changed from the baseline to
 * another run (computed in the inspection worker, as `eval-lens diff` computes them), and *Open at
 * line* in both files — the baseline's prediction file in one editor column, the run's in the
 * column beside it, each with the row's whole line selected.
 */
import { recordEndLine } from '../../shared/rowPosition';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RowDiff } from '../../core';
import type { CompareResults } from '../../core';
import { isRowAddressedFile } from '../../core';
import { formatWhere } from '../../core';
import type { DiffQuery, HostMessage } from '../../shared/protocol';
import { readEntry } from '../resultsIndex';
import type { InspectorHost } from './reportInspector';
import type { InspectSource } from './inspectProtocol';

/** What the Changed rows tab needs from the panel's inspector: where a run's prediction file is, and how it is read. */
export interface RunFiles {
  runFile(run: string): Promise<string>;
  sourceOf(input: vscode.Uri, sha256: string): Promise<InspectSource>;
}

/** The two editor columns of a side-by-side open: the first column not holding the report, and the one after it. */
export function sideBySideColumns(reportColumn: vscode.ViewColumn | undefined): [vscode.ViewColumn, vscode.ViewColumn] {
  const first = reportColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  const second = (first + 1 === reportColumn ? first + 2 : first + 1) as vscode.ViewColumn;
  return [first, second];
}

export class CompareRows {
  constructor(
    private readonly host: InspectorHost,
    private readonly compareUri: vscode.Uri,
    private readonly panel: vscode.WebviewPanel,
    private readonly files: RunFiles,
    private readonly post: (m: HostMessage) => void,
  ) {}

  private async comparison(): Promise<CompareResults> {
    const entry = await readEntry(this.compareUri);
    if (entry.kind !== 'compare')
      throw new Error(`${path.basename(this.compareUri.fsPath)} holds no comparison of runs.`);
    return entry.compare;
  }

  /** The prediction files of the baseline and of `run` (a run of the comparison other than the baseline). */
  private async files2(run: string): Promise<[string, string]> {
    const c = await this.comparison();
    if (!c.runs.includes(run) || run === c.baseline)
      throw new Error(`Choose a run of the comparison other than the baseline ${c.baseline} (got ${run}).`);
    return [await this.files.runFile(c.baseline), await this.files.runFile(run)];
  }

  private send(m: HostMessage): HostMessage {
    this.post(m);
    return m;
  }

  /** The rows that changed from the baseline to `q.run`, worst for the run first; a failure is a `reply` saying why. */
  async diffRows(seq: number, q: DiffQuery): Promise<HostMessage> {
    try {
      const [a, b] = await this.files2(q.run);
      const { sha256: _sha, ...source } = await this.files.sourceOf(vscode.Uri.file(a), '');
      const started = Date.now();
      const diff: RowDiff = await this.host.inspect.request('diff', {
        source,
        pathB: b,
        options: {
          ...(q.metric !== undefined ? { metric: q.metric } : {}),
          where: q.where,
          ...(q.where.length > 0 ? { whereText: formatWhere(q.where) } : {}),
          limit: q.limit,
        },
      });
      this.host.log.debug(
        `Changed rows ${path.basename(a)} → ${path.basename(b)} (${diff.metric}): ${diff.changed} of ${diff.n} in ${Date.now() - started} ms`,
      );
      const rel = (p: string): string => vscode.workspace.asRelativePath(p, false);
      return this.send({ type: 'diff', seq, diff: { ...diff, runs: [rel(a), rel(b)] } });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.host.log.error(`Report ${path.basename(this.compareUri.fsPath)}: ${message}`);
      return this.send({ type: 'reply', seq, ok: false, message });
    }
  }

  /**
   * Opens the baseline's prediction file at `lineA` and `run`'s at `lineB` in two editor columns
   * side by side (neither in the report's), each with its whole line selected and revealed. Parquet
   * and `.npz` rows have no line: an information message says so and nothing opens.
   */
  async openLines(run: string, lineA: number, lineB: number): Promise<vscode.TextEditor[]> {
    let files: [string, string];
    try {
      files = await this.files2(run);
    } catch (err) {
      void vscode.window.showErrorMessage(`Cannot open the lines: ${err instanceof Error ? err.message : String(err)}`);
      return [];
    }
    const binary = files.find((f) => isRowAddressedFile(f));
    if (binary) {
      void vscode.window.showInformationMessage(
        `${path.basename(binary)} is a binary file: its rows have numbers (row ${lineA - 1} of the baseline, row ${lineB - 1} of the run), not lines a text editor can show.`,
      );
      return [];
    }
    const columns = sideBySideColumns(this.panel.viewColumn);
    const editors: vscode.TextEditor[] = [];
    for (const [i, file] of files.entries()) {
      const line = i === 0 ? lineA : lineB;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const l = Math.min(Math.max(0, line - 1), doc.lineCount - 1);
      // The whole record: a quoted CSV field may span several lines.
      const end = recordEndLine((i) => doc.lineAt(i).text, doc.lineCount, l, file);
      const range = new vscode.Range(l, 0, end, doc.lineAt(end).text.length);
      const editor = await vscode.window.showTextDocument(doc, {
        viewColumn: columns[i],
        selection: range,
        preserveFocus: i === 0,
        preview: true,
      });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      editors.push(editor);
    }
    return editors;
  }
}
