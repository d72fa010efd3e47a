/**
 * The inspection worker's view of the core: one loaded prediction file that answers row queries,
 * slice requests and subset evaluations. The one place that calls `src/core/inspect`.
 */
import { openInspection, type FilterTerm, type RowPage, type RowQuery } from '../../core/inspect';
import type { Results } from '../../core/results/types';
import type { SliceCandidate } from '../../shared/inspectModel';
import type { InspectSource } from './inspectProtocol';

export interface Inspection {
  /** SHA-256 of the bytes read. */
  readonly sha256: string;
  query(q: RowQuery): RowPage;
  sliceCandidates(): SliceCandidate[];
  /** Raw slice rows (`{slice, value, n, <metric>: {value, ci}, …}`). */
  slices(by: string[]): Promise<unknown>;
  evaluateSubset(where: FilterTerm[]): Promise<Results>;
}

/** Loads (parses) the prediction file; fails with a StaleSourceError when its SHA-256 is not the results'. */
export async function loadInspection(source: InspectSource): Promise<Inspection> {
  const insp = await openInspection(source.path, { ...(source.configPath ? { configPath: source.configPath } : {}), defaults: source.defaults, expectSha256: source.sha256 });
  const notYet = (what: string): never => {
    throw new Error(`${what} is not available in this build of Eval Lens.`);
  };
  return {
    sha256: insp.sha256,
    query: (q) => insp.query(q),
    sliceCandidates: () => notYet('Slicing'),
    slices: async () => notYet('Slicing'),
    evaluateSubset: async () => notYet('Evaluating a slice'),
  };
}
