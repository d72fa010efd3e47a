/**
 * A {@link RowTable} is what a query runs over: the rows' values column-wise ({@link Field}s by
 * key), their lines, and a function that builds the view of one row. {@link runQuery} filters,
 * sorts and pages it: the filter is one pass of compiled predicates, the sort walks a cached
 * permutation, and only the rows of the page become objects.
 */
import { QueryError } from './errors';
import { ascendingOrder, directed, termPredicate, type Field, type RowPredicate } from './fields';
import type { FilterTerm, RowPage, RowQuery, RowView } from './types';

export interface RowTable {
  /** Rows (after skipped rows). */
  n: number;
  /** 1-based line of each row; increasing (rows are in file order). */
  lines: Int32Array;
  /** Filter and sort keys → values. Aliases may share a field. */
  fields: Map<string, Field>;
  /** Keys that may be sorted by. */
  sortKeys: string[];
  view(i: number): RowView;
}

/** Compiles a filter into one predicate (null = every row). */
export function compileWhere(table: RowTable, where: readonly FilterTerm[]): RowPredicate | null {
  if (where.length === 0) return null;
  const preds = where.map((t) => {
    const f = table.fields.get(t.key) ?? table.fields.get(t.key.toLowerCase());
    if (!f) throw new QueryError(`unknown key "${t.key}"; expected one of: ${[...table.fields.keys()].join(', ')}.`, t);
    return termPredicate(f, t);
  });
  if (preds.length === 1) return preds[0];
  return (i) => {
    for (const p of preds) if (!p(i)) return false;
    return true;
  };
}

/** Rows matching `where`, in row order (file order). */
export function matchingRows(table: RowTable, where: readonly FilterTerm[]): Int32Array {
  const pred = compileWhere(table, where);
  if (!pred) return Int32Array.from({ length: table.n }, (_, i) => i);
  const out = new Int32Array(table.n);
  let k = 0;
  for (let i = 0; i < table.n; i++) if (pred(i)) out[k++] = i;
  return out.slice(0, k);
}

/** Queries whose matching rows are kept for paging. */
const RECENT_QUERIES = 4;

/** Runs queries against one table, caching one sort permutation per key and the last few answers. */
export class QueryRunner {
  private readonly orders = new Map<string, { order: Int32Array; key: Float64Array }>();
  private readonly directedOrders = new Map<string, Int32Array>();

  /** Whether row order is line order (then sorting by line needs no permutation). */
  private readonly inLineOrder: boolean;

  constructor(readonly table: RowTable) {
    let ok = true;
    for (let i = 1; i < table.n && ok; i++) if (table.lines[i] < table.lines[i - 1]) ok = false;
    this.inLineOrder = ok;
  }

  /** Matching rows in order for the last few (filter, sort) pairs: the next page is a slice of it. */
  private readonly recent = new Map<string, Int32Array>();

  query(q: RowQuery): RowPage {
    const { table } = this;
    const offset = Math.max(0, Math.floor(q.offset ?? 0));
    const limit = Math.max(0, Math.floor(q.limit ?? 50));
    const id = JSON.stringify([q.where ?? [], q.sort ?? null]);
    let rows = this.recent.get(id);
    if (rows)
      this.recent.delete(id); // re-inserted below as the most recent
    else rows = this.matching(q);
    this.recent.set(id, rows);
    if (this.recent.size > RECENT_QUERIES) this.recent.delete(this.recent.keys().next().value as string);
    const page = rows.subarray(Math.min(offset, rows.length), Math.min(offset + limit, rows.length));
    return { total: rows.length, rowsInFile: table.n, offset, rows: Array.from(page, (i) => table.view(i)) };
  }

  /** Every row matching the query's filter, in its sort order (ties in line order). */
  private matching(q: RowQuery): Int32Array {
    const { table } = this;
    const pred = compileWhere(table, q.where ?? []);
    const sort = q.sort;
    const byLine = !sort || sort.key === 'line';
    // Row order is line order for most files: then sorting by line needs no permutation.
    const perm = byLine && this.inLineOrder ? null : this.sorted(sort?.key ?? 'line', sort?.dir ?? 'asc');
    const desc = perm === null && sort?.dir === 'desc';
    const n = table.n;
    const out = new Int32Array(n);
    let k = 0;
    for (let p = 0; p < n; p++) {
      const i = perm ? perm[p] : desc ? n - 1 - p : p;
      if (!pred || pred(i)) out[k++] = i;
    }
    return k === n ? out : out.slice(0, k);
  }

  /** Builds (and caches) a sort order ahead of the first query that needs it. */
  prepareSort(key: string, dir: 'asc' | 'desc'): void {
    if (this.table.sortKeys.includes(key)) this.sorted(key, dir);
  }

  /** Rows in the order asked (cached per key and direction; the ascending order is shared). */
  private sorted(key: string, dir: 'asc' | 'desc'): Int32Array {
    const id = `${dir} ${key}`;
    let d = this.directedOrders.get(id);
    if (d) return d;
    let o = this.orders.get(key);
    if (!o) {
      const f = this.table.sortKeys.includes(key) ? this.table.fields.get(key) : undefined;
      if (!f) throw new QueryError(`cannot sort by "${key}"; expected one of: ${this.table.sortKeys.join(', ')}.`);
      o = ascendingOrder(f, this.table.n);
      this.orders.set(key, o);
    }
    d = directed(o.order, o.key, dir);
    this.directedOrders.set(id, d);
    return d;
  }
}
