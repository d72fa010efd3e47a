/**
 * Apache Parquet as a row source of {@link readTable}: the file is read one row group at a time
 * (metadata first, from the footer), and each row goes to the same {@link TableSink} as a CSV or
 * JSONL row, so every validation rule and every metric is the same whatever the format.
 *
 * Cells are given as JSON-like values, exactly as a JSONL row would give them: numbers, strings,
 * booleans, null, and arrays for list columns (`probs`, `items`). Conversions:
 * - INT64 values (read as bigint) within ±(2^53 − 1) become numbers; larger ones become their
 *   decimal text, as JSONL does for integers of 16 digits or more, so two large ids never collide.
 *   A DECIMAL of scale 0 (up to 38 digits) is read as an exact integer the same way
 *   (parquetColumn.ts); a DECIMAL with a scale is a number.
 * - Timestamps and dates become ISO 8601 text (every digit of a microsecond or nanosecond unit
 *   kept, so that two timestamps a microsecond apart stay distinct); byte arrays without a string annotation are read
 *   as UTF-8 text.
 *
 * Locations: a Parquet file has no lines. Rows are located as if the schema were line 1, so data
 * row N (1-based) is at `line` N + 1, and messages say "row N" (see `where` in diagnostics).
 *
 * Reader: hyparquet (pure JavaScript, no native code); codecs beyond snappy (gzip, zstd, brotli,
 * lz4) from hyparquet-compressors.
 */
import { open, stat } from 'node:fs/promises';
import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  type DecodedArray,
  type FileMetaData,
  type SchemaTree,
} from 'hyparquet';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { assembleNested } from 'hyparquet/src/assemble.js';
import { CancelledError, EvalLensError, fail, type Progress } from '../diagnostics';
import { readColumnChunk, type ColumnDecoder, type ParquetBudget } from './parquetColumn';
import type { Cell } from '../data/textColumn';
import type { TableSink } from './tableSink';

/** Bounds on what a file may declare (SECURITY.md): so many rows and values per byte of the file. */
export const PARQUET_LIMITS = {
  /** Rows, and values decoded from all pages, per byte of the file. */
  perByte: 1024,
  /** Bytes once decompressed: this many, or `perByte` per byte of the file if more. */
  minDecompressed: 64 * 2 ** 20,
  /** Levels of nesting of the schema (as for JSON). */
  depth: 1000,
} as const;

const REASON = 'expected an Apache Parquet file with a "PAR1" footer and readable pages';

/** Why a file could not be read as Parquet, as an error naming the file. */
function badParquet(path: string, e: unknown): EvalLensError {
  if (e instanceof EvalLensError || e instanceof CancelledError) return e as EvalLensError;
  const why = e instanceof Error ? e.message : String(e);
  return new EvalLensError('bad-parquet', `${path}: cannot read the file as Parquet (${REASON}): ${why}.`, {
    file: path,
  });
}

/** A file that is Parquet but declares something impossible or out of bounds. */
function badContent(path: string, what: string): never {
  return fail('bad-parquet', { file: path }, `the Parquet file ${what}.`);
}

/** A Parquet value as a table cell (see the module comment for the rules). */
export function parquetCell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
    default:
      break;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
  if (Array.isArray(v)) return v.map(parquetCell);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number | bigint>, parquetCell);
  if (typeof v === 'object') {
    const out: { [k: string]: Cell } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = parquetCell(x);
    return out;
  }
  return String(v);
}

/**
 * ISO 8601 text of a timestamp of `units` per second since the epoch (bigint), with every digit of
 * its unit (`…:00.001002Z` for microseconds, 9 digits for nanoseconds), so that timestamps a
 * microsecond or a nanosecond apart stay distinct and the texts of a column sort in time order.
 * Null when out of the range of a Date.
 */
export function isoTimestamp(t: bigint, units: bigint): string | null {
  const perMs = units / 1000n;
  let ms = t / perMs;
  let sub = t % perMs;
  if (sub < 0n) {
    ms -= 1n;
    sub += perMs;
  }
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) return null;
  const digits = sub.toString().padStart(perMs.toString().length - 1, '0');
  return `${d.toISOString().slice(0, -1)}${digits}Z`;
}

/** Timestamps below the millisecond as exact text (hyparquet's default cuts them to a Date). */
const PARSERS = {
  timestampFromMicroseconds: (t: bigint) => isoTimestamp(t, 1_000_000n),
  timestampFromNanoseconds: (t: bigint) => isoTimestamp(t, 1_000_000_000n),
};

/** A file's footer, checked: the schema as a tree, its leaf columns, the file's size. */
export interface ParquetFile {
  metadata: FileMetaData;
  /** The schema's root; its children are the top-level columns. */
  schema: SchemaTree;
  /** Each leaf column's path from the root (root first), in schema order: one column chunk a leaf. */
  leaves: SchemaTree[][];
  size: number;
  path: string;
}

/**
 * The schema as a tree, built without recursion and checked: every group has the children it
 * declares, no element is left over, nesting is at most {@link PARQUET_LIMITS.depth} levels.
 */
function schemaTree(path: string, metadata: FileMetaData): { schema: SchemaTree; leaves: SchemaTree[][] } {
  const elements = metadata.schema;
  if (elements.length === 0) badContent(path, 'has an empty schema (expected a root element and its columns)');
  const children = (i: number): number => {
    const n = elements[i]!.num_children ?? 0;
    if (!Number.isSafeInteger(n) || n < 0)
      badContent(path, `schema element "${elements[i]!.name}" declares ${n} children (expected a count)`);
    return n;
  };
  const schema: SchemaTree = { element: elements[0]!, children: [], count: 1, path: [] };
  const leaves: SchemaTree[][] = [];
  const stack: { node: SchemaTree; left: number }[] = [{ node: schema, left: children(0) }];
  let i = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.left === 0) {
      stack.pop();
      if (stack.length > 0) stack[stack.length - 1]!.node.count += top.node.count;
      continue;
    }
    if (i >= elements.length)
      badContent(
        path,
        `schema element "${top.node.element.name}" declares ${top.node.element.num_children} children but the schema ends after ${top.node.children.length}`,
      );
    const element = elements[i]!;
    const n = children(i);
    i++;
    top.left--;
    const node: SchemaTree = { element, children: [], count: 1, path: [...top.node.path, element.name] };
    top.node.children.push(node);
    if (n > 0) {
      if (stack.length >= PARQUET_LIMITS.depth)
        badContent(path, `nests its schema more than ${PARQUET_LIMITS.depth} levels deep`);
      stack.push({ node, left: n });
    } else leaves.push([...stack.map((s) => s.node), node]);
  }
  if (i < elements.length)
    badContent(
      path,
      `has ${elements.length - i} schema elements after the ${schema.children.length} columns its root declares`,
    );
  return { schema, leaves };
}

/** A count read from the footer, as a number; an error when it is not a count. */
function footerCount(path: string, v: unknown, what: string): number {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) badContent(path, `declares ${String(v)} as ${what}`);
  return n;
}

/**
 * The footer of `path`, checked against the file's size and the bounds before any row is read:
 * the schema (see {@link schemaTree}); the row groups' rows add up to the file's, at most
 * {@link PARQUET_LIMITS.perByte} a byte of the file; each row group has one column chunk per leaf
 * column, inside the file.
 */
async function openParquet(path: string): Promise<ParquetFile> {
  let metadata: FileMetaData;
  let size: number;
  try {
    size = (await stat(path)).size;
    metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
  } catch (e) {
    throw badParquet(path, e);
  }
  const { schema, leaves } = schemaTree(path, metadata);
  const rows = footerCount(path, metadata.num_rows, 'its number of rows');
  const maxRows = PARQUET_LIMITS.perByte * size;
  if (rows > maxRows)
    badContent(
      path,
      `declares ${rows} rows in ${size} bytes (at most ${PARQUET_LIMITS.perByte} rows a byte of the file: ${maxRows})`,
    );
  const dataEnd = size - 8 - (metadata.metadata_length ?? 0);
  let sum = 0;
  metadata.row_groups.forEach((group, g) => {
    const where = `row group ${g + 1}`;
    sum += footerCount(path, group.num_rows, `the rows of ${where}`);
    if (group.columns.length !== leaves.length)
      badContent(
        path,
        `has ${group.columns.length} column chunks in ${where}, expected ${leaves.length} (one a column)`,
      );
    group.columns.forEach((chunk, j) => {
      const meta = chunk.meta_data;
      const name = leaves[j]!.slice(1)
        .map((n) => n.element.name)
        .join('.');
      if (!meta || chunk.file_path) badContent(path, `keeps column "${name}" of ${where} outside the file`);
      if (meta.path_in_schema.join('.') !== name)
        badContent(
          path,
          `has column chunk "${meta.path_in_schema.join('.')}" in ${where} where the schema has "${name}"`,
        );
      const start = footerCount(
        path,
        meta.dictionary_page_offset || meta.data_page_offset,
        `the offset of column "${name}"`,
      );
      const length = footerCount(path, meta.total_compressed_size, `the size of column "${name}"`);
      if (start + length > dataEnd)
        badContent(
          path,
          `places column "${name}" of ${where} at bytes ${start}–${start + length}, past the end of its data (${dataEnd})`,
        );
    });
  });
  if (sum !== rows) badContent(path, `declares ${rows} rows but its row groups hold ${sum}`);
  return { metadata, schema, leaves, size, path };
}

/** Top-level column names of a Parquet file, in schema order. */
export function parquetColumnNames(metadata: FileMetaData): string[] {
  return metadata.schema.length === 0 ? [] : schemaTree('', metadata).schema.children.map((c) => c.element.name);
}

/** Reads the footer metadata of `path`, checked; an error naming the file when it is not Parquet or is out of bounds. */
export async function readParquetMetadata(path: string): Promise<FileMetaData> {
  return (await openParquet(path)).metadata;
}

/**
 * An open file read forward in windows of at least {@link WINDOW} bytes, so that many small row
 * groups cost one read per window, not one each.
 */
class FileWindow {
  private buf = new Uint8Array(0);
  private start = 0;
  constructor(
    private readonly file: Awaited<ReturnType<typeof open>>,
    private readonly end: number,
  ) {}

  /** The bytes [a, b) of the file (a view into the window). */
  async bytes(a: number, b: number): Promise<Uint8Array> {
    if (a < this.start || b > this.start + this.buf.length) {
      const to = Math.max(b, Math.min(this.end, a + WINDOW));
      const buf = Buffer.allocUnsafe(to - a);
      let at = 0;
      while (at < buf.length) {
        const { bytesRead } = await this.file.read(buf, at, buf.length - at, a + at);
        if (bytesRead === 0) throw new Error('the file ended early (was it changed while being read?)');
        at += bytesRead;
      }
      this.buf = buf;
      this.start = a;
    }
    return this.buf.subarray(a - this.start, b - this.start);
  }
}
const WINDOW = 16 * 2 ** 20;

/**
 * The top-level columns of one row group, one value a row each: its column chunks read in one
 * pass, each decoded by {@link readColumnChunk}, nested columns assembled by hyparquet.
 */
async function readRowGroup(
  pq: ParquetFile,
  file: FileWindow,
  g: number,
  budget: ParquetBudget,
): Promise<DecodedArray[]> {
  const group = pq.metadata.row_groups[g]!;
  const rows = Number(group.num_rows);
  const ranges = group.columns.map((c) => {
    const start = Number(c.meta_data!.dictionary_page_offset || c.meta_data!.data_page_offset);
    return [start, start + Number(c.meta_data!.total_compressed_size)] as const;
  });
  let lo = Infinity;
  let hi = 0;
  for (const [a, b] of ranges) {
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  }
  const bytes = ranges.length > 0 ? await file.bytes(lo, hi) : new Uint8Array(0);
  const parsers = { ...DEFAULT_PARSERS, ...PARSERS };
  const leafData = new Map<string, DecodedArray>();
  group.columns.forEach((chunk, j) => {
    const meta = chunk.meta_data!;
    const schemaPath = pq.leaves[j]!;
    const decoder: ColumnDecoder = {
      pathInSchema: meta.path_in_schema,
      element: schemaPath[schemaPath.length - 1]!.element,
      schemaPath,
      type: meta.type,
      codec: meta.codec,
      parsers,
    };
    const [a, b] = ranges[j]!;
    const name = meta.path_in_schema.join('.');
    let chunks: DecodedArray[];
    try {
      chunks = readColumnChunk(bytes.subarray(a - lo, b - lo), decoder, rows, budget);
    } catch (e) {
      if (e instanceof CancelledError || e instanceof EvalLensError) throw e;
      const why = e instanceof Error ? e.message : String(e);
      return fail('bad-parquet', { file: pq.path }, `column "${name}" of row group ${g + 1}: ${why}.`);
    }
    const values = chunks.length === 1 ? chunks[0]! : concat(chunks);
    if (values.length !== rows && pq.leaves[j]!.length === 2)
      fail(
        'bad-parquet',
        { file: pq.path },
        `column "${name}" of row group ${g + 1} holds ${values.length} values, but the row group declares ${rows} rows.`,
      );
    leafData.set(name, values);
  });
  return pq.schema.children.map((child) => {
    if (child.children.length > 0) assembleNested(leafData, child, parsers);
    const values = leafData.get(child.element.name) ?? [];
    if (values.length !== rows)
      fail(
        'bad-parquet',
        { file: pq.path },
        `column "${child.element.name}" of row group ${g + 1} holds ${values.length} rows, but the row group declares ${rows}.`,
      );
    return values;
  });
}

function concat(chunks: DecodedArray[]): DecodedArray {
  const out: unknown[] = [];
  for (const c of chunks) for (let i = 0; i < c.length; i++) out.push(c[i]);
  return out as DecodedArray;
}

/**
 * Reads `path` row group by row group into `sink`. Returns the number of data rows. Every size
 * the file declares is checked before it is used ({@link openParquet}, parquetColumn.ts), and the
 * work is linear in the row groups and the columns.
 */
export async function readParquet(path: string, sink: TableSink, progress?: Progress): Promise<number> {
  const pq = await openParquet(path);
  const names = pq.schema.children.map((c) => c.element.name);
  if (names.length === 0)
    fail('empty-file', { file: path }, 'the Parquet file has no columns (expected a label column and class scores).');
  const total = Number(pq.metadata.num_rows);
  if (total === 0) fail('no-data-rows', { file: path }, 'the Parquet file has columns but no data rows.');
  const values = PARQUET_LIMITS.perByte * pq.size;
  const bytes = Math.max(PARQUET_LIMITS.minDecompressed, PARQUET_LIMITS.perByte * pq.size);
  const budget: ParquetBudget = {
    values,
    bytes,
    valuesLimit: `${PARQUET_LIMITS.perByte} values a byte of the file: ${values}`,
    bytesLimit: `${bytes} bytes`,
  };
  sink.columns(names);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw badParquet(path, e);
  }
  const file = new FileWindow(handle, pq.size);
  let done = 0;
  try {
    for (let g = 0; g < pq.metadata.row_groups.length; g++) {
      if (progress?.isCancelled?.()) throw new CancelledError();
      const n = Number(pq.metadata.row_groups[g]!.num_rows);
      if (n === 0) continue;
      let columns: DecodedArray[];
      try {
        columns = await readRowGroup(pq, file, g, budget);
      } catch (e) {
        throw badParquet(path, e);
      }
      // The sink runs outside the reader's try so that its errors reach the caller as they are.
      for (let i = 0; i < n; i++) {
        const cells: Cell[] = new Array(names.length);
        for (let j = 0; j < names.length; j++) cells[j] = parquetCell(columns[j]![i]);
        sink.row(cells, done + i + 2);
      }
      done += n;
      progress?.report?.('reading', done, total);
    }
  } finally {
    await handle.close();
  }
  return done;
}
