/**
 * The byte scanner of the delimited fast path (see {@link ByteRowHandler} in table.ts): walks
 * quote-free CSV/TSV lines in a buffer, parses numeric fields straight from the bytes (no string
 * per cell) and hands every other field over as text. Blank lines (only spaces, `\r` and, unless
 * they delimit, tabs) are skipped but counted, as on the string path; a `\r` before the line's
 * `\n` is not part of the last field.
 */
import { CR, LF, SPACE, TAB } from './bytes';
import { parseDecimalBytes } from './numbers';

/** How the scanner reads a field, by column index. */
export const SKIP_FIELD = 0;
/** Parsed from the bytes when it is a plain decimal; else handed over as text. */
export const NUMBER_FIELD = 1;
export const TEXT_FIELD = 2;
/**
 * A NUMBER_FIELD whose plain-decimal values in the sink's range go straight into the sink's row
 * values (see {@link QuoteFreeRowSink.rowValues}) without a call per cell; any other value takes
 * the NUMBER_FIELD way (`numberCell` or `textCell`), so the sink's rules see it as before.
 */
export const STORED_FIELD = 3;
/** Handed over as its bytes (`bytesCell`), for a sink that can use them without a string. */
export const BYTES_FIELD = 4;

/** Where the scanned rows go. */
export interface QuoteFreeRowSink {
  /** A row starts on physical line `line`. */
  beginRow(line: number): void;
  /** Field `j` is the number `v` (a NUMBER_FIELD that read as a plain decimal). */
  numberCell(j: number, v: number): void;
  /** Field `j` (a BYTES_FIELD) as its bytes `buf[start, end)` (a `\r` before the line's `\n` left out). */
  bytesCell(j: number, buf: Buffer, start: number, end: number): void;
  /** Field `j` as text (a TEXT_FIELD, or a NUMBER_FIELD that is not a plain decimal). */
  textCell(j: number, text: string): void;
  /**
   * Where STORED_FIELD values go, read after each `beginRow`: field `j`'s value in
   * `[storedMin, storedMax]` is written to `rowValues[rowBase + storedSlot[j]]`.
   */
  rowValues: Float64Array | null;
  rowBase: number;
  storedSlot: Int32Array;
  storedMin: number;
  storedMax: number;
  /** The row had as many fields as the header. */
  endRow(): void;
  /** The row had `got` fields, the header `expected`. */
  endRaggedRow(line: number, got: number, expected: number): void;
  /** A field threw on a row of the wrong length: the row's length is its real problem (reported before the throw goes on). */
  ragged(line: number, got: number, expected: number): void;
}

/**
 * Scans `buf[start, end)` (whole quote-free lines, the first one physical line `line`) into
 * `sink`, each field read as `fields[j]` says (fields past the header's are skipped). Returns the
 * line number after the last line.
 */
export function scanQuoteFreeRows(
  buf: Buffer,
  start: number,
  end: number,
  line: number,
  fields: Uint8Array,
  delim: number,
  sink: QuoteFreeRowSink,
): number {
  const ncols = fields.length;
  let p = start;
  let rowStart = p;
  try {
    while (p < end) {
      const c = buf[p];
      if (c === LF) {
        line++;
        p++;
        continue;
      }
      if (c === CR || c === SPACE || (c === TAB && delim !== TAB)) {
        const q = blankLineEnd(buf, p, delim);
        if (q > 0) {
          // a line of spaces is blank, as on the string path
          line++;
          p = q;
          continue;
        }
      }
      rowStart = p;
      p = scanRow(buf, p, line, fields, delim, sink);
      line++;
    }
  } catch (e) {
    // A cell error on a ragged row: the ragged row is the real problem (cells are misaligned).
    const got = countFields(buf, rowStart, delim);
    if (got !== ncols) sink.ragged(line, got, ncols);
    throw e;
  }
  return line;
}

/**
 * Scans the row starting at `p` (not blank, physical line `line`) into `sink`; returns the
 * position after its line end. A function of its own: the engine optimises this small, hot
 * function soon after the reading starts, rather than the whole scan by on-stack replacement.
 */
function scanRow(buf: Buffer, p: number, line: number, fields: Uint8Array, delim: number, sink: QuoteFreeRowSink) {
  const ncols = fields.length;
  const parsed = { end: 0 };
  const slot = sink.storedSlot;
  const lo = sink.storedMin;
  const hi = sink.storedMax;
  let c: number;
  sink.beginRow(line);
  const values = sink.rowValues;
  const base = sink.rowBase;
  let j = 0;
  for (;;) {
    const mode = j < ncols ? fields[j] : SKIP_FIELD;
    let fe: number;
    if (mode === STORED_FIELD) {
      let v = parseDecimalBytes(buf, p, parsed);
      // A run of class scores (the bulk of a file) is stored here without going round the
      // field loop, while each is a plain decimal in range followed by the delimiter.
      while (v >= lo && v <= hi && buf[parsed.end] === delim && j + 1 < ncols && fields[j + 1] === STORED_FIELD) {
        values![base + slot[j]] = v;
        j++;
        p = parsed.end + 1;
        v = parseDecimalBytes(buf, p, parsed);
      }
      fe = parsed.end;
      c = buf[fe];
      if (v === v && (c === delim || c === LF || (c === CR && buf[fe + 1] === LF))) {
        if (v >= lo && v <= hi) values![base + slot[j]] = v;
        else sink.numberCell(j, v);
      } else {
        fe = fieldEnd(buf, p, delim);
        sink.textCell(j, buf.toString('utf8', p, stripCr(buf, p, fe)));
      }
    } else if (mode === NUMBER_FIELD) {
      const v = parseDecimalBytes(buf, p, parsed);
      fe = parsed.end;
      c = buf[fe];
      if (v === v && (c === delim || c === LF || (c === CR && buf[fe + 1] === LF))) sink.numberCell(j, v);
      else {
        fe = fieldEnd(buf, p, delim);
        sink.textCell(j, buf.toString('utf8', p, stripCr(buf, p, fe)));
      }
    } else {
      fe = fieldEnd(buf, p, delim);
      if (mode === TEXT_FIELD) sink.textCell(j, buf.toString('utf8', p, stripCr(buf, p, fe)));
      else if (mode === BYTES_FIELD) sink.bytesCell(j, buf, p, stripCr(buf, p, fe));
    }
    c = buf[fe];
    if (c === delim) {
      j++;
      p = fe + 1;
      continue;
    }
    p = c === CR ? fe + 2 : fe + 1;
    break;
  }
  if (j + 1 !== ncols) sink.endRaggedRow(line, j + 1, ncols);
  else sink.endRow();
  return p;
}

/** Index of the delimiter or `\n` that ends the field starting at `p` (quote-free lines). */
function fieldEnd(buf: Uint8Array, p: number, delim: number): number {
  let c = buf[p];
  while (c !== delim && c !== LF) c = buf[++p];
  return p;
}

/** End (after `\n`) of the line at `p` when it holds only spaces, `\r` and (unless they delimit) tabs; else -1. */
function blankLineEnd(buf: Uint8Array, p: number, delim: number): number {
  let c = buf[p];
  while (c === SPACE || c === CR || (c === TAB && delim !== TAB)) c = buf[++p];
  return c === LF ? p + 1 : -1;
}

/** Number of fields on the quote-free line starting at `p`. */
function countFields(buf: Uint8Array, p: number, delim: number): number {
  let k = 1;
  for (let c = buf[p]; c !== LF && c !== undefined; c = buf[++p]) if (c === delim) k++;
  return k;
}

/** End of a field's text: before a `\r` that precedes the line's `\n`. */
function stripCr(buf: Uint8Array, p: number, fe: number): number {
  return fe > p && buf[fe] === LF && buf[fe - 1] === CR ? fe - 1 : fe;
}
