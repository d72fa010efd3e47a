/**
 * Parquet (user, item[, value]) tables: long-format runs, ground truth and train interactions
 * stored as Parquet. The rules are those of the delimited reader ({@link readIdTable}): columns by
 * name (aliases, or `columns` in the config), ids as text (an INT64 id 42 is the id "42", as the
 * CSV cell `42` is), values as finite numbers, empty ids an error. Rows are located by data row
 * (`line` = row + 1; messages say "row N"). The file is read row group by row group.
 */
import { fail } from '../../diagnostics';
import { readParquet } from '../parquet';
import type { Cell } from '../../data/textColumn';
import { LineTally } from './builders';
import { failEmptyId, resolveIdColumns, warnSkippedIdRows } from './idColumns';
import type { IdTableReader } from './idColumns';

export function isParquetPath(path: string): boolean {
  return /\.(parquet|pq)$/i.test(path);
}

function idText(cell: Cell): string {
  if (typeof cell === 'string') return cell.trim();
  if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
  return cell === null ? '' : JSON.stringify(cell);
}

function valueOf(cell: Cell): number {
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'string') return cell.trim() === '' ? NaN : Number(cell.trim());
  return NaN;
}

export const readIdTableParquet: IdTableReader = async (path, label, spec, ctx, sink) => {
  let uCol = -1;
  let iCol = -1;
  let vCol = -1;
  let valueRole: string | null = null;
  const columns: Record<string, string> = {};
  const skipped = new LineTally();
  let rows = 0;
  await readParquet(
    path,
    {
      columns(header: string[]): void {
        ({ uCol, iCol, vCol, valueRole } = resolveIdColumns(header, spec, columns, { file: label }));
      },
      row(cells: Cell[], line: number): void {
        rows++;
        const u = idText(cells[uCol]);
        const it = idText(cells[iCol]);
        if (u === '') failEmptyId(label, line, columns, 'user');
        if (it === '') failEmptyId(label, line, columns, 'item');
        let value = 1;
        if (vCol >= 0) {
          value = valueOf(cells[vCol]);
          if (!Number.isFinite(value)) {
            if (spec.invalidRows === 'skip') {
              skipped.add(line);
              return;
            }
            fail(
              'bad-value',
              { file: label, line, column: columns[valueRole!] },
              `expected a finite number, got ${cells[vCol] === null ? 'an empty cell' : `"${idText(cells[vCol])}"`}.`,
            );
          }
        }
        sink(ctx.users.intern(u), ctx.items.intern(it), value, line);
      },
    },
    ctx.progress,
  );
  warnSkippedIdRows(ctx, label, skipped, valueRole, columns);
  return { rows, columns, valueRole, skipped };
};
