/**
 * The core's public surface: everything the CLI (src/cli) and the extension (src/extension) use
 * of it, and the only module they import it through (test/unit/repo/architecture.test.ts keeps it
 * so). What is not here is the core's own business. The benches measure inner parts on purpose
 * and import those directly; the worker scripts are entry points of their own (scripts/build.mjs).
 * package.json declares the project's modules free of side effects (but the webview's, which
 * register custom elements), so a bundle takes only what it uses from here, not every module
 * this file names (and their dependencies: the schema validator, the CSV and Parquet readers).
 */
export { BASELINE_KINDS, parseBaselineKinds, parseBaselineRunName } from './compare/baselineNames';
export { renameOverlayRuns } from './compare/curves';
export { diffRuns, type RowDiff } from './compare/diffRows';
export { parseEvalLensJson } from './compare/evalLensFile';
export { compareFiles, isResultsPath } from './compare/files';
export { checkGate, parseGate, type GateRule, type GateViolation } from './compare/gate';
export { readRunsTable, type MarkedRunsTable } from './compare/runsTable';
export { renderLongCsv, renderLongMarkdown, renderLongText } from './compare/longForm';
export {
  formatDelta,
  formatP,
  renderCsvTable,
  renderLatexTable,
  renderMarkdownTable,
  renderTextTable,
} from './compare/render';
export { findSlicesBetween } from './compare/sliceFinderRuns';
export { COMPARE_SCHEMA_ID, type CompareResults } from './compare/types';
export {
  CONFIG_SCHEMA,
  checkConfig,
  configKeySchema,
  configKeys,
  configProblems,
  keyPath,
  type JsonSchema,
} from './config/check';
export { findConfigBeside, loadConfigFile } from './config/load';
export { editDistance } from './config/suggest';
export { type CompareConfig, type EvalConfig, type Task } from './config/types';
export {
  CancelledError,
  EvalLensError,
  escapeControl,
  escapeControlLine,
  isRowAddressedFile,
  type EvalWarning,
  type LocatedProblem,
  type Location,
  type Progress,
} from './diagnostics';
export { evaluateFile, type EvaluateOptions, type EvaluationStage } from './evaluate';
export {
  GLOSSARY,
  citationsOf,
  explainKey,
  formatExplanation,
  formatGlossaryIndex,
  metricName,
  referenceLink,
  referencesOf,
} from './glossary/index';
export {
  QueryError,
  StaleSourceError,
  WhereSyntaxError,
  openInspection,
  parseWhere,
  type FilterTerm,
  type RowPage,
  type RowQuery,
  type RowSample,
  type RowSort,
  type RowView,
  type SliceMetricValue,
} from './inspect/index';
export { type SliceFinderOptions } from './inspect/sliceFinder';
export { findSlicesInFile, findSlicesInInspection, type FileSliceFinderResult } from './inspect/sliceFinderFiles';
export { COLUMN_ALIASES } from './io/columns';
export { detectTask } from './io/detectTask';
export { resolveEvaluation, resolveInputTask } from './io/evaluationInput';
export { fileInfo } from './io/fileInfo';
export { zipMembers } from './io/npz';
export { parquetColumnNames, readParquetMetadata } from './io/parquet';
export { formatRunJsonl, snapshotLists, type RankedListsSnapshot } from './io/ranking/writeRun';
export { mergePartialFiles } from './partial/merge';
export { partialOfFile, type PartialFile, type PartialOptions } from './partial/partial';
export { foldsCsvRows, foldsMarkdown, formatFoldsTable } from './results/foldsText';
export { formatCsv, formatMarkdown, formatTable } from './results/format';
export { formatGroupAnalysisTable, groupAnalysisCsvRows, groupAnalysisMarkdown } from './results/groupAnalysisText';
export { writeChunks } from './results/jsonChunks';
export { splitNotes } from './results/notes';
export { formatOperatingPointsTable, operatingPointsMarkdown } from './results/operatingPointsText';
export { resultsJsonChunks } from './results/resultsFile';
export { tableOf } from './results/tables';
export { RESULTS_SCHEMA_ID, type Results } from './results/types';
export { jsonSyntaxError } from './results/validate';
export { formatWhere } from './rows/where';
export { BASELINES_OF_TASK, type BaselineKind } from './tasks/baselineRun';
export { RANKING_SLICE_COLUMNS } from './tasks/slicesStep';
export { countText } from './text/countText';
export { csvLine } from './text/csvCell';
export { escapeMarkdown } from './text/markdownText';
export { pStatement } from './text/pValue';
export { alignColumns } from './text/textTable';
export { TOOL_VERSION } from './version';
export { isInside, resolveRecordedSource } from './workspacePath';
