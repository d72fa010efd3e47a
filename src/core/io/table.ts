/**
 * The streaming table reader every task builds on: CSV/TSV (papaparse's parser, fed chunk by chunk
 * from the file), JSONL and JSON. Rows go to a {@link TableSink} one at a time, with the 1-based
 * physical line where each row starts (the header is line 1), so a file is never held as rows.
 *
 * Rules (docs/inputs.md):
 * - CSV/TSV: RFC 4180 quoting (quoted delimiters, quoted newlines, doubled quotes), a UTF-8 BOM is
 *   dropped, LF and CRLF line ends (also mixed). Blank lines are skipped (they still count as lines).
 *   A row whose field count differs from the header's is an error naming the line and both counts
 *   (or goes to `onRagged`). An empty file and a header without rows are errors.
 * - JSONL: one JSON object per line, blank lines skipped. The columns are the keys of the first
 *   object; a later object may omit keys (read as null) but a key the first object lacks is an
 *   error (a column cannot appear after the header has been announced).
 * - Parquet (`.parquet`, `.pq`): read by row group (./parquet.ts); list columns give array cells.
 *   `line` is the 1-based data row + 1 (as if the schema were line 1); messages say "row N".
 * - NumPy `.npz`: each 1-D array is a column, each 2-D array an array-valued column (./npz.ts);
 *   located like Parquet rows.
 * - JSON: an array of row objects (columns = keys of the first, same rule as JSONL; `line` = the line
 *   where each object starts), or an object of equal-length column arrays `{col: [v…]}` (`line` =
 *   the line where the row's value in the first column's array starts).
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';
import { CancelledError, EvalLensError, fail, type Progress } from '../diagnostics';
import { detectFormat, type TableFormat } from './format';
import { tooDeepAt, TOO_DEEP } from '../config/jsonDepth';
import { COMMA, CR, LF, QUOTE, SPACE, TAB } from './bytes';
import { JsonSyntaxError, parseJsonWithLocations } from '../config/jsonWithLocations';
import type { Cell } from '../data/textColumn';
import { cannotOpen, type TableSink } from './tableSink';
export { cannotOpen, type TableSink };

/**
 * A fast path for delimited files: complete, quote-free lines handed over as bytes instead of
 * being split into string cells. Used by loaders that turn most cells straight into numbers.
 */
export interface ByteRowHandler {
  /**
   * `buf[start, end)` holds whole lines (the last byte is `\n`) with no `"` in them; the first one
   * is physical line `line`. Returns the line number after the last line handled. Blank lines must
   * be skipped (but counted) by the handler, as the string path does.
   */
  rows(buf: Buffer, start: number, end: number, line: number): number;
  /** Data rows the handler has taken so far (counted in the reader's total). */
  readonly count: number;
}

export interface ReadTableOptions {
  format?: TableFormat;
  progress?: Progress;
  /**
   * Called for a CSV/TSV row whose field count differs from the header's, instead of throwing (the
   * row is then not passed to the sink). Lets a loader drop such rows under `invalidRows: "skip"`.
   */
  onRagged?(line: number, got: number, expected: number): void;
  /** CSV/TSV only: see {@link ByteRowHandler}. Set by the time `columns()` returns. */
  byteRows?: () => ByteRowHandler | undefined;
  /**
   * CSV/TSV only: size in bytes of the read buffer (default 1 MiB). A line longer than the buffer
   * grows it. Small values let tests cut lines, quotes and UTF-8 characters at every position.
   */
  chunkBytes?: number;
}

const CHUNK_BYTES = 1 << 20;

/** Reads `path` row by row into `sink`. Returns the format and the number of data rows. */
export async function readTable(
  path: string,
  sink: TableSink,
  opts: ReadTableOptions = {},
): Promise<{ format: TableFormat; rows: number }> {
  const format = opts.format ?? detectFormat(path);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw cannotOpen(path, e);
  }
  if (size === 0) fail('empty-file', { file: path }, 'the file is empty (expected a header and data rows).');
  let rows: number;
  if (format === 'csv' || format === 'tsv')
    rows = await readDelimited(path, format === 'tsv' ? '\t' : ',', size, sink, opts);
  else if (format === 'jsonl') rows = await readJsonLines(path, size, sink, opts.progress);
  // The Parquet and .npz readers (with their decompressors) are loaded only for such a file: a
  // process reading a CSV does not compile or run their modules (docs/benchmarks.md, "Scaling").
  else if (format === 'parquet') rows = await (await import('./parquet')).readParquet(path, sink, opts.progress);
  else if (format === 'npz') rows = await (await import('./npz')).readNpz(path, sink, opts);
  else rows = await readJsonDocument(path, sink, opts.progress);
  return { format, rows };
}

function tick(progress: Progress | undefined, done: number, total: number): void {
  if (!progress) return;
  if (progress.isCancelled?.()) throw new CancelledError();
  progress.report?.('reading', done, total);
}

async function* chunksOf(path: string): AsyncGenerator<Buffer> {
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  try {
    for await (const c of stream) yield c as Buffer;
  } catch (e) {
    throw cannotOpen(path, e);
  } finally {
    stream.destroy();
  }
}

/** A buffer twice as long holding the first `len` bytes of `buf`. */
function grown(buf: Buffer, len: number): Buffer {
  const next = Buffer.allocUnsafe(buf.length * 2);
  buf.copy(next, 0, 0, len);
  return next;
}

export function hasBom(b: Buffer): boolean {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

/**
 * End (exclusive, just after `\n`) of the first line of `buf` that ends outside quotes, from `from`;
 * -1 when `buf` has no such line yet.
 */
export function endOfQuotedLine(buf: Buffer, from: number): number {
  let inQuotes = false;
  for (let i = from; i < buf.length; i++) {
    const c = buf[i];
    if (c === QUOTE)
      inQuotes = !inQuotes; // a doubled quote toggles twice: same state
    else if (c === LF && !inQuotes) return i + 1;
  }
  return -1;
}

function isBlankRow(r: string[]): boolean {
  return r.length === 1 && r[0].trim() === '';
}

function countLf(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The column names of a CSV/TSV header line (`text`, with or without its line end; a quoted name
 * may hold newlines) and the physical line where the data rows start.
 */
export function delimitedHeader(
  text: string,
  path: string,
  delimiter: string,
): { names: string[]; firstDataLine: number } {
  const parsed = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { delimiter, newline: '\n' });
  const names = (parsed.data[0] ?? []).map((s) => s.trim());
  if (names.length === 0 || (names.length === 1 && names[0] === '')) {
    fail('empty-file', { file: path, line: 1 }, 'the first line is empty (expected a header row of column names).');
  }
  return { names, firstDataLine: 1 + 1 + countLf(text.replace(/\r?\n$/, '')) };
}

async function readDelimited(
  path: string,
  delimiter: string,
  size: number,
  sink: TableSink,
  opts: ReadTableOptions,
): Promise<number> {
  let ncols = -1;
  let line = 1; // physical line of the next row to start
  let rows = 0;
  let bytes = 0;
  let fast: ByteRowHandler | undefined;
  let decoder: StringDecoder | null = null; // set once the string (papaparse) path takes over
  let textCarry = '';
  const parser = new Papa.Parser({ delimiter, newline: '\n', quoteChar: '"' });

  const emit = (cells: string[], at: number): void => {
    const last = cells.length - 1;
    const lc = cells[last];
    if (lc.length > 0 && lc.charCodeAt(lc.length - 1) === CR) cells[last] = lc.slice(0, -1);
    if (cells.length !== ncols) {
      if (opts.onRagged) {
        rows++;
        opts.onRagged(at, cells.length, ncols);
        return;
      }
      fail('ragged-row', { file: path, line: at }, `expected ${ncols} fields (as in the header), got ${cells.length}.`);
    }
    rows++;
    sink.row(cells, at);
  };

  const header = (text: string): void => {
    const h = delimitedHeader(text, path, delimiter);
    ncols = h.names.length;
    line = h.firstDataLine;
    sink.columns(h.names);
    fast = opts.byteRows?.();
  };

  /** Parses decoded text with papaparse; `final` flushes the last (unterminated) row. */
  const parseText = (text: string, final: boolean): void => {
    const agg = textCarry + text;
    const r = parser.parse(agg, 0, !final) as { data: string[][]; errors: Papa.ParseError[]; meta: { cursor: number } };
    textCarry = final ? '' : agg.substring(r.meta.cursor);
    const quoted = agg.indexOf('"') !== -1; // papaparse's own switch to its quote-aware loop
    const startLines: number[] = [];
    for (const cells of r.data) {
      startLines.push(line);
      let span = 1;
      if (quoted) for (const c of cells) span += countLf(c);
      line += span;
    }
    for (const e of r.errors) {
      const at = e.row !== undefined && e.row < startLines.length ? startLines[e.row] : line;
      fail(
        'malformed-quotes',
        { file: path, line: at },
        e.code === 'MissingQuotes'
          ? 'a quoted field is never closed (expected a closing ").'
          : 'a closing quote is followed by other characters (expected a delimiter or the end of the line after it).',
      );
    }
    for (let i = 0; i < r.data.length; i++) {
      const cells = r.data[i];
      if (isBlankRow(cells)) continue;
      emit(cells, startLines[i]);
    }
  };

  // One buffer for the whole file: each read fills it after the unfinished last line of the
  // previous read (moved to the front), so no chunk is allocated or concatenated per read. It grows
  // only when a single line (or the header) is longer than the buffer.
  let buf: Buffer = Buffer.allocUnsafe(Math.max(4, opts.chunkBytes ?? CHUNK_BYTES));
  let len = 0; // bytes of the file held in buf[0, len)
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw cannotOpen(path, e);
  }
  try {
    for (;;) {
      if (len === buf.length) buf = grown(buf, len);
      let got: number;
      try {
        got = (await fh.read(buf, len, buf.length - len, null)).bytesRead;
      } catch (e) {
        throw cannotOpen(path, e);
      }
      if (got === 0) break;
      bytes += got;
      tick(opts.progress, bytes, size);
      if (decoder) {
        parseText(decoder.write(buf.subarray(0, got)), false);
        continue;
      }
      len += got;
      const view = buf.subarray(0, len);
      let keep = len; // start of the bytes still to be handled (moved to the front)
      let pos = 0;
      if (ncols < 0) {
        if (hasBom(view)) pos = 3;
        const end = endOfQuotedLine(view, pos);
        if (end < 0) continue; // the header line is not complete yet
        header(view.toString('utf8', pos, end));
        pos = end;
      }
      if (!fast) {
        decoder = new StringDecoder('utf8');
        parseText(decoder.write(view.subarray(pos)), false);
      } else {
        const end = view.lastIndexOf(LF) + 1;
        const q = end <= pos ? -1 : view.indexOf(QUOTE, pos);
        if (end <= pos) keep = pos;
        else if (q === -1 || q >= end) {
          line = fast.rows(view, pos, end, line);
          keep = end;
        } else {
          // Quotes from here on: whole lines before the quote stay on the fast path, the rest of the
          // file goes through papaparse (a quoted field may hold newlines, so bytes cannot be cut at \n).
          const lineStart = view.lastIndexOf(LF, q) + 1;
          if (lineStart > pos) line = fast.rows(view, pos, lineStart, line);
          decoder = new StringDecoder('utf8');
          parseText(decoder.write(view.subarray(Math.max(lineStart, pos))), false);
        }
      }
      if (keep > 0) {
        buf.copyWithin(0, keep, len);
        len -= keep;
      }
    }
  } finally {
    await fh.close();
  }
  if (ncols < 0) {
    // No newline ends the header: the file is one line (or only a BOM).
    const text = buf.toString('utf8', hasBom(buf.subarray(0, len)) ? 3 : 0, len);
    if (text.trim() === '') fail('empty-file', { file: path }, 'the file is empty (expected a header and data rows).');
    header(text);
  } else if (decoder) {
    parseText(decoder.end(), true);
  } else if (len > 0) {
    const rest = buf.subarray(0, len);
    if (fast && rest.indexOf(QUOTE) === -1) {
      // the last line has no newline: give it one, as the byte path expects whole lines
      if (len === buf.length) buf = grown(buf, len);
      buf[len] = LF;
      line = fast.rows(buf.subarray(0, len + 1), 0, len + 1, line);
    } else parseText(rest.toString('utf8'), true);
  }
  const total = rows + (fast ? fast.count : 0);
  if (total === 0) fail('no-data-rows', { file: path }, 'the file has a header but no data rows.');
  return total;
}

// ---------------------------------------------------------------------------------------------
// JSONL

async function readJsonLines(path: string, size: number, sink: TableSink, progress?: Progress): Promise<number> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let line = 0;
  let rows = 0;
  let bytes = 0;
  let names: string[] | null = null;
  let index: Map<string, number> | null = null;

  const take = (text: string): void => {
    line++;
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return;
    if (tooDeepAt(text) >= 0) fail('json-too-deep', { file: path, line }, TOO_DEEP);
    let obj: unknown;
    try {
      obj = JSON.parse(LONG_DIGITS.test(text) ? bigIntegersAsText(text) : text);
    } catch (e) {
      fail(
        'malformed-json',
        { file: path, line },
        `expected one JSON object on this line, but it does not parse (${(e as Error).message}).`,
      );
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      fail('malformed-json', { file: path, line }, `expected a JSON object on this line, got ${describeJson(obj)}.`);
    }
    const o = obj as Record<string, Cell>;
    if (!names) {
      names = Object.keys(o);
      index = new Map(names.map((n, i) => [n, i]));
      sink.columns(names);
    }
    rows++;
    sink.row(alignObject(o, names, index!, path, line), line);
  };

  for await (const chunk of chunksOf(path)) {
    bytes += chunk.length;
    tick(progress, bytes, size);
    const text = carry + decoder.write(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      take(text.slice(start, nl));
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  const rest = carry + decoder.end();
  if (rest.length > 0) take(rest);
  if (!names) fail('empty-file', { file: path }, 'the file has no JSON rows (expected one JSON object per line).');
  if (rows === 0) fail('no-data-rows', { file: path }, 'the file has no data rows.');
  return rows;
}

function alignObject(
  o: Record<string, Cell>,
  names: string[],
  index: Map<string, number>,
  path: string,
  line: number,
): Cell[] {
  const cells: Cell[] = new Array(names.length).fill(null);
  for (const k in o) {
    const j = index.get(k);
    if (j === undefined) {
      fail(
        'unexpected-key',
        { file: path, line, column: k },
        `key "${k}" is not in the first row (expected only the keys of the first row: ${names.join(', ')}; missing keys are read as null).`,
      );
    }
    cells[j] = o[k] ?? null;
  }
  return cells;
}

function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

// ---------------------------------------------------------------------------------------------
// JSON document

const LONG_DIGITS = /\d{16}/;
const BIG_INTEGER_OR_STRING = /"(?:[^"\\]|\\.)*"|(?<![\w.+-])-?\d{16,}(?![\w.])/g;

/**
 * A JSON line with integers of 16 digits or more written as strings: `JSON.parse` would round them
 * to the nearest double (beyond 2^53 ≈ 9.0e15), so two ids such as 12345678901234567891 and
 * …892 would collide. As text an id keeps its digits; a numeric column still reads the text as
 * the same number.
 */
export function bigIntegersAsText(text: string): string {
  return text.replace(BIG_INTEGER_OR_STRING, (m) => (m.charCodeAt(0) === QUOTE ? m : `"${m}"`));
}

/**
 * Largest `.json` input read as one document. A JSON document is parsed whole (text, then every
 * row object at once: several times the file in memory); larger inputs belong in JSONL, which is
 * streamed line by line.
 */
export const MAX_JSON_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** 1-based line of a character offset in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

async function readJsonDocument(path: string, sink: TableSink, progress?: Progress): Promise<number> {
  let text: string;
  try {
    const size = (await stat(path)).size;
    if (size > MAX_JSON_DOCUMENT_BYTES) {
      fail(
        'json-too-large',
        { file: path },
        `the file is ${Math.round(size / 2 ** 20)} MB, more than the ${MAX_JSON_DOCUMENT_BYTES / 2 ** 20} MB read as one JSON document. Save the rows as JSONL (one JSON object per line, extension .jsonl), which is read line by line.`,
      );
    }
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (e instanceof EvalLensError) throw e;
    throw cannotOpen(path, e);
  }
  tick(progress, 0, text.length);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '')
    fail('empty-file', { file: path }, 'the file is empty (expected a JSON array of rows or an object of columns).');
  const deep = tooDeepAt(text);
  if (deep >= 0) fail('json-too-deep', { file: path, line: lineAt(text, deep) }, TOO_DEEP);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    // JSON.parse names a character offset; the located parser (only on this path) a line and column.
    let at: JsonSyntaxError | undefined;
    try {
      parseJsonWithLocations(text);
    } catch (e2) {
      if (e2 instanceof JsonSyntaxError) at = e2;
    }
    if (at)
      fail(
        'malformed-json',
        { file: path, line: at.line },
        `the file is not valid JSON: at line ${at.line}, column ${at.column}: ${at.message}.`,
      );
    fail('malformed-json', { file: path }, `the file is not valid JSON (${(e as Error).message}).`);
  }
  const starts = valueStartLines(text);
  if (Array.isArray(doc)) {
    if (doc.length === 0) fail('no-data-rows', { file: path }, 'the JSON array has no rows.');
    let names: string[] | null = null;
    let index: Map<string, number> | null = null;
    for (let i = 0; i < doc.length; i++) {
      const o = doc[i] as unknown;
      const line = starts[i] ?? 1;
      if (o === null || typeof o !== 'object' || Array.isArray(o)) {
        fail(
          'malformed-json',
          { file: path, line },
          `expected each element of the array to be a row object, got ${describeJson(o)}.`,
        );
      }
      if (!names) {
        names = Object.keys(o);
        index = new Map(names.map((n, j) => [n, j]));
        sink.columns(names);
      }
      sink.row(alignObject(o as Record<string, Cell>, names, index!, path, line), line);
      if ((i & 4095) === 4095) tick(progress, i, doc.length);
    }
    return doc.length;
  }
  if (doc !== null && typeof doc === 'object') {
    const cols = doc as Record<string, unknown>;
    const names = Object.keys(cols);
    if (names.length === 0) fail('no-data-rows', { file: path }, 'the JSON object has no columns.');
    let n = -1;
    for (const k of names) {
      const v = cols[k];
      if (!Array.isArray(v))
        fail(
          'malformed-json',
          { file: path, column: k },
          `expected every value of the object to be an array of column values, got ${describeJson(v)}.`,
        );
      if (n < 0) n = v.length;
      else if (v.length !== n)
        fail(
          'column-length-mismatch',
          { file: path, column: k },
          `expected ${n} values (as in column "${names[0]}"), got ${v.length}.`,
        );
    }
    if (n === 0) fail('no-data-rows', { file: path }, 'the JSON columns have no values.');
    sink.columns(names);
    const arrays = names.map((k) => cols[k] as Cell[]);
    for (let i = 0; i < n; i++) {
      const cells: Cell[] = new Array(names.length);
      for (let j = 0; j < arrays.length; j++) cells[j] = arrays[j][i] ?? null;
      sink.row(cells, starts[i] ?? 1);
      if ((i & 4095) === 4095) tick(progress, i, n);
    }
    return n;
  }
  fail(
    'malformed-json',
    { file: path },
    `expected a JSON array of row objects or an object of column arrays, got ${describeJson(doc)}.`,
  );
}

/**
 * Lines where the elements of the "row list" start, by one pass over the text tracking strings
 * and nesting: for a top-level array, its elements (depth 1); for a top-level object, the elements
 * of its first member's array (depth 2).
 */
export function valueStartLines(text: string): number[] {
  const out: number[] = [];
  let line = 1;
  let depth = 0;
  let topIsArray = false;
  let firstMember = true; // still inside the first member of a top-level object
  let expectValue = false;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) {
      line++;
      continue;
    }
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped char (never a raw newline inside JSON strings)
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === SPACE || c === TAB || c === CR) continue;
    const target = topIsArray ? depth === 1 : depth === 2 && firstMember;
    if (expectValue && target && c !== 93) {
      out.push(line);
      expectValue = false;
    }
    if (c === QUOTE) inString = true;
    else if (c === 91 || c === 123) {
      if (depth === 0) topIsArray = c === 91;
      depth++;
      if ((topIsArray && depth === 1) || (!topIsArray && depth === 2 && firstMember && c === 91)) expectValue = true;
    } else if (c === 93 || c === 125) {
      depth--;
      expectValue = false;
      if (!topIsArray && depth === 1) firstMember = false;
    } else if (c === COMMA && ((topIsArray && depth === 1) || (!topIsArray && depth === 2 && firstMember))) {
      expectValue = true;
    }
  }
  return out;
}
