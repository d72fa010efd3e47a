/**
 * `openInspection(path, opts)`: loads a prediction file once, with the evaluation's config and
 * code, and answers row queries from what it holds (typed arrays; a few MB for 200,000 rows), so
 * a long-lived worker can keep it and answer each page in milliseconds.
 *
 * The source file is the truth: the inspection records the SHA-256 of the bytes it read.
 * {@link Inspection.checkFresh} compares it with the results' `source.sha256`, and
 * {@link Inspection.fileChanged} re-hashes the file on disk; `opts.expectSha256` makes opening fail
 * with a {@link StaleSourceError} when the file is not the one the results were computed from.
 */
import { isRowAddressedFile, Warnings, type Progress } from '../diagnostics';
import type { ResolvedConfig, Task } from '../config/types';
import { resolveEvaluation, type EvaluationInputOptions } from '../io/evaluationInput';
import { fileInfo } from '../io/fileInfo';
import { loadClassification } from '../io/loadClassification';
import { loadIwBinary } from '../io/loadIwBinary';
import { loadRanking } from '../io/ranking/load';
import { ResultsBuilder } from '../results/builder';
import type { TaskContext } from '../tasks/types';
import { classificationRowValues, classificationTable } from './classificationTable';
import { dictionaryEncode } from '../data/textColumn';
import { StaleSourceError } from './errors';
import { iwTable } from './iwTable';
import { rankingRows, rankingTable } from './rankingTable';
import { QueryRunner, matchingRows, sampleRows, type RowSample, type RowSampleQuery, type RowTable } from './rowTable';
import { sliceCandidates } from '../rows/sliceValues';
import type { FilterTerm, RowPage, RowQuery } from '../rows/types';
import type { TextColumn } from '../data/textColumn';
import type { LoadedClassification } from '../io/loadClassification';

/**
 * The file's per-row group column (a role column, so not among the columns kept as text) as a
 * slice candidate under its name in the file: a subgroup attribute is the first thing to slice by.
 */
function groupColumnText(loaded: LoadedClassification): TextColumn[] {
  const name = loaded.columns.group;
  const values = loaded.data.groupColumn;
  if (typeof name !== 'string' || !values || name in loaded.text) return [];
  const { codes, names } = dictionaryEncode(values);
  return [{ name, values: names, codes }];
}

export interface InspectionOptions extends EvaluationInputOptions {
  progress?: Progress;
  /** The SHA-256 the results were computed from: opening fails with a {@link StaleSourceError} when the file differs. */
  expectSha256?: string;
}

/** Whether results still describe the file the inspection read. */
export interface Freshness {
  fresh: boolean;
  /** SHA-256 of the bytes the inspection read. */
  sha256: string;
  /** SHA-256 in the results (`source.sha256`). */
  resultsSha256: string;
}

export interface Inspection {
  readonly task: Task;
  /** Absolute path of the source file. */
  readonly path: string;
  readonly size: number;
  /** SHA-256 (hex) of the bytes read. */
  readonly sha256: string;
  readonly config: ResolvedConfig;
  /** Rows (classification, iw-binary) or ranked lists (ranking) in the file, after skipped rows. */
  readonly rowsInFile: number;
  /** Column names of the file in header order (classification, iw-binary; empty for ranking). */
  readonly header: string[];
  /** Class names (classification, iw-binary: the two label values), null for ranking. */
  readonly classes: string[] | null;
  /** Keys a filter term may use (built-in keys first, then column names and metric keys). */
  readonly filterKeys: string[];
  /** Keys the rows may be sorted by. */
  readonly sortKeys: string[];
  /**
   * Columns a report may offer for slicing when the config names no `slices`: every column
   * without a role with at most 50 distinct values (header order), with its distinct count.
   */
  readonly sliceCandidates: { column: string; distinct: number }[];
  /**
   * The rows every metric covers (row indices, file order): the test rows with a split and
   * `metricsOn: "test"`; null (or absent) for every row.
   */
  readonly measuredRows?: Int32Array | null;
  /** One page of rows. Synchronous; throws a QueryError for an unknown key or a value that does not fit. */
  query(q: RowQuery): RowPage;
  /** Indices (0-based, file order) of the rows matching a filter. */
  rowsMatching(where: FilterTerm[]): Int32Array;
  /** A seeded stratified random sample of the matching rows (see {@link sampleRows}). */
  sample(q: RowSampleQuery): RowSample;
  /** Compares the SHA-256 read with the results' `source.sha256`. */
  checkFresh(results: { source: { sha256: string } }): Freshness;
  /** Throws a {@link StaleSourceError} when the results were computed from other bytes. */
  assertFresh(results: { source: { sha256: string } }): void;
  /** Re-hashes the file on disk: true when it no longer has the bytes the inspection read. */
  fileChanged(): Promise<boolean>;
}

export async function openInspection(path: string, opts: InspectionOptions = {}): Promise<Inspection> {
  const ev = await resolveEvaluation(path, opts);
  const { input, config, task } = ev;
  const ctx: TaskContext = {
    path,
    baseDir: ev.baseDir,
    root: ev.root,
    config,
    warnings: new Warnings(),
    results: new ResultsBuilder(),
    progress: opts.progress,
  };
  let table: RowTable;
  let header: string[] = [];
  let classes: string[] | null = null;
  let candidates: { column: string; distinct: number }[] = [];
  let measuredRows: Int32Array | null = null;
  let info: { size: number; sha256: string };
  if (task === 'ranking') {
    const data = await loadRanking({
      path,
      baseDir: ev.baseDir,
      root: ev.root,
      config,
      warnings: ctx.warnings,
      progress: opts.progress,
    });
    info = data.hashed.get(input) ?? (await fileInfo(input));
    table = rankingTable(rankingRows(data, config), config, data.itemMeta);
  } else if (task === 'iw-binary') {
    const [fi, loaded] = await Promise.all([
      fileInfo(input),
      loadIwBinary(path, {
        columns: config.columns,
        invalidRows: config.invalidRows,
        positiveLabel: config.positiveLabel,
        warnings: ctx.warnings,
        progress: opts.progress,
        keepOther: true,
      }),
    ]);
    info = fi;
    table = iwTable(loaded, config);
    header = loaded.header;
    candidates = sliceCandidates(loaded.text);
    const label = table.fields.get('label');
    classes = label?.kind === 'category' ? [...label.names] : null;
  } else {
    const [fi, loaded] = await Promise.all([
      fileInfo(input),
      // the row table shows each row's best classes from the matrix
      loadClassification(path, config, ctx.warnings, opts.progress, { keepOther: true, keepProbabilities: true }),
    ]);
    info = fi;
    const values = await classificationRowValues(loaded, ctx);
    measuredRows = values.measured;
    table = classificationTable(loaded, values);
    header = loaded.header;
    classes = loaded.data.classes;
    candidates = sliceCandidates([...groupColumnText(loaded), ...Object.values(loaded.text)]);
  }
  if (opts.expectSha256 !== undefined && opts.expectSha256 !== info.sha256)
    throw new StaleSourceError(input, opts.expectSha256, info.sha256);
  const runner = new QueryRunner(table);
  const rowAddressed = isRowAddressedFile(input);
  // The report's default view, the most confident mistakes, sorts by confidence: build that order
  // with the rest of the loading (tens of milliseconds for 200,000 rows) rather than on the first page.
  runner.prepareSort('confidence', 'desc');
  const check = (results: { source: { sha256: string } }): Freshness => ({
    fresh: results.source.sha256 === info.sha256,
    sha256: info.sha256,
    resultsSha256: results.source.sha256,
  });
  return {
    task,
    path: input,
    size: info.size,
    sha256: info.sha256,
    config,
    rowsInFile: table.n,
    header,
    classes,
    filterKeys: [...table.fields.keys()],
    sortKeys: table.sortKeys,
    sliceCandidates: candidates,
    measuredRows,
    query: rowAddressed ? (q) => ({ ...runner.query(q), rowAddressed: true }) : (q) => runner.query(q),
    rowsMatching: (where) => matchingRows(table, where),
    sample: rowAddressed ? (q) => ({ ...sampleRows(runner, q), rowAddressed: true }) : (q) => sampleRows(runner, q),
    checkFresh: check,
    assertFresh(results) {
      const f = check(results);
      if (!f.fresh) throw new StaleSourceError(input, f.resultsSha256, f.sha256);
    },
    async fileChanged() {
      try {
        return (await fileInfo(input)).sha256 !== info.sha256;
      } catch {
        return true; // gone or unreadable: the rows held are no longer the file's
      }
    },
  };
}
