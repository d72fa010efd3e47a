/**
 * Report panels: one webview panel per shown file, found again by its URI; restored after a
 * window reload by a WebviewPanelSerializer from the state the webview keeps (`getState/setState`).
 * No `retainContextWhenHidden`: a hidden panel is rebuilt from its state when shown again.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildCompareModel } from '../../shared/compareModel';
import { buildLeafModel } from '../../shared/leafModel';
import { jsonKind } from '../../shared/outputName';
import type { Results } from '../../core';
import type { ReportModel } from '../../shared/model';
import { isWebviewState, REPORT_VIEW_TYPE, type HostMessage, type OperatingPointKey } from '../../shared/protocol';
import { buildReportModel } from '../../shared/report';
import { formatWhere } from '../../core';
import { ReportInspector, withWhereBLosesTab, type InspectorHost } from '../inspect/reportInspector';
import { CompareRows } from '../inspect/compareRows';
import { withChangedRowsTab } from '../../shared/changedRowsModel';
import { readEntry } from '../resultsIndex';
import type { StatusBar } from '../statusBar';
import { reportColumn } from './column';
import { reportHtml } from './html';
import { handleWebviewMessage, type PanelCapabilities } from './webviewMessages';

/**
 * What the report panels need from the rest of the extension, given once to their constructor. The
 * panels never reach back for the extension's context: evaluation opens panels, and a panel asks
 * for an evaluation only through `useOperatingPoint`, so the dependency runs one way.
 */
export interface ReportHost extends InspectorHost {
  /** The extension's folder (the webview's scripts and icons). */
  readonly extensionUri: vscode.Uri;
  readonly status: StatusBar;
  /** Writes the chosen operating point into the config and evaluates again (threshold explorer). */
  useOperatingPoint(
    resultsUri: vscode.Uri,
    key: OperatingPointKey,
    value: number,
  ): Promise<{ ok: boolean; message: string }>;
}

/** Builds the model of any shown file: results, comparison, or another tool's JSON. */
export async function loadModel(uri: vscode.Uri): Promise<ReportModel> {
  return (await loadShown(uri)).model;
}

/** The model of a shown file, with its results when it is a results file (for row inspection). */
async function loadShown(uri: vscode.Uri): Promise<{ model: ReportModel; results?: Results }> {
  const entry = await readEntry(uri);
  if (entry.kind === 'results') return { model: buildReportModel(entry.results), results: entry.results };
  return { model: await loadOtherModel(uri, entry) };
}

async function loadOtherModel(uri: vscode.Uri, entry: Awaited<ReturnType<typeof readEntry>>): Promise<ReportModel> {
  if (entry.kind === 'compare')
    return withWhereBLosesTab(withChangedRowsTab(buildCompareModel(entry.compare), entry.compare), entry.compare);
  // A results or comparison file that failed its schema is an error, never rendered as plain JSON.
  if (entry.kind === 'invalid' && jsonKind(uri.fsPath) !== 'foreign' && jsonKind(uri.fsPath) !== undefined)
    throw new Error(entry.error);
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `${path.basename(uri.fsPath)} is not valid JSON (${(err as Error).message}); fix it and reopen the report.`,
      { cause: err },
    );
  }
  return buildLeafModel(path.basename(uri.fsPath), value);
}

/**
 * The column of a new report (see `reportColumn`): the group of the open reports (`reports`, the
 * active one first), else the empty active group, else an existing other group, else beside.
 */
function reportViewColumn(reports: readonly vscode.WebviewPanel[]): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all.map((g) => ({ column: g.viewColumn, tabs: g.tabs.length }));
  const ordered = [...reports].sort((a, b) => Number(b.active) - Number(a.active));
  const c = reportColumn(
    groups,
    vscode.window.tabGroups.activeTabGroup?.viewColumn,
    ordered.map((p) => p.viewColumn),
  );
  return c === 'beside' ? vscode.ViewColumn.Beside : (c as vscode.ViewColumn);
}

class ReportPanel {
  private ready = false;
  /**
   * Results shown before the results file exists (point estimates, then provisional intervals),
   * with the stage said in the panel title; cleared when the final file is written.
   */
  staged: { results: Results; label: string } | undefined;
  private pendingFocus: string | undefined;
  private readonly subs: vscode.Disposable[] = [];
  /** Answers the webview's row, line, slice and subset requests. */
  readonly inspector: ReportInspector;
  /** Answers the Changed rows tab of a comparison (its rows, and both lines opened side by side). */
  readonly compareRows: CompareRows;

  constructor(
    private readonly host: ReportHost,
    readonly panel: vscode.WebviewPanel,
    readonly uri: vscode.Uri,
    focus: string | undefined,
    onDispose: () => void,
  ) {
    this.pendingFocus = focus;
    panel.iconPath = vscode.Uri.joinPath(host.extensionUri, 'media', 'eval-lens.svg');
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(host.extensionUri, 'dist'),
        vscode.Uri.joinPath(host.extensionUri, 'media'),
      ],
    };
    panel.webview.html = reportHtml(panel.webview, host.extensionUri);
    this.inspector = new ReportInspector(host, uri, panel, (m) => this.post(m));
    this.compareRows = new CompareRows(host, uri, panel, this.inspector, (m) => this.post(m));
    this.subs.push(
      this.inspector,
      panel.webview.onDidReceiveMessage((m: unknown) => this.handle(m)),
      // The status bar shows the headline of the report in front.
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) void this.showInStatusBar();
      }),
      panel.onDidDispose(() => {
        for (const s of this.subs) s.dispose();
        host.status.forget(uri);
        onDispose();
      }),
    );
  }

  async showInStatusBar(): Promise<void> {
    if (this.staged) return; // no results file yet
    const entry = this.host.index.get(this.uri) ?? (await this.host.index.load(this.uri));
    const subset = this.inspector.subset;
    // A slice's report in front: its numbers, named as the slice's.
    if (entry.kind === 'results' && subset) this.host.status.show(subset.results, this.uri, formatWhere(subset.where));
    else if (entry.kind === 'results') this.host.status.show(entry.results, this.uri);
    else if (entry.kind === 'compare') this.host.status.showComparison(entry.compare, this.uri);
  }

  private post(m: HostMessage): void {
    void this.panel.webview.postMessage(m);
  }

  focus(target: string | undefined): void {
    this.panel.reveal(undefined, false);
    if (!target) return;
    if (this.ready) this.post({ type: 'focus', target });
    else this.pendingFocus = target;
  }

  async refresh(): Promise<void> {
    if (!this.ready) return;
    try {
      const staged = this.staged;
      const shown = staged
        ? { model: buildReportModel(staged.results), results: staged.results }
        : await loadShown(this.uri);
      const model = this.inspector.decorate(shown.model, shown.results);
      if (staged) model.header.stage = staged.label;
      this.panel.title = staged ? `Report: ${model.title} (${staged.label})` : `Report: ${model.title}`;
      const focus = this.pendingFocus;
      this.pendingFocus = undefined;
      this.post({ type: 'show', model, uri: this.uri.toString(), ...(focus ? { focus } : {}) });
      if (this.panel.active) void this.showInStatusBar();
    } catch (err) {
      this.host.log.error(`Report for ${this.uri.fsPath}: ${(err as Error).message}`);
      this.post({ type: 'error', message: `Cannot show ${path.basename(this.uri.fsPath)}: ${(err as Error).message}` });
    }
  }

  /** Answers one message from the webview (routed by handleWebviewMessage). */
  private async handle(m: unknown): Promise<void> {
    const reply = await handleWebviewMessage(m, this.capabilities());
    if (reply) this.post(reply);
  }

  /** What this panel does for its webview's messages (see handleWebviewMessage). */
  private capabilities(): PanelCapabilities {
    const inspector = this.inspector;
    return {
      showReport: async () => {
        this.ready = true;
        await this.refresh();
      },
      writeClipboard: async (text) => vscode.env.clipboard.writeText(text),
      savePng: async (fileName, png) => {
        const target = await vscode.window.showSaveDialog({
          defaultUri: vscode.Uri.file(path.join(path.dirname(this.uri.fsPath), fileName)),
          filters: { 'PNG image': ['png'] },
          title: 'Save chart as PNG',
        });
        if (!target) return undefined;
        await vscode.workspace.fs.writeFile(target, png);
        return target.fsPath;
      },
      runCommand: async (id) => {
        await vscode.commands.executeCommand(id, this.uri);
      },
      log: (level, message) => this.host.log[level](message),
      useOperatingPoint: (key, value) => this.host.useOperatingPoint(this.uri, key, value),
      queryRows: (seq, query) => inspector.queryRows(seq, query),
      openLine: (line) => inspector.openLine(line),
      evaluateSubset: (seq, where) => inspector.evaluateSubset(seq, where, () => this.refresh()),
      sliceCandidates: (seq) => inspector.sliceCandidates(seq),
      computeSlices: (seq, by) => inspector.computeSlices(seq, by),
      findSlices: (seq, opts) =>
        inspector.findSlices(seq, {
          ...(opts.minSupport !== undefined ? { minSupport: opts.minSupport } : {}),
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
          ...(opts.run !== undefined ? { run: opts.run } : {}),
        }),
      diffRows: (seq, query) => this.compareRows.diffRows(seq, query),
      openLines: (run, lineA, lineB) => this.compareRows.openLines(run, lineA, lineB),
    };
  }
}

export class ReportPanels implements vscode.Disposable {
  private readonly panels = new Map<string, ReportPanel>();
  /** Panels opened to show stages, whose results file may not exist yet. */
  private readonly stagedOnly = new Set<string>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly host: ReportHost) {
    this.subs.push(
      host.index.onDidChange((uri) => {
        for (const p of this.panels.values()) if (!uri || p.uri.toString() === uri.toString()) void p.refresh();
      }),
      vscode.window.registerWebviewPanelSerializer(REPORT_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          if (!isWebviewState(state)) {
            panel.dispose();
            return;
          }
          this.adopt(panel, vscode.Uri.parse(state.uri), undefined);
        },
      }),
    );
  }

  private adopt(panel: vscode.WebviewPanel, uri: vscode.Uri, focus: string | undefined): ReportPanel {
    const key = uri.toString();
    const p = new ReportPanel(this.host, panel, uri, focus, () => this.panels.delete(key));
    this.panels.set(key, p);
    return p;
  }

  /** The webview panels of the open reports. */
  private openPanels(): vscode.WebviewPanel[] {
    return [...this.panels.values()].map((p) => p.panel);
  }

  /** Opens (or reveals) the report of `uri`, optionally at a metric or chart. */
  async open(uri: vscode.Uri, focus?: string): Promise<void> {
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.focus(focus);
      void existing.showInStatusBar();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      REPORT_VIEW_TYPE,
      `Report: ${path.basename(uri.fsPath).replace(/\.(eval|compare)\.json$/, '')}`,
      reportViewColumn(this.openPanels()),
      { enableScripts: true, enableFindWidget: true },
    );
    void this.adopt(panel, uri, focus).showInStatusBar();
  }

  /**
   * Shows results that are not final yet in the report of `uri` (opened if needed, updated in
   * place if open); `label` says which stage is showing. The results file need not exist yet.
   */
  showStage(uri: vscode.Uri, results: Results, label: string): void {
    let p = this.panels.get(uri.toString());
    if (!p) {
      const panel = vscode.window.createWebviewPanel(
        REPORT_VIEW_TYPE,
        `Report: ${path.basename(uri.fsPath).replace(/\.(eval|compare)\.json$/, '')} (${label})`,
        reportViewColumn(this.openPanels()),
        { enableScripts: true, enableFindWidget: true },
      );
      p = this.adopt(panel, uri, undefined);
      this.stagedOnly.add(uri.toString());
    }
    p.staged = { results, label };
    void p.refresh();
  }

  /**
   * Ends the stages of `uri`: with `written`, the panel shows the results file from now on;
   * without (failed or cancelled), a panel opened only for the stages is closed.
   */
  endStages(uri: vscode.Uri, written: boolean): void {
    const key = uri.toString();
    const p = this.panels.get(key);
    const openedForStages = this.stagedOnly.delete(key);
    if (!p || !p.staged) return;
    p.staged = undefined;
    if (!written && openedForStages) p.panel.dispose();
    else void p.refresh();
  }

  /** The panel showing `uri` (its webview panel and its inspection handlers), if open. */
  panelFor(uri: vscode.Uri):
    | {
        panel: vscode.WebviewPanel;
        inspector: ReportInspector;
        compareRows: CompareRows;
        refresh(): Promise<void>;
        showInStatusBar(): Promise<void>;
      }
    | undefined {
    return this.panels.get(uri.toString());
  }

  /** The URI shown in the active report panel, if any. */
  activeUri(): vscode.Uri | undefined {
    for (const p of this.panels.values()) if (p.panel.active) return p.uri;
    return undefined;
  }

  dispose(): void {
    for (const p of this.panels.values()) p.panel.dispose();
    for (const s of this.subs) s.dispose();
  }
}
