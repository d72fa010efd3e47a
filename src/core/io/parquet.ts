/**
 * Apache Parquet as a row source of {@link readTable}: the file is read one row group at a time
 * (metadata first, from the footer), and each row goes to the same {@link TableSink} as a CSV or
 * JSONL row, so every validation rule and every metric is the same whatever the format.
 *
 * Cells are given as JSON-like values, exactly as a JSONL row would give them: numbers, strings,
 * booleans, null, and arrays for list columns (`probs`, `items`). Conversions:
 * - INT64 values (read as bigint) within ±(2^53 − 1) become numbers; larger ones become their
 *   decimal text, as JSONL does for integers of 16 digits or more, so two large ids never collide.
 * - Timestamps and dates become ISO 8601 text; byte arrays without a string annotation are read
 *   as UTF-8 text.
 *
 * Locations: a Parquet file has no lines. Rows are located as if the schema were line 1, so data
 * row N (1-based) is at `line` N + 1, and messages say "row N" (see `where` in diagnostics).
 *
 * Reader: hyparquet (pure JavaScript, no native code); codecs beyond snappy (gzip, zstd, brotli,
 * lz4) from hyparquet-compressors.
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { CancelledError, EvalLensError, fail, type Progress } from '../diagnostics';
import type { Cell, TableSink } from './tableSink';

/** Why a file could not be read as Parquet, as an error naming the file. */
function badParquet(path: string, e: unknown): EvalLensError {
  if (e instanceof EvalLensError || e instanceof CancelledError) return e as EvalLensError;
  const why = e instanceof Error ? e.message : String(e);
  return new EvalLensError(
    'bad-parquet',
    `${path}: cannot read the file as Parquet (expected an Apache Parquet file with a "PAR1" footer and readable pages): ${why}.`,
    { file: path },
  );
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
