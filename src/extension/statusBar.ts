/**
 * The status bar item: the headline of the report in front (a results file's headline metric, or a
 * comparison's best runs), else of the last evaluation; a click opens that report. Closing the
 * report it describes hides it, so it never shows the numbers of a report that is gone.
 */
import * as vscode from 'vscode';
import type { CompareResults } from '../core';
import type { Results } from '../core';
import { formatCi, formatNumber } from '../shared/format';
import { headlineKeys } from '../shared/headline';
import { metricName } from '../core';
import { Command } from './commandIds';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('evalLens.lastResult', vscode.StatusBarAlignment.Left, 10);
  /** The results or comparison file the item describes. */
  private shown: string | undefined;

  constructor() {
    this.item.name = 'Eval Lens: report in front';
  }

  /**
   * The headline of a report; `slice` (the filter, as text) when the report shows a slice of its
   * file, whose numbers then are the slice's, not the whole file's.
   */
  show(results: Results, uri: vscode.Uri, slice?: string): void {
    const keys = headlineKeys(results, 3);
    const first = keys[0];
    if (!first) return;
    const m = results.metrics[first]!;
    this.item.text = `$(graph) ${metricName(first)} ${formatNumber(m.value, first)}${slice ? ` · slice ${slice}` : ''}`;
    const md = new vscode.MarkdownString(`**Eval Lens** — ${results.source.path}\n\n`);
    if (slice) md.appendText(`The slice ${slice} (${results.source.rowsUsed} rows), not the whole file:\n\n`);
    for (const k of keys) {
      const v = results.metrics[k]!;
      md.appendMarkdown(`- ${metricName(k)} (\`${k}\`) ${formatNumber(v.value, k)} ${formatCi(v.ci, k)}\n`);
    }
    this.finish(md, uri);
  }

  /** A comparison: how many runs, and the best run(s) of its first metrics (a tie names every tied run). */
  showComparison(c: CompareResults, uri: vscode.Uri): void {
    this.item.text = `$(graph) Comparison of ${c.runs.length} runs`;
    const md = new vscode.MarkdownString(`**Eval Lens** — comparison of ${c.runs.length} runs\n\n`);
    for (const m of c.metrics.slice(0, 3)) {
      const bests = c.runs.filter((r) => c.marks[m]?.[r] === 1);
      if (bests.length === 0) {
        md.appendMarkdown(`- ${metricName(m)} (\`${m}\`): no best run (all tie)\n`);
        continue;
      }
      const names = bests.map((r) => c.names[c.runs.indexOf(r)] ?? r).join(', ');
      const v = c.table[bests[0]!]?.[m] ?? null;
      md.appendMarkdown(
        `- ${metricName(m)} (\`${m}\`): best ${names}${bests.length > 1 ? ' (tied)' : ''} ${formatNumber(v, m)}\n`,
      );
    }
    this.finish(md, uri);
  }

  /** The report of `uri` was closed: hide the item if it described that report. */
  forget(uri: vscode.Uri): void {
    if (this.shown !== uri.toString()) return;
    this.shown = undefined;
    this.item.hide();
  }

  private finish(md: vscode.MarkdownString, uri: vscode.Uri): void {
    md.appendMarkdown('\nClick to open the report.');
    this.item.tooltip = md;
    this.item.command = { command: Command.openReport, title: 'Open Report', arguments: [uri] };
    this.shown = uri.toString();
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
