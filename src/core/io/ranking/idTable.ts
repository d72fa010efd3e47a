/**
 * Delimited (CSV/TSV) tables of (user, item[, value]) rows: long-format runs
 * (`user,item,rank|score`), ground truth (`user,item[,rel]`) and train interactions
 * (`user,item`). The first non-empty line is the header; columns are found by name,
 * case-insensitively, with aliases, or named in `columns`. Other columns are ignored.
 *
 * Parquet tables (`.parquet`, `.pq`) go to ./idTableParquet.ts under the same column rules
 * (./idColumns.ts).
 *
 * Rows without quotes are cut as bytes and their ids interned from bytes (the train file of the
 * benchmark has 1.75 million rows); a row with a quote goes through the RFC 4180 splitter.
 */
import { createHash } from 'node:crypto';
import { fail } from '../../diagnostics';
import { byteInternerOf } from './byteInterner';
import { LineTally } from './builders';
import { forEachLineBytes, splitDelimited } from './lines';
import { isParquetPath, readIdTableParquet } from './idTableParquet';
import { failEmptyId, resolveIdColumns, warnSkippedIdRows } from './idColumns';
import type { IdTableReader } from './idColumns';

export * from './idColumns';

export const readIdTable: IdTableReader = async (path, label, spec, ctx, sink) => {
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
    return fail(
      'bad-value',
      { file: label, line, column: columns[valueRole!] },
      `expected a finite number, got "${got}".`,
    );
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
        if (n !== nCols)
          fail('ragged-row', { file: label, line: lineNo }, `expected ${nCols} cells as in the header, got ${n}.`);
        cuts[n] = end;
        const us = trimStart(buf, cuts[uCol] + 1, cuts[uCol + 1]);
        const ue = trimEnd(buf, us, cuts[uCol + 1]);
        const is = trimStart(buf, cuts[iCol] + 1, cuts[iCol + 1]);
        const ie = trimEnd(buf, is, cuts[iCol + 1]);
        if (ue === us) failEmptyId(label, lineNo, columns, 'user');
        if (ie === is) failEmptyId(label, lineNo, columns, 'item');
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
      if (cells.length !== nCols)
        fail(
          'ragged-row',
          { file: label, line: lineNo },
          `expected ${nCols} cells as in the header, got ${cells.length}.`,
        );
      const u = cells[uCol];
      const it = cells[iCol];
      if (u === '') failEmptyId(label, lineNo, columns, 'user');
      if (it === '') failEmptyId(label, lineNo, columns, 'item');
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
  if (header === null)
    fail(
      'empty-file',
      { file: label },
      `expected a header line (${spec.user.role},${spec.item.role}…) and rows, got an empty file.`,
    );
  warnSkippedIdRows(ctx, label, skipped, valueRole, columns);
  return { rows, columns, valueRole, skipped, ...(hash ? { size, sha256: hash.digest('hex') } : {}) };
};

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
