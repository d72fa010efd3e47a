/**
 * The slice finder on prediction files (sliceFinder.ts has the conventions): the rows of a
 * classification (or importance-weighted binary) file as the row query reads them — correctness
 * by the evaluation's own code — sliced by the true class (`label`), every column without a role,
 * and the row's confidence score. Two runs (compare/sliceFinderRuns.ts) are read with the same
 * functions. With a validation/test split the finder searches the rows every metric covers (the
 * test rows), so a slice's Δ is measured against the headline the report shows; `metricsOn: "all"`
 * searches every row.
 */
import { fail } from '../diagnostics';
import type { TextColumn } from '../data/textColumn';
import { dictionaryEncode } from '../data/textColumn';
import { openInspection, type Inspection, type InspectionOptions } from './open';
import { findSlices, type SliceFinderOptions } from './sliceFinder';
import type { ClassificationRowView, FilterTerm } from '../rows/types';
import type { FileSliceFinderResult } from './sliceFinderTypes';
import { formatWhere } from '../rows/where';

export interface SliceFinderFileOptions
  extends Pick<InspectionOptions, 'configPath' | 'root' | 'defaults' | 'overrides'>, SliceFinderOptions {
  /** Only the rows (of run A) matching this filter. */
  where?: FilterTerm[];
  matchBy?: 'id' | 'position';
}

export type { FileSliceFinderResult };

/** Keys of the row query that a column of the same name could not be filtered by. */
const BUILT_IN_KEYS = new Set([
  'label',
  'pred',
  'correct',
  'confidence',
  'loss',
  'accepted',
  'weight',
  'line',
  'id',
  'group',
  'class_group',
  'shot',
  'split',
  'split_role',
  'stratum',
]);

export interface RowsOfFile {
  views: ClassificationRowView[];
  /** Row indices (file order) kept by the filter. */
  kept: Int32Array;
}

export function classificationRows(insp: Inspection, file: string, where: FilterTerm[] | undefined): RowsOfFile {
  if (insp.task === 'ranking')
    fail(
      'slice-finder-task',
      { file },
      "expected classification or importance-weighted binary rows for the slice finder, but this is a ranking run: the finder tests the accuracy of the rows of a slice (right or wrong per row), and a ranking run has a graded per-user metric instead, which the finder does not test. For a ranking run, slice users by a per-user column (the Slices tab, or `slices` in the config) to see each slice's metrics with intervals.",
    );
  const page = insp.query({ where: [], offset: 0, limit: Math.max(1, insp.rowsInFile) });
  const views = page.rows as ClassificationRowView[];
  const filtered = where && where.length > 0 ? insp.rowsMatching(where) : Int32Array.from(views, (_, i) => i);
  // the rows every metric covers (the test rows with a split), as `evaluate` measures and `diff` compares them
  const measured = insp.measuredRows ? new Set(insp.measuredRows) : null;
  const kept = measured ? filtered.filter((i) => measured.has(i)) : filtered;
  return { views, kept };
}

/** The columns sliced by, over the kept rows: `label` (by value), the columns without a role, `confidence`. */
export function sliceColumns({ views, kept }: RowsOfFile): TextColumn[] {
  const column = (name: string, text: (v: ClassificationRowView) => string): TextColumn => {
    const { codes, names } = dictionaryEncode(Array.from(kept, (i) => text(views[i])));
    return { name, values: names, codes };
  };
  const out: (TextColumn & { categorical?: boolean })[] = [{ ...column('label', (v) => v.label), categorical: true }];
  const first = views[kept[0] ?? 0];
  for (const name of Object.keys(first?.columns ?? {}))
    if (!BUILT_IN_KEYS.has(name) && !BUILT_IN_KEYS.has(name.toLowerCase()))
      out.push(column(name, (v) => v.columns[name] ?? ''));
  if (views.some((v) => v.confidence !== null))
    out.push(
      column('confidence', (v) => (v.confidence !== null && Number.isFinite(v.confidence) ? String(v.confidence) : '')),
    );
  return out;
}

export function inspectionOptions(opts: SliceFinderFileOptions): InspectionOptions {
  return { configPath: opts.configPath, root: opts.root, defaults: opts.defaults, overrides: opts.overrides };
}

export function noRows(file: string): never {
  return fail('slice-finder-empty', { file }, 'expected rows to slice, but none are left (after --where).');
}

/** One run: the slices whose accuracy is below the whole file's. */
export async function findSlicesInFile(
  path: string,
  opts: SliceFinderFileOptions = {},
): Promise<FileSliceFinderResult> {
  return findSlicesInInspection(await openInspection(path, inspectionOptions(opts)), path, opts);
}

/** One run, on a file already opened (the extension's inspection worker keeps it loaded). */
export function findSlicesInInspection(
  insp: Inspection,
  path: string,
  opts: SliceFinderOptions & { where?: FilterTerm[] } = {},
): FileSliceFinderResult {
  // The rows every metric covers (the test rows with a split), so that a slice's Δ is slice − the
  // headline the report shows; `metricsOn: "all"` searches every row.
  const rows = classificationRows(insp, path, opts.where);
  if (rows.kept.length === 0) noRows(path);
  const correct = Uint8Array.from(rows.kept, (i) => (rows.views[i].correct ? 1 : 0));
  const found = findSlices({ columns: sliceColumns(rows), correct }, opts);
  const measured = measuredOf(insp);
  if (!measured) return { runs: [path], ...found, measured };
  // `rows` lists every row of the file: a slice's rows are those among the test rows.
  const role: FilterTerm = { key: 'split_role', op: '=', value: 'test' };
  const slices = found.slices.map((s) => {
    const where = [role, ...s.where];
    return { ...s, where, whereText: formatWhere(where) };
  });
  return { runs: [path], ...found, slices, measured };
}

/** The test rows searched, of the file's rows (null when every row is). */
export function measuredOf(insp: Inspection): FileSliceFinderResult['measured'] {
  return insp.measuredRows ? { testRows: insp.measuredRows.length, rowsInFile: insp.rowsInFile } : null;
}
