/**
 * Reading the tables of a results object by name, typed by {@link ResultTables} (types.ts): the
 * map from a table's name to its type that the writer (`ResultsBuilder.table`), the readers and the
 * JSON schema share. A reader asks {@link tableOf} and gets `ResultTables[name] | undefined`; it
 * never casts (the lint forbids a cast of a table). The types hold because every results object is
 * made by the builder or read through `parseEvalLensJson` (compare/evalLensFile.ts), which checks each known
 * table against the schema before anything reads it.
 */
import type { Results, ResultTables, TableName } from './types';

/**
 * Every table name, in report order. Typed as a record of the map's keys, so that a table added to
 * {@link ResultTables} without a name here (or the reverse) does not compile; the schema's
 * `tables.properties` is checked against this list by a test.
 */
const NAMES: { readonly [K in TableName]: true } = {
  perClass: true,
  confusion: true,
  groupAnalysis: true,
  operatingPoints: true,
  reliability: true,
  scoresUsed: true,
  importanceWeights: true,
  thresholdCounts: true,
  categoryBreakdown: true,
  itemMap: true,
  perUserHistograms: true,
  activityBins: true,
  rankingSummary: true,
  folds: true,
  slices: true,
};

/** The names of the tables the results may hold ({@link ResultTables}). */
export const TABLE_NAMES: readonly TableName[] = Object.keys(NAMES) as TableName[];

/** Whether `name` is a table of {@link ResultTables}. */
export function isTableName(name: string): name is TableName {
  return Object.prototype.hasOwnProperty.call(NAMES, name);
}

/** The table `name` of the results, or undefined when the run did not produce it. */
export function tableOf<K extends TableName>(results: Pick<Results, 'tables'>, name: K): ResultTables[K] | undefined {
  return results.tables[name];
}

/**
 * Tables a later version wrote that this one does not know (the schema lets them through), as
 * they are: a reader may only show them generically.
 */
export function otherTables(results: Pick<Results, 'tables'>): [string, unknown][] {
  return Object.entries(results.tables).filter(([name]) => !isTableName(name));
}
