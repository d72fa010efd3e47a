/**
 * The results as written to a `*.eval.json` file (and printed by `evaluate --format json`): the
 * results object without its per-row or per-user values (`perItem`), as JSON text in chunks
 * (jsonChunks.ts), never as one string. The file holds metrics, intervals, curves (capped in
 * points) and tables, whose size does not grow with the rows; the per-row material that pairing
 * runs and inspecting rows need is read again from the prediction file the results name
 * (`source.path`), and used only while its SHA-256 is the recorded `source.sha256`
 * (compare/pairedRuns.ts, inspect/open.ts). Why a re-read rather than a sidecar file: the
 * prediction file is already there and already hashed, a re-read needs no second format to keep
 * in step, and it gives the row query its lines and cells as well as the values.
 */
import { jsonChunks } from './jsonChunks';
import type { Results } from './types';

/** `results` as a file holds them: a shallow copy without `perItem` (the same object when it has none). */
export function resultsForFile(results: Results): Results {
  if (!results.perItem) return results;
  const { perItem: _perItem, ...rest } = results;
  return rest;
}

/** The text of the results file, `JSON.stringify(resultsForFile(results), null, 2) + '\n'`, in chunks. */
export function resultsJsonChunks(results: Results): Generator<string, void, void> {
  return jsonChunks(resultsForFile(results), '\n');
}
