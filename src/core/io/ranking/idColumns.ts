/**
 * The columns of a (user, item[, value]) table: what each role is called (aliases, or `columns`
 * in the config), how a header is resolved to positions, and the warning for skipped rows. One
 * rule for the delimited reader (./idTable.ts) and the Parquet reader (./idTableParquet.ts).
 */
import { fail, withArticle } from '../../diagnostics';
import type { LineTally } from './builders';
import type { RankingReadContext } from './jsonl';

export interface ColumnSpec {
  /** Role name used in messages and in `columns` of the results, e.g. `user`, `rank`. */
  role: string;
  aliases: string[];
  /** Explicit name from the config's `columns`, which wins. */
  explicit?: string;
}

export interface IdTableSpec {
  /** What the file is, for messages: `run`, `ground truth`, `train`. */
  what: string;
  user: ColumnSpec;
  item: ColumnSpec;
  /** Value columns tried in order (the first found is used), e.g. rank then score. */
  values?: ColumnSpec[];
  /** When true, a missing value column is an error. */
  valueRequired?: boolean;
  /** `skip` drops rows with a bad value (listed in a warning) instead of failing. */
  invalidRows?: 'error' | 'skip';
  /** Also compute the file's SHA-256 from the bytes as they are read (see {@link IdTableRead.sha256}). */
  hash?: boolean;
}

export type IdRowSink = (user: number, item: number, value: number, line: number) => void;

/**
 * A reader of one (user, item[, value]) table: each row's ids, interned in `ctx`, and its value go
 * to `sink` in file order (`label` names the file in messages). The delimited reader (./idTable.ts)
 * is one and hands Parquet files to the other (./idTableParquet.ts).
 */
export type IdTableReader = (
  path: string,
  label: string,
  spec: IdTableSpec,
  ctx: RankingReadContext,
  sink: IdRowSink,
) => Promise<IdTableRead>;

export interface IdTableRead {
  rows: number;
  /** Role → column name used. */
  columns: Record<string, string>;
  /** The value column's role (`rank`, `score`, `rel`), or null when there is none. */
  valueRole: string | null;
  skipped: LineTally;
  /** With `hash`: the file's size and SHA-256 (hex), from the same single read as the rows. */
  size?: number;
  sha256?: string;
}

export const USER_ALIASES = ['user', 'user_id', 'userid', 'uid', 'qid', 'query_id', 'query'];
export const ITEM_ALIASES = ['item', 'item_id', 'itemid', 'iid', 'doc', 'docno', 'doc_id', 'docid'];

/** Index of the column for `spec` in `header` (explicit name first, else aliases, case-insensitive); -1 if none. */
export function findColumn(header: string[], spec: ColumnSpec): number {
  const lower = header.map((h) => h.toLowerCase());
  if (spec.explicit)
    return header.indexOf(spec.explicit) >= 0
      ? header.indexOf(spec.explicit)
      : lower.indexOf(spec.explicit.toLowerCase());
  for (const a of spec.aliases) {
    const i = lower.indexOf(a);
    if (i >= 0) return i;
  }
  return -1;
}

/** Column positions of a (user, item[, value]) table. */
export interface IdColumns {
  uCol: number;
  iCol: number;
  /** −1 when the table has no value column. */
  vCol: number;
  valueRole: string | null;
}

/**
 * Finds the user, item and value columns of a header by name (aliases, or `columns` in the config)
 * and records the names used in `columns`; a missing required column is an error at `at` that
 * names what was expected and what the file has. One rule for the delimited and the Parquet tables.
 */
export function resolveIdColumns(
  header: string[],
  spec: IdTableSpec,
  columns: Record<string, string>,
  at: { file: string; line?: number },
): IdColumns {
  const uCol = findColumn(header, spec.user);
  const iCol = findColumn(header, spec.item);
  if (uCol < 0 || iCol < 0) {
    const miss = uCol < 0 ? spec.user : spec.item;
    fail(
      'missing-column',
      at,
      `expected ${withArticle(miss.role)} column in the ${spec.what} file (${miss.explicit ? `"${miss.explicit}" from columns.${miss.role}` : `one of ${miss.aliases.join(', ')}`}), got columns ${header.join(', ')}.`,
    );
  }
  columns.user = header[uCol]!;
  columns.item = header[iCol]!;
  let vCol = -1;
  let valueRole: string | null = null;
  for (const v of spec.values ?? []) {
    const c = findColumn(header, v);
    if (c >= 0) {
      vCol = c;
      valueRole = v.role;
      columns[v.role] = header[c]!;
      break;
    }
  }
  if (vCol < 0 && spec.valueRequired) {
    const names = (spec.values ?? []).map((v) => (v.explicit ? `"${v.explicit}"` : v.aliases.join('/'))).join(' or ');
    fail(
      'missing-column',
      at,
      `expected ${withArticle((spec.values ?? []).map((v) => v.role).join(' or '))} column (${names}), got columns ${header.join(', ')}.`,
    );
  }
  return { uCol, iCol, vCol, valueRole };
}

/** An empty user or item id: a `bad-value` error naming the file, line (Parquet: row + 1) and column. */
export function failEmptyId(file: string, line: number, columns: Record<string, string>, role: 'user' | 'item'): never {
  return fail(
    'bad-value',
    { file, line, column: columns[role] },
    `expected ${role === 'user' ? 'a user' : 'an item'} id, got an empty cell.`,
  );
}

/** One warning for the rows of an id table dropped by `invalidRows: "skip"` (count and first lines). */
export function warnSkippedIdRows(
  ctx: RankingReadContext,
  label: string,
  skipped: LineTally,
  valueRole: string | null,
  columns: Record<string, string>,
): void {
  if (skipped.count === 0) return;
  ctx.warnings.add({
    code: 'invalid-rows-skipped',
    message: `${label}: ${skipped.count} row(s) with a bad ${valueRole} value were skipped (invalidRows: "skip").`,
    file: label,
    line: skipped.lines[0],
    column: valueRole ? columns[valueRole] : undefined,
    count: skipped.count,
    lines: skipped.lines,
  });
}
