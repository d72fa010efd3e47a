/**
 * Apache Parquet as a row source of {@link readTable}: the file is read one row group at a time
 * (metadata first, from the footer), and each row goes to the same {@link TableSink} as a CSV or
 * JSONL row, so every validation rule and every metric is the same whatever the format.
 *
 * Cells are given as JSON-like values, exactly as a JSONL row would give them: numbers, strings,
 * booleans, null, and arrays for list columns (`probs`, `items`). Conversions:
 * - INT64 values (read as bigint) within ±(2^53 − 1) become numbers; larger ones become their
 *   decimal text, as JSONL does for integers of 16 digits or more, so two large ids never collide.
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
  type ColumnDecoder,
  type DecodedArray,
  type FileMetaData,
  type SchemaTree,
} from 'hyparquet';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { assembleNested } from 'hyparquet/src/assemble.js';
import { CancelledError, EvalLensError, fail, type Progress } from '../diagnostics';
import { ParquetDataError, readColumnChunk, type ParquetBudget } from './parquetColumn';
import { CodecError } from './parquetCodecs';
import type { Cell, TableSink } from './tableSink';

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

/** Top-level column names of a Parquet file, in schema order. */
export function parquetColumnNames(metadata: FileMetaData): string[] {
  return parquetSchema(metadata).children.map((c) => c.element.name);
}

/** Reads the footer metadata of `path`; an error naming the file when it is not Parquet. */
export async function readParquetMetadata(path: string): Promise<FileMetaData> {
  try {
    const file = await asyncBufferFromFile(path);
    return await parquetMetadataAsync(file);
  } catch (e) {
    throw badParquet(path, e);
  }
}

/** Reads `path` row group by row group into `sink`. Returns the number of data rows. */
export async function readParquet(path: string, sink: TableSink, progress?: Progress): Promise<number> {
  let file;
  let metadata: FileMetaData;
  try {
    file = await asyncBufferFromFile(path);
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    throw badParquet(path, e);
  }
  const names = parquetColumnNames(metadata);
  if (names.length === 0)
    fail('empty-file', { file: path }, 'the Parquet file has no columns (expected a label column and class scores).');
  const total = Number(metadata.num_rows);
  if (total === 0) fail('no-data-rows', { file: path }, 'the Parquet file has columns but no data rows.');
  sink.columns(names);
  let done = 0;
  for (const group of metadata.row_groups) {
    if (progress?.isCancelled?.()) throw new CancelledError();
    const n = Number(group.num_rows);
    if (n === 0) continue;
    let rows: unknown[][] = [];
    try {
      await parquetRead({
        file,
        metadata,
        compressors,
        parsers: PARSERS,
        rowStart: done,
        rowEnd: done + n,
        onComplete: (r: unknown[][]) => {
          rows = r;
        },
      });
    } catch (e) {
      throw badParquet(path, e);
    }
    // The sink runs outside the reader's callbacks so that its errors reach the caller as thrown.
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const cells: Cell[] = new Array(names.length);
      for (let j = 0; j < names.length; j++) cells[j] = parquetCell(r[j]);
      sink.row(cells, done + i + 2);
    }
    done += n;
    progress?.report?.('reading', done, total);
  }
  return done;
}
