/** The status bar item: the last evaluation's headline metric; a click opens its report. */
import * as vscode from 'vscode';
import type { Results } from '../core/results/types';
import { formatCi, formatNumber } from '../shared/format';
import { headlineKeys } from '../shared/headline';
import { metricName } from '../core/glossary';
import { Command } from './commandIds';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('evalLens.lastResult', vscode.StatusBarAlignment.Left, 10);

  constructor() {
    this.item.name = 'Eval Lens: last evaluation';
  }

  show(results: Results, uri: vscode.Uri): void {
    const keys = headlineKeys(results, 3);
    const first = keys[0];
    if (!first) return;
    const m = results.metrics[first]!;
    this.item.text = `$(graph) ${metricName(first)} ${formatNumber(m.value, first)}`;
    const md = new vscode.MarkdownString(`**Eval Lens** — ${results.source.path}\n\n`);
    for (const k of keys) {
      const v = results.metrics[k]!;
      md.appendMarkdown(`- ${metricName(k)} (\`${k}\`) ${formatNumber(v.value, k)} ${formatCi(v.ci, k)}\n`);
    }
    md.appendMarkdown('\nClick to open the report.');
    this.item.tooltip = md;
    this.item.command = { command: Command.openReport, title: 'Open Report', arguments: [uri] };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
