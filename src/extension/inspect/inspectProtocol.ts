/**
 * Messages between the extension host and its long-lived inspection worker
 * (`dist/inspectWorker.js`). Every request carries an `id` echoed in its response; the worker
 * answers one request at a time, in order. Rows cross the boundary a page at a time.
 */
import type { EvalConfig } from '../../core';
import type { RowDiff } from '../../core';
import type { FilterTerm, RowPage, RowQuery } from '../../core';
import type { Results } from '../../core';
import type { FileSliceFinderResult } from '../../core';
import type { SliceFinderOptions } from '../../core';
import type { SliceCandidate } from '../../shared/inspectModel';
import type { SerializedError } from '../workerProtocol';

/** The prediction file behind a results file, and how it was evaluated. */
export interface InspectSource {
  /** Absolute path of the prediction file (read, never written). */
  path: string;
  /** SHA-256 recorded in the results: the file must still have it, or rows would be stale. */
  sha256: string;
  configPath?: string;
  defaults: EvalConfig;
  /** The workspace folder that config paths must stay inside (as for the evaluation). */
  root?: string;
}

export type InspectRequest =
  | { id: number; op: 'query'; source: InspectSource; query: RowQuery }
  | { id: number; op: 'sliceCandidates'; source: InspectSource }
  /** The slice table by these columns (raw rows, read on the host with `readSliceTable`). */
  | { id: number; op: 'slices'; source: InspectSource; by: string[] }
  /** Evaluates only the rows matching `where`, with the same config. */
  | { id: number; op: 'subset'; source: InspectSource; where: FilterTerm[] }
  /** The slice finder on the file (one run). */
  | { id: number; op: 'findSlices'; source: InspectSource; options: SliceFinderOptions }
  /**
   * The slice finder between two runs of a comparison (rows paired as `diff` pairs them): read
   * afresh, not kept (a comparison records no hash of its runs' files).
   */
  | {
      id: number;
      op: 'findSlicesBetween';
      source: Omit<InspectSource, 'sha256'>;
      pathB: string;
      options: SliceFinderOptions;
    }
  /** The rows that changed from run A (`source`) to run B (`pathB`), as `eval-lens diff` lists them; read afresh. */
  | {
      id: number;
      op: 'diff';
      source: Omit<InspectSource, 'sha256'>;
      pathB: string;
      options: { metric?: string; where: FilterTerm[]; whereText?: string; limit: number };
    };

export interface InspectAnswers {
  query: RowPage;
  sliceCandidates: SliceCandidate[];
  slices: unknown;
  subset: Results;
  findSlices: FileSliceFinderResult;
  findSlicesBetween: FileSliceFinderResult;
  diff: RowDiff;
}

export type InspectResponse =
  | { id: number; ok: true; value: unknown }
  /** `stale`: the file's SHA-256 differs from the results'. */
  | { id: number; ok: false; error: SerializedError; stale?: boolean };
