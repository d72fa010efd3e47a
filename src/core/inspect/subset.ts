/**
 * Subset evaluation: the rows of a file matching a filter, evaluated with the same config as if
 * they were the whole file. The rows are chosen by the row query (the same filter, the same
 * per-row values — acceptance and shot groups of the whole file); the task then cuts every per-row
 * array to them (tasks/subsetRows.ts), so the metric code sees a file holding only those rows.
 */
import { EvalLensError } from '../diagnostics';
import type { RowSubset } from '../tasks/types';
import { classificationRowValues, classificationTable } from './classificationTable';
import { iwTable } from './iwTable';
import { rankingRows, rankingTable } from './rankingTable';
import { matchingRows } from './rowTable';
import type { FilterTerm } from '../rows/types';
import { formatWhere } from '../rows/where';

export function rowSubset(where: FilterTerm[]): RowSubset {
  return {
    where,
    async classificationRows(loaded, ctx) {
      const rows = matchingRows(classificationTable(loaded, await classificationRowValues(loaded, ctx)), where);
      if (rows.length === 0) throw noRows(loaded.data.file, where);
      return rows;
    },
    iwRows(loaded, ctx) {
      const rows = matchingRows(iwTable(loaded, ctx.config), where);
      if (rows.length === 0) throw noRows(loaded.data.file, where);
      return rows;
    },
    rankingLists(data, ctx) {
      const rows = matchingRows(rankingTable(rankingRows(data, ctx.config), ctx.config), where);
      if (rows.length === 0) throw noRows(data.file, where);
      return rows;
    },
  };
}

function noRows(file: string, where: FilterTerm[]): EvalLensError {
  return new EvalLensError(
    'empty-subset',
    `${file}: no row matches the filter ${formatWhere(where)} (expected at least one row to evaluate).`,
    { file },
  );
}
