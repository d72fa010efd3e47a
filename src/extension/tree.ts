/**
 * The side panel's tree: [workspace folder →] folder → results file → metric family → metric
 * (value and CI). Comparisons list their metrics with the best run.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Results } from '../core';
import { formatCi, formatCount, formatNumber } from '../shared/format';
import { headlineKeys } from '../shared/headline';
import { citationsOf, explainKey, metricName } from '../core';
import { FAMILY_TITLES } from '../shared/report/common';
import { Command, ItemKind, View } from './commandIds';
import type { EvalLensContext } from './context';
import type { IndexEntry } from './resultsIndex';
import { splitNotes } from '../core';

export type Node =
  | { kind: 'root'; folder: vscode.WorkspaceFolder }
  | { kind: 'folder'; dir: string; label: string }
  | { kind: 'entry'; entry: IndexEntry }
  | { kind: 'family'; uri: vscode.Uri; results: Results; family: string; keys: string[] }
  | {
      kind: 'metric';
      uri: vscode.Uri;
      key: string;
      value: number | null;
      text: string;
      ci: string;
      note?: string;
      direction: 'higher' | 'lower';
      family: string;
    };

/** Exported for the integration tests, which read the tree through this provider. */
export class ResultsTree implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly ctx: EvalLensContext) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  async getChildren(node?: Node): Promise<Node[]> {
    await this.ctx.index.ready();
    const entries = this.ctx.index.all();
    if (!node) {
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.length > 1) {
        return folders
          .filter((f) =>
            entries.some((e) => vscode.workspace.getWorkspaceFolder(e.uri)?.uri.toString() === f.uri.toString()),
          )
          .map((folder) => ({ kind: 'root', folder }));
      }
      return this.folderNodes(entries);
    }
    switch (node.kind) {
      case 'root':
        return this.folderNodes(
          entries.filter(
            (e) => vscode.workspace.getWorkspaceFolder(e.uri)?.uri.toString() === node.folder.uri.toString(),
          ),
        );
      case 'folder':
        return entries
          .filter((e) => path.dirname(e.uri.fsPath) === node.dir)
          .map((entry) => ({ kind: 'entry', entry }));
      case 'entry':
        return this.entryChildren(node.entry);
      case 'family':
        return node.keys.map((key) => this.metricNode(node.uri, key, node.results, node.family));
      case 'metric':
        return [];
    }
  }

  private folderNodes(entries: IndexEntry[]): Node[] {
    const dirs = [...new Set(entries.map((e) => path.dirname(e.uri.fsPath)))].sort();
    return dirs.map((dir) => {
      const rel = vscode.workspace.asRelativePath(dir, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
      return { kind: 'folder', dir, label: rel === dir || rel === '' ? path.basename(dir) : rel };
    });
  }

  private metricNode(uri: vscode.Uri, key: string, results: Results, family: string): Node {
    const m = results.metrics[key]!;
    return {
      kind: 'metric',
      uri,
      key,
      value: m.value,
      text: formatNumber(m.value, key),
      ci: formatCi(m.ci, key),
      direction: m.direction,
      family,
      ...(m.note ? { note: m.note } : {}),
    };
  }

  private entryChildren(entry: IndexEntry): Node[] {
    if (entry.kind === 'results') {
      const r = entry.results;
      const seen = new Set<string>();
      const out: Node[] = [];
      for (const [family, keys] of Object.entries(r.families)) {
        const ks = (keys ?? []).filter((k) => k in r.metrics && !seen.has(k));
        ks.forEach((k) => seen.add(k));
        if (ks.length > 0) out.push({ kind: 'family', uri: entry.uri, results: r, family, keys: ks });
      }
      const rest = Object.keys(r.metrics).filter((k) => !seen.has(k));
      if (rest.length > 0) out.push({ kind: 'family', uri: entry.uri, results: r, family: 'other', keys: rest });
      return out;
    }
    if (entry.kind === 'compare') {
      const c = entry.compare;
      return c.metrics.map((key) => {
        const best = Object.entries(c.marks[key] ?? {}).find(([, p]) => p === 1)?.[0];
        const v = best ? (c.table[best]?.[key] ?? null) : null;
        const name = best ? (c.names[c.runs.indexOf(best)] ?? best) : '—';
        return {
          kind: 'metric',
          uri: entry.uri,
          key,
          value: v,
          text: `${formatNumber(v, key)} (${name})`,
          ci: '',
          direction: c.directions[key] ?? 'higher',
          family: 'compare',
        } satisfies Node;
      });
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'root': {
        const item = new vscode.TreeItem(node.folder.name, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = vscode.ThemeIcon.Folder;
        item.resourceUri = node.folder.uri;
        return item;
      }
      case 'folder': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon('folder');
        item.contextValue = ItemKind.folder;
        item.tooltip = node.dir;
        return item;
      }
      case 'entry':
        return this.entryItem(node.entry);
      case 'family': {
        const item = new vscode.TreeItem(
          FAMILY_TITLES[node.family] ?? node.family,
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.description = `${node.keys.length} metric${node.keys.length === 1 ? '' : 's'}`;
        item.contextValue = ItemKind.family;
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.id = `${node.uri.toString()}#${node.family}`;
        return item;
      }
      case 'metric': {
        // The metric's name as the label; the key (as in the results JSON and the CLI) in the tooltip.
        const e = explainKey(node.key);
        const item = new vscode.TreeItem(e?.name ?? node.key, vscode.TreeItemCollapsibleState.None);
        item.description = node.ci ? `${node.text} ${node.ci}` : node.text;
        const tip = new vscode.MarkdownString();
        tip
          .appendMarkdown(`**${escapeMd(e?.name ?? node.key)}** (`)
          .appendText(node.key)
          .appendMarkdown(
            `) = ${escapeMd(node.text)}${node.ci ? ` ${escapeMd(node.ci)}` : ''} (${node.direction} is better)`,
          );
        // The glossary's own text, escaped but with plain spaces so the hover wraps it between words
        // (appendText turns every space into a non-breaking one).
        if (e) tip.appendMarkdown(`\n\n${[e.meaning, e.formula, citationsOf(e)].map(escapeMd).join('\n\n')}`);
        if (node.note) tip.appendMarkdown('\n\n').appendText(node.note);
        item.tooltip = tip;
        item.contextValue = ItemKind.metric;
        item.iconPath = new vscode.ThemeIcon(node.direction === 'higher' ? 'arrow-up' : 'arrow-down');
        item.id = `${node.uri.toString()}#${node.family}#${node.key}`;
        item.command = { command: Command.openReportAt, title: 'Open Report at This Chart', arguments: [node] };
        return item;
      }
    }
  }

  private entryItem(entry: IndexEntry): vscode.TreeItem {
    const name = path.basename(entry.uri.fsPath);
    const item = new vscode.TreeItem(
      name,
      entry.kind === 'invalid' ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.resourceUri = entry.uri;
    item.id = entry.uri.toString();
    if (entry.kind === 'results') {
      const r = entry.results;
      const k = headlineKeys(r, 1)[0];
      // Notes (a metric left out by design) are not warnings: no warning icon for them.
      const nWarnings = splitNotes(r.warnings).warnings.length;
      item.description = k ? `${metricName(k)} ${formatNumber(r.metrics[k]!.value, k)}` : r.task;
      item.tooltip = new vscode.MarkdownString(
        `**${name}**\n\n${r.source.path} · ${r.task} · ${formatCount(r.source.rows)} rows\n\nEvaluated ${r.createdAt}${nWarnings ? `\n\n${nWarnings} warning(s)` : ''}`,
      );
      item.iconPath = new vscode.ThemeIcon(nWarnings ? 'warning' : 'graph');
      item.contextValue = ItemKind.results;
      item.command = { command: Command.openReport, title: 'Open Report', arguments: [entry.uri] };
    } else if (entry.kind === 'compare') {
      item.description = `${entry.compare.runs.length} runs`;
      item.tooltip = `${entry.compare.runs.join('\n')}\nbaseline ${entry.compare.baseline}`;
      item.iconPath = new vscode.ThemeIcon('diff-multiple');
      item.contextValue = ItemKind.compare;
      item.command = { command: Command.openReport, title: 'Open Report', arguments: [entry.uri] };
    } else {
      // A schema failure names its first field right in the tree; the tooltip lists them all.
      const firstProblem = entry.error.split('\n')[1]?.trim();
      item.description = firstProblem ? `invalid: ${firstProblem}` : 'unreadable';
      item.tooltip = entry.error;
      item.iconPath = new vscode.ThemeIcon('error');
      item.contextValue = 'invalid';
      item.command = { command: 'vscode.open', title: 'Open', arguments: [entry.uri] };
    }
    return item;
  }
}

export function registerViews(ctx: EvalLensContext): vscode.Disposable[] {
  const tree = new ResultsTree(ctx);
  const view = vscode.window.createTreeView(View.results, {
    treeDataProvider: tree,
    showCollapseAll: true,
    canSelectMany: false,
  });
  return [
    view,
    ctx.index.onDidChange(() => tree.refresh()),
    vscode.commands.registerCommand(Command.refreshResults, async () => {
      await ctx.index.rescan();
      tree.refresh();
    }),
  ];
}

/** Text shown in a Markdown tooltip as written (no emphasis, links or HTML from names or values). */
function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
