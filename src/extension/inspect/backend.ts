/**
 * The inspection worker's view of the core: one loaded prediction file that answers row queries,
 * slice requests and subset evaluations. The one place that calls `src/core/inspect`.
 */
import { evaluateFile } from '../../core';
import { openInspection, type FilterTerm, type RowPage, type RowQuery } from '../../core';
import { RANKING_SLICE_COLUMNS } from '../../core';
import type { Results } from '../../core';
import { tableOf } from '../../core';
import type { SliceFinderOptions } from '../../core';
import { findSlicesInInspection, type FileSliceFinderResult } from '../../core';
import type { SliceCandidate } from '../../shared/inspectModel';
import type { InspectSource } from './inspectProtocol';

export interface Inspection {
  /** SHA-256 of the bytes read. */
  readonly sha256: string;
  query(q: RowQuery): RowPage;
  sliceCandidates(): Promise<SliceCandidate[]>;
  /** Raw slice rows (`{slice, value, n, where, diff, <metric>: {value, ci}, …}`). */
  slices(by: string[]): Promise<unknown>;
  evaluateSubset(where: FilterTerm[]): Promise<Results>;
  /** The slice finder on this file (one run). */
  findSlices(options: SliceFinderOptions): FileSliceFinderResult;
}

/** Loads (parses) the prediction file; fails with a StaleSourceError when its SHA-256 is not the results'. */
export async function loadInspection(source: InspectSource): Promise<Inspection> {
  const opts = {
    ...(source.configPath ? { configPath: source.configPath } : {}),
    defaults: source.defaults,
    ...(source.root ? { root: source.root } : {}),
  };
  const insp = await openInspection(source.path, { ...opts, expectSha256: source.sha256 });
  return {
    sha256: insp.sha256,
    query: (q) => insp.query(q),
    // Classification and iw-binary: the columns without a role with few values (counted while
    // opening). Ranking: the per-user numbers a run can be sliced by (cut into quantile bins).
    sliceCandidates: async () =>
      insp.task === 'ranking'
        ? RANKING_SLICE_COLUMNS.filter((c) => insp.filterKeys.includes(c)).map((column) => ({
            column,
            numeric: true,
            // Train interactions: the same bins as the Ranking tab's activity chart (one binning).
            ...(column === 'trainCount' ? { binning: 'activity bins, as on the Ranking tab' } : {}),
          }))
        : insp.sliceCandidates.map(({ column, distinct }) => ({ column, distinct, numeric: false })),
    // The evaluation's own slice table, computed anew with `slices` set (nothing is written). Neither
    // this nor a subset's report reads per-row values (a report from a file has none either).
    async slices(by) {
      const results = await evaluateFile(source.path, {
        ...opts,
        overrides: { slices: by, minSliceSize: 1 },
        perItem: false,
      });
      return tableOf(results, 'slices') ?? [];
    },
    evaluateSubset: (where) => evaluateFile(source.path, { ...opts, subset: where, perItem: false }),
    findSlices: (options) => findSlicesInInspection(insp, source.path, options),
  };
}
