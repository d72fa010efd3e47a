/**
 * The results as written to a `*.eval.json` file (and printed by `evaluate --format json`): the
 * results object with its per-row or per-user values (`perItem`) kept only up to
 * {@link PER_ITEM_FILE_MAX} rows or users, as JSON text in chunks (jsonChunks.ts), never as one
 * string. Above the bound `perItem` is left out and a note says so; everything else — metrics,
 * intervals, curves, tables, per-user histograms — is written whatever the size of the input.
 */
import { jsonChunks } from './jsonChunks';
import type { PerItemValues, Results } from './types';

/**
 * Most rows (classification, iw-binary) or users (ranking) whose per-item values a results file
 * holds. About 25 bytes a row and value: with ids, labels and a few values per row a file of a
 * million rows stays under about 100 MB, while 16 million rows made 369 MB.
 */
export const PER_ITEM_FILE_MAX = 1_000_000;

/** Code of the note that says the per-item values were left out of the file. */
export const PER_ITEM_OMITTED = 'per-item-not-written';

/** Rows or users that `p` holds values for. */
export function perItemCount(p: PerItemValues): number {
  let n = p.ids?.length ?? p.labels?.length ?? 0;
  for (const v of Object.values(p.values)) n = Math.max(n, v.length);
  return n;
}

/**
 * `results` as a file holds them: the same object when its `perItem` is within
 * {@link PER_ITEM_FILE_MAX} (or absent); else a shallow copy without `perItem` and with a note
 * ({@link PER_ITEM_OMITTED}) saying what was left out and what still works. `results` is not changed.
 */
export function resultsForFile(results: Results, max = PER_ITEM_FILE_MAX): Results {
  const p = results.perItem;
  if (!p) return results;
  const n = perItemCount(p);
  if (n <= max) return results;
  const unit = p.kind === 'user' ? 'users' : 'rows';
  const keys = Object.keys(p.values);
  const count = n.toLocaleString('en-US');
  const what =
    p.kind === 'user'
      ? 'the user inspector offers no user ids to pick from (a user id typed in full is still shown)'
      : 'the rows are still inspected from the prediction file';
  const message =
    `The per-${unit === 'users' ? 'user' : 'row'} values of the ${count} ${unit} (${keys.join(', ')}) are not written to the results file: ` +
    `it keeps them for at most ${max.toLocaleString('en-US')} ${unit}. Every metric, interval, curve and table is written; ` +
    `\`eval-lens compare\` pairs the runs by reading again the prediction file the results name (when its SHA-256 is unchanged), and ${what}.`;
  const { perItem: _omitted, ...rest } = results;
  return { ...rest, warnings: [...results.warnings, { code: PER_ITEM_OMITTED, message, count: n }] };
}

/** The text of the results file, `JSON.stringify(resultsForFile(results), null, 2) + '\n'`, in chunks. */
export function resultsJsonChunks(results: Results, max = PER_ITEM_FILE_MAX): Generator<string, void, void> {
  return jsonChunks(resultsForFile(results, max), '\n');
}
