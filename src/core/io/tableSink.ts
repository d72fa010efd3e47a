/**
 * What every table reader hands its rows to ({@link TableSink}; its cells are `Cell`s,
 * data/textColumn.ts), the message for a file that cannot be opened, and the reading of a whole
 * file with that message. In a module of their own so the format readers (`table.ts`,
 * `parquet.ts`, `npz.ts`) share them without importing one another.
 */
import { readFile } from 'node:fs/promises';
import { EvalLensError } from '../diagnostics';
import type { Cell } from '../data/textColumn';

export interface TableSink {
  /** Column names, once, before any row. */
  columns(names: string[]): void;
  /** One data row; cells aligned with the column names (CSV/TSV cells are raw strings, JSON cells as parsed; a missing JSON key is null). `line` = 1-based physical line where the row starts (header = line 1). */
  row(cells: Cell[], line: number): void;
}

export function cannotOpen(path: string, e: unknown): EvalLensError {
  const code = (e as NodeJS.ErrnoException)?.code;
  const why =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : String((e as Error)?.message ?? e);
  return new EvalLensError('cannot-open', `Cannot read ${path}: ${why}.`, { file: path });
}

/**
 * The same error for the ranking, id-list, factor and .npy readers, which throw from inside their
 * own helpers: one code (`cannot-open`) and one wording for a file that cannot be opened, whatever
 * its format.
 */
export function failToOpen(label: string, e: unknown): never {
  throw cannotOpen(label, e);
}

/**
 * The bytes of the whole file at `path` (the formats read in one piece: .npy, .npz, partial
 * statistics, id lists), or the {@link cannotOpen} error naming `label`.
 */
export async function readWholeFile(path: string, label = path): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    throw cannotOpen(label, e);
  }
}
