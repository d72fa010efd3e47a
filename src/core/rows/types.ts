/**
 * Row inspection: the types shared by the row query of the core, the CLI's `rows` command, the
 * extension's inspection worker and the report webview. A query names a filter (terms joined by
 * `and`), a sort and a page; the answer is one page of rows, each with its 1-based line in the
 * source file, so that every number of a report can be traced back to the rows behind it.
 *
 * Plain JSON (no typed arrays) so that pages cross `postMessage` as they are.
 */

/** Comparison operators of the filter language. */
export type FilterOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

/**
 * One `key op value` term. Keys: `label`, `pred`, `correct`, `confidence`, `loss`, `group` (the file's
 * per-row group column), `class_group` (the class-frequency group of the true class), `shot`, `split`, `stratum`, `accepted`, `weight`, `user`, `line`, `id`, any column name of the file, and
 * (ranking) a per-user metric key such as `recall@10`. Values are kept as written; the query
 * decides how to compare them (numbers numerically, text exactly, booleans for `correct` /
 * `accepted`).
 */
export interface FilterTerm {
  key: string;
  op: FilterOp;
  value: string;
}

export type SortDirection = 'asc' | 'desc';

/** Sort keys: `confidence`, `loss`, `id`, `line`, and for ranking a per-user metric key. */
export interface RowSort {
  key: string;
  dir: SortDirection;
}

export interface RowQuery {
  /** Terms joined by `and`; empty = every row. */
  where: FilterTerm[];
  /** Default: file order (`line` ascending). */
  sort?: RowSort;
  /** First row of the page (0-based index into the filtered, sorted rows). */
  offset: number;
  /** Rows per page. */
  limit: number;
}

/** One classification (or importance-weighted binary) row. */
export interface ClassificationRowView {
  kind: 'classification';
  /** 1-based physical line where the row starts (header = line 1; for a JSON array, the element's line). */
  line: number;
  id: string | null;
  label: string;
  pred: string;
  correct: boolean;
  /** The selective-classification score of the row (column or derived), null when none. */
  confidence: number | null;
  /** −ln max(p_true, 1e-15); null without probabilities. */
  loss: number | null;
  /** The three highest-scoring classes with their probabilities, best first. */
  top: [string, number][];
  weight?: number;
  /** The file's per-row group column (e.g. a subgroup attribute), as written. */
  group?: string;
  /** The class-frequency group of the row's true class (`groups` in the config: head/tail, g1…gm or named). */
  classGroup?: string;
  shot?: string;
  split?: string;
  stratum?: string;
  /** Accepted at the evaluation's operating point. */
  accepted?: boolean;
  /** The other columns of the row, as written in the file. */
  columns: Record<string, string>;
}

/** One ranking user. */
export interface RankingRowView {
  kind: 'ranking';
  line: number;
  user: string;
  /**
   * The user's top-K list (K = the largest cutoff) as read, every slot shown: hits marked, with the
   * item's train count. A repeated item keeps its slot and is never a hit (`repeatOf`: the rank of
   * its first occurrence), so each item's `rank` is the one the metrics used.
   */
  items: {
    item: string;
    /** 1-based position in the list, as the metrics count it. */
    rank: number;
    hit: boolean;
    /** For a repeated item: the rank of its first occurrence in the list. */
    repeatOf?: number;
    rel?: number;
    trainCount?: number;
    cold?: boolean;
    meta?: Record<string, string>;
  }[];
  /** Relevant items not in the top K. */
  missed: string[];
  /** Item metadata (the `items` table) of the missed items that have a row, by item id. */
  missedMeta?: Record<string, Record<string, string>>;
  /** Train interactions of the user, when train data is given. */
  trainCount?: number;
  /** Per-user metric values (`recall@10`, `ndcg@10`, …). */
  metrics: Record<string, number>;
}

export type RowView = ClassificationRowView | RankingRowView;

export interface RowPage {
  /** Rows matching the filter (all pages). */
  total: number;
  /** Rows in the file (after skipped rows). */
  rowsInFile: number;
  offset: number;
  rows: RowView[];
  /**
   * True for Parquet and `.npz` files, which have no lines: each row's `line` is its 1-based data
   * row + 1 (as messages count it), shown as the data row, and there is no line to open.
   */
  rowAddressed?: boolean;
}
