/**
 * The slice finder on two runs (inspect/sliceFinder.ts has the conventions): the rows paired as
 * `eval-lens diff` pairs them (diffRows.ts: by id, else by position, labels checked), the slices
 * defined on run A's rows, read as the one-file finder reads them (inspect/sliceFinderFiles.ts).
 * With a validation/test split it searches the rows every metric covers (run A's test rows).
 */
import { fail } from '../diagnostics';
import { diffRuns } from './diffRows';
import { openInspection } from '../inspect/open';
import { findSlices } from '../inspect/sliceFinder';
import {
  classificationRows,
  inspectionOptions,
  measuredOf,
  noRows,
  sliceColumns,
  type FileSliceFinderResult,
  type SliceFinderFileOptions,
} from '../inspect/sliceFinderFiles';

/** Two runs: the slices where B's accuracy is below A's. */
export async function findSlicesBetween(
  pathA: string,
  pathB: string,
  opts: SliceFinderFileOptions = {},
): Promise<FileSliceFinderResult> {
  const insp = await openInspection(pathA, inspectionOptions(opts));
  const rows = classificationRows(insp, pathA, opts.where);
  if (rows.kept.length === 0) noRows(pathA);
  // The pairing, its checks and the rows that flipped, as `diff` finds them.
  const d = await diffRuns(pathA, pathB, {
    ...inspectionOptions(opts),
    metric: 'accuracy',
    where: opts.where,
    limit: Infinity,
    matchBy: opts.matchBy,
  });
  const position = new Map<number, number>();
  rows.kept.forEach((i, k) => position.set(rows.views[i].line, k));
  const correct = Uint8Array.from(rows.kept, (i) => (rows.views[i].correct ? 1 : 0));
  const correctB = correct.slice();
  for (const r of d.rows) {
    const k = position.get(r.lineA);
    if (k === undefined || r.b === null)
      fail('slice-finder-pairing', { file: pathA, line: r.lineA }, 'expected a row of run A for every changed row.');
    correctB[k] = r.b;
  }
  const found = findSlices({ columns: sliceColumns(rows), correct, correctB }, opts);
  const measured = measuredOf(insp);
  return { runs: [pathA, pathB], ...found, measured };
}
