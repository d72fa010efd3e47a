/**
 * Where a row of the rows grid or `eval-lens rows` sits in its file: a text file's 1-based line
 * (which an editor can open), or, for Parquet and `.npz` files, which have no lines, the 1-based
 * data row (the row's `line` is data row + 1, as messages count it; nothing to open).
 */
import type { RowPage } from '../core/rows/types';

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

/** Files whose records are delimited text, where a quoted field may hold line breaks (RFC 4180). */
const DELIMITED = /\.(csv|tsv|tab)$/i;

/**
 * The 0-based last line of the record that starts at 0-based line `start`: a quoted field may hold
 * line breaks (RFC 4180 §2.6), so a record ends at the first line end outside quotes. A doubled
 * quote inside a quoted field (`""`) toggles twice and changes nothing. Other files (JSONL, TREC
 * runs) have one record a line. An unterminated quote ends at the file's last line.
 * @example recordEndLine(['a,"x', 'y",1', 'b,z,2'], 0, 'p.csv') === 1
 */
export function recordEndLine(
  lines: (i: number) => string,
  lineCount: number,
  start: number,
  fileName: string,
): number {
  if (!DELIMITED.test(fileName)) return start;
  let quoted = false;
  for (let i = start; i < lineCount; i++) {
    const text = lines(i);
    for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 34) quoted = !quoted;
    if (!quoted) return i;
  }
  return lineCount - 1;
}
