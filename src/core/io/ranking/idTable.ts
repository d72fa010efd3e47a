/**
 * Delimited (CSV/TSV) tables of (user, item[, value]) rows: long-format runs
 * (`user,item,rank|score`), ground truth (`user,item[,rel]`) and train interactions
 * (`user,item`). The first non-empty line is the header; columns are found by name,
 * case-insensitively, with aliases, or named in `columns`. Other columns are ignored.
 *
 * Parquet tables (`.parquet`, `.pq`) go to ./idTableParquet.ts under the same rules.
 *
 * Rows without quotes are cut as bytes and their ids interned from bytes (the train file of the
 * benchmark has 1.75 million rows); a row with a quote goes through the RFC 4180 splitter.
 */
import { createHash } from 'node:crypto';
import { fail } from '../../diagnostics';
import { byteInternerOf } from './byteInterner';
import { LineTally } from './builders';
import type { RankingReadContext } from './jsonl';
import { forEachLineBytes, splitDelimited } from './lines';
import { isParquetPath, readIdTableParquet } from './idTableParquet';

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

export async function readIdTable(path: string, label: string, spec: IdTableSpec, ctx: RankingReadContext, sink: IdRowSink): Promise<IdTableRead> {
  if (isParquetPath(path)) return readIdTableParquet(path, label, spec, ctx, sink);
  const users = byteInternerOf(ctx.users);
  const items = byteInternerOf(ctx.items);
  let header: string[] | null = null;
  let delim = 44;
  let delimStr = ',';
  let uCol = -1;
  let iCol = -1;
  let vCol = -1;
  let nCols = 0;
  let valueRole: string | null = null;
  const columns: Record<string, string> = {};
  let rows = 0;
  const skipped = new LineTally();
  const cuts = new Int32Array(256);
  const hash = spec.hash ? createHash('sha256') : null;
  let size = 0;
  const onBytes = hash
    ? (bytes: Buffer) => {
        hash.update(bytes);
        size += bytes.length;
      }
    : undefined;
  // Rows are usually grouped by user: the previous row's user bytes and id skip most lookups.
  const prevUser = new Uint8Array(256);
  let prevLen = -1;
  let prevId = -1;

  const badValue = (line: number, got: string): boolean => {
    if (spec.invalidRows === 'skip') {
      skipped.add(line);
      return false;
    }
    return fail('bad-value', { file: label, line, column: columns[valueRole!] }, `expected a finite number, got "${got}".`);
  };

  await forEachLineBytes(
    path,
    (buf, start, end, lineNo) => {
      if (end === start || isBlank(buf, start, end)) return;
      if (header === null) {
        const text = buf.toString('utf8', start, end);
        delimStr = text.includes('\t') && !text.includes(',') ? '\t' : ',';
        delim = delimStr.charCodeAt(0);
        header = splitDelimited(text, delimStr, label, lineNo);
        nCols = header.length;
        ({ uCol, iCol, vCol, valueRole } = resolveIdColumns(header, spec, columns, { file: label, line: lineNo }));
        return;
      }
      rows++;
      let quoted = false;
      let n = 0;
      cuts[n++] = start - 1;
      for (let i = start; i < end; i++) {
        const c = buf[i];
        if (c === delim) {
          if (n < 255) cuts[n++] = i;
        } else if (c === 34) {
          quoted = true;
          break;
        }
      }
      if (!quoted) {
        if (n !== nCols) fail('ragged-row', { file: label, line: lineNo }, `expected ${nCols} cells as in the header, got ${n}.`);
        cuts[n] = end;
        const us = trimStart(buf, cuts[uCol] + 1, cuts[uCol + 1]);
        const ue = trimEnd(buf, us, cuts[uCol + 1]);
        const is = trimStart(buf, cuts[iCol] + 1, cuts[iCol + 1]);
        const ie = trimEnd(buf, is, cuts[iCol + 1]);
        if (ue === us) fail('bad-value', { file: label, line: lineNo, column: columns.user }, 'expected a user id, got an empty cell.');
        if (ie === is) fail('bad-value', { file: label, line: lineNo, column: columns.item }, 'expected an item id, got an empty cell.');
        let value = 1;
        if (vCol >= 0) {
          const raw = buf.toString('latin1', cuts[vCol] + 1, cuts[vCol + 1]).trim();
          value = raw === '' ? NaN : Number(raw);
          if (!Number.isFinite(value) && !badValue(lineNo, raw)) return;
        }
        let uid: number;
        const ulen = ue - us;
        if (ulen === prevLen && sameBytes(prevUser, buf, us, ulen)) uid = prevId;
        else {
          uid = users.intern(buf, us, ue);
          if (ulen <= prevUser.length) {
            for (let q = 0; q < ulen; q++) prevUser[q] = buf[us + q]; // no Buffer view per new user
            prevLen = ulen;
            prevId = uid;
          } else prevLen = -1;
        }
        sink(uid, items.intern(buf, is, ie), value, lineNo);
        return;
      }
      const cells = splitDelimited(buf.toString('utf8', start, end), delimStr, label, lineNo);
      if (cells.length !== nCols) fail('ragged-row', { file: label, line: lineNo }, `expected ${nCols} cells as in the header, got ${cells.length}.`);
      const u = cells[uCol];
      const it = cells[iCol];
      if (u === '') fail('bad-value', { file: label, line: lineNo, column: columns.user }, 'expected a user id, got an empty cell.');
      if (it === '') fail('bad-value', { file: label, line: lineNo, column: columns.item }, 'expected an item id, got an empty cell.');
      let value = 1;
      if (vCol >= 0) {
        const raw = cells[vCol];
        value = raw === '' ? NaN : Number(raw);
        if (!Number.isFinite(value) && !badValue(lineNo, raw)) return;
      }
      sink(ctx.users.intern(u), ctx.items.intern(it), value, lineNo);
    },
    { progress: ctx.progress, stage: `reading ${spec.what}`, label, onBytes },
  );
  if (header === null) fail('empty-file', { file: label }, `expected a header line (${spec.user.role},${spec.item.role}…) and rows, got an empty file.`);
  warnSkippedIdRows(ctx, label, skipped, valueRole, columns);
  return { rows, columns, valueRole, skipped, ...(hash ? { size, sha256: hash.digest('hex') } : {}) };
}

/** Index of the column for `spec` in `header` (explicit name first, else aliases, case-insensitive); -1 if none. */
export function findColumn(header: string[], spec: ColumnSpec): number {
  const lower = header.map((h) => h.toLowerCase());
  if (spec.explicit) return header.indexOf(spec.explicit) >= 0 ? header.indexOf(spec.explicit) : lower.indexOf(spec.explicit.toLowerCase());
  for (const a of spec.aliases) {
    const i = lower.indexOf(a);
    if (i >= 0) return i;
  }
  return -1;
}

function sameBytes(a: Uint8Array, b: Uint8Array, start: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (a[i] !== b[start + i]) return false;
  return true;
}

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i] !== 32 && buf[i] !== 9) return false;
  return true;
}

function trimStart(buf: Buffer, s: number, e: number): number {
  while (s < e && buf[s] === 32) s++;
  return s;
}

function trimEnd(buf: Buffer, s: number, e: number): number {
  while (e > s && buf[e - 1] === 32) e--;
  return e;
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
export function resolveIdColumns(header: string[], spec: IdTableSpec, columns: Record<string, string>, at: { file: string; line?: number }): IdColumns {
  const uCol = findColumn(header, spec.user);
  const iCol = findColumn(header, spec.item);
  if (uCol < 0 || iCol < 0) {
    const miss = uCol < 0 ? spec.user : spec.item;
    fail(
      'missing-column',
      at,
      `expected a ${miss.role} column in the ${spec.what} file (${miss.explicit ? `"${miss.explicit}" from columns.${miss.role}` : `one of ${miss.aliases.join(', ')}`}), got columns ${header.join(', ')}.`,
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
    fail('missing-column', at, `expected a ${(spec.values ?? []).map((v) => v.role).join(' or ')} column (${names}), got columns ${header.join(', ')}.`);
  }
  return { uCol, iCol, vCol, valueRole };
}

/** One warning for the rows of an id table dropped by `invalidRows: "skip"` (count and first lines). */
export function warnSkippedIdRows(ctx: RankingReadContext, label: string, skipped: LineTally, valueRole: string | null, columns: Record<string, string>): void {
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
