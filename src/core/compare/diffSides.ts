/**
 * One run of `eval-lens diff` as typed columns (diffRows.ts pairs two of them): per row its line,
 * id (or user), label and prediction codes, correctness, −ln p_true, or its per-user metric values,
 * computed by the same code as the row query's (src/core/inspect/), so that both read the same
 * values; but no row view, no class-probability matrix and no row-query state. The row query's
 * table is built only for run A's `where` filter, used once and let go.
 */
import { isRowAddressedFile, Warnings } from '../diagnostics';
import type { Task } from '../config/types';
import { resolveEvaluation } from '../io/evaluationInput';
import { RowIds } from '../data/rowIds';
import { loadClassification } from '../io/loadClassification';
import { loadIwBinary } from '../io/loadIwBinary';
import { loadRanking } from '../io/ranking/load';
import { ResultsBuilder } from '../results/builder';
import type { TaskContext } from '../tasks/types';
import { classificationRowValues, classificationTable } from '../inspect/classificationTable';
import { iwTable } from '../inspect/iwTable';
import { rankingRows, rankingTable } from '../inspect/rankingTable';
import { matchingRows, type RowTable } from '../inspect/rowTable';
import type { InspectionOptions } from '../inspect/open';
import type { FilterTerm } from '../rows/types';

export interface DiffSide {
  task: Task;
  /** Rows (classification, iw-binary) or ranked lists (ranking), file order. */
  n: number;
  /** 1-based line of each row (Parquet, `.npz`: data row + 1). */
  lines: Int32Array;
  /** Each row's id, each list's user; null when the file has no id column. */
  ids: RowIds | null;
  /** Class names (iw-binary: the two label values) and per-row codes into them; null for ranking. */
  classes: readonly string[] | null;
  labels: ArrayLike<number> | null;
  preds: ArrayLike<number> | null;
  /** 1 when the row's prediction is its label (classification, iw-binary). */
  correct: ArrayLike<number> | null;
  /** −ln max(p_true, 10⁻¹⁵) per row; null without probabilities. */
  loss: ArrayLike<number> | null;
  /** Ranking: per list, each per-user metric (NaN when the user is not evaluated), in the row query's key order. */
  metrics: Record<string, Float64Array> | null;
  /** The rows every metric covers (the test rows with a split), file order; null for every row. */
  measured: Int32Array | null;
  rowAddressed: boolean;
  /**
   * The rows matching the `where` asked for when opening (file order), or its error (an unknown
   * key, a value that does not fit), thrown when asked; null without a filter.
   */
  filtered: (() => Int32Array) | null;
}

/** The rows of `table` matching `where`, evaluated now; an error is kept for the caller to throw. */
function filterOf(table: RowTable, where: readonly FilterTerm[] | null): (() => Int32Array) | null {
  if (!where || where.length === 0) return null;
  try {
    const rows = matchingRows(table, where);
    return () => rows;
  } catch (e) {
    return () => {
      throw e;
    };
  }
}

/** Opens one run of a diff: its typed columns, and the rows matching `where` when one is given. */
export async function openDiffSide(
  path: string,
  opts: Pick<InspectionOptions, 'configPath' | 'root' | 'defaults' | 'overrides'>,
  where: readonly FilterTerm[] | null,
): Promise<DiffSide> {
  const ev = await resolveEvaluation(path, opts);
  const { input, config, task } = ev;
  const warnings = new Warnings();
  const rowAddressed = isRowAddressedFile(input);
  const wanted = where !== null && where.length > 0;
  if (task === 'ranking') {
    const data = await loadRanking({ path, baseDir: ev.baseDir, root: ev.root, config, warnings });
    const rows = rankingRows(data, config);
    const names = data.users.ids;
    const users = RowIds.ofTexts(Array.from(data.lists.user, (u) => names[u]));
    return {
      task,
      n: data.lists.user.length,
      lines: data.listLines,
      ids: users,
      classes: null,
      labels: null,
      preds: null,
      correct: null,
      loss: null,
      metrics: rows.metrics,
      measured: null,
      rowAddressed,
      filtered: wanted ? filterOf(rankingTable(rows, config, data.itemMeta), where) : null,
    };
  }
  if (task === 'iw-binary') {
    const loaded = await loadIwBinary(path, {
      columns: config.columns,
      invalidRows: config.invalidRows,
      positiveLabel: config.positiveLabel,
      warnings,
      keepOther: wanted,
    });
    // The row query's own columns: the prediction at the threshold, correctness and loss.
    const table = iwTable(loaded, config);
    const field = (key: string) => table.fields.get(key);
    const label = field('label');
    const pred = field('pred');
    const correct = field('correct');
    const loss = field('loss');
    if (label?.kind !== 'category' || pred?.kind !== 'category' || correct?.kind !== 'bool')
      throw new Error('the row table of an importance-weighted binary file lacks its label, pred or correct field');
    return {
      task,
      n: table.n,
      lines: table.lines,
      ids: loaded.data.ids,
      classes: label.names,
      labels: label.codes,
      preds: pred.codes,
      correct: correct.values,
      loss: loss?.kind === 'number' ? loss.values : null,
      metrics: null,
      measured: null,
      rowAddressed,
      filtered: filterOf(table, where),
    };
  }
  const ctx: TaskContext = {
    path,
    baseDir: ev.baseDir,
    root: ev.root,
    config,
    warnings,
    results: new ResultsBuilder(),
  };
  // Only the columns a filter may name are kept as text; the probability matrix never is.
  const loaded = await loadClassification(path, config, warnings, undefined, { keepOther: wanted });
  const values = await classificationRowValues(loaded, ctx);
  const data = values.run.data;
  const { correct, nllTerm } = values.run.prepared;
  return {
    task,
    n: data.n,
    lines: data.lines,
    ids: data.ids,
    classes: data.classes,
    labels: data.labels,
    preds: data.preds,
    correct,
    loss: nllTerm,
    metrics: null,
    measured: values.measured,
    rowAddressed,
    filtered: wanted ? filterOf(classificationTable(loaded, values), where) : null,
  };
}
