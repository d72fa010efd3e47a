/**
 * A {@link RowTable} is what a query runs over: the rows' values column-wise ({@link Field}s by
 * key), their lines, and a function that builds the view of one row. {@link runQuery} filters,
 * sorts and pages it: the filter is one pass of compiled predicates, the sort walks a cached
 * permutation, and only the rows of the page become objects.
 */
import { QueryError } from '../rows/queryError';
import { ascendingOrder, directed, termPredicate, type Field, type RowPredicate } from '../rows/fields';
import type { FilterTerm, RowPage, RowQuery, RowSort, RowView } from '../rows/types';
import { createRng } from '../stats/rng';

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

  /** Every row matching a filter, in the sort's order (ties in line order). */
  matchingOrder(where: FilterTerm[], sort?: RowSort): Int32Array {
    return this.matching({ where, sort, offset: 0, limit: 0 });
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

/** A stratified random sample of the rows (`eval-lens rows --sample`). */
export interface RowSampleQuery {
  where: FilterTerm[];
  /** Order of the rows within each stratum (default: line order). */
  sort?: RowSort;
  /** Key whose values are the strata (any filter key); none: one stratum of every matching row. */
  stratify?: string;
  /**
   * A total, allocated to the strata in proportion to their matching rows (largest remainder), or
   * rows per stratum value (only the values named are sampled).
   */
  sizes: number | Record<string, number>;
  seed: number;
}

export interface RowSample extends RowPage {
  /** Per stratum, in the order printed: its value, matching rows and rows drawn. */
  strata: { value: string; rows: number; drawn: number }[];
}

/** The text of a row's value of a field; null when missing. */
function fieldText(f: Field, i: number): string | null {
  if (f.kind === 'category') {
    const c = f.codes[i]!;
    return c < 0 ? null : f.names[c]!;
  }
  const v = f.values[i]!;
  if (f.kind === 'bool') return v === 255 ? null : v === 1 ? 'true' : 'false';
  return Number.isNaN(v) ? null : String(v);
}

/**
 * Rows drawn at random without replacement from each stratum of the matching rows: `sizes` rows in
 * all, allocated in proportion to the strata's sizes (Hamilton's largest-remainder rounding, ties to
 * the stratum met first), or the rows named per stratum (at most the rows it has). Strata come in
 * the order of `sizes`' names, else of their first matching row; within a stratum the rows keep the
 * query's order. Each stratum's draw is a partial Fisher–Yates shuffle of its rows with a generator
 * seeded by `seed` (xoshiro128**), strata in that order: the same file, filter and seed give the
 * same rows. Rows whose stratum value is missing are never drawn.
 */
export function sampleRows(runner: QueryRunner, q: RowSampleQuery): RowSample {
  const { table } = runner;
  const order = runner.matchingOrder(q.where, q.sort);
  const field = q.stratify ? (table.fields.get(q.stratify) ?? table.fields.get(q.stratify.toLowerCase())) : undefined;
  if (q.stratify && !field)
    throw new QueryError(`unknown key "${q.stratify}"; expected one of: ${[...table.fields.keys()].join(', ')}.`);
  const groups = new Map<string, number[]>();
  for (const i of order) {
    const v = field ? fieldText(field, i) : '';
    if (v === null) continue;
    let g = groups.get(v);
    if (!g) groups.set(v, (g = []));
    g.push(i);
  }
  const want = new Map<string, number>();
  if (typeof q.sizes === 'number') {
    const total = [...groups.values()].reduce((a, g) => a + g.length, 0);
    const n = Math.min(q.sizes, total);
    const entries = [...groups.entries()];
    const quota = entries.map(([, g]) => (total > 0 ? (n * g.length) / total : 0));
    const base = quota.map(Math.floor);
    let left = n - base.reduce((a, b) => a + b, 0);
    const byRemainder = quota.map((_, k) => k).sort((a, b) => quota[b]! - base[b]! - (quota[a]! - base[a]!) || a - b);
    for (const k of byRemainder) {
      if (left <= 0) break;
      base[k]!++;
      left--;
    }
    entries.forEach(([v], k) => want.set(v, base[k]!));
  } else {
    const missing = Object.keys(q.sizes).filter((v) => !groups.has(v));
    if (missing.length > 0)
      throw new QueryError(
        `no matching row has ${q.stratify ?? 'the stratum'} = ${missing.map((v) => `"${v}"`).join(', ')}; its values are ${[...groups.keys()].map((v) => `"${v}"`).join(', ')}.`,
      );
    for (const [v, k] of Object.entries(q.sizes)) want.set(v, k);
  }
  const rng = createRng(q.seed);
  const rows: RowView[] = [];
  const strata: RowSample['strata'] = [];
  for (const [v, k0] of want) {
    const g = groups.get(v)!;
    const k = Math.min(k0, g.length);
    const pos = Int32Array.from(g.keys());
    for (let j = 0; j < k; j++) {
      const r = j + rng.int(g.length - j);
      const t = pos[j]!;
      pos[j] = pos[r]!;
      pos[r] = t;
    }
    const chosen = Array.from(pos.subarray(0, k)).sort((a, b) => a - b);
    for (const p of chosen) rows.push(table.view(g[p]!));
    strata.push({ value: v, rows: g.length, drawn: k });
  }
  return { total: order.length, rowsInFile: table.n, offset: 0, rows, strata };
}
