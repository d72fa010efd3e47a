/**
 * The inspection worker's view of the core: one loaded prediction file that answers row queries,
 * slice requests and subset evaluations. The one place that calls `src/core/inspect`.
 */
import { CONFIG_DEFAULTS } from '../../core/config/types';
import { Warnings } from '../../core/diagnostics';
import { evaluateFile } from '../../core/evaluate';
import { openInspection, type FilterTerm, type RowPage, type RowQuery } from '../../core/inspect';
import { sliceCandidates } from '../../core/inspect/sliceValues';
import { parseNumberText } from '../../core/io/numbers';
import { loadClassification } from '../../core/io/loadClassification';
import { loadIwBinary } from '../../core/io/loadIwBinary';
import type { Results } from '../../core/results/types';
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
}

/** Loads (parses) the prediction file; fails with a StaleSourceError when its SHA-256 is not the results'. */
export async function loadInspection(source: InspectSource): Promise<Inspection> {
  const opts = { ...(source.configPath ? { configPath: source.configPath } : {}), defaults: source.defaults };
  const insp = await openInspection(source.path, { ...opts, expectSha256: source.sha256 });
  let candidates: Promise<SliceCandidate[]> | undefined;
  return {
    sha256: insp.sha256,
    query: (q) => insp.query(q),
    // The columns without a role, read as text once (a second parse, only when the picker asks).
    sliceCandidates() {
      if (insp.task === 'ranking') return Promise.resolve([]);
      candidates ??= (async () => {
        const warnings = new Warnings();
        const c = insp.config;
        const text = insp.task === 'iw-binary'
          ? (await loadIwBinary(source.path, { columns: c.columns, invalidRows: c.invalidRows, positiveLabel: c.positiveLabel, warnings, keepOther: true })).text
          : (await loadClassification(source.path, c, warnings, undefined, { keepOther: true })).text;
        const bins = c.sliceBins ?? CONFIG_DEFAULTS.sliceBins;
        return sliceCandidates(text).map(({ column, distinct }) => {
          const values = text[column]!.values;
          const numbers = values.map((v) => parseNumberText(v.trim()));
          // Numeric columns with more distinct values than bins are cut into quantile bins.
          const numeric = values.every((v, k) => v.trim() === '' || Number.isFinite(numbers[k])) && new Set(numbers.filter(Number.isFinite)).size > bins;
          return { column, distinct, numeric };
        });
      })();
      return candidates;
    },
    // The evaluation's own slice table, computed anew with `slices` set (nothing is written).
    async slices(by) {
      const results = await evaluateFile(source.path, { ...opts, overrides: { slices: by, minSliceSize: 1 } });
      return (results.tables as Record<string, unknown>).slices ?? [];
    },
    evaluateSubset: (where) => evaluateFile(source.path, { ...opts, subset: where }),
  };
}
