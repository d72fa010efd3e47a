/**
 * The report panel's answers to the webview's inspection requests: a page of rows, a line opened
 * in the source file, the report of a subset of rows (a slice click), slice candidates and slice
 * tables. Each request goes to the shared inspection worker; each failure becomes a message.
 */
import { recordEndLine } from '../../shared/rowPosition';
import { formatCount } from '../../shared/format';
import { parseBaselineRunName } from '../../core';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FilterTerm, RowQuery } from '../../core';
import type { Results } from '../../core';
import { tableOf } from '../../core';
import type { CompareResults } from '../../core';
import { isRowAddressedFile } from '../../core';
import type { SliceFinderOptions } from '../../core';
import type { FileSliceFinderResult } from '../../core';
import { resolveRecordedSource } from '../../core';
import { drillTargets } from '../../shared/drillTargets';
import { readSliceTable, type InspectModel } from '../../shared/inspectModel';
import type { ReportModel } from '../../shared/model';
import type { HostMessage } from '../../shared/protocol';
import { buildReportModel } from '../../shared/report';
import { configFor, inputOfResults, workspaceRoot, type EvaluatedInputs } from '../evaluationFiles';
import { readEntry } from '../resultsIndex';
import { readSettings, SECTION } from '../settings';
import { InspectFailed, type InspectClient } from './inspectClient';
import type { InspectSource } from './inspectProtocol';

/** Default of the setting `evalLens.minSliceSize`. */
export const DEFAULT_MIN_SLICE_SIZE = 30;

function directions(results: Results): Record<string, 'higher' | 'lower'> {
  return Object.fromEntries(Object.entries(results.metrics).map(([k, m]) => [k, m.direction]));
}

/**
 * The Slices tab, filled by the webview from the results' slice table, or from a table computed on
 * demand by a column picked there.
 */
function withSlicesTab(model: ReportModel): ReportModel {
  if (!model.inspect || model.tabs.some((t) => t.id === 'slices')) return model;
  return {
    ...model,
    tabs: [...model.tabs, { id: 'slices', title: 'Slices', cards: [], charts: [], tables: [], notes: [] }],
    targets: { ...model.targets, slices: { tab: 'slices' } },
  };
}

/**
 * A comparison of classification runs gets a Slices tab: "Where B loses", the slice finder between
 * the baseline and a run chosen there (run in the inspection worker on request).
 */
export function withWhereBLosesTab(model: ReportModel, c: CompareResults): ReportModel {
  if (c.task === 'ranking' || c.runs.length < 2 || model.tabs.some((t) => t.id === 'slices')) return model;
  // A baseline run made from a run's input (`--against majority`) has no file of its rows to slice.
  const fileRuns = c.runs.filter((id) => id !== c.baseline && !parseBaselineRunName(id));
  if (parseBaselineRunName(c.baseline) || fileRuns.length === 0) return model;
  const baselineName = c.names[c.runs.indexOf(c.baseline)] ?? c.baseline;
  return {
    ...model,
    tabs: [...model.tabs, { id: 'slices', title: 'Slices', cards: [], charts: [], tables: [], notes: [] }],
    targets: { ...model.targets, slices: { tab: 'slices' } },
    compareSlices: {
      baseline: baselineName,
      runs: fileRuns.map((id) => ({ id, name: c.names[c.runs.indexOf(id)] ?? id })),
    },
  };
}

/** What the inspector needs from the extension: the log, the inspection worker, and what finds the input. */
export interface InspectorHost extends EvaluatedInputs {
  readonly log: vscode.LogOutputChannel;
  readonly inspect: InspectClient;
}

export class ReportInspector implements vscode.Disposable {
  private readonly lease: vscode.Disposable;
  private results: Results | undefined;
  /** The subset the report shows (a slice click), until cleared. */
  subset: { where: FilterTerm[]; results: Results } | undefined;

  constructor(
    private readonly host: InspectorHost,
    private readonly resultsUri: vscode.Uri,
    private readonly panel: vscode.WebviewPanel,
    private readonly post: (m: HostMessage) => void,
  ) {
    this.lease = host.inspect.lease();
  }

  /** The inspection part of the model of `results`; the subset's model instead when one is shown. */
  decorate(model: ReportModel, results: Results | undefined): ReportModel {
    if (!results) return model;
    if (this.results && this.results.source.sha256 !== results.source.sha256) this.subset = undefined;
    this.results = results;
    const base: Omit<InspectModel, 'drill'> = {
      task: results.task,
      minSliceSize: vscode.workspace
        .getConfiguration(SECTION, this.resultsUri)
        .get<number>('minSliceSize', DEFAULT_MIN_SLICE_SIZE),
    };
    // The slices of what is shown: the subset's own when a subset is shown.
    const shownResults = this.subset?.results ?? results;
    const slices = readSliceTable(tableOf(shownResults, 'slices'), directions(shownResults));
    if (slices) base.slices = slices;
    if (!this.subset) return withSlicesTab({ ...model, inspect: { ...base, drill: drillTargets(results, model) } });
    const shown = this.subset.results;
    const sub = buildReportModel(shown);
    return withSlicesTab({
      ...sub,
      title: model.title,
      header: { ...sub.header, title: model.header.title },
      inspect: {
        ...base,
        drill: drillTargets(shown, sub),
        subset: { where: this.subset.where, rows: shown.source.rowsUsed },
      },
    });
  }

  /** The results shown (read from the results file when the webview has not been shown them yet). */
  private async currentResults(): Promise<Results> {
    if (this.results) return this.results;
    const entry = await readEntry(this.resultsUri);
    if (entry.kind !== 'results')
      throw new Error(`${path.basename(this.resultsUri.fsPath)} holds no evaluation results to inspect.`);
    this.results = entry.results;
    return entry.results;
  }

  /**
   * The prediction file behind the results and how it was evaluated (what every inspection
   * request names); throws a readable error when it is gone.
   */
  async source(): Promise<InspectSource> {
    const results = await this.currentResults();
    const input = await inputOfResults(this.host, this.resultsUri);
    if (!input)
      throw new Error(
        `The prediction file ${results.source.path} was not found; rows cannot be shown. Evaluate the prediction file again to inspect it.`,
      );
    if ('refused' in input)
      throw new Error(
        `Rows cannot be shown: the recorded prediction file is refused (${input.refused}). Eval Lens only reads files inside the workspace.`,
      );
    return this.sourceOf(input, results.source.sha256);
  }

  /** How the prediction file `input` is read: its config, the settings' defaults, the workspace root. */
  async sourceOf(input: vscode.Uri, sha256: string): Promise<InspectSource> {
    const configPath = await configFor(input);
    return {
      path: input.fsPath,
      sha256,
      ...(configPath ? { configPath } : {}),
      defaults: readSettings(input).defaults,
      ...workspaceRoot(input),
    };
  }

  /** Posts `m` to the webview and returns it (the integration tests read the answers here). */
  private send(m: HostMessage): HostMessage {
    this.post(m);
    return m;
  }

  private fail(seq: number, err: unknown): HostMessage {
    const stale = err instanceof InspectFailed && err.stale;
    const message = err instanceof Error ? err.message : String(err);
    if (!stale) this.host.log.error(`Report ${path.basename(this.resultsUri.fsPath)}: ${message}`);
    return this.send({ type: 'reply', seq, ok: false, message, ...(stale ? { stale: true as const } : {}) });
  }

  async queryRows(seq: number, query: RowQuery): Promise<HostMessage> {
    try {
      const started = Date.now();
      const page = await this.host.inspect.request('query', { source: await this.source(), query });
      this.host.log.debug(
        `Rows ${JSON.stringify(query.where)} sort ${query.sort ? `${query.sort.key}:${query.sort.dir}` : 'line'} offset ${query.offset}: ${page.rows.length} of ${page.total} in ${Date.now() - started} ms`,
      );
      return this.send({ type: 'rows', seq, page });
    } catch (err) {
      return this.fail(seq, err);
    }
  }

  async sliceCandidates(seq: number): Promise<HostMessage> {
    try {
      const candidates = await this.host.inspect.request('sliceCandidates', { source: await this.source() });
      return this.send({ type: 'sliceCandidates', seq, candidates });
    } catch (err) {
      return this.fail(seq, err);
    }
  }

  async computeSlices(seq: number, by: string[]): Promise<HostMessage> {
    try {
      const raw = await this.host.inspect.request('slices', { source: await this.source(), by });
      const table = readSliceTable(raw, this.results ? directions(this.results) : {});
      if (!table) throw new Error(`The slice table by ${by.join(', ')} could not be read.`);
      return this.send({ type: 'slices', seq, table });
    } catch (err) {
      return this.fail(seq, err);
    }
  }

  /**
   * The slice finder, in the inspection worker: on the report's prediction file (one run), or, in
   * a comparison, between the baseline (A) and `run` (B; default the first other run).
   */
  async findSlices(seq: number, opts: SliceFinderOptions & { run?: string }): Promise<HostMessage> {
    const { run, ...options } = opts;
    try {
      const entry = this.results ? undefined : await readEntry(this.resultsUri);
      let result: FileSliceFinderResult;
      if (entry?.kind === 'compare') {
        const c = entry.compare;
        const b = run ?? c.runs.find((r) => r !== c.baseline);
        if (b === undefined || !c.runs.includes(b) || b === c.baseline)
          throw new Error(`Choose a run of the comparison other than the baseline ${c.baseline}.`);
        const [a, bPath] = [await this.runFile(c.baseline), await this.runFile(b)];
        const { sha256: _sha, ...source } = await this.sourceOf(vscode.Uri.file(a), '');
        result = await this.host.inspect.request('findSlicesBetween', { source, pathB: bPath, options });
      } else result = await this.host.inspect.request('findSlices', { source: await this.source(), options });
      const shown = { ...result, runs: result.runs.map((r) => vscode.workspace.asRelativePath(r, false)) };
      return this.send({ type: 'foundSlices', seq, result: shown });
    } catch (err) {
      return this.fail(seq, err);
    }
  }

  /**
   * The prediction file of a comparison's run (its recorded path, or a results file's source),
   * refused when it leads outside the workspace.
   */
  async runFile(run: string): Promise<string> {
    const folder = vscode.workspace.getWorkspaceFolder(this.resultsUri);
    if (!folder) throw new Error('The comparison is not inside a workspace folder; its runs cannot be read.');
    const found = await resolveRecordedSource(run, this.resultsUri.fsPath, folder.uri.fsPath);
    if ('refused' in found) throw new Error(`The run ${run} cannot be read: ${found.refused}.`);
    if (!('path' in found)) throw new Error(`The prediction file of the run ${run} was not found.`);
    if (!found.path.endsWith('.eval.json')) return found.path;
    const input = await inputOfResults(this.host, vscode.Uri.file(found.path));
    if (!input || 'refused' in input)
      throw new Error(
        `The prediction file behind ${run} ${input ? `is refused (${input.refused})` : 'was not found'}.`,
      );
    return input.fsPath;
  }

  /**
   * Evaluates the rows matching `where` (same config) and shows their report; an empty `where`
   * shows the whole file again. `refresh` posts the model.
   */
  async evaluateSubset(seq: number, where: FilterTerm[], refresh: () => Promise<void>): Promise<HostMessage> {
    if (where.length === 0) {
      this.subset = undefined;
      await refresh();
      return this.send({ type: 'reply', seq, ok: true, message: 'Showing the whole file.' });
    }
    try {
      const source = await this.source();
      const results = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Eval Lens: evaluating the slice' },
        () => this.host.inspect.request('subset', { source, where }),
      );
      this.subset = { where, results };
      await refresh();
      return this.send({
        type: 'reply',
        seq,
        ok: true,
        message: `Showing ${formatCount(results.source.rowsUsed)} rows.`,
      });
    } catch (err) {
      return this.fail(seq, err);
    }
  }

  /** Reveals `line` (1-based) of the prediction file beside the report, the whole line selected. */
  async openLine(line: number): Promise<vscode.TextEditor | undefined> {
    const input = await inputOfResults(this.host, this.resultsUri);
    if (!input || 'refused' in input) {
      void vscode.window.showErrorMessage(
        `Cannot open the line: the prediction file of ${path.basename(this.resultsUri.fsPath)} ${input ? `is refused (${input.refused})` : 'was not found'}.`,
      );
      return undefined;
    }
    // Parquet and NumPy files are binary: their rows have numbers, not lines a text editor can show.
    if (isRowAddressedFile(input.fsPath)) {
      void vscode.window.showInformationMessage(
        `${path.basename(input.fsPath)} is a binary file: this is its data row ${line - 1}, which a text editor cannot show. The row's values are in the rows panel.`,
      );
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(input);
    const l = Math.min(Math.max(0, line - 1), doc.lineCount - 1);
    // The whole record: a quoted CSV field may span several lines.
    const end = recordEndLine((i) => doc.lineAt(i).text, doc.lineCount, l, input.fsPath);
    const range = new vscode.Range(l, 0, end, doc.lineAt(end).text.length);
    // Beside the report: where the file is already shown, else a column next to the report.
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === input.fsPath);
    const column =
      shown?.viewColumn ??
      (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: column,
      selection: range,
      preserveFocus: false,
      preview: true,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return editor;
  }

  dispose(): void {
    this.lease.dispose();
  }
}
