/**
 * Messages between the extension host and its evaluation worker (`dist/worker.js`). Cancellation
 * does not need a message: the host flips a flag in a SharedArrayBuffer that the worker's
 * `isCancelled` reads between chunks (the worker may be busy in a loop and not reading messages),
 * and terminates the worker if it does not stop soon.
 */
import type { EvalConfig } from '../core';
import type { CompareResults } from '../core';
import type { LocatedProblem, Location } from '../core';
import type { Results } from '../core';
import type { BaselineKind } from '../core';

export type WorkerJob =
  /** `stages`: also post the point estimates and the provisional intervals as they are ready. */
  /** `root`: the workspace folder that paths in the config must stay inside (default: the config's folder). */
  | { type: 'evaluate'; path: string; configPath?: string; root?: string; defaults: EvalConfig; stages?: boolean }
  | {
      type: 'compare';
      paths: string[];
      configPath?: string;
      defaults: EvalConfig;
      baseline?: string;
      /** Baseline runs made from the first run's input, named with `againstLabel` (compareFiles). */
      against?: BaselineKind[];
      againstLabel?: string;
    };

/** `workerData` of the worker: the job and the cancellation flag (Int32Array over it, index 0). */
export interface WorkerInput {
  job: WorkerJob;
  cancel: SharedArrayBuffer;
}

export interface SerializedError {
  name: string;
  message: string;
  code?: string;
  location?: Location;
  /** Every bad cell or row found before stopping, when more than one. */
  problems?: LocatedProblem[];
  stack?: string;
}

export type WorkerMessage =
  | { type: 'progress'; stage: string; done: number; total?: number }
  /** Results before the final ones: point estimates, then provisional intervals (a snapshot each). */
  | { type: 'stage'; stage: 'point' | 'provisional'; results: Results; resamples?: { done: number; total: number } }
  | { type: 'evaluated'; results: Results }
  | { type: 'compared'; compare: CompareResults }
  | { type: 'failed'; error: SerializedError };
