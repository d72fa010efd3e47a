/**
 * Table format of an input file, chosen by its extension (case-insensitive). Content sniffing is
 * left to `detectTask`; the format itself is never guessed, so a `.txt` file is refused with the
 * list of accepted extensions rather than parsed by a guess.
 */
import { extname, basename } from 'node:path';
import { EvalLensError } from '../diagnostics';

export type TableFormat = 'csv' | 'tsv' | 'jsonl' | 'json' | 'parquet' | 'npz';

/** Extension (lower-case, with the dot) → format. */
export const FORMAT_BY_EXTENSION: Readonly<Record<string, TableFormat>> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.json': 'json',
  '.parquet': 'parquet',
  '.pq': 'parquet',
  '.npz': 'npz',
};

/** The format of `path` by extension, or null when the extension is not a table format. */
export function formatOf(path: string): TableFormat | null {
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

/**
 * The format of `path` by extension; an {@link EvalLensError} (`unsupported-format`) naming the
 * accepted extensions otherwise.
 */
export function detectFormat(path: string): TableFormat {
  const f = formatOf(path);
  if (f) return f;
  const ext = extname(path) || '(none)';
  throw new EvalLensError(
    'unsupported-format',
    `Cannot read ${basename(path)}: unsupported file extension ${ext}. Accepted: ${Object.keys(FORMAT_BY_EXTENSION).join(', ')}, and .npy (the user factors of a factor model, with an eval-lens.json naming them).`,
    { file: path },
  );
}
