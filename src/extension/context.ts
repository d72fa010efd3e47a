/**
 * The one object handed to every part of the extension (no module-level state): the VS Code
 * extension context, the log, and the long-lived services.
 */
import * as vscode from 'vscode';
import type { EvalDiagnostics } from './diagnostics';
import type { EvaluatedInput } from './evaluationFiles';
import type { InspectClient } from './inspect/inspectClient';
import type { ResultsIndex } from './resultsIndex';
import type { ReportPanels } from './report/panels';
import type { StatusBar } from './statusBar';

export type { EvaluatedInput } from './evaluationFiles';

export interface EvalLensContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly diagnostics: EvalDiagnostics;
  readonly index: ResultsIndex;
  readonly panels: ReportPanels;
  readonly status: StatusBar;
  /** The row inspection worker, shared by the report panels (started on demand). */
  readonly inspect: InspectClient;
  /** Input fsPath → its last evaluation in this session. */
  readonly evaluated: Map<string, EvaluatedInput>;
  /** Fires after an input is evaluated (auto re-evaluation watches it). */
  readonly onDidEvaluate: vscode.Event<EvaluatedInput>;
  fireEvaluated(e: EvaluatedInput): void;
}
