/**
 * The inspection worker's view of the core: one loaded prediction file that answers row queries,
 * slice requests and subset evaluations. The one place that calls `src/core/inspect`.
 */
import type { FilterTerm, RowPage, RowQuery } from '../../core/inspect/types';
import type { Results } from '../../core/results/types';
import type { SliceCandidate } from '../../shared/inspectModel';
import type { InspectSource } from './inspectProtocol';

export interface Inspection {
  query(q: RowQuery): RowPage;
  sliceCandidates(): SliceCandidate[];
  /** Raw slice rows (`{slice, value, n, <metric>: {value, ci}, …}`). */
  slices(by: string[]): Promise<unknown>;
  evaluateSubset(where: FilterTerm[]): Promise<Results>;
}

/** Loads (parses) the prediction file for inspection. */
export async function loadInspection(source: InspectSource): Promise<Inspection> {
  throw new Error(`Row inspection of ${source.path} needs the core's row query, which this build does not have yet.`);
}
