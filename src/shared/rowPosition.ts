/**
 * Where a row of the rows grid or `eval-lens rows` sits in its file: a text file's 1-based line
 * (which an editor can open), or, for Parquet and `.npz` files, which have no lines, the 1-based
 * data row (the row's `line` is data row + 1, as messages count it; nothing to open).
 */
import type { RowPage } from '../core/inspect/types';

export interface RowPosition {
  /** Column title: `line` or `row`. */
  title: 'line' | 'row';
  /** The number shown for a row whose `line` is given. */
  value(line: number): number;
  /** Whether a row can be opened at its line in an editor. */
  openable: boolean;
}

export function rowPosition(page: Pick<RowPage, 'rowAddressed'>): RowPosition {
  return page.rowAddressed
    ? { title: 'row', value: (line) => line - 1, openable: false }
    : { title: 'line', value: (line) => line, openable: true };
}
